// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's batch (engine-int.h), in three steps.  On the loop thread,
 * the tree index and the install plan take in the paths and say which
 * headers and installed files to look at: the jobs.  On libuv's thread
 * pool, each is stat'ed, read, hashed and, when its content or what
 * decides its split changed, split and installed (the per-header
 * pipeline, hsplit.h and headers.h: no rule here).  Back on the loop
 * thread, the results are applied (engine-apply.c) in the batch's one
 * transaction, whose events carry the clock.
 *
 * A batch is cut into waves of jobs so that a full scan of a big tree
 * never holds every header's split in memory at once: each wave is
 * computed on the pool and applied before the next starts.  What a worker
 * may read is the contract at the top of engine.c.
 */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine-int.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"
#include "uapid/io/log.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/daemon/watch.h"
#include "uapid/util/xmalloc.h"

#define JOBS_PER_CHUNK 32 /* jobs per thread-pool request */
/*
 * Jobs computed before their results are applied.  A wave's results are
 * applied on the loop in one turn, so the wave is what a status waits for
 * at most: 128 headers apply in 10-50 ms, while 512 took up to 190 ms on a
 * 6.1 -> 6.12 checkout.  An installed header's API model is parsed on the
 * pool (engine-api.c): its apply writes its output, its rows and, when
 * its API changed, its text compressed, about 0.5 ms of CPU (64 took
 * 25-48 ms, and 80-290 ms of wall time on a loaded machine), so those go
 * 32 at a time.  Still four chunks on the pool per header wave.
 */
#define JOBS_PER_WAVE 128
#define INSTALLS_PER_WAVE 32
/*
 * A wave this small is computed on the loop thread: a lone save's header
 * takes tens of microseconds, less than waking a pool thread and hearing
 * back from it costs on a busy machine.
 */
#define INLINE_JOBS 4

/* One thread-pool request: a run of a wave's jobs. */
struct chunk {
	uv_work_t req;
	struct batch *b;	  /* for the loop thread's after_work_cb only */
	struct engine_snap *snap; /* a reference: what the worker reads */
	struct hjob *h;		  /* its jobs: the arrays do not move while chunks are out */
	size_t nh;
	struct ijob *i;
	size_t ni;
};

/* --- preparing a batch ----------------------------------------------------------- */

static void
add_hjob(struct batch *b, const char *path, bool force)
{
	struct ud_engine *e = b->e;
	struct hjob *j;
	struct hstate *old;

	ASSERT_NO_CHUNKS_OUT(b);
	if (ud_map_has(&b->queued, path))
		return;
	ud_map_put(&b->queued, path, (void *)1);
	b->hjobs = ud_xgrow(b->hjobs, &b->ahjobs, b->nhjobs + 1, sizeof(*b->hjobs));
	j = &b->hjobs[b->nhjobs++];
	memset(j, 0, sizeof(*j));
	j->path = ud_xstrdup(path);
	j->force = force || ud_map_has(&e->force_headers, path);
	/* the index's answers, copied: workers do not read the index (rule 1) */
	j->takes_part = ud_tindex_takes_part(e->idx, path);
	j->exported = ud_tindex_exported(e->idx, path);
	j->uapi_dir = ud_path_is_uapi(path);
	old = ud_map_get(&e->headers, path);
	if (old != NULL) {
		j->had_row = true;
		j->old = *old;
	}
	/* the index lost it where the tree could not be read: not gone until a stat says so */
	j->unsure = !j->takes_part && j->had_row && ud_engine_path_unsure(e, path);
	ud_engine_split_key(&b->snap->markers->set, path, j->key);
}

/*
 * The tree index could not read part of the tree (where): each place is a
 * failing directory, looked at again later; what the index lost there is
 * not gone (add_hjob's unsure).
 */
static void
index_failed(struct ud_engine *e, const struct ud_diags *problems, const char *where, bool dir)
{
	size_t i;

	for (i = 0; i < problems->n; i++) {
		const char *at = problems->v[i].path ? problems->v[i].path : where;

		/* a file looked at is looked at again as a file (its header's job) */
		ud_engine_fail_path(
			e, at, ud_xasprintf("%s: %s", at[0] ? at : ".", problems->v[i].message),
			dir || strcmp(at, where) != 0);
	}
}

