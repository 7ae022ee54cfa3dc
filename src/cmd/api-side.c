// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The headers of one version, read into API models (cmd.h): an installed
 * directory (INSTALL_HDR_PATH or its include/), a kernel tree or REPO:REV
 * installed in memory, as `uapid install --arch ARCH` would.  Shared by
 * api-diff and api-layout.
 *
 * The texts are read (and installed) one side after the other, so that
 * what fails is reported in order; each is parsed into its model as soon
 * as it is read, on the machine's other processors (and on this thread
 * once reading is over): ud_api_parse and ud_api_resolve touch only their
 * own headers, nothing is shared but the read-only ABI table.  A header of
 * the second side whose text is byte for byte its first side's is not
 * parsed again: its model is a copy of the first's (most headers of two
 * releases are the same bytes).
 */
#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "cmd.h"
#include "uapid/api/api.h"
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

/* The threads a model is made on, this one included: the processors, at most 8. */
static size_t
processors(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
}

/* A header to model: its installed text, kept until its model is made. */
struct api_text {
	char *path;
	char *text; /* NULL once parsed, unless kept */
	size_t len;
	struct ud_api_header model;
	bool keep;   /* a first side's: its text is kept for the second's to match */
	bool parsed; /* model made (under the feed's lock) */
	const struct api_text *twin; /* a first side's of the same path and bytes: model copied */
};

/*
 * The texts read, in order, for the parsing threads to take: a queue
 * that only grows, closed when reading is over.
 */
struct api_feed {
	uv_mutex_t lock;
	uv_cond_t more; /* a text queued, or the feed closed */
	struct api_text **v;
	size_t n, alloc, next; /* next: the next text to parse */
	bool closed;
	bool threads;	  /* the lock and threads are there: else all is parsed at the end */
	uv_cond_t parsed; /* a model made: a twin waited for may be there */
	/* reading a pair: its first side's texts by path, then matching the second's */
	bool pair, second;
	struct ud_map first;
	uv_thread_t tids[7];
	size_t nthreads;
};

/*
 * On the first side: t kept and found by its path.  On the second: t's
 * twin, a first side's text of the same path and bytes, whose model t
 * will copy (t's own text then freed).
 */
static void
feed_match(struct api_feed *f, struct api_text *t)
{
	const struct api_text *first;

	if (!f->pair)
		return;
	if (!f->second) {
		t->keep = true;
		ud_map_put(&f->first, t->path, t);
		return;
	}
	first = ud_map_get(&f->first, t->path);
	if (first != NULL && first->len == t->len && memcmp(first->text, t->text, t->len) == 0) {
		t->twin = first;
		free(t->text);
		t->text = NULL;
	}
}

static void
feed_push(struct api_feed *f, struct api_text *t)
{
	feed_match(f, t);
	if (f->threads)
		uv_mutex_lock(&f->lock);
	f->v = ud_xgrow(f->v, &f->alloc, f->n + 1, sizeof(*f->v));
	f->v[f->n++] = t;
	if (f->threads) {
		uv_cond_signal(&f->more);
		uv_mutex_unlock(&f->lock);
	}
}

/*
 * Parses what the feed holds until it is closed and empty.  A twin is
 * always queued before its second, so it is parsed or being parsed (by a
 * thread that waits for nothing) when its second is taken.
 */
static void
feed_worker(void *arg)
{
	struct api_feed *f = arg;
	struct api_text *done = NULL;

	/* the models are made here: a thread's share of the huge-page heap */
	ud_hugeheap_thread(thread_heap);
	for (;;) {
		struct api_text *t = NULL;

		if (f->threads) {
			uv_mutex_lock(&f->lock);
			if (done != NULL) {
				done->parsed = true;
				uv_cond_broadcast(&f->parsed);
			}
			while (f->next == f->n && !f->closed)
				uv_cond_wait(&f->more, &f->lock);
		} else if (done != NULL) {
			done->parsed = true;
		}
		if (f->next < f->n)
			t = f->v[f->next++];
		if (t != NULL && t->twin != NULL && f->threads)
			while (!t->twin->parsed)
				uv_cond_wait(&f->parsed, &f->lock);
		if (f->threads)
			uv_mutex_unlock(&f->lock);
		if (t == NULL)
			return;
		if (t->twin != NULL) {
			ud_api_header_copy(&t->model, &t->twin->model);
		} else {
			ud_api_parse(t->path, t->text, t->len, &t->model);
			if (!t->keep) {
				free(t->text);
				t->text = NULL;
			}
		}
		done = t;
	}
}

