// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the socket asks the engine (engine.h), on the loop thread: the
 * headers it knows, and an editor's buffer classified, split, installed
 * or compared with the installed API, with the markers and the install
 * plan in effect now.  Plain results; the socket's methods make the JSON.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine-int.h"
#include "uapid/api/api.h"
#include "uapid/history/apiquery.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

/* --- the headers ----------------------------------------------------------------- */

static void
fill_header(const char *path, const struct hstate *h, struct ud_engine_header *out)
{
	out->path = path;
	out->outcome = outcome_name(h->outcome);
	out->blob = h->blob;
	out->exported = h->exported;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
ud_engine_each_header(struct ud_engine *e, const char *prefix,
		      int (*fn)(const struct ud_engine_header *h, void *ctx), void *ctx)
{
	const char **keys = ud_xcalloc(e->headers.n + 1, sizeof(*keys));
	const char *k;
	size_t i = 0, n = 0, plen = prefix != NULL ? strlen(prefix) : 0;
	int stop = 0;

	while (ud_map_next(&e->headers, &i, &k, NULL))
		if (plen == 0 || strncmp(k, prefix, plen) == 0)
			keys[n++] = k;
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n && stop == 0; i++) {
		struct ud_engine_header h;

		fill_header(keys[i], ud_map_get(&e->headers, keys[i]), &h);
		stop = fn(&h, ctx);
	}
	free(keys);
	return stop;
}

int
ud_engine_header(struct ud_engine *e, const char *path, struct ud_engine_header *h)
{
	const struct hstate *s = ud_map_get(&e->headers, path);

	if (s == NULL)
		return 0;
	fill_header(path, s, h);
	return 1;
}

/* --- an editor's buffer ---------------------------------------------------------------- */

/* What a query reads (engine.h): a snapshot of the markers and the plan, and the index's answer. */
struct ud_engine_query {
	struct engine_snap *snap;
	bool exported;
};

struct ud_engine_query *
ud_engine_query_take(struct ud_engine *e, const char *path)
{
	struct ud_engine_query *q = ud_xcalloc(1, sizeof(*q));

	q->snap = ud_engine_snap_take(e);
	q->snap->plan = ud_engine_plan_ref(e->plan);
	q->exported = ud_tindex_exported(e->idx, path);
	return q;
}

void
ud_engine_query_free(struct ud_engine_query *q)
{
	if (q == NULL)
		return;
	ud_engine_snap_unref(q->snap);
	free(q);
}

static int
query_text(const struct ud_engine_query *q, const char *path, const char *text, size_t len,
	   struct ud_buf *out, char **cause)
{
	if (text != NULL) {
		ud_buf_add(out, text, len);
		return 0;
	}
	return ud_source_read(q->snap->src, path, out, cause);
}

int
ud_engine_query_classify(const struct ud_engine_query *q, const char *path, const char *text,
			 size_t len, struct ud_buf *bytes, struct ud_classified *out, char **cause)
{
	const struct ud_marker **mk = NULL;
	size_t n;
	int rc;

	if ((rc = query_text(q, path, text, len, bytes, cause)) < 0)
		return rc;
	n = ud_markers_for(&q->snap->markers->set, path, &mk);
	ud_classify(ud_buf_str(bytes), bytes->len, mk, n, out);
	free(mk);
	return 0;
}

int
ud_engine_classify(struct ud_engine *e, const char *path, const char *text, size_t len,
		   struct ud_buf *bytes, struct ud_classified *out, char **cause)
{
	struct ud_engine_query *q = ud_engine_query_take(e, path);
	int rc = ud_engine_query_classify(q, path, text, len, bytes, out, cause);

	ud_engine_query_free(q);
	return rc;
}

/* text installed at include name dst by the tree's rules, into *in. */
static void
install_text(struct ud_engine *e, const char *src, const char *dst, const char *text, size_t len,
	     struct ud_installed *in)
{
	struct ud_hdr_file f;

	memset(&f, 0, sizeof(f));
	f.dst = (char *)(uintptr_t)dst;
	f.src = (char *)(uintptr_t)src;
	f.generated = true; /* the text is given: not read from the tree */
	ud_buf_add(&f.gen, text, len);
	ud_headers_install_file(&e->plan->plan, &f, &e->src, in);
	ud_buf_free(&f.gen);
}

/* The preview's installed part: the uapi text at src, when the tree installs. */
static void
preview_install(const struct ud_engine_query *q, struct ud_engine_preview *p, const char *src,
		const char *text, size_t len)
{
	struct ud_hdr_file f;

	if (q->snap->plan == NULL)
		return;
	p->has_installed = true;
	p->installed_path = ud_xstrdup(ud_path_include_name(src) + strlen("uapi/"));
	memset(&f, 0, sizeof(f));
	f.dst = p->installed_path;
	f.src = (char *)(uintptr_t)src;
	f.generated = true; /* the text is given: not read from the tree */
	ud_buf_add(&f.gen, text, len);
	ud_headers_install_file(&q->snap->plan->plan, &f, q->snap->src, &p->installed);
	ud_buf_free(&f.gen);
}

