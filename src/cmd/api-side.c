// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The headers of one version read for the API model (cmd.h): an installed
 * directory (INSTALL_HDR_PATH or its include/), a kernel tree or REPO:REV
 * installed in memory, as `uapid install --arch ARCH` would.  Shared by
 * api-diff and api-layout.  The texts are read one version after the
 * other, so that what fails is reported in order, and handed to the API
 * model's loader (api/load.h), which parses them meanwhile on the other
 * processors.
 */
#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/gittree.h"
#include "uapid/io/headers.h"
#include "uapid/io/hugeheap.h"
#include "uapid/util/map.h"
#include "uapid/io/progress.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

/*
 * The models of a release's installed headers and their resolution take
 * ~50 MB, and live until the command exits: their heap in huge pages
 * when the system allows it (hugeheap.h), shared among the threads that
 * build them, at most 56 MiB a thread (a glibc thread heap is 64 MiB).
 */
#define RELEASE_HEAP ((size_t)56 << 20)
#define THREAD_HEAP_MIN ((size_t)16 << 20)
#define THREAD_HEAP_MAX ((size_t)56 << 20)

static size_t thread_heap; /* set before the threads start */

/* A version being read: where its texts go, and the progress of reading. */
struct reader {
	struct ud_api_version *v;
	struct ud_api_load *load;
	struct ud_progress *progress; /* the headers read (or installed), or NULL */
	size_t expect;		      /* headers to read, when known (a plan's) */
};

static void
keep_text(struct reader *r, const char *path, char *text, size_t len)
{
	ud_api_load_text(r->load, path, text, len);
	if (r->progress != NULL)
		ud_progress_update(r->progress, r->v->ntexts, r->expect);
}

static int
take(const char *dst, const char *text, size_t len, void *ctx)
{
	char *copy = ud_xmalloc(len + 1);

	memcpy(copy, text, len);
	copy[len] = '\0';
	keep_text(ctx, dst, copy, len);
	return 0;
}

/* take, for a text that is already the caller's: kept, not copied (10 MB a diff). */
static int
take_own(const char *dst, char *text, size_t len, void *ctx)
{
	keep_text(ctx, dst, text, len);
	return 0;
}

