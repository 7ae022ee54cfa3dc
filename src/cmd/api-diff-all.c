// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-diff --arch all OLD NEW: the verdicts of every architecture,
 * each read at its ABIs (abi.h's table), in one report.  A change that is
 * the same on every ABI compared is said once; one that is not says where
 * ("on i386 arm powerpc", or "all but x86_64 arm64" when that is
 * shorter); the summary is per architecture.
 *
 * OLD and NEW are kernel trees or REPO:REV (installed in memory for each
 * architecture, as `uapid install --arch ARCH` would), or directories
 * that `uapid install --arch all` wrote (ARCH/include/ for each).  An
 * architecture one of them lacks is named as not compared (one neither
 * has, of older or newer trees, is not named).  Each
 * architecture is read once; its other ABIs read a copy of the models.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

#define MAX_ABIS 64

/* One change as a report line, and the ABIs it was found on. */
struct merged {
	json_t *json; /* the change as --json gives it for one ABI (the key) */
	char *line;   /* the same as a text line */
	char *header, *symbol;
	bool on[MAX_ABIS];
};

struct all_run {
	const struct ud_abi *abis[MAX_ABIS]; /* compared, in table order */
	size_t nabis;
	struct ud_map by_key; /* compact JSON of a change -> struct merged */
	struct merged **v;
	size_t n, alloc;
	json_t *archs, *skipped;     /* per architecture: its ABIs and summaries; not compared */
	struct ud_buf summary;	     /* the text of the per-architecture lines */
	struct ud_api_models *known; /* every text parsed once, whatever its architectures */
};

/*
 * Where arch's headers of spec are read from: spec itself (a kernel tree
 * with arch/ARCH, or REPO:REV), spec/ARCH (an install --arch all), or NULL
 * (*why says why).
 */
static char *
spec_for(const char *spec, const char *arch, const char **why)
{
	char *p;

	if (!ud_is_dir(spec))
		return ud_xstrdup(spec); /* REPO:REV: its install says */
	p = ud_xasprintf("%s/%s/include", spec, arch);
	if (ud_is_dir(p)) {
		free(p);
		return ud_xasprintf("%s/%s", spec, arch);
	}
	free(p);
	p = ud_xasprintf("%s/arch/%s", spec, arch);
	if (ud_is_dir(p)) {
		free(p);
		return ud_xstrdup(spec);
	}
	free(p);
	*why = "no such architecture";
	return NULL;
}

/* The text line of a change: its place, verdict, symbol, reason and, unless compatible, axes. */
static char *
change_line(const struct ud_api_change *c)
{
	unsigned line = c->new_line != 0 ? c->new_line : c->old_line;
	const char *kind = ud_api_kind_shown(ud_api_kind_name(c->kind), c->symbol);
	struct ud_buf b = UD_BUF_INIT;

	ud_buf_addf(&b, "%s:%u: %s: ", c->header, line, ud_api_verdict_name(c->verdict));
	if (c->symbol[0] != '\0')
		ud_buf_addf(&b, "%s%s%s: ", kind, kind[0] ? " " : "", c->symbol);
	ud_buf_addstr(&b, c->reason);
	if (c->verdict != UD_API_COMPATIBLE)
		ud_buf_addf(&b, " [binary: %s, source: %s]",
			    c->axis[UD_API_BINARY] != UD_API_COMPATIBLE
				    ? ud_api_verdict_name(c->axis[UD_API_BINARY])
				    : "ok",
			    c->axis[UD_API_SOURCE] != UD_API_COMPATIBLE
				    ? ud_api_verdict_name(c->axis[UD_API_SOURCE])
				    : "ok");
	return ud_buf_detach(&b, NULL);
}

/* Adds the changes of d, found on ABI number k, to the report. */
static void
merge(struct all_run *r, const struct ud_api_diff *d, size_t k)
{
	json_t *j = ud_json_api_diff(d), *changes = json_object_get(j, "changes");
	size_t i;

	for (i = 0; i < d->n; i++) {
		json_t *c = json_array_get(changes, i);
		char *key = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
		struct merged *m = ud_map_get(&r->by_key, key);

		if (m == NULL) {
			m = ud_xcalloc(1, sizeof(*m));
			m->json = json_incref(c);
			m->line = change_line(&d->v[i]);
			m->header = ud_xstrdup(d->v[i].header);
			m->symbol = ud_xstrdup(d->v[i].symbol);
			ud_map_put(&r->by_key, key, m);
			r->v = ud_xgrow(r->v, &r->alloc, r->n + 1, sizeof(*r->v));
			r->v[r->n++] = m;
		}
		m->on[k] = true;
		free(key);
	}
	json_decref(j);
}

/* The summary of one ABI's diff, as a line and as JSON. */
static json_t *
abi_summary(struct all_run *r, const char *arch, const struct ud_abi *abi,
	    const struct ud_api_diff *d)
{
	ud_buf_addf(&r->summary,
		    "%s (%s): headers %u changed, %u added, %u removed; %u breaking, %u review, "
		    "%u compatible\n",
		    arch, abi->name, d->headers_changed, d->headers_added, d->headers_removed,
		    d->verdicts[UD_API_BREAKING], d->verdicts[UD_API_REVIEW],
		    d->verdicts[UD_API_COMPATIBLE]);
	return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "abi", abi->name, "headers_changed",
			 d->headers_changed, "headers_added", d->headers_added, "headers_removed",
			 d->headers_removed, "breaking", d->verdicts[UD_API_BREAKING], "review",
			 d->verdicts[UD_API_REVIEW], "compatible", d->verdicts[UD_API_COMPATIBLE]);
}

