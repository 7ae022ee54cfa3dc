// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Versions of the installed headers made into API models on the machine's
 * processors (load.h).  Each text is parsed as soon as it is handed over,
 * on the other processors (and on the caller's thread once reading is
 * over): ud_api_parse and ud_api_resolve touch only their own headers.
 * Resolving and diffing a pair run their two halves on two threads.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "uapid/api/load.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"
#include "api-stages.h"

size_t
ud_api_threads(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
}

/* A header to model: its installed text, kept until its model is made. */
struct ud_api_text {
	char *path;
	char *text; /* NULL once parsed, unless kept */
	size_t len;
	struct ud_api_header model;
	bool keep;   /* a first version's: its text is kept for the second's to match */
	bool parsed; /* model made (under the load's lock) */
	const struct ud_api_text *twin;	   /* a first version's of the same path and bytes */
	const struct ud_api_header *known; /* a model made by an earlier load: copied */
};

/* A model an earlier load made, and the text it was made from. */
struct known_model {
	char *text;
	size_t len;
	struct ud_api_header model;
	struct known_model *next; /* another text of the same path */
};

struct ud_api_models {
	struct ud_map by_path; /* path -> struct known_model */
};

struct ud_api_models *
ud_api_models_new(void)
{
	return ud_xcalloc(1, sizeof(struct ud_api_models));
}

static void
known_free(void *v)
{
	struct known_model *k = v, *next;

	for (; k != NULL; k = next) {
		next = k->next;
		free(k->text);
		ud_api_header_free(&k->model);
		free(k);
	}
}

void
ud_api_models_free(struct ud_api_models *m)
{
	if (m == NULL)
		return;
	ud_map_free(&m->by_path, known_free);
	free(m);
}

static const struct known_model *
known_find(const struct ud_api_models *m, const char *path, const char *text, size_t len)
{
	const struct known_model *k;

	for (k = ud_map_get(&m->by_path, path); k != NULL; k = k->next)
		if (k->len == len && memcmp(k->text, text, len) == 0)
			return k;
	return NULL;
}

/*
 * The texts handed over, in order, for the parsing threads to take: a
 * queue that only grows, closed when reading is over.
 */
struct ud_api_load {
	uv_mutex_t lock;
	uv_cond_t more; /* a text queued, or the load closed */
	struct ud_api_text **v;
	size_t n, alloc, next; /* next: the next text to parse */
	bool closed;
	bool threads;	  /* the lock and threads are there: else all is parsed at the end */
	uv_cond_t parsed; /* a model made: a twin waited for may be there */
	/* loading a pair: its first version's texts by path, then matching the second's */
	bool pair, second;
	struct ud_map first;
	struct ud_api_version *cur, *versions[2];
	struct ud_api_models *known; /* models of earlier loads, or NULL */
	ud_api_thread_fn *on_thread;
	uv_thread_t tids[7];
	size_t nthreads;
};

/*
 * On the first version: t kept and found by its path.  On the second:
 * t's twin, a first version's text of the same path and bytes, whose
 * model t will copy (t's own text then freed).
 */
static void
load_match(struct ud_api_load *l, struct ud_api_text *t)
{
	const struct ud_api_text *first;
	const struct known_model *k;

	if (l->known != NULL && (k = known_find(l->known, t->path, t->text, t->len)) != NULL) {
		t->known = &k->model;
		free(t->text);
		t->text = NULL;
		return;
	}
	if (l->known != NULL)
		t->keep = true; /* for ud_api_load_finish to add to the known models */
	if (!l->pair)
		return;
	if (!l->second) {
		t->keep = true;
		ud_map_put(&l->first, t->path, t);
		return;
	}
	first = ud_map_get(&l->first, t->path);
	if (first != NULL && first->len == t->len && memcmp(first->text, t->text, t->len) == 0) {
		t->twin = first;
		free(t->text);
		t->text = NULL;
	}
}