/* A feed with its threads started: one fewer than the processors (reading is this one's). */
static void
feed_start(struct api_feed *f)
{
	size_t want = processors() - 1, i;

	memset(f, 0, sizeof(*f));
	if (want == 0 || uv_mutex_init(&f->lock) != 0)
		return;
	if (uv_cond_init(&f->more) != 0) {
		uv_mutex_destroy(&f->lock);
		return;
	}
	if (uv_cond_init(&f->parsed) != 0) {
		uv_cond_destroy(&f->more);
		uv_mutex_destroy(&f->lock);
		return;
	}
	f->threads = true;
	/* a thread that cannot start leaves its share to the others (and to this one) */
	for (i = 0; i < want; i++)
		if (uv_thread_create(&f->tids[f->nthreads], feed_worker, f) == 0)
			f->nthreads++;
}

/* Closes the feed and parses with its threads what is left: every text has its model. */
static void
feed_finish(struct api_feed *f)
{
	size_t i;

	if (f->threads) {
		uv_mutex_lock(&f->lock);
		f->closed = true;
		uv_cond_broadcast(&f->more);
		uv_mutex_unlock(&f->lock);
	} else {
		f->closed = true;
	}
	feed_worker(f);
	for (i = 0; i < f->nthreads; i++)
		uv_thread_join(&f->tids[i]);
	if (f->threads) {
		uv_cond_destroy(&f->parsed);
		uv_cond_destroy(&f->more);
		uv_mutex_destroy(&f->lock);
	}
	/* the first side's texts, kept for matching, are no longer needed */
	for (i = 0; i < f->n; i++) {
		free(f->v[i]->text);
		f->v[i]->text = NULL;
	}
	ud_map_free(&f->first, NULL);
	free(f->v);
}

static void
keep_text(struct api_side *s, const char *path, char *text, size_t len)
{
	struct api_text *t = ud_xcalloc(1, sizeof(*t));

	t->path = ud_xstrdup(path);
	t->text = text;
	t->len = len;
	s->texts = ud_xgrow(s->texts, &s->atexts, s->ntexts + 1, sizeof(*s->texts));
	s->texts[s->ntexts++] = t;
	feed_push(s->feed, t);
	if (s->progress != NULL)
		ud_progress_update(s->progress, s->ntexts, s->expect);
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

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
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
load_git_in(struct api_side *s, const char *spec, const char *arch)
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

/*
 * load_git with libgit2 set up around it: only a revision needs it, and
 * its setup (the TLS backend reads the system's certificates) was ~15 ms
 * of every api-diff of two directories.  Nothing of libgit2's is kept: the
 * texts are copies.
 */
static int
load_git(struct api_side *s, const char *spec, const char *arch)
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
side_read(struct api_side *s, const char *spec, const char *arch, struct ud_progress *progress,
	  struct api_feed *feed)
{
	struct ud_treeinfo ti;
	char *inc;
	int rc;

	memset(s, 0, sizeof(*s));
	s->progress = progress;
	s->feed = feed;
	if (!is_dir(spec) && (rc = load_git(s, spec, arch)) != 1)
		goto sorted;
	if (!is_dir(spec)) {
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
		s->what = cmd_input_what(spec, &ti, p.plan.arch);
		cmd_close_plan(&p);
	} else {
		char *cause = NULL;

		rc = ud_headers_installed_take(ti.root, take_own, s, &cause) < 0 ? -1 : 0;
		if (rc < 0) {
			report_error("%s", cause);
			free(cause);
		}
		s->what = cmd_input_what(spec, &ti, NULL);
	}
	ud_treeinfo_free(&ti);
sorted:
	return rc;
}

/* Runs job(i, ctx) for i in [0, n) on up to the machine's processors, in threads. */
struct pool {
	void (*job)(size_t i, void *ctx);
	void *ctx;
	size_t n, next; /* next: the next job to take (atomically) */
};

static void
pool_worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->n)
		p->job(i, p->ctx);
}

