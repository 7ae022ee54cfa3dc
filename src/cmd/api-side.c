// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The headers of one version, read into API models (cmd.h): an installed
 * directory (INSTALL_HDR_PATH or its include/), a kernel tree or REPO:REV
 * installed in memory, as `uapid install --arch ARCH` would.  Shared by
 * api-diff and api-layout.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "uapid/api.h"
#include "uapid/fsutil.h"
#include "uapid/gittree.h"
#include "uapid/headers.h"
#include "uapid/tindex.h"
#include "uapid/xmalloc.h"

static int
take(const char *dst, const char *text, size_t len, void *ctx)
{
	struct api_side *s = ctx;

	s->v = ud_xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	ud_api_parse(dst, text, len, &s->v[s->n++]);
	return 0;
}

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Every .h file under root/rel, recursively. */
static int
walk_installed(struct api_side *s, const char *root, const char *rel)
{
	char *dir = rel[0] != '\0' ? ud_xasprintf("%s/%s", root, rel) : ud_xstrdup(root);
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (d == NULL) {
		report_error("%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char *sub, *abs;
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		sub = rel[0] != '\0' ? ud_xasprintf("%s/%s", rel, e->d_name)
				     : ud_xstrdup(e->d_name);
		abs = ud_xasprintf("%s/%s", root, sub);
		if (is_dir(abs)) {
			rc = walk_installed(s, root, sub);
		} else if (n > 2 && strcmp(e->d_name + n - 2, ".h") == 0) {
			struct ud_buf b = UD_BUF_INIT;
			char *cause = NULL;

			if (ud_read_file(abs, &b, &cause) < 0) {
				report_error("%s", cause);
				free(cause);
				rc = -1;
			} else {
				take(sub, b.data != NULL ? b.data : "", b.len, s);
			}
			ud_buf_free(&b);
		}
		free(sub);
		free(abs);
	}
	closedir(d);
	free(dir);
	return rc;
}

/* Installs src's headers for arch in memory into s. */
static int
install_source(struct api_side *s, struct ud_source *src, const char *arch)
{
	struct ud_tindex *idx = NULL;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_hdr_plan plan;
	char *cause = NULL;
	int rc;

	if (ud_tindex_build(&idx, src, &problems) < 0) {
		report_diags(stderr, src->label, &problems);
		ud_diags_free(&problems);
		return -1;
	}
	ud_diags_free(&problems);
	rc = ud_headers_plan(src, idx, arch, &plan, &cause);
	if (rc == 0)
		rc = ud_headers_install_each(&plan, src, take, s, &cause);
	if (rc < 0) {
		report_error("%s", cause);
		free(cause);
	}
	ud_headers_plan_free(&plan);
	ud_tindex_free(idx);
	return rc < 0 ? -1 : 0;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct ud_api_header *)a)->path,
		      ((const struct ud_api_header *)b)->path);
}

/* REPO:REV, when REPO opens as a repository; 1 when spec is not that form. */
static int
load_git(struct api_side *s, const char *spec, const char *arch)
{
	const char *colon = strrchr(spec, ':');
	char *repo_path;
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	struct ud_source src;
	int rc;

	if (colon == NULL || colon == spec || colon[1] == '\0')
		return 1;
	repo_path = ud_xstrndup(spec, (size_t)(colon - spec));
	if (git_repository_open_ext(&repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		free(repo_path);
		return 1;
	}
	free(repo_path);
	if (git_revparse_single(&obj, repo, colon + 1) < 0 ||
	    git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0) {
		const git_error *e = git_error_last();

		report_error("%s: %s", spec, e != NULL ? e->message : "no such revision");
		git_object_free(obj);
		git_repository_free(repo);
		return -1;
	}
	ud_gittree_source_open(&src, repo, tree, spec, NULL);
	rc = install_source(s, &src, arch);
	ud_source_close(&src);
	git_tree_free(tree);
	git_object_free(obj);
	git_repository_free(repo);
	s->what = ud_xasprintf("%s (git, installed for %s)", spec, arch);
	return rc;
}

int
api_side_load(struct api_side *s, const char *spec, const char *arch)
{
	char *inc, *mk, *uapi;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!is_dir(spec) && (rc = load_git(s, spec, arch)) != 1)
		goto sorted;
	if (!is_dir(spec)) {
		report_error("%s: not a directory, a kernel tree or REPO:REV", spec);
		return -1;
	}
	inc = ud_xasprintf("%s/include", spec);
	mk = ud_xasprintf("%s/Makefile", spec);
	uapi = ud_xasprintf("%s/include/uapi", spec);
	if (is_dir(uapi) && access(mk, F_OK) == 0) {
		struct cmd_plan p;

		free(inc);
		free(mk);
		free(uapi);
		if (cmd_open_plan(spec, arch, &p) < 0)
			return -1;
		rc = ud_headers_install_each(&p.plan, &p.src, take, s, &inc) < 0 ? -1 : 0;
		if (rc < 0) {
			report_error("%s", inc);
			free(inc);
		}
		s->what = ud_xasprintf("%s (tree, installed for %s)", spec, p.plan.arch);
		cmd_close_plan(&p);
	} else {
		const char *root = is_dir(inc) ? inc : spec;

		rc = walk_installed(s, root, "");
		s->what = ud_xasprintf("%s (installed headers)", root);
		free(inc);
		free(mk);
		free(uapi);
	}
sorted:
	if (rc == 0)
		ud_api_sort_headers(s->v, s->n);
	return rc;
}

const struct ud_api_header *
api_side_find(const char *path, void *ctx)
{
	const struct api_side *s = ctx;
	struct ud_api_header key;

	memset(&key, 0, sizeof(key));
	key.path = (char *)(uintptr_t)path;
	return s->n > 0 ? bsearch(&key, s->v, s->n, sizeof(*s->v), by_path) : NULL;
}

void
api_side_free(struct api_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		ud_api_header_free(&s->v[i]);
	free(s->v);
	free(s->what);
}