/* The whole tree: the index built anew, every header it has and every header remembered. */
static void
prepare_full(struct batch *b)
{
	struct ud_engine *e = b->e;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_strlist paths = UD_STRLIST_INIT;
	struct ud_tindex *idx = NULL;
	const char *k;
	size_t i;

	if (ud_tindex_build(&idx, &e->src, &problems) < 0)
		index_failed(e, &problems, "", true);
	else
		ud_engine_path_ok(e, "", true);
	ud_diags_free(&problems);
	ud_tindex_free(e->idx);
	e->idx = idx;
	b->rep.full = true;
	b->kbuild_all = true;
	b->removed_dirty = true;
	ud_tindex_headers_under(e->idx, "", &paths);
	for (i = 0; i < paths.n; i++)
		add_hjob(b, paths.v[i], false);
	ud_strlist_free(&paths);
	/* the headers no longer in the index, in path order (not the map's) */
	i = 0;
	while (ud_map_next(&e->headers, &i, &k, NULL))
		ud_strlist_add(&paths, k);
	ud_strlist_sort(&paths);
	for (i = 0; i < paths.n; i++)
		add_hjob(b, paths.v[i], false);
	ud_strlist_free(&paths);
}

/* A directory changed (or its events were lost): what is there now, and what was there. */
static void
prepare_dir(struct batch *b, const char *dir)
{
	struct ud_engine *e = b->e;
	struct ud_strlist under = UD_STRLIST_INIT;
	const char *k;
	size_t i;

	ud_tindex_headers_under(e->idx, dir, &under);
	for (i = 0; i < under.n; i++)
		add_hjob(b, under.v[i], false);
	ud_strlist_free(&under);
	/* the headers it had that the index no longer has, in path order (not the map's) */
	i = 0;
	while (ud_map_next(&e->headers, &i, &k, NULL))
		if (has_prefix_dir(k, dir))
			ud_strlist_add(&under, k);
	ud_strlist_sort(&under);
	for (i = 0; i < under.n; i++)
		add_hjob(b, under.v[i], false);
	ud_strlist_free(&under);
	b->kbuild_all = true;
}

/*
 * One path the watcher reported, taken into the index first: its jobs
 * added; whether the install plan must be made again in b->prep_replan,
 * a changed path that is no header (a planned source, perhaps) in
 * b->prep_other, the headers whose export changed in b->prep_export.
 */
static void
prepare_path(struct batch *b, const char *p)
{
	struct ud_engine *e = b->e;
	struct ud_diags problems = UD_DIAGS_INIT;
	unsigned kinds = (unsigned)(uintptr_t)ud_map_get(&b->req->paths, p);
	bool existed = ud_tindex_has(e->idx, p);
	const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

	b->rep.paths++;
	if (ud_tindex_update(e->idx, p, &b->prep_export, &problems) < 0) {
		/* a header the index kept is looked at below: its own failure says it */
		if ((kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN)) || !is_header(e, p))
			index_failed(e, &problems, p,
				     (kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN)) != 0);
	} else {
		ud_engine_path_ok(e, p, true);
		if (!is_header(e, p))
			ud_engine_path_ok(e, p, false);
	}
	ud_diags_free(&problems);
	if (kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN)) {
		prepare_dir(b, p);
	} else if (is_header(e, p)) {
		add_hjob(b, p, (kinds & UD_SCHED_FORCE) != 0);
		b->verify_disk |= (kinds & UD_SCHED_FORCE) != 0;
	}
	if (ud_tindex_is_kbuild(e->idx, p) || strcmp(base, "Kbuild") == 0)
		b->kbuild_all = true;
	if (!b->prep_replan && ud_engine_wants_replan(e, p, kinds, existed))
		b->prep_replan = true;
	/* a planned source that is no header (headers are made again when their look finds new
	 * content) */
	if (!is_header(e, p))
		ud_strlist_add(&b->prep_other, p);
}

/*
 * A turn's slice of the paths: PREPARE_SLICE_NS of them at most (one at
 * least), so that a checkout's thousands of paths leave the loop to the
 * socket between slices.  True when all are taken.
 */
#define PREPARE_SLICE_NS (5u * 1000 * 1000)

static bool
prepare_slice(struct batch *b)
{
	uint64_t t0 = uv_hrtime();

	while (b->prep_i < b->prep_paths.n) {
		prepare_path(b, b->prep_paths.v[b->prep_i++]);
		if (uv_hrtime() - t0 > PREPARE_SLICE_NS)
			break;
	}
	return b->prep_i == b->prep_paths.n;
}