void
ud_api_load_text(struct ud_api_load *l, const char *path, char *text, size_t len)
{
	struct ud_api_version *v = l->cur;
	struct ud_api_text *t = ud_xcalloc(1, sizeof(*t));

	t->path = ud_xstrdup(path);
	t->text = text;
	t->len = len;
	v->texts = ud_xgrow(v->texts, &v->atexts, v->ntexts + 1, sizeof(*v->texts));
	v->texts[v->ntexts++] = t;
	load_match(l, t);
	if (l->threads)
		uv_mutex_lock(&l->lock);
	l->v = ud_xgrow(l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = t;
	if (l->threads) {
		uv_cond_signal(&l->more);
		uv_mutex_unlock(&l->lock);
	}
}

/*
 * Parses what the load holds until it is closed and empty.  A twin is
 * always queued before its second, so it is parsed or being parsed (by a
 * thread that waits for nothing) when its second is taken.
 */
static void
load_worker(void *arg)
{
	struct ud_api_load *l = arg;
	struct ud_api_text *done = NULL;

	if (l->on_thread != NULL)
		l->on_thread(UD_API_THREAD_PARSE);
	for (;;) {
		struct ud_api_text *t = NULL;

		if (l->threads) {
			uv_mutex_lock(&l->lock);
			if (done != NULL) {
				done->parsed = true;
				uv_cond_broadcast(&l->parsed);
			}
			while (l->next == l->n && !l->closed)
				uv_cond_wait(&l->more, &l->lock);
		} else if (done != NULL) {
			done->parsed = true;
		}
		if (l->next < l->n)
			t = l->v[l->next++];
		if (t != NULL && t->twin != NULL && l->threads)
			while (!t->twin->parsed)
				uv_cond_wait(&l->parsed, &l->lock);
		if (l->threads)
			uv_mutex_unlock(&l->lock);
		if (t == NULL)
			return;
		if (t->known != NULL) {
			ud_api_header_copy(&t->model, t->known);
		} else if (t->twin != NULL) {
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

struct ud_api_load *
ud_api_load_start(struct ud_api_version *first, bool pair, ud_api_thread_fn *on_thread)
{
	struct ud_api_load *l = ud_xcalloc(1, sizeof(*l));
	size_t want = ud_api_threads() - 1, i;

	memset(first, 0, sizeof(*first));
	l->pair = pair;
	l->cur = l->versions[0] = first;
	l->on_thread = on_thread;
	if (want == 0 || uv_mutex_init(&l->lock) != 0)
		return l;
	if (uv_cond_init(&l->more) != 0) {
		uv_mutex_destroy(&l->lock);
		return l;
	}
	if (uv_cond_init(&l->parsed) != 0) {
		uv_cond_destroy(&l->more);
		uv_mutex_destroy(&l->lock);
		return l;
	}
	l->threads = true;
	/* a thread that cannot start leaves its share to the others (and to the caller's) */
	for (i = 0; i < want; i++)
		if (uv_thread_create(&l->tids[l->nthreads], load_worker, l) == 0)
			l->nthreads++;
	return l;
}

void
ud_api_load_known(struct ud_api_load *l, struct ud_api_models *known)
{
	l->known = known;
}

void
ud_api_load_next(struct ud_api_load *l, struct ud_api_version *second)
{
	memset(second, 0, sizeof(*second));
	l->second = true;
	l->cur = l->versions[1] = second;
}

/* The models of the texts v holds (all parsed), sorted by path. */
static void
collect(struct ud_api_version *v)
{
	size_t i;

	v->v = ud_xcalloc(v->ntexts + 1, sizeof(*v->v));
	v->n = v->alloc = v->ntexts;
	for (i = 0; i < v->ntexts; i++) {
		v->v[i] = v->texts[i]->model;
		free(v->texts[i]->path);
		free(v->texts[i]);
	}
	free(v->texts);
	v->texts = NULL;
	v->ntexts = v->atexts = 0;
	ud_api_sort_headers(v->v, v->n);
}

void
ud_api_load_finish(struct ud_api_load *l)
{
	size_t i;

	if (l->threads) {
		uv_mutex_lock(&l->lock);
		l->closed = true;
		uv_cond_broadcast(&l->more);
		uv_mutex_unlock(&l->lock);
	} else {
		l->closed = true;
	}
	load_worker(l);
	for (i = 0; i < l->nthreads; i++)
		uv_thread_join(&l->tids[i]);
	if (l->threads) {
		uv_cond_destroy(&l->parsed);
		uv_cond_destroy(&l->more);
		uv_mutex_destroy(&l->lock);
	}
	/*
	 * The first version's texts, kept for matching, are no longer needed;
	 * with known models, each text parsed here is one more of them.
	 */
	for (i = 0; i < l->n; i++) {
		struct ud_api_text *t = l->v[i];

		if (l->known != NULL && t->text != NULL && t->twin == NULL &&
		    known_find(l->known, t->path, t->text, t->len) == NULL) {
			struct known_model *k = ud_xcalloc(1, sizeof(*k));

			k->text = t->text;
			k->len = t->len;
			ud_api_header_copy(&k->model, &t->model);
			k->next = ud_map_get(&l->known->by_path, t->path);
			ud_map_put(&l->known->by_path, t->path, k);
		} else {
			free(t->text);
		}
		t->text = NULL;
	}
	ud_map_free(&l->first, NULL);
	free(l->v);
	for (i = 0; i < 2; i++)
		if (l->versions[i] != NULL)
			collect(l->versions[i]);
	free(l);
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
	size_t nthreads = ud_api_threads() - 1, started = 0, i;
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

struct resolve_job {
	struct ud_api_version *version[2];
	struct ud_api_wanted want[2];
	const struct ud_abi *abi;
	ud_api_thread_fn *on_thread;
};

static void
wanted_one(size_t i, void *ctx)
{
	struct resolve_job *j = ctx;
	const struct ud_api_version *other = j->version[1 - i];

	ud_api_wanted_own(j->version[i]->v, j->version[i]->n, other->v, other->n, &j->want[i]);
}

static void
resolve_one(size_t i, void *ctx)
{
	struct resolve_job *j = ctx;

	if (j->on_thread != NULL)
		j->on_thread(UD_API_THREAD_RESOLVE);
	ud_api_resolve_wanted_version(j->version[i]->v, j->version[i]->n, &j->want[i], j->abi);
}

static bool every_symbol;

void
ud_api_resolve_every_symbol(bool on)
{
	/* written only when it changes: a caller may say it again while others resolve */
	if (every_symbol != on)
		every_symbol = on;
}

void
ud_api_versions_resolve(struct ud_api_version *o, struct ud_api_version *n,
			const struct ud_abi *abi, ud_api_thread_fn *on_thread)
{
	struct resolve_job j = {
		{o, n},
		{{NULL, NULL, 0, NULL, NULL, NULL}, {NULL, NULL, 0, NULL, NULL, NULL}},
		abi,
		on_thread};

	/* ud_api_resolve_wanted, its two versions' own marks on two threads */
	run_parallel(2, wanted_one, &j);
	if (every_symbol) {
		ud_api_wanted_every_symbol(&j.want[0]);
		ud_api_wanted_every_symbol(&j.want[1]);
	}
	ud_api_wanted_users(o->v, o->n, n->v, n->n, &j.want[0], &j.want[1]);
	run_parallel(2, resolve_one, &j);
}

struct diff_job {
	const struct ud_api_version *o, *n;
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
ud_api_versions_diff(const struct ud_api_version *o, const struct ud_api_version *n,
		     struct ud_api_diff *d)
{
	struct ud_api_diff includes;
	struct diff_job j = {o, n, d, &includes};

	/* the #include visibility reads the versions only: beside the rest, on a second thread */
	memset(&includes, 0, sizeof(includes));
	run_parallel(2, diff_part, &j);
	ud_api_diff_merge(d, &includes);
}

const struct ud_api_header *
ud_api_version_header(const struct ud_api_version *v, const char *path)
{
	return ud_api_find_header(v->v, v->n, path);
}

const struct ud_api_header *
ud_api_version_find(const char *path, void *ctx)
{
	return ud_api_version_header(ctx, path);
}

/* Frees the models of v and what is left of its texts: not its summary (what, n). */
static void
free_models(struct ud_api_version *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		ud_api_header_free(&v->v[i]);
	for (i = 0; i < v->ntexts; i++) {
		free(v->texts[i]->path);
		free(v->texts[i]->text);
		free(v->texts[i]);
	}
	free(v->texts);
	v->texts = NULL;
	v->ntexts = 0;
	free(v->v);
	v->v = NULL;
}

void
ud_api_version_copy(struct ud_api_version *dst, const struct ud_api_version *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->v = ud_xcalloc(src->n + 1, sizeof(*dst->v));
	dst->n = dst->alloc = src->n;
	for (i = 0; i < src->n; i++)
		ud_api_header_copy(&dst->v[i], &src->v[i]);
	dst->what = src->what != NULL ? ud_xstrdup(src->what) : NULL;
}

void
ud_api_version_free(struct ud_api_version *v)
{
	free_models(v);
	free(v->what);
	v->what = NULL;
}

struct free_job {
	struct ud_api_version *versions[2];
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
		free_models(j->versions[i]);
}

void
ud_api_versions_free(struct ud_api_version *o, struct ud_api_version *n, void (*beside)(void *ctx),
		     void *ctx)
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
ud_api_versions_exit(struct ud_api_version *o, struct ud_api_version *n, void (*beside)(void *ctx),
		     void *ctx)
{
	/*
	 * Freeing two models block by block (millions of small blocks, one
	 * malloc lock) was most of the end of api-diff, for a process that
	 * exits right after.
	 */
	if (LEAKS_CHECKED) {
		ud_api_versions_free(o, n, beside, ctx);
		return;
	}
	if (beside != NULL)
		beside(ctx);
	free(o->what);
	free(n->what);
}
