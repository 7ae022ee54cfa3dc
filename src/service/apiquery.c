// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's API questions (apiquery.h).
 */
#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapid/abi.h"
#include "uapid/api.h"
#include "uapid/apiquery.h"
#include "uapid/fsutil.h"
#include "uapid/gittree.h"
#include "uapid/headers.h"
#include "uapid/json.h"
#include "uapid/map.h"
#include "uapid/source.h"
#include "uapid/tindex.h"
#include "uapid/xmalloc.h"

/* Headers parsed on demand, for the move check (the new side). */
struct lookup {
	struct ud_store *st;	 /* from the store's latest versions, or */
	const char *install_dir; /* from the installed files */
	struct ud_map parsed;
};

static const struct ud_api_header *
look(const char *path, void *ctx)
{
	struct lookup *l = ctx;
	struct ud_api_header *h = NULL;
	struct ud_buf b = UD_BUF_INIT;
	bool have;

	if (ud_map_has(&l->parsed, path))
		return ud_map_get(&l->parsed, path);
	if (l->st != NULL) {
		have = ud_store_api_version_at(l->st, path, INT64_MAX, NULL, &b) == 0;
	} else {
		char *f = ud_xasprintf("%s/include/%s", l->install_dir, path);

		have = ud_read_file(f, &b, NULL) == 0;
		free(f);
	}
	if (have) {
		h = ud_xcalloc(1, sizeof(*h));
		ud_api_parse(path, b.data != NULL ? b.data : "", b.len, h);
	}
	ud_buf_free(&b);
	ud_map_put(&l->parsed, path, h);
	return h;
}

static void
free_header(void *h)
{
	if (h != NULL)
		ud_api_header_free(h);
	free(h);
}

json_t *
ud_apiquery_since(struct ud_store *st, int64_t since, bool fresh)
{
	struct ud_strlist paths = UD_STRLIST_INIT;
	struct lookup l = {st, NULL, UD_MAP_INIT};
	struct ud_api_diff d;
	struct ud_buf b = UD_BUF_INIT;
	json_t *r;
	size_t i;

	memset(&d, 0, sizeof(d));
	ud_store_api_paths_since(st, fresh ? -1 : since, &paths);
	for (i = 0; i < paths.n; i++) {
		struct ud_api_header o;
		const struct ud_api_header *n = look(paths.v[i], &l);
		bool had = !fresh && ud_store_api_version_at(st, paths.v[i], since, NULL, &b) == 0;

		if (!had && n == NULL)
			continue;
		if (had)
			ud_api_parse(paths.v[i], b.data != NULL ? b.data : "", b.len, &o);
		ud_api_diff_header(had ? &o : NULL, n, &d);
		if (had)
			ud_api_header_free(&o);
	}
	ud_api_diff_moves(&d, look, &l);
	/*
	 * Users of a changed type are looked for in the changed headers only:
	 * parsing every installed header would hold the loop for a quarter
	 * of a second (uapid api-diff and {"rev"} look everywhere).
	 */
	{
		struct ud_api_header *now = ud_xcalloc(paths.n + 1, sizeof(*now));
		size_t m = 0;

		for (i = 0; i < paths.n; i++) {
			const struct ud_api_header *h = look(paths.v[i], &l);

			if (h != NULL)
				now[m++] = *h; /* a shallow copy: l.parsed owns it */
		}
		ud_api_sort_headers(now, m);
		ud_api_diff_through(&d, now, m);
		free(now);
	}
	r = ud_json_api_diff(&d);
	json_object_set_new(r, "fresh_instance", json_boolean(fresh));
	ud_api_diff_free(&d);
	ud_map_free(&l.parsed, free_header);
	ud_strlist_free(&paths);
	ud_buf_free(&b);
	return r;
}

struct side {
	struct ud_api_header *v;
	size_t n, alloc;
};

static int
take(const char *dst, const char *text, size_t len, void *ctx)
{
	struct side *s = ctx;

	s->v = ud_xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	ud_api_parse(dst, text, len, &s->v[s->n++]);
	return 0;
}