/* The installed headers the changed sources and the start-up check call for. */
static void
prepare_installs(struct batch *b, const struct ud_strlist *other_srcs)
{
	struct ud_engine *e = b->e;
	const struct ud_hdr_plan *plan = &b->snap->plan->plan;
	size_t i, fi;

	for (i = 0; i < other_srcs->n; i++) {
		const struct ud_hdr_file *f = ud_headers_plan_source(plan, other_srcs->v[i]);

		if (f != NULL)
			ud_engine_add_ijob(b, (size_t)(f - plan->v));
	}
	/* installed headers whose outputs are missing or damaged, in the plan's order */
	if (e->force_installed.n > 0)
		for (fi = 0; fi < plan->n; fi++)
			if (ud_map_has(&e->force_installed, plan->v[fi].dst))
				ud_engine_add_ijob(b, fi);
}

static void prepared(struct batch *b);

/* The paths are in the index: what they and the engine's state call for, then the waves. */
static void
prepare_rest(struct batch *b)
{
	struct ud_engine *e = b->e;
	struct ud_strlist forced = UD_STRLIST_INIT;
	bool replan_needed = b->prep_replan;
	const char *k;
	void *v;
	size_t i;

	for (i = 0; i < b->prep_export.n; i++)
		add_hjob(b, b->prep_export.v[i], false);
	/*
	 * Outputs a batch wrote or removed and could not record: their owners
	 * are made again and what they write checked on the disk too.
	 */
	i = 0;
	while (ud_map_next(&e->unrecorded, &i, &k, &v)) {
		const char *owner = v;

		if (strncmp(k, "install/include/", 16) == 0)
			ud_map_put(&e->force_installed, k + 16, (void *)1);
		else if (owner[0] != '\0' && strncmp(owner, "kbuild:", 7) != 0 &&
			 strcmp(owner, "removed") != 0)
			ud_map_put(&e->force_headers, owner, (void *)1);
		b->verify_disk = true;
	}
	/* headers whose outputs the start-up check found missing or damaged, in path order */
	i = 0;
	while (ud_map_next(&e->force_headers, &i, &k, NULL))
		ud_strlist_add(&forced, k);
	ud_strlist_sort(&forced);
	for (i = 0; i < forced.n; i++)
		add_hjob(b, forced.v[i], true);
	ud_strlist_free(&forced);
	ud_map_free(&e->force_headers, NULL);
	if (replan_needed) {
		uint64_t t = uv_hrtime();

		ud_engine_replan(b);
		ud_log(LOG_DEBUG, "batch: the install plan made again in %.2f ms",
		       (double)(uv_hrtime() - t) / 1e6);
	}
	/* the snapshot is complete: the plan the install jobs index into */
	b->snap->plan = ud_engine_plan_ref(e->plan);
	if (b->snap->plan != NULL)
		prepare_installs(b, &b->prep_other);
	ud_map_free(&e->force_installed, NULL);
	prepared(b);
}

static void
prep_idle_closed(uv_handle_t *h)
{
	free(h);
}

/* On the loop, a turn after the last: the next slice of the paths. */
static void
prep_idle_cb(uv_idle_t *h)
{
	struct batch *b = h->data;

	if (!prepare_slice(b))
		return;
	uv_close((uv_handle_t *)h, prep_idle_closed);
	b->prep_idle = NULL;
	prepare_rest(b);
}

static void
prepare(struct batch *b)
{
	struct ud_engine *e = b->e;
	const char *k;
	size_t i;

	b->verify_disk = b->req->force_all;
	b->prep_replan = e->plan == NULL && e->problem_install == NULL;
	if (b->req->force_all) {
		/* everything made again: the start-up check's path, for every output */
		i = 0;
		while (ud_map_next(&e->headers, &i, &k, NULL))
			ud_map_put(&e->force_headers, k, (void *)1);
		i = 0;
		while (ud_map_next(&e->installed, &i, &k, NULL))
			ud_map_put(&e->force_installed, k, (void *)1);
	}
	if (b->req->full || e->idx == NULL) {
		prepare_full(b);
		b->prep_replan = true;
		prepare_rest(b);
		return;
	}
	i = 0;
	while (ud_map_next(&b->req->paths, &i, &k, NULL))
		ud_strlist_add(&b->prep_paths, k);
	ud_strlist_sort(&b->prep_paths);
	if (prepare_slice(b)) {
		prepare_rest(b);
		return;
	}
	/* the rest a slice a turn, the socket served between them */
	b->prep_idle = ud_xcalloc(1, sizeof(*b->prep_idle));
	b->prep_idle->data = b;
	if (uv_idle_init(e->loop, b->prep_idle) < 0 ||
	    uv_idle_start(b->prep_idle, prep_idle_cb) < 0) {
		free(b->prep_idle); /* (uv_idle_init cannot fail, nor can uv_idle_start) */
		b->prep_idle = NULL;
		while (!prepare_slice(b))
			;
		prepare_rest(b);
	}
}

