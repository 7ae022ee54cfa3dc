// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One header's split: compute, apply, and its directory's export lists
 * (see hsplit.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/io/hsplit.h"
#include "uapid/io/kbuild.h"
#include "uapid/util/map.h"
#include "uapid/util/path.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

static void
compute(struct ud_hsplit *h, const struct ud_markers *set)
{
	h->nmarkers = set != NULL ? ud_markers_for(set, h->path, &h->markers) : 0;
	ud_split(h->path, ud_buf_str(&h->input), h->input.len, h->markers, h->nmarkers, &h->res);
}

static void
start(struct ud_hsplit *h, const char *path)
{
	memset(h, 0, sizeof(*h));
	h->path = ud_xstrdup(path);
	h->twin = ud_path_uapi_twin(path);
}

void
ud_hsplit_compute(struct ud_source *src, const char *path, const struct ud_markers *set,
		  struct ud_hsplit *out)
{
	char *cause = NULL;

	start(out, path);
	if (ud_source_read(src, path, &out->input, &cause) < 0) {
		memset(&out->res, 0, sizeof(out->res));
		out->res.outcome = UD_SPLIT_REFUSED;
		ud_diags_add(&out->res.diags, 0, UD_SEV_ERROR, "%s", cause);
		out->unreadable = true;
		free(cause);
		return;
	}
	compute(out, set);
}

void
ud_hsplit_compute_text(const char *path, const char *text, size_t len, const struct ud_markers *set,
		       struct ud_hsplit *out)
{
	start(out, path);
	ud_buf_add(&out->input, text, len);
	compute(out, set);
}

void
ud_hsplit_free(struct ud_hsplit *h)
{
	if (h == NULL)
		return;
	ud_split_result_free(&h->res);
	ud_buf_free(&h->input);
	free(h->markers);
	free(h->path);
	free(h->twin);
	memset(h, 0, sizeof(*h));
}

bool
ud_hsplit_moves(const struct ud_hsplit *h)
{
	return h->res.outcome == UD_SPLIT_SPLIT || h->res.outcome == UD_SPLIT_MOVED;
}

int
ud_hsplit_apply(struct ud_sink *sink, const struct ud_hsplit *h, bool remove_moved, char **cause)
{
	const struct ud_split_result *r = &h->res;
	struct ud_buf old = UD_BUF_INIT;
	int rc, had = 1;

	if (!ud_hsplit_moves(h))
		return 0;
	if (r->outcome == UD_SPLIT_SPLIT && (had = ud_sink_read(sink, h->twin, &old, cause)) < 0)
		return had;
	/* the uapi header first: a kernel header never includes a file that is not there */
	rc = ud_sink_write(sink, h->twin, ud_buf_str(&r->uapi), r->uapi.len, cause);
	if (rc >= 0 && r->outcome == UD_SPLIT_SPLIT) {
		rc = ud_sink_write(sink, h->path, ud_buf_str(&r->kernel), r->kernel.len, cause);
		if (rc < 0 && had == 0) /* no half split left behind: the old twin comes back */
			ud_sink_write(sink, h->twin, ud_buf_str(&old), old.len, NULL);
		else if (rc < 0)
			ud_sink_remove(sink, h->twin, NULL);
	}
	ud_buf_free(&old);
	if (rc < 0 || r->outcome == UD_SPLIT_SPLIT)
		return rc < 0 ? rc : 0;
	if (remove_moved)
		return ud_sink_remove(sink, h->path, cause);
	return 0;
}

/* Reads an export list; a missing one is not an error (existed stays false). */
static int
load(struct ud_source *src, struct ud_kbuild_edit *e, const char *rel, struct ud_diags *diags)
{
	char *cause = NULL;

	memset(e, 0, sizeof(*e));
	e->rel = ud_xstrdup(rel);
	if (ud_source_type(src, rel) == UD_FT_NONE)
		return 0;
	if (ud_source_read(src, rel, &e->old, &cause) < 0) {
		ud_diags_add_at(diags, rel, 0, UD_SEV_ERROR, "%s", cause);
		free(cause);
		return -EIO;
	}
	e->existed = true;
	ud_buf_add(&e->text, ud_buf_str(&e->old), e->old.len);
	return 0;
}

/* Adds the names the export list text (and the lists it includes, read from src) exports. */
static void
add_exports(struct ud_source *src, const char *rel, const char *text, size_t len,
	    struct ud_map *exported, struct ud_diags *diags)
{
	struct ud_kbuild kb = UD_KBUILD_INIT;
	size_t i;

	ud_kbuild_load(src, rel, text, len, &kb, NULL, diags);
	for (i = 0; i < kb.n; i++)
		ud_map_put(exported, kb.v[i].name, NULL);
	ud_kbuild_free(&kb);
}

static bool
differs(const struct ud_kbuild_edit *e)
{
	return !e->existed || e->text.len != e->old.len ||
	       memcmp(ud_buf_str(&e->text), ud_buf_str(&e->old), e->old.len) != 0;
}

int
ud_hsplit_kbuilds(struct ud_source *src, const char *dir, const struct ud_strlist *names,
		  struct ud_kbuild_edit *kside, struct ud_kbuild_edit *uside,
		  struct ud_diags *diags)
{
	char *krel = ud_xasprintf("%s/Kbuild", dir), *probe = ud_xasprintf("%s/x.h", dir);
	char *twin = ud_path_uapi_twin(probe), *udir, *urel;
	struct ud_buf *moved = ud_xcalloc(names->n + 1, sizeof(*moved));
	struct ud_map exported = UD_MAP_INIT; /* what the uapi list exports so far */
	size_t i;
	int rc;

	udir = twin != NULL ? ud_path_dir(twin) : ud_xasprintf("%s/uapi", dir);
	urel = ud_xasprintf("%s/Kbuild", udir);
	rc = load(src, kside, krel, diags);
	if (load(src, uside, urel, diags) < 0)
		rc = -EIO;
	if (!uside->existed)
		ud_buf_addstr(&uside->text, UD_KBUILD_UAPI_HEADER);
	if (rc == 0) {
		/* one pass over each list, whatever the number of names (a quadratic loop was 50 s)
		 */
		if (kside->existed) {
			struct ud_buf out = UD_BUF_INIT;

			ud_kbuild_remove_all(kside->text.data, kside->text.len,
					     (const char *const *)names->v, names->n, &out, moved);
			ud_buf_free(&kside->text);
			kside->text = out;
		}
		add_exports(src, urel, ud_buf_str(&uside->text), uside->text.len, &exported, diags);
	}
	for (i = 0; rc == 0 && i < names->n; i++) {
		const char *name = names->v[i];

		if (moved[i].len == 0)
			ud_buf_addf(&moved[i], "header-y += %s\n", name);
		if (ud_map_has(&exported, name))
			continue;
		ud_kbuild_append(&uside->text, ud_buf_str(&moved[i]));
		add_exports(src, urel, ud_buf_str(&moved[i]), moved[i].len, &exported, diags);
	}
	kside->changed = kside->existed && differs(kside);
	uside->changed = names->n > 0 && differs(uside);
	for (i = 0; i < names->n; i++)
		ud_buf_free(&moved[i]);
	free(moved);
	ud_map_free(&exported, NULL);
	free(krel);
	free(probe);
	free(twin);
	free(udir);
	free(urel);
	return rc;
}

void
ud_kbuild_edit_free(struct ud_kbuild_edit *e)
{
	if (e == NULL)
		return;
	free(e->rel);
	ud_buf_free(&e->text);
	ud_buf_free(&e->old);
	memset(e, 0, sizeof(*e));
}