/* Installs src's headers for arch in memory into s. */
static int
install_source(struct reader *s, struct ud_source *src, const char *arch)
{
	struct ud_tindex *idx = NULL;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_hdr_plan plan;
	char *cause = NULL;
	int rc;

	if (ud_tindex_build(&idx, src, &problems) < 0) {
		report_diags(stderr, src->label, &problems);
		ud_diags_free(&problems);
		ud_tindex_free(idx);
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

/* REPO:REV, when REPO opens as a repository; 1 when spec is not that form. */
static int
load_git_in(struct reader *s, const char *spec, const char *arch)
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
	s->v->what = ud_xasprintf("%s (git, installed for %s)", spec, arch);
	return rc;
}

/*
 * load_git with libgit2 set up around it: only a revision needs it, and
 * its setup (the TLS backend reads the system's certificates) was ~15 ms
 * of every api-diff of two directories.  Nothing of libgit2's is kept: the
 * texts are copies.
 */
static int
load_git(struct reader *s, const char *spec, const char *arch)
{
	const char *colon = strrchr(spec, ':');
	int rc;

	if (colon == NULL || colon == spec || colon[1] == '\0')
		return 1; /* not REPO:REV */
	ud_git_init_caching_trees();
	rc = load_git_in(s, spec, arch);
	git_libgit2_shutdown();
	return rc;
}

static int
side_read(struct reader *s, const char *spec, const char *arch)
{
	struct ud_treeinfo ti;
	char *inc;
	int rc;

	if (!ud_is_dir(spec) && (rc = load_git(s, spec, arch)) != 1)
		goto sorted;
	if (!ud_is_dir(spec)) {
		report_error("%s: not a directory, a kernel tree or REPO:REV", spec);
		return -1;
	}
	if (cmd_input(spec, CMD_TREES | CMD_INSTALLED, &ti) < 0) {
		ud_treeinfo_free(&ti);
		return -1;
	}
	if (ud_treekind_is_tree(ti.kind)) {
		struct cmd_plan p;

		if (cmd_open_plan(spec, arch, &p) < 0) {
			ud_treeinfo_free(&ti);
			return -1;
		}
		s->expect = p.plan.n;
		rc = ud_headers_install_each(&p.plan, &p.src, take, s, &inc) < 0 ? -1 : 0;
		if (rc < 0) {
			report_error("%s", inc);
			free(inc);
		}
		s->v->what = cmd_input_what(spec, &ti, p.plan.arch);
		cmd_close_plan(&p);
	} else {
		char *cause = NULL;

		rc = ud_headers_installed_take(ti.root, take_own, s, &cause) < 0 ? -1 : 0;
		if (rc < 0) {
			report_error("%s", cause);
			free(cause);
		}
		s->v->what = cmd_input_what(spec, &ti, NULL);
	}
	ud_treeinfo_free(&ti);
sorted:
	return rc;
}

void
api_thread_start(enum ud_api_thread role)
{
	/*
	 * Resolving adds ~20 MB, most of it on a thread that took over a
	 * parsing thread's heap, which parsing filled.
	 */
	ud_hugeheap_thread(role == UD_API_THREAD_RESOLVE ? thread_heap / 2 : thread_heap);
}

static void
heap_start(size_t releases)
{
	size_t threads = ud_api_threads(), heap = releases * RELEASE_HEAP / threads;
	const char *every = getenv("UAPID_RESOLVE_ALL");

	if (heap < THREAD_HEAP_MIN)
		heap = THREAD_HEAP_MIN;
	if (heap > THREAD_HEAP_MAX)
		heap = THREAD_HEAP_MAX;
	/*
	 * written only when it changes: api-diff --arch all reads each
	 * architecture with this while the threads of the last one read it
	 */
	if (thread_heap != heap)
		thread_heap = heap;
	/* this one, the parsing threads (one fewer), and one resolving thread at half */
	ud_hugeheap_start(threads + 1, thread_heap);
	/* every symbol resolved, as before api-quiet.c: how the full tier checks it */
	ud_api_resolve_every_symbol(every != NULL && strcmp(every, "1") == 0);
}

int
api_side_load(struct ud_api_version *v, const char *spec, const char *arch,
	      struct ud_progress *progress)
{
	struct reader r = {v, NULL, progress, 0};
	int rc;

	heap_start(1);
	r.load = ud_api_load_start(v, false, api_thread_start);
	rc = side_read(&r, spec, arch);
	ud_api_load_finish(r.load);
	return rc < 0 ? -1 : 0;
}

int
api_side_load_pair(struct ud_api_version *o, const char *old_spec, struct ud_api_version *n,
		   const char *new_spec, const char *arch, struct ud_progress *progress[2],
		   struct ud_api_models *known, const char **failed)
{
	struct reader r = {o, NULL, progress[0], 0};

	memset(n, 0, sizeof(*n));
	heap_start(2);
	r.load = ud_api_load_start(o, true, api_thread_start);
	if (known != NULL)
		ud_api_load_known(r.load, known);
	*failed = side_read(&r, old_spec, arch) < 0 ? old_spec : NULL;
	if (*failed == NULL) {
		ud_api_load_next(r.load, n);
		r.v = n;
		r.progress = progress[1];
		r.expect = 0;
		if (side_read(&r, new_spec, arch) < 0)
			*failed = new_spec;
	}
	/* what was read has its model, also after a failure (ud_api_version_free frees them) */
	ud_api_load_finish(r.load);
	return *failed != NULL ? -1 : 0;
}

bool
api_side_for_arch(const char *spec, const char *arch, const char *installed_arch)
{
	char *mk, *dir;
	bool tree, ok;

	if (!ud_is_dir(spec))
		return true; /* REPO:REV: its install says */
	mk = ud_xasprintf("%s/Makefile", spec);
	tree = access(mk, F_OK) == 0;
	free(mk);
	if (!tree)
		return strcmp(arch, installed_arch) == 0;
	dir = ud_xasprintf("%s/arch/%s", spec, arch);
	ok = ud_is_dir(dir);
	free(dir);
	return ok;
}

bool
api_opts_take(struct api_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'j':
		o->json = true;
		return true;
	case 'a':
		o->arch = arg;
		return true;
	case 'b':
		o->abi = arg;
		return true;
	default:
		return false;
	}
}

int
api_opts_target(struct api_opts *o, bool none_ok, const struct ud_abi **abi)
{
	if (o->arch == NULL || o->arch[0] == '\0')
		o->arch = cmd_default_arch();
	if (o->abi == NULL)
		o->abi = o->arch;
	*abi = NULL;
	if (none_ok && strcmp(o->abi, "none") == 0)
		return 0;
	if ((*abi = ud_abi_find(o->abi)) == NULL) {
		report_error("%s: no such ABI (uapid api-layout --abis lists them)", o->abi);
		return -1;
	}
	return 0;
}