static void
compute_chunk(struct chunk *c)
{
	size_t k;

	for (k = 0; k < c->nh; k++)
		engine_compute_header(c->snap, &c->h[k]);
	for (k = 0; k < c->ni; k++)
		engine_compute_install(c->snap, &c->i[k]);
}

/* On a pool thread. */
static void
work_cb(uv_work_t *req)
{
	compute_chunk(req->data);
}

/* --- waves ----------------------------------------------------------------------------- */

static void next_wave(struct batch *b);

/* The wave's results applied; each job's texts are on disk now and go. */
static void
apply_wave(struct batch *b)
{
	size_t i;
	uint64_t t = uv_hrtime();

	ASSERT_NO_CHUNKS_OUT(b);
	for (i = b->wave_h0; i < b->wave_h; i++)
		ud_engine_apply_header(b, &b->hjobs[i]);
	for (i = b->wave_i0; i < b->wave_i; i++)
		ud_engine_apply_install(b, &b->ijobs[i]);
	for (i = b->wave_h0; i < b->wave_h; i++) {
		struct hjob *j = &b->hjobs[i];

		free(j->cause);
		free(j->blocks);
		free(j->diags);
		if (j->split)
			ud_hsplit_free(&j->h);
		ud_markers_free(&j->in_source);
		j->cause = j->blocks = j->diags = NULL;
		j->split = false;
	}
	for (i = b->wave_i0; i < b->wave_i; i++) {
		ud_installed_free(&b->ijobs[i].in);
		ud_engine_api_free(&b->ijobs[i].api);
	}
	ud_log(LOG_DEBUG, "batch: wave of %zu+%zu computed by %.2f ms, applied in %.2f ms",
	       b->wave_h - b->wave_h0, b->wave_i - b->wave_i0, (double)(t - b->t0) / 1e6,
	       (double)(uv_hrtime() - t) / 1e6);
}

/* The wave is computed: applied, and the next one started. */
static void
wave_done(struct batch *b)
{
	struct ud_engine *e = b->e;

	if (e->progress != NULL)
		e->progress(e->progress_ctx, b->progress_done, b->progress_total);
	apply_wave(b);
	next_wave(b);
}

/* On the loop thread, whether the request ran or was cancelled (it never is: the batch waits). */
static void
after_work_cb(uv_work_t *req, int status)
{
	struct chunk *c = req->data;
	struct batch *b = c->b;

	if (status < 0)
		compute_chunk(c); /* cancelled (UV_ECANCELED): computed here after all */
	b->progress_done += c->nh + c->ni;
	ud_engine_snap_unref(c->snap);
	free(c);
	if (--b->chunks_out == 0)
		wave_done(b);
}

/*
 * Hands a run of jobs to the pool; one the pool refuses is computed here
 * (rule 5), its after_work never to come.
 */
static void
queue_chunk(struct batch *b, struct hjob *h, size_t nh, struct ijob *i, size_t ni)
{
	struct chunk *c = ud_xcalloc(1, sizeof(*c));
	int rc;

	c->b = b;
	c->snap = ud_engine_snap_ref(b->snap);
	c->h = h;
	c->nh = nh;
	c->i = i;
	c->ni = ni;
	c->req.data = c;
	if ((rc = uv_queue_work(b->e->loop, &c->req, work_cb, after_work_cb)) == 0) {
		b->chunks_out++;
		return;
	}
	ud_log(LOG_WARNING, "batch: the thread pool refused work (%s): computed on the loop",
	       uv_strerror(rc));
	compute_chunk(c);
	b->progress_done += nh + ni;
	ud_engine_snap_unref(c->snap);
	free(c);
}

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void finish(struct batch *b);