int
ud_engine_query_preview(const struct ud_engine_query *q, const char *path, const char *text,
			size_t len, struct ud_engine_preview *p, char **cause)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (ud_path_include_name(path) == NULL) {
		*cause = ud_xasprintf("%s: not a header under include/ or arch/*/include/", path);
		return -EINVAL;
	}
	if ((rc = query_text(q, path, text, len, &p->text, cause)) < 0)
		return rc;
	if (ud_path_is_uapi(path)) {
		/* a uapi header: nothing to split; installed as it is */
		p->uapi = true;
		p->outcome = "uapi";
		p->uapi_path = path;
		p->uapi_text = ud_buf_str(&p->text);
		p->diags = &p->none;
		preview_install(q, p, path, ud_buf_str(&p->text), p->text.len);
		return 0;
	}
	ud_hsplit_compute_text(path, ud_buf_str(&p->text), p->text.len, &q->snap->markers->set,
			       &p->h);
	p->outcome = ud_split_outcome_name(p->h.res.outcome);
	p->exported = q->exported;
	p->kernel = p->h.res.outcome == UD_SPLIT_SPLIT ? ud_buf_str(&p->h.res.kernel) : NULL;
	p->uapi_path = p->h.twin;
	p->diags = &p->h.res.diags;
	if (ud_hsplit_moves(&p->h)) {
		p->uapi_text = ud_buf_str(&p->h.res.uapi);
		preview_install(q, p, p->h.twin, p->uapi_text, p->h.res.uapi.len);
	}
	return 0;
}

int
ud_engine_preview(struct ud_engine *e, const char *path, const char *text, size_t len,
		  struct ud_engine_preview *p, char **cause)
{
	struct ud_engine_query *q = ud_engine_query_take(e, path);
	int rc = ud_engine_query_preview(q, path, text, len, p, cause);

	ud_engine_query_free(q);
	return rc;
}

void
ud_engine_preview_free(struct ud_engine_preview *p)
{
	if (!p->uapi && p->outcome != NULL)
		ud_hsplit_free(&p->h);
	if (p->has_installed)
		ud_installed_free(&p->installed);
	free(p->installed_path);
	ud_buf_free(&p->text);
	memset(p, 0, sizeof(*p));
}

/* The old side of an editor's buffer: 1 with *out, 0 when there is none (the header is new). */
static int
api_base_text(struct ud_engine *e, const struct ud_hdr_file *f,
	      const struct ud_engine_api_base *base, struct ud_buf *out)
{
	struct ud_installed in;
	int rc = 0;

	if (!base->given)
		return ud_store_api_version_at(e->store, f->dst, INT64_MAX, NULL, out) == 0;
	if (base->text == NULL)
		return 0;
	/* installed by today's rules: what changed is the header, not how it is installed */
	install_text(e, f->src, f->dst, base->text, base->len, &in);
	if (in.ok) {
		ud_buf_add(out, ud_buf_str(&in.text), in.text.len);
		rc = 1;
	}
	ud_installed_free(&in);
	return rc;
}

int
ud_engine_api_text(struct ud_engine *e, const char *path, const char *text, size_t len,
		   const struct ud_engine_api_base *base, struct ud_api_diff *diff,
		   char **installed, char **cause)
{
	char *name = ud_apiquery_installed_name(path);
	const struct ud_hdr_file *f = NULL;
	struct ud_installed in;
	struct ud_buf prev = UD_BUF_INIT;
	struct ud_api_header o, n;
	bool had;
	size_t i;

	memset(diff, 0, sizeof(*diff));
	*installed = NULL;
	if (name != NULL && e->plan != NULL)
		f = ud_headers_plan_source(&e->plan->plan, path);
	free(name);
	if (f == NULL) {
		*cause = ud_xasprintf("invalid params: \"path\" %s is not a header this tree "
				      "installs (yet: a new one counts once it is saved)",
				      path);
		return -EINVAL;
	}
	/* the buffer installed as the tree's rules install the file */
	install_text(e, f->src, f->dst, text, len, &in);
	if (!in.ok) {
		*cause = ud_xasprintf("%s: cannot be installed: %s", path,
				      in.diags.n > 0 ? in.diags.v[0].message : "unknown reason");
		ud_installed_free(&in);
		return -EINVAL;
	}
	had = api_base_text(e, f, base, &prev) == 1;
	if (had)
		ud_api_parse(f->dst, prev.data, prev.len, &o);
	ud_api_parse(f->dst, ud_buf_str(&in.text), in.text.len, &n);
	ud_api_diff_changed(&(struct ud_api_pair){had ? &o : NULL, &n}, 1, NULL, diff);
	/* the editor's lines: installed lines mapped back to the buffer's */
	for (i = 0; i < diff->n; i++) {
		unsigned l = diff->v[i].new_line;

		diff->v[i].new_line = l > 0 && l <= in.map.n ? in.map.v[l - 1] : 0;
		diff->v[i].old_line = 0;
	}
	*installed = ud_xstrdup(f->dst);
	if (had)
		ud_api_header_free(&o);
	ud_api_header_free(&n);
	ud_installed_free(&in);
	ud_buf_free(&prev);
	return 0;
}