static void
run_parallel(size_t n, void (*job)(size_t i, void *ctx), void *ctx)
{
	struct pool p = {job, ctx, n, 0};
	size_t nthreads = processors() - 1, started = 0, i;
	uv_thread_t *tids;

	if (nthreads > n)
		nthreads = n > 0 ? n - 1 : 0;
	tids = ud_xcalloc(nthreads + 1, sizeof(*tids));
	/* a thread that cannot start leaves its share to the others */
	for (i = 0; i < nthreads; i++)
		if (uv_thread_create(&tids[started], pool_worker, &p) == 0)
			started++;
	pool_worker(&p);
	for (i = 0; i < started; i++)
		uv_thread_join(&tids[i]);
	free(tids);
}

/* The models of the texts the sides hold (all parsed), each side sorted by path. */
static void
collect(struct api_side *const *sides, size_t nsides)
{
	size_t k, i;

	for (k = 0; k < nsides; k++) {
		struct api_side *s = sides[k];

		s->v = ud_xcalloc(s->ntexts + 1, sizeof(*s->v));
		s->n = s->alloc = s->ntexts;
		for (i = 0; i < s->ntexts; i++) {
			s->v[i] = s->texts[i]->model;
			free(s->texts[i]->path);
			free(s->texts[i]);
		}
		free(s->texts);
		s->texts = NULL;
		s->ntexts = s->atexts = 0;
		s->feed = NULL;
		ud_api_sort_headers(s->v, s->n);
	}
}

static void
heap_start(size_t releases)
{
	size_t threads = processors();

	thread_heap = releases * RELEASE_HEAP / threads;
	if (thread_heap < THREAD_HEAP_MIN)
		thread_heap = THREAD_HEAP_MIN;
	if (thread_heap > THREAD_HEAP_MAX)
		thread_heap = THREAD_HEAP_MAX;
	/* this one, the parsing threads (one fewer), and one resolving thread at half */
	ud_hugeheap_start(threads + 1, thread_heap);
}

int
api_side_load(struct api_side *s, const char *spec, const char *arch, struct ud_progress *progress)
{
	struct api_side *const sides[1] = {s};
	struct api_feed feed;
	int rc;

	heap_start(1);
	feed_start(&feed);
	rc = side_read(s, spec, arch, progress, &feed);
	feed_finish(&feed);
	collect(sides, 1);
	return rc < 0 ? -1 : 0;
}

int
api_side_load_pair(struct api_side *o, const char *old_spec, struct api_side *n,
		   const char *new_spec, const char *arch, struct ud_progress *progress[2],
		   const char **failed)
{
	struct api_side *const sides[2] = {o, n};
	struct api_feed feed;

	memset(n, 0, sizeof(*n));
	heap_start(2);
	feed_start(&feed);
	feed.pair = true;
	*failed = side_read(o, old_spec, arch, progress[0], &feed) < 0 ? old_spec : NULL;
	feed.second = true;
	if (*failed == NULL && side_read(n, new_spec, arch, progress[1], &feed) < 0)
		*failed = new_spec;
	/* what was read has its model, also after a failure (api_side_free frees them) */
	feed_finish(&feed);
	collect(sides, 2);
	return *failed != NULL ? -1 : 0;
}

struct resolve_job {
	struct api_side *side[2];
	struct ud_api_wanted want[2];
	const struct ud_abi *abi;
};

static void
wanted_one(size_t i, void *ctx)
{
	struct resolve_job *j = ctx;
	const struct api_side *other = j->side[1 - i];

	ud_api_wanted_own(j->side[i]->v, j->side[i]->n, other->v, other->n, &j->want[i]);
}