/*
 * The next wave: headers first, then the installed headers (whose
 * sources the headers' waves have looked at, adding the ones that
 * changed).  When all are done, the batch finishes.
 */
static void
next_wave(struct batch *b)
{
	size_t n;

	ASSERT_NO_CHUNKS_OUT(b);
	b->wave_h0 = b->wave_h;
	b->wave_i0 = b->wave_i;
	if (b->wave_h < b->nhjobs)
		b->wave_h += min_size(b->nhjobs - b->wave_h, JOBS_PER_WAVE);
	else if (b->wave_i < b->nijobs)
		b->wave_i += min_size(b->nijobs - b->wave_i, INSTALLS_PER_WAVE);
	else {
		finish(b);
		return;
	}
	b->progress_total = b->nhjobs + b->nijobs;
	/* what the install jobs' workers need of the engine and the store, copied now */
	for (n = b->wave_i0; n < b->wave_i; n++)
		ud_engine_prepare_ijob(b, &b->ijobs[n]);
	if ((b->wave_h - b->wave_h0) + (b->wave_i - b->wave_i0) <= INLINE_JOBS) {
		struct chunk c = {.snap = b->snap,
				  .h = b->hjobs != NULL ? b->hjobs + b->wave_h0 : NULL,
				  .nh = b->wave_h - b->wave_h0,
				  .i = b->ijobs != NULL ? b->ijobs + b->wave_i0 : NULL,
				  .ni = b->wave_i - b->wave_i0};

		compute_chunk(&c);
		b->progress_done += c.nh + c.ni;
		wave_done(b);
		return;
	}
	for (n = b->wave_h0; n < b->wave_h; n += JOBS_PER_CHUNK)
		queue_chunk(b, &b->hjobs[n], min_size(b->wave_h - n, JOBS_PER_CHUNK), NULL, 0);
	for (n = b->wave_i0; n < b->wave_i; n += JOBS_PER_CHUNK)
		queue_chunk(b, NULL, 0, &b->ijobs[n], min_size(b->wave_i - n, JOBS_PER_CHUNK));
	if (b->chunks_out == 0)
		wave_done(b); /* the pool took none: all computed here */
}

/* --- a batch's life ------------------------------------------------------------------------- */

static void
batch_free(struct batch *b)
{
	size_t i;

	ASSERT_NO_CHUNKS_OUT(b);
	for (i = 0; i < b->nhjobs; i++) {
		struct hjob *j = &b->hjobs[i];

		free(j->path);
		free(j->cause);
		free(j->blocks);
		free(j->diags);
		if (j->split)
			ud_hsplit_free(&j->h);
		ud_markers_free(&j->in_source);
	}
	free(b->hjobs);
	for (i = 0; i < b->nijobs; i++) {
		ud_installed_free(&b->ijobs[i].in);
		ud_engine_api_free(&b->ijobs[i].api);
	}
	free(b->ijobs);
	ud_map_free(&b->queued, NULL);
	ud_strlist_free(&b->uninstall);
	ud_strlist_free(&b->prep_paths);
	ud_strlist_free(&b->prep_other);
	ud_strlist_free(&b->prep_export);
	ud_strlist_free(&b->dirty_dirs);
	ud_engine_snap_unref(b->snap);
	ud_sched_batch_free(b->req);
	free(b->rep.cause);
	ud_strlist_free(&b->rep.changed);
	for (i = 0; i < b->rep.napi; i++)
		free(b->rep.api[i].path);
	free(b->rep.api);
	ud_map_free(&b->changed_set, NULL);
	free(b->fault_cause);
	ud_map_free(&b->touched, free);
	free(b);
}

/* The batch is over: its report to the caller, and the engine free for the next. */
static void
report(struct batch *b)
{
	struct ud_engine *e = b->e;

	e->batch = NULL;
	ud_strlist_sort(&b->rep.changed);
	b->done(b->done_ctx, &b->rep);
	batch_free(b);
}

/*
 * The batch is rolled back: what it was to make whatever the store says
 * (forced: a damaged output, a resplit) is forced in the next one too.
 * Its other jobs are found again by comparing with the rows.
 */