/* Every .h under dir/rel, parsed. */
static void
walk(struct side *s, const char *root, const char *rel)
{
	struct ud_strlist names = UD_STRLIST_INIT;
	struct ud_source src;
	size_t i;

	if (ud_source_open_dir(&src, root, NULL) < 0)
		return;
	{
		/* a breadth-first walk through the source: files and directories */
		struct ud_strlist dirs = UD_STRLIST_INIT;
		size_t k;

		ud_strlist_add(&dirs, rel);
		for (k = 0; k < dirs.n; k++) {
			ud_strlist_free(&names);
			if (ud_source_list(&src, dirs.v[k], &names, NULL) < 0)
				continue;
			for (i = 0; i < names.n; i++) {
				size_t n = strlen(names.v[i]);
				char *p = dirs.v[k][0] != '\0'
						  ? ud_xasprintf("%s/%s", dirs.v[k], names.v[i])
						  : ud_xstrdup(names.v[i]);

				if (n > 0 && names.v[i][n - 1] == '/') {
					p[strlen(p) - 1] = '\0';
					ud_strlist_take(&dirs, p);
					continue;
				}
				if (n > 2 && strcmp(names.v[i] + n - 2, ".h") == 0) {
					struct ud_buf b = UD_BUF_INIT;

					if (ud_source_read(&src, p, &b, NULL) == 0)
						take(p, b.data != NULL ? b.data : "", b.len, s);
					ud_buf_free(&b);
				}
				free(p);
			}
		}
		ud_strlist_free(&dirs);
	}
	ud_strlist_free(&names);
	ud_source_close(&src);
}

json_t *
ud_apiquery_rev(const char *root, const char *arch, const char *install_dir, const char *rev,
		char **cause)
{
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	struct ud_source src;
	struct ud_tindex *idx = NULL;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_hdr_plan plan;
	struct side o = {NULL, 0, 0}, n = {NULL, 0, 0};
	struct lookup l = {NULL, install_dir, UD_MAP_INIT};
	struct ud_api_diff d;
	char *inc;
	json_t *r = NULL;
	size_t i;
	int rc;

	memset(&plan, 0, sizeof(plan));
	if (git_repository_open_ext(&repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0) {
		*cause = ud_git_error(rev);
		goto out;
	}
	ud_gittree_source_open(&src, repo, tree, rev, NULL);
	if (ud_tindex_build(&idx, &src, &problems) < 0) {
		*cause = ud_xasprintf("%s: %s", rev,
				      problems.n > 0 ? problems.v[0].message
						     : "cannot index the tree");
		ud_source_close(&src);
		goto out;
	}
	rc = ud_headers_plan(&src, idx, arch, &plan, cause);
	if (rc == 0)
		rc = ud_headers_install_each(&plan, &src, take, &o, cause);
	ud_source_close(&src);
	if (rc < 0)
		goto out;
	inc = ud_xasprintf("%s/include", install_dir);
	walk(&n, inc, "");
	free(inc);
	ud_api_sort_headers(o.v, o.n);
	ud_api_sort_headers(n.v, n.n);
	/* both sides read for the daemon's architecture, as `uapid api-diff --arch` reads them */
	if (ud_abi_find(arch) != NULL)
		ud_api_resolve_pair(o.v, o.n, n.v, n.n, ud_abi_find(arch));
	memset(&d, 0, sizeof(d));
	ud_api_diff_versions(o.v, o.n, n.v, n.n, &d);
	r = ud_json_api_diff(&d);
	ud_api_diff_free(&d);
out:
	for (i = 0; i < o.n; i++)
		ud_api_header_free(&o.v[i]);
	for (i = 0; i < n.n; i++)
		ud_api_header_free(&n.v[i]);
	free(o.v);
	free(n.v);
	ud_map_free(&l.parsed, free_header);
	ud_diags_free(&problems);
	ud_headers_plan_free(&plan);
	ud_tindex_free(idx);
	git_tree_free(tree);
	git_object_free(obj);
	git_repository_free(repo);
	return r;
}

char *
ud_apiquery_installed_name(const char *path)
{
	const char *u;

	if (strncmp(path, "include/uapi/", 13) == 0)
		return ud_xstrdup(path + 13);
	if (strncmp(path, "arch/", 5) == 0 && (u = strstr(path, "/include/uapi/")) != NULL &&
	    memchr(path + 5, '/', (size_t)(u - path - 5)) == NULL)
		return ud_xstrdup(u + 14);
	return NULL;
}