static void
resolve_one(size_t i, void *ctx)
{
	struct resolve_job *j = ctx;

	/*
	 * Resolving adds ~20 MB, most of it on this thread when it took
	 * over a parsing thread's heap, which parsing filled.
	 */
	ud_hugeheap_thread(thread_heap / 2);
	ud_api_resolve_wanted_version(j->side[i]->v, j->side[i]->n, &j->want[i], j->abi);
}

void
api_side_resolve_pair(struct api_side *o, struct api_side *n, const struct ud_abi *abi)
{
	struct resolve_job j = {{o, n}, {{NULL, NULL, 0, NULL}, {NULL, NULL, 0, NULL}}, abi};

	/* ud_api_resolve_wanted, its two sides' own marks on two threads */
	run_parallel(2, wanted_one, &j);
	ud_api_wanted_users(o->v, o->n, n->v, n->n, &j.want[0], &j.want[1]);
	run_parallel(2, resolve_one, &j);
}

struct diff_job {
	const struct api_side *o, *n;
	struct ud_api_diff *own, *includes;
};

static void
diff_part(size_t i, void *ctx)
{
	const struct diff_job *j = ctx;

	if (i == 0)
		ud_api_diff_versions_own(j->o->v, j->o->n, j->n->v, j->n->n, j->own);
	else
		ud_api_diff_includes_apart(j->o->v, j->o->n, j->n->v, j->n->n, j->includes);
}

void
api_side_diff_pair(const struct api_side *o, const struct api_side *n, struct ud_api_diff *d)
{
	struct ud_api_diff includes;
	struct diff_job j = {o, n, d, &includes};

	/* the #include visibility reads the versions only: beside the rest, on a second thread */
	memset(&includes, 0, sizeof(includes));
	run_parallel(2, diff_part, &j);
	ud_api_diff_merge(d, &includes);
}

const struct ud_api_header *
api_side_find(const char *path, void *ctx)
{
	const struct api_side *s = ctx;

	return ud_api_find_header(s->v, s->n, path);
}

/* Frees the models of s and what is left of its texts: not its summary (what, n). */
static void
free_models(struct api_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		ud_api_header_free(&s->v[i]);
	for (i = 0; i < s->ntexts; i++) {
		free(s->texts[i]->path);
		free(s->texts[i]->text);
		free(s->texts[i]);
	}
	free(s->texts);
	s->texts = NULL;
	s->ntexts = 0;
	free(s->v);
	s->v = NULL;
}

struct free_job {
	struct api_side *sides[2];
	void (*beside)(void *ctx);
	void *ctx;
};

static void
free_part(size_t i, void *ctx)
{
	struct free_job *j = ctx;

	if (i == 2)
		j->beside(j->ctx);
	else
		free_models(j->sides[i]);
}

void
api_side_free_pair(struct api_side *o, struct api_side *n, void (*beside)(void *ctx), void *ctx)
{
	struct free_job j = {{o, n}, beside, ctx};

	run_parallel(beside != NULL ? 3 : 2, free_part, &j);
	free(o->what);
	free(n->what);
}

/* Whether memory still held at exit would be reported (a leak checker watches). */
#if defined(__SANITIZE_ADDRESS__)
#define LEAKS_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEAKS_CHECKED 1
#endif
#endif
#ifndef LEAKS_CHECKED
#define LEAKS_CHECKED 0
#endif

void
api_side_exit_pair(struct api_side *o, struct api_side *n, void (*beside)(void *ctx), void *ctx)
{
	/*
	 * Freeing two models block by block (millions of small blocks, one
	 * malloc lock) was most of the end of api-diff, for a process that
	 * exits right after.
	 */
	if (LEAKS_CHECKED) {
		api_side_free_pair(o, n, beside, ctx);
		return;
	}
	if (beside != NULL)
		beside(ctx);
	free(o->what);
	free(n->what);
}

void
api_side_free(struct api_side *s)
{
	free_models(s);
	free(s->what);
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