/* Reads arch's two versions once and diffs them at each of its ABIs. */
static int
diff_arch(struct all_run *r, const char *old_spec, const char *new_spec, const char *arch)
{
	const char *why = NULL, *failed = NULL;
	char *os = spec_for(old_spec, arch, &why), *ns = NULL;
	struct ud_progress *none[2] = {NULL, NULL};
	struct ud_api_version o, n;
	json_t *summaries;
	size_t i;

	ns = spec_for(new_spec, arch, &why);
	if (os == NULL && ns == NULL)
		return 0; /* an architecture of older or newer trees than these */
	if (os == NULL || ns == NULL) {
		json_array_append_new(r->skipped, json_pack("{s:s, s:s, s:s}", "arch", arch, "why",
							    why, "in", os == NULL ? "old" : "new"));
		free(os);
		free(ns);
		return 0;
	}
	if (api_side_load_pair(&o, os, &n, ns, arch, none, r->known, &failed) < 0) {
		ud_api_version_free(&o);
		ud_api_version_free(&n);
		free(os);
		free(ns);
		return -1;
	}
	summaries = json_array();
	for (i = 0; ud_abi_at(i) != NULL; i++) {
		const struct ud_abi *abi = ud_abi_at(i);
		struct ud_api_version oc, nc, *ov = &o, *nv = &n;
		struct ud_api_diff d;
		size_t later;

		if (strcmp(abi->arch, arch) != 0 || r->nabis == MAX_ABIS)
			continue;
		for (later = i + 1; ud_abi_at(later) != NULL; later++)
			if (strcmp(ud_abi_at(later)->arch, arch) == 0)
				break;
		/* resolving reads the models for one ABI, in place: a copy, but for the last */
		if (ud_abi_at(later) != NULL) {
			ud_api_version_copy(&oc, &o);
			ud_api_version_copy(&nc, &n);
			ov = &oc;
			nv = &nc;
		}
		ud_api_versions_resolve(ov, nv, abi, api_thread_start);
		memset(&d, 0, sizeof(d));
		ud_api_versions_diff(ov, nv, &d);
		if (ov == &oc)
			ud_api_versions_free(&oc, &nc, NULL, NULL);
		r->abis[r->nabis] = abi;
		merge(r, &d, r->nabis++);
		json_array_append_new(summaries, abi_summary(r, arch, abi, &d));
		ud_api_diff_free(&d);
	}
	json_array_append_new(r->archs, json_pack("{s:s, s:s, s:s, s:o}", "arch", arch, "old",
						  o.what, "new", n.what, "abis", summaries));
	ud_api_versions_free(&o, &n, NULL, NULL);
	free(os);
	free(ns);
	return 0;
}

/* " [on A B]" or " [all but A B]", whichever is shorter; "" on every ABI. */
static void
where(const struct all_run *r, const struct merged *m, struct ud_buf *out, json_t **json)
{
	size_t k, on = 0;
	bool all_but;

	*json = json_array();
	for (k = 0; k < r->nabis; k++)
		if (m->on[k]) {
			on++;
			json_array_append_new(*json, json_string(r->abis[k]->name));
		}
	ud_buf_reset(out);
	if (on == r->nabis)
		return;
	all_but = r->nabis - on < on;
	ud_buf_addstr(out, all_but ? " [all but" : " [on");
	for (k = 0; k < r->nabis; k++)
		if (m->on[k] != all_but)
			ud_buf_addf(out, " %s", r->abis[k]->name);
	ud_buf_addch(out, ']');
}

