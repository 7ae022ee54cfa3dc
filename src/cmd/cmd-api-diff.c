// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-diff [--json] [--arch ARCH] OLD NEW: which headers changed
 * userspace API between two versions, symbol by symbol, with a verdict
 * (api.h).  OLD and NEW are installed header directories (an
 * INSTALL_HDR_PATH holding include/, or that include/ itself), kernel
 * trees, or REPO:REV git revisions; trees and revisions are installed in
 * memory first, as `uapid install --arch ARCH` would.
 *
 * Exit status: 1 when a change is breaking (as the kernel's check-uapi.sh
 * does), 0 otherwise, 2 for bad usage or input.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
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
#include "uapid/json.h"
#include "uapid/progress.h"
#include "uapid/tindex.h"
#include "uapid/xmalloc.h"

static const char api_usage[] =
	"usage: uapid api-diff [--json] [--arch ARCH] [--quiet] OLD NEW\n"
	"  OLD, NEW: an installed-headers directory (INSTALL_HDR_PATH or its "
	"include/),\n"
	"            a kernel tree, or REPO:REV\n";

/* One side: its headers' models, sorted by path. */
struct side {
	struct ud_api_header *v;
	size_t n, alloc;
	char *what; /* how it was read, for the summary */
	struct ud_progress *progress;
	size_t expect; /* headers to read, when known (a plan's) */
};

static int
take(const char *dst, const char *text, size_t len, void *ctx)
{
	struct side *s = ctx;

	s->v = ud_xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	ud_api_parse(dst, text, len, &s->v[s->n++]);
	ud_progress_update(s->progress, s->n, s->expect);
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
walk_installed(struct side *s, const char *root, const char *rel)
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
install_source(struct side *s, struct ud_source *src, const char *arch)
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
	s->expect = plan.n;
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
load_git(struct side *s, const char *spec, const char *arch)
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

static int
load(struct side *s, const char *spec, const char *arch, struct ud_progress *progress)
{
	char *inc, *mk, *uapi;
	int rc;

	memset(s, 0, sizeof(*s));
	s->progress = progress;
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
		s->expect = p.plan.n;
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

static const struct ud_api_header *
find_header(const char *path, void *ctx)
{
	const struct side *s = ctx;
	struct ud_api_header key;

	memset(&key, 0, sizeof(key));
	key.path = (char *)(uintptr_t)path;
	return s->n > 0 ? bsearch(&key, s->v, s->n, sizeof(*s->v), by_path) : NULL;
}

static void
side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		ud_api_header_free(&s->v[i]);
	free(s->v);
	free(s->what);
}

static void
print_text(const struct side *o, const struct side *n, const struct ud_api_diff *d)
{
	size_t i;

	printf("old: %s, %zu headers\nnew: %s, %zu headers\n", o->what, o->n, n->what, n->n);
	printf("headers: %u changed, %u added, %u removed; symbols: %u added, %u removed, %u "
	       "changed\n",
	       d->headers_changed, d->headers_added, d->headers_removed, d->symbols_added,
	       d->symbols_removed, d->symbols_changed);
	printf("verdicts: %u breaking, %u review, %u compatible\n", d->verdicts[UD_API_BREAKING],
	       d->verdicts[UD_API_REVIEW], d->verdicts[UD_API_COMPATIBLE]);
	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		unsigned line = c->new_line != 0 ? c->new_line : c->old_line;

		if (c->symbol[0] != '\0')
			printf("%s:%u: %s: %s %s: %s\n", c->header, line,
			       ud_api_verdict_name(c->verdict), ud_api_kind_name(c->kind),
			       c->symbol, c->reason);
		else
			printf("%s:%u: %s: %s\n", c->header, line, ud_api_verdict_name(c->verdict),
			       c->reason);
	}
}

static void
print_json(const struct side *o, const struct side *n, const struct ud_api_diff *d)
{
	json_t *j = ud_json_api_diff(d);
	char *s;

	/* what was compared, first */
	json_object_set_new(j, "old", json_string(o->what));
	json_object_set_new(j, "new", json_string(n->what));
	s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(j);
}

int
cmd_api_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"arch", required_argument, NULL, 'a'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ud_progress po, pn;
	struct side o, n;
	struct ud_api_diff d;
	const char *arch = NULL, *failed;
	bool json = false, quiet = false;
	int opt, status;

	while ((opt = getopt_long(argc, argv, "ja:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'a':
			arch = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(api_usage, stdout);
			return EXIT_OK;
		default:
			fputs(api_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fputs(api_usage, stderr);
		return EXIT_USAGE;
	}
	if (arch == NULL || arch[0] == '\0')
		arch = cmd_default_arch();
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)4 << 20);
	memset(&n, 0, sizeof(n));
	if (json)
		report_keep();
	/* two trees or revisions are installed in memory first: that takes a moment */
	ud_progress_start(&po, "api model of OLD", "headers", quiet || json);
	ud_progress_start(&pn, "api model of NEW", "headers", quiet || json);
	failed = load(&o, argv[optind], arch, &po) < 0	     ? argv[optind]
		 : load(&n, argv[optind + 1], arch, &pn) < 0 ? argv[optind + 1]
							     : NULL;
	ud_progress_end(&po);
	ud_progress_end(&pn);
	if (failed != NULL) {
		report_json_failure(failed);
		side_free(&o);
		side_free(&n);
		git_libgit2_shutdown();
		return EXIT_USAGE;
	}
	memset(&d, 0, sizeof(d));
	ud_api_diff_sets(o.v, o.n, n.v, n.n, &d);
	ud_api_diff_moves(&d, find_header, &n);
	ud_api_diff_through(&d, n.v, n.n);
	ud_api_diff_includes(&d, o.v, o.n, n.v, n.n);
	if (json)
		print_json(&o, &n, &d);
	else
		print_text(&o, &n, &d);
	status = d.verdicts[UD_API_BREAKING] > 0 ? EXIT_FINDINGS : EXIT_OK;
	ud_api_diff_free(&d);
	side_free(&o);
	side_free(&n);
	git_libgit2_shutdown();
	return status;
}