static void
force_again(struct batch *b)
{
	struct ud_engine *e = b->e;
	size_t i;

	for (i = 0; i < b->nhjobs; i++)
		if (b->hjobs[i].force)
			ud_map_put(&e->force_headers, b->hjobs[i].path, (void *)1);
	for (i = 0; i < b->nijobs; i++)
		ud_map_put(&e->force_installed, b->snap->plan->plan.v[b->ijobs[i].fi].dst,
			   (void *)1);
}

/* The batch's end is applied: it is committed (or rolled back) and reported. */
static void
commit_batch(struct batch *b)
{
	struct ud_engine *e = b->e;
	char *cause = NULL;
	int rc;
	uint64_t t1 = b->t_end, t2 = uv_hrtime();

	if (b->fault != 0) {
		/* an output or a write to the store failed: nothing of the batch is kept */
		ud_store_rollback(e->store);
		rc = b->fault;
		cause = b->fault_cause;
		b->fault_cause = NULL;
	} else {
		rc = ud_store_commit(e->store, &cause);
	}
	ud_log(LOG_DEBUG, "batch: computed and applied at %.2f ms, lists %.2f ms, commit %.2f ms",
	       (double)(t1 - b->t0) / 1e6, (double)(t2 - t1) / 1e6,
	       (double)(uv_hrtime() - t2) / 1e6);
	b->rep.ns = uv_hrtime() - b->t0;
	if (rc < 0) {
		/*
		 * Nothing of the batch is recorded, nor what the socket wrote in
		 * its transaction (rule 6): remember what the store says, and
		 * what the batch changed on the disk; the caller tries again.
		 */
		b->rep.error = rc;
		b->rep.cause = cause;
		ud_engine_keep_unrecorded(b);
		force_again(b);
		ud_engine_load_state(e, NULL);
		ud_engine_load_problems(e);
		ud_engine_reload_store_markers(e, NULL);
	} else if (e->unrecorded.n > 0) {
		ud_engine_tidy_unrecorded(e);
	}
	b->rep.clock = e->clock = ud_store_clock(e->store);
	if (b->rep.full)
		malloc_trim(0); /* a full scan's buffers are freed: give the pages back */
	report(b);
}

static void
finish(struct batch *b)
{
	b->t_end = uv_hrtime();
	ud_engine_failing_problem(b->e);
	ud_engine_apply_end(b, commit_batch);
}

static void
begin_batch(struct ud_engine *e, struct ud_sched_batch *req, ud_engine_done_fn done, void *ctx)
{
	struct batch *b = ud_xcalloc(1, sizeof(*b));
	char *cause = NULL;
	int rc;

	assert(e->batch == NULL);
	b->e = e;
	b->req = req;
	b->done = done;
	b->done_ctx = ctx;
	b->t0 = uv_hrtime();
	e->batch = b;
	if ((rc = ud_store_begin(e->store, &cause)) < 0) {
		b->rep.error = rc;
		b->rep.cause = cause;
		report(b);
		return;
	}
	b->snap = ud_engine_snap_take(e);
	prepare(b); /* then prepared(b), now or a few turns later */
}

/* The batch's jobs are known: its waves. */
static void
prepared(struct batch *b)
{
	ud_log(LOG_DEBUG, "batch: prepared %zu header and %zu install jobs in %.2f ms%s", b->nhjobs,
	       b->nijobs, (double)(uv_hrtime() - b->t0) / 1e6,
	       b->rep.replanned ? " (replanned)" : "");
	b->progress_total = b->nhjobs + b->nijobs;
	next_wave(b);
}

void
ud_engine_batch(struct ud_engine *e, struct ud_sched_batch *b, ud_engine_done_fn done, void *ctx)
{
	begin_batch(e, b, done, ctx);
}

int
ud_engine_start(struct ud_engine *e, ud_engine_done_fn done, void *ctx, char **cause)
{
	struct ud_sched_batch *b;
	char *split;
	int rc;

	if ((rc = ud_mkdir_p_mode(e->state_dir, 0700, cause)) < 0)
		return rc;
	if ((rc = ud_engine_verify_outputs(e, cause)) < 0)
		return rc;
	/* split/ exists even when nothing is split, as uapid split --output makes it */
	split = ud_xasprintf("%s/split", e->state_dir);
	rc = ud_mkdir_p_mode(split, 0700, cause);
	free(split);
	if (rc < 0)
		return rc;
	b = ud_xcalloc(1, sizeof(*b));
	b->full = true;
	b->first_ns = uv_hrtime();
	begin_batch(e, b, done, ctx);
	return 0;
}