static int
merged_cmp(const void *a, const void *b)
{
	const struct merged *x = *(const struct merged *const *)a;
	const struct merged *y = *(const struct merged *const *)b;
	int c = strcmp(x->header, y->header);

	if (c == 0)
		c = strcmp(x->symbol, y->symbol);
	return c != 0 ? c : strcmp(x->line, y->line);
}

/* Prints the report; returns the number of breaking changes. */
static size_t
report(struct all_run *r, const char *old_spec, const char *new_spec, bool json)
{
	struct ud_buf at = UD_BUF_INIT;
	json_t *changes = json ? json_array() : NULL;
	size_t i, counts[UD_API__VERDICTS] = {0};

	qsort(r->v, r->n, sizeof(*r->v), merged_cmp);
	for (i = 0; i < r->n; i++) {
		const char *verdict = json_string_value(json_object_get(r->v[i]->json, "verdict"));
		size_t v;

		for (v = 0; v < UD_API__VERDICTS; v++)
			if (strcmp(verdict, ud_api_verdict_name((enum ud_api_verdict)v)) == 0)
				counts[v]++;
	}
	if (!json) {
		printf("old: %s\nnew: %s\n", old_spec, new_spec);
		printf("compared: %zu ABIs; distinct changes: %zu breaking, %zu review, %zu "
		       "compatible\n",
		       r->nabis, counts[UD_API_BREAKING], counts[UD_API_REVIEW],
		       counts[UD_API_COMPATIBLE]);
		fputs(ud_buf_str(&r->summary), stdout);
		for (i = 0; i < json_array_size(r->skipped); i++) {
			json_t *s = json_array_get(r->skipped, i);

			printf("%s: not compared: %s has %s\n",
			       json_string_value(json_object_get(s, "arch")),
			       json_string_value(json_object_get(s, "in")),
			       json_string_value(json_object_get(s, "why")));
		}
	}
	for (i = 0; i < r->n; i++) {
		json_t *abis;

		where(r, r->v[i], &at, &abis);
		if (json) {
			json_t *c = json_deep_copy(r->v[i]->json);

			json_object_set_new(c, "abis", abis);
			json_array_append_new(changes, c);
		} else {
			printf("%s%s\n", r->v[i]->line, ud_buf_str(&at));
			json_decref(abis);
		}
	}
	if (json) {
		json_t *top = json_pack("{s:s, s:s, s:{s:I, s:I, s:I}, s:O, s:O, s:o}", "old",
					old_spec, "new", new_spec, "summary", "breaking",
					(json_int_t)counts[UD_API_BREAKING], "review",
					(json_int_t)counts[UD_API_REVIEW], "compatible",
					(json_int_t)counts[UD_API_COMPATIBLE], "architectures",
					r->archs, "not_compared", r->skipped, "changes", changes);
		char *s = json_dumps(top, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		puts(s);
		free(s);
		json_decref(top);
	}
	ud_buf_free(&at);
	return counts[UD_API_BREAKING];
}

static void
merged_free(void *v)
{
	struct merged *m = v;

	json_decref(m->json);
	free(m->line);
	free(m->header);
	free(m->symbol);
	free(m);
}

int
api_diff_all(const char *old_spec, const char *new_spec, bool json)
{
	struct all_run r;
	size_t i, k, breaking;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.archs = json_array();
	r.skipped = json_array();
	r.known = ud_api_models_new();
	for (i = 0; ud_abi_at(i) != NULL && rc == 0; i++) {
		const char *arch = ud_abi_at(i)->arch;

		/* each architecture once, at its first ABI of the table */
		for (k = 0; k < i && strcmp(ud_abi_at(k)->arch, arch) != 0; k++)
			;
		if (k == i)
			rc = diff_arch(&r, old_spec, new_spec, arch);
	}
	if (rc == 0 && r.nabis == 0) {
		report_error("%s, %s: no architecture in both (kernel trees, REPO:REV, or what "
			     "uapid install --arch all writes)",
			     old_spec, new_spec);
		rc = -1;
	}
	breaking = rc == 0 ? report(&r, old_spec, new_spec, json) : 0;
	ud_api_models_free(r.known);
	ud_map_free(&r.by_key, merged_free);
	free(r.v);
	json_decref(r.archs);
	json_decref(r.skipped);
	ud_buf_free(&r.summary);
	if (rc < 0)
		return EXIT_USAGE;
	return breaking > 0 ? EXIT_FINDINGS : EXIT_OK;
}
