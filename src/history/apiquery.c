// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's API questions (apiquery.h).
 */
#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/core/lex.h"
#include "uapid/history/apiquery.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/gittree.h"
#include "uapid/io/headers.h"
#include "uapid/proto/json.h"
#include "uapid/util/map.h"
#include "uapid/io/source.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

/* Headers parsed on demand from the store's latest versions, for the move check. */
struct lookup {
	struct ud_store *st;
	struct ud_map parsed;
};

static const struct ud_api_header *
look(const char *path, void *ctx)
{
	struct lookup *l = ctx;
	struct ud_api_header *h = NULL;
	struct ud_buf b = UD_BUF_INIT;

	if (ud_map_has(&l->parsed, path))
		return ud_map_get(&l->parsed, path);
	if (ud_store_api_version_at(l->st, path, INT64_MAX, NULL, &b) == 0) {
		h = ud_xcalloc(1, sizeof(*h));
		ud_api_parse(path, b.data, b.len, h);
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
	struct lookup l = {st, UD_MAP_INIT};
	const struct ud_api_lookup nl = {look, NULL, &l};
	struct ud_api_diff d;
	struct ud_api_header *olds;
	struct ud_api_pair *changed;
	size_t i, n = 0;
	json_t *r;

	memset(&d, 0, sizeof(d));
	ud_store_api_paths_since(st, fresh ? -1 : since, &paths);
	olds = ud_xcalloc(paths.n + 1, sizeof(*olds));
	changed = ud_xcalloc(paths.n + 1, sizeof(*changed));
	for (i = 0; i < paths.n; i++) {
		struct ud_buf b = UD_BUF_INIT;
		bool had = !fresh && ud_store_api_version_at(st, paths.v[i], since, NULL, &b) == 0;

		changed[n].new_ = look(paths.v[i], &l);
		if (had) {
			ud_api_parse(paths.v[i], b.data, b.len, &olds[i]);
			changed[n].old = &olds[i];
		}
		ud_buf_free(&b);
		if (changed[n].old != NULL || changed[n].new_ != NULL)
			n++;
	}
	/*
	 * Users of a changed type are looked for in the changed headers only:
	 * parsing every installed header would hold the loop for a quarter
	 * of a second (uapid api-diff and {"rev"} look everywhere).
	 */
	ud_api_diff_changed(changed, n, &nl, &d);
	r = ud_json_api_diff(&d);
	json_object_set_new(r, "fresh_instance", json_boolean(fresh));
	ud_api_diff_free(&d);
	for (i = 0; i < paths.n; i++)
		ud_api_header_free(&olds[i]); /* a zeroed one (not had) too */
	free(olds);
	free(changed);
	ud_map_free(&l.parsed, free_header);
	ud_strlist_free(&paths);
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

json_t *
ud_apiquery_rev(const char *root, const char *arch, const char *install_dir, const char *rev,
		char **cause)
{
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	struct ud_source src;
	struct ud_tindex *idx = NULL;
	struct ud_hdr_plan plan;
	struct side o = {NULL, 0, 0}, n = {NULL, 0, 0};
	struct ud_api_diff d;
	char *inc, *why = NULL;
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
	if (ud_tindex_build_whole(&idx, &src, cause) < 0) {
		ud_source_close(&src);
		goto out;
	}
	rc = ud_headers_plan(&src, idx, arch, &plan, cause);
	if (rc == 0)
		rc = ud_headers_install_each(&plan, &src, take, &o, cause);
	ud_source_close(&src);
	if (rc < 0)
		goto out;
	/* the daemon's own output: one that cannot be read whole is diffed as far as it was read */
	inc = ud_xasprintf("%s/include", install_dir);
	if (ud_headers_installed_each(inc, take, &n, &why) < 0)
		free(why);
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
	ud_headers_plan_free(&plan);
	ud_tindex_free(idx);
	git_tree_free(tree);
	git_object_free(obj);
	git_repository_free(repo);
	return r;
}

/*
 * The commit rev names: what git_revparse_single takes, and A...B (B
 * default HEAD) for their merge base, as `git diff A...B` starts from it:
 * "origin/master..." is where the branch forked, the baseline of its work.
 */
static int
peel_rev(git_repository *repo, const char *rev, git_commit **commit)
{
	const char *dots = strstr(rev, "...");
	git_object *a = NULL, *b = NULL;
	git_oid base;
	char *left;
	int rc;

	if (dots == NULL) {
		rc = git_revparse_single(&a, repo, rev);
		if (rc == 0)
			rc = git_object_peel((git_object **)commit, a, GIT_OBJECT_COMMIT);
		git_object_free(a);
		return rc;
	}
	left = ud_xstrndup(rev, (size_t)(dots - rev));
	rc = git_revparse_single(&a, repo, left[0] != '\0' ? left : "HEAD");
	if (rc == 0)
		rc = git_revparse_single(&b, repo, dots[3] != '\0' ? dots + 3 : "HEAD");
	if (rc == 0)
		rc = git_merge_base(&base, repo, git_object_id(a), git_object_id(b));
	if (rc == 0)
		rc = git_commit_lookup(commit, repo, &base);
	free(left);
	git_object_free(a);
	git_object_free(b);
	return rc;
}

/* The commit rev names in the repository at root (*repo and *commit to free). */
static int
open_commit(const char *root, const char *rev, git_repository **repo, git_commit **commit,
	    char hex[41], char **cause)
{

	*repo = NULL;
	*commit = NULL;
	if (git_repository_open_ext(repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		*cause = ud_xasprintf("%s is not the top of a git repository: no revision to "
				      "compare with",
				      root);
		return -1;
	}
	if (peel_rev(*repo, rev, commit) < 0) {
		*cause = ud_git_error(rev);
		git_repository_free(*repo);
		*repo = NULL;
		*commit = NULL;
		return -1;
	}
	git_oid_tostr(hex, 41, git_commit_id(*commit));
	return 0;
}

int
ud_apiquery_resolve(const char *root, const char *rev, char commit[41], char **cause)
{
	git_repository *repo;
	git_commit *c;

	if (open_commit(root, rev, &repo, &c, commit, cause) < 0)
		return -1;
	git_commit_free(c);
	git_repository_free(repo);
	return 0;
}

int
ud_apiquery_file_at(const char *root, const char *rev, const char *path, struct ud_buf *text,
		    char commit[41], char **cause)
{
	git_repository *repo;
	git_commit *c;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int rc = 0;

	if (open_commit(root, rev, &repo, &c, commit, cause) < 0)
		return -1;
	if (git_commit_tree(&tree, c) < 0) {
		*cause = ud_git_error(rev);
		rc = -1;
		goto out;
	}
	/* not there, or not a regular file (a symlink, a directory): the header is new since */
	if (git_tree_entry_bypath(&e, tree, path) < 0 ||
	    (git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB &&
	     git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB_EXECUTABLE))
		goto out;
	if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0) {
		*cause = ud_git_error(path);
		rc = -1;
		goto out;
	}
	if ((size_t)git_blob_rawsize(blob) > UD_LEX_MAX_SIZE) { /* what no header is */
		*cause = ud_xasprintf("%s at %s: %llu bytes, over the %u a header may have", path,
				      rev, (unsigned long long)git_blob_rawsize(blob),
				      (unsigned)UD_LEX_MAX_SIZE);
		rc = -1;
		goto out;
	}
	ud_buf_add(text, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	rc = 1;
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	git_repository_free(repo);
	return rc;
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
