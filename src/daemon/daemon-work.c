// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's work (daemon-int.h): the watcher's events go to the
 * scheduler, its batches to the engine, their reports to the log, to
 * systemd and to the socket's subscribers; with --branches, the follower
 * keeps the uapi branches current and its updates are news too.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "daemon-int.h"
#include "uapid/io/log.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

/*
 * Without enough watches, how often the tree is looked at
 * (UAPID_RESCAN_MS changes it, for tests and for big trees).
 */
#define PERIODIC_RESCAN_MS 10000

/* " (now N)", or "" where /proc/sys cannot be read (ProcSubset=pid under the unit). */
static const char *
watch_limit_now(void)
{
	static char v[48];
	char n[32];
	FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "r");

	v[0] = '\0';
	if (f != NULL && fgets(n, sizeof(n), f) != NULL) {
		n[strcspn(n, "\n")] = '\0';
		snprintf(v, sizeof(v), " (now %s)", n);
	}
	if (f != NULL)
		fclose(f);
	return v;
}

static uint64_t
rescan_ms(void)
{
	const char *v = getenv("UAPID_RESCAN_MS");
	long ms = v != NULL ? strtol(v, NULL, 10) : 0;

	return ms > 0 ? (uint64_t)ms : PERIODIC_RESCAN_MS;
}

/* --- the watcher ------------------------------------------------------------------ */

void
ud_daemon_watch_event(void *ctx, const char *rel, unsigned kinds)
{
	struct daemon *d = ctx;

	if (strcmp(rel, ".git") == 0 || strncmp(rel, ".git/", 5) == 0)
		return; /* git's own files: its index lock is looked at before each batch */
	if (kinds & UD_WATCH_LIMIT) {
		ud_log(LOG_WARNING,
		       "the inotify watch limit is reached (%s is not watched): raise it with "
		       "'sysctl fs.inotify.max_user_watches=N'%s; until then the tree is "
		       "looked at every %.1f s",
		       rel[0] ? rel : ".", watch_limit_now(), (double)rescan_ms() / 1000);
		return; /* the periodic rescans start after the batch in progress */
	}
	if (kinds & UD_WATCH_RESCAN) {
		if (rel[0] == '\0') {
			ud_log(LOG_NOTICE,
			       "inotify events were lost (queue overflow): looking at the "
			       "whole tree again");
			ud_sched_full(d->sched);
		} else {
			ud_log(LOG_NOTICE, "%s: its watch was lost: looking at it again", rel);
			ud_sched_note(d->sched, rel, kinds);
		}
		return;
	}
	ud_sched_note(d->sched, rel, kinds);
}

enum ud_watch_mode
ud_daemon_watch_filter(void *ctx, const char *rel)
{
	struct daemon *d = ctx;

	return (enum ud_watch_mode)ud_engine_dir_interest(d->engine, rel);
}

/* --- batches ---------------------------------------------------------------------- */

static void
on_rescan(uv_timer_t *t)
{
	struct daemon *d = t->data;

	ud_sched_full(d->sched);
}

/* Watches the directories the install plan read from, as they become known. */
static void
watch_plan_dirs(struct daemon *d)
{
	const struct ud_strlist *dirs = ud_engine_plan_dirs(d->engine);
	size_t i;

	for (i = 0; i < dirs->n; i++)
		if (!ud_watch_has(d->watch, dirs->v[i]))
			(void)ud_watch_add(d->watch, dirs->v[i], NULL);
}

/*
 * A batch that could not be recorded is tried again, the whole tree
 * looked at, after a back-off on the scheduler's timer: 100 ms, doubled
 * at each failure up to 3.2 s, so a disk that fills up is neither
 * hammered nor left behind for long once space comes back.
 */
#define RETRY_FIRST_MS 100
#define RETRY_MAX_MS 3200

static void
batch_failed(struct daemon *d, const struct ud_engine_report *r)
{
	const char *cause = r->cause != NULL ? r->cause : strerror(-r->error);
	bool same = d->fault != NULL && strcmp(d->fault, cause) == 0;

	if (d->fault == NULL) {
		d->fault_since = uv_hrtime();
		d->retry_ms = RETRY_FIRST_MS;
	} else if ((d->retry_ms *= 2) > RETRY_MAX_MS) {
		d->retry_ms = RETRY_MAX_MS;
	}
	d->retries++;
	free(d->fault);
	d->fault = ud_xstrdup(cause);
	/* said once, and again when the cause changes; each try is in the debug log */
	ud_log(same ? LOG_DEBUG : LOG_ERR, "batch not recorded: %s: tried again in %.1f s", cause,
	       d->retry_ms / 1000.0);
	ud_sched_retry(d->sched, d->retry_ms);
	ud_daemon_update_status(d);
}

/* A batch is recorded after some were not: the store has caught up. */
static void
fault_over(struct daemon *d)
{
	ud_log(LOG_NOTICE, "state recorded again after %.1f s and %u tr%s",
	       (double)(uv_hrtime() - d->fault_since) / 1e9, d->retries,
	       d->retries == 1 ? "y" : "ies");
	free(d->fault);
	d->fault = NULL;
	d->fault_since = 0;
	d->retry_ms = d->retries = 0;
}

/*
 * Paths that could not be read (engine.h's failing paths: EMFILE, a
 * directory without permission) are looked at again, those paths only,
 * after a back-off: 100 ms, doubled at each try up to 6.4 s.  A
 * permanent error then costs a stat or a listing every 6.4 s, not a
 * look at the whole tree.
 */
#define REREAD_FIRST_MS 100
#define REREAD_MAX_MS 6400

static void
note_failing(void *ctx, const char *path, bool dir)
{
	struct daemon *d = ctx;

	/*
	 * As if its name had just come: a header the index could not stat when
	 * it was made is new to the install plan too (engine-plan.c replans).
	 */
	ud_sched_note(d->sched, path, dir ? UD_WATCH_DIR | UD_WATCH_ENTRY : UD_WATCH_ENTRY);
}

static void
on_reread(uv_timer_t *t)
{
	struct daemon *d = t->data;

	if (!d->stopping)
		ud_engine_each_failing(d->engine, note_failing, d);
}

static void
count_failing(void *ctx, const char *path, bool dir)
{
	(void)path, (void)dir;
	(*(size_t *)ctx)++;
}

/* After each recorded batch: the failing paths' next look, or the back-off reset. */
static void
schedule_reread(struct daemon *d)
{
	size_t n = 0;
	int rc;

	ud_engine_each_failing(d->engine, count_failing, &n);
	if (n == 0) {
		d->reread_ms = 0;
		return;
	}
	if (uv_is_active((uv_handle_t *)&d->reread))
		return; /* a look is due already (the batch was some other work) */
	d->reread_ms = d->reread_ms == 0 ? REREAD_FIRST_MS : d->reread_ms * 2;
	if (d->reread_ms > REREAD_MAX_MS)
		d->reread_ms = REREAD_MAX_MS;
	if ((rc = uv_timer_start(&d->reread, on_reread, d->reread_ms, 0)) < 0)
		ud_log(LOG_ERR, "looking again at what could not be read: %s", uv_strerror(rc));
}

static void
after_batch(struct daemon *d, const struct ud_engine_report *r)
{
	int rc = 0;

	d->batches++;
	d->last_batch_ns = r->ns;
	if (r->error < 0) {
		batch_failed(d, r);
		return;
	}
	if (d->fault != NULL)
		fault_over(d);
	schedule_reread(d);
	watch_plan_dirs(d);
	d->last_batch_at = (uint64_t)time(NULL);
	if (r->changed.n > 0 && d->rpc != NULL && ud_rpc_subscribers(d->rpc) > 0) {
		json_t *files = json_array();
		size_t i;

		for (i = 0; i < r->changed.n; i++)
			json_array_append_new(files, json_string(r->changed.v[i]));
		json_t *params =
			json_pack("{s:I, s:o}", "clock", (json_int_t)r->clock, "files", files);

		/* installed headers whose userspace API changed, with the verdicts */
		if (r->napi > 0) {
			json_t *api = json_object();

			for (i = 0; i < r->napi; i++)
				json_object_set_new(api, r->api[i].path,
						    json_pack("{s:i, s:i, s:i}", "breaking",
							      (int)r->api[i].breaking, "review",
							      (int)r->api[i].review, "compatible",
							      (int)r->api[i].compatible));
			json_object_set_new(params, "api", api);
		}
		ud_rpc_notify_all(d->rpc, "changed", params);
		json_decref(params);
	}
	/*
	 * Degraded: the next rescan starts a period after the last one ended,
	 * not on a fixed rate, so that a tree whose scan takes longer than the
	 * period still leaves the daemon idle between scans.
	 */
	if (ud_watch_degraded(d->watch) && (!d->rescan_on || r->full)) {
		if (!d->rescan_on)
			ud_store_set_problem(ud_engine_store(d->engine), "watch",
					     "inotify watch limit reached: periodic rescans",
					     r->clock, NULL);
		if ((rc = uv_timer_start(&d->rescan, on_rescan, rescan_ms(), 0)) < 0)
			ud_log(LOG_ERR, "periodic rescans: %s", uv_strerror(rc));
		d->rescan_on = rc == 0;
	}
	/* a periodic rescan that found nothing is not news */
	if (r->written + r->removed + r->failed > 0 ||
	    (r->full && !(d->rescan_on && r->paths == 0)))
		ud_log(r->failed > 0 ? LOG_WARNING : LOG_INFO,
		       "%s: %zu path%s, %zu header%s split again, %zu installed header%s made, %zu "
		       "written, %zu removed%s%s, %.1f ms (clock %" PRId64 ")",
		       r->full ? "scan" : "batch", r->paths, r->paths == 1 ? "" : "s", r->resplit,
		       r->resplit == 1 ? "" : "s", r->reinstalled, r->reinstalled == 1 ? "" : "s",
		       r->written, r->removed, r->failed > 0 ? ", failed: " : "",
		       r->failed > 0 ? "see above" : "", (double)r->ns / 1e6, r->clock);
	ud_daemon_update_status(d);
}

/*
 * The store's upkeep (store.h's ud_store_maintain: the retention's trim,
 * an incremental vacuum, wal_checkpoint(TRUNCATE)), at most once a minute
 * (UAPID_UPKEEP_MS for tests), or every 5 s while the WAL is over 16 MiB,
 * after a batch: the store only grows by batches.  It runs on the thread pool on a connection of
 * its own, the scheduler held meanwhile (no batch writes while it does; status and the other
 * readers go on, WAL readers never wait).
 */
#define UPKEEP_MS 60000
#define KEEP_EVENTS 100000
#define KEEP_DAYS 30

struct upkeep {
	uv_work_t req;
	struct daemon *d; /* for the loop's half only */
	char *db;
	struct ud_store_retention keep;
	struct ud_store_upkeep done;
	int rc;
	char *cause;
	uint64_t ns;
};

static void
upkeep_work(uv_work_t *req)
{
	struct upkeep *u = req->data;
	uint64_t t0 = uv_hrtime();

	u->rc = ud_store_maintain(u->db, &u->keep, &u->done, &u->cause);
	u->ns = uv_hrtime() - t0;
}

static void
upkeep_after(uv_work_t *req, int status)
{
	struct upkeep *u = req->data;
	struct daemon *d = u->d;

	(void)status;
	if (u->rc < 0 && u->rc != -EBUSY)
		ud_log(LOG_WARNING, "store upkeep: %s", u->cause);
	else if (u->rc == 0)
		ud_log(LOG_DEBUG,
		       "store upkeep: %" PRId64 " events, %" PRId64 " API versions, %" PRId64
		       " texts dropped, %" PRId64 " pages freed, WAL %s, %.1f ms",
		       u->done.events, u->done.versions, u->done.texts, u->done.freed,
		       u->done.checkpointed ? "emptied" : "kept (a reader holds it)",
		       (double)u->ns / 1e6);
	d->upkeep_on = false;
	d->upkeep_ns = uv_hrtime();
	free(u->cause);
	free(u->db);
	free(u);
	if (d->sched != NULL) /* closed already when the daemon stopped meanwhile */
		ud_sched_done(d->sched);
}

static uint64_t
upkeep_ms(void)
{
	const char *v = getenv("UAPID_UPKEEP_MS");
	long ms = v != NULL ? strtol(v, NULL, 10) : 0;

	return ms > 0 ? (uint64_t)ms : UPKEEP_MS;
}

/*
 * The WAL is checkpointed by the upkeep alone (the store's own checkpoint
 * is a net at 64 MiB, on the loop): past this size, the upkeep is due a
 * few seconds after the last instead of a period after.
 */
#define UPKEEP_WAL_BYTES (16 << 20)
#define UPKEEP_WAL_MS 5000

static bool
wal_large(const struct daemon *d)
{
	char *wal = ud_xasprintf("%s/state.db-wal", d->state_dir);
	struct stat st;
	bool large = stat(wal, &st) == 0 && st.st_size > UPKEEP_WAL_BYTES;

	free(wal);
	return large;
}

/* After a batch, the scheduler free: the upkeep when it is due (true: it runs, holding it). */
static bool
start_upkeep(struct daemon *d)
{
	struct upkeep *u;
	uint64_t since = uv_hrtime() - d->upkeep_ns;

	if (d->stopping || d->upkeep_on || d->fault != NULL ||
	    (d->upkeep_ns != 0 && since < upkeep_ms() * 1000000 &&
	     (since < (uint64_t)UPKEEP_WAL_MS * 1000000 || !wal_large(d))))
		return false;
	if (d->upkeep_ns == 0) {
		d->upkeep_ns = uv_hrtime(); /* the first one a period after the start */
		return false;
	}
	u = ud_xcalloc(1, sizeof(*u));
	u->req.data = u;
	u->d = d;
	u->db = ud_xasprintf("%s/state.db", d->state_dir);
	u->keep.keep_events = d->o->keep_events > 0 ? d->o->keep_events : KEEP_EVENTS;
	u->keep.keep_seconds =
		(int64_t)(d->o->keep_days >= 0 ? d->o->keep_days : KEEP_DAYS) * 86400;
	if (uv_queue_work(&d->loop, &u->req, upkeep_work, upkeep_after) < 0) {
		free(u->db);
		free(u);
		return false;
	}
	d->upkeep_on = true;
	ud_sched_hold(d->sched);
	return true;
}

static void
on_batch_done(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;

	after_batch(d, r);
	ud_sched_done(d->sched);
	if (r->error == 0)
		(void)start_upkeep(d);
	if (d->stopping)
		ud_daemon_shutdown(d);
}

void
ud_daemon_run_batch(void *ctx, struct ud_sched_batch *b)
{
	struct daemon *d = ctx;

	if (d->stopping) {
		ud_sched_batch_free(b);
		ud_sched_done(d->sched);
		return;
	}
	ud_engine_batch(d->engine, b, on_batch_done, d);
}

void
ud_daemon_progress(void *ctx, size_t done, size_t total)
{
	struct daemon *d = ctx;

	if (d->ready)
		return;
	ud_progress_update(&d->scan, done, total);
	ud_daemon_notify_status(d, "scanning: %zu/%zu files", done, total);
}

/* --- the branch follower ------------------------------------------------------------------ */

/* After each branch update: subscribers hear of it with the clock, as after a batch. */
static void
on_branches(void *ctx, json_t *status)
{
	struct daemon *d = ctx;
	json_t *params;

	if (d->rpc == NULL)
		return;
	params = json_pack("{s:I, s:[], s:O}", "clock",
			   (json_int_t)ud_store_clock(ud_engine_store(d->engine)), "files",
			   "branches", status);
	ud_rpc_notify_all(d->rpc, "changed", params);
	json_decref(params);
}

/* --branches: the follower starts once the tree is served (its first update runs at once). */
static void
start_follow(struct daemon *d)
{
	struct ud_follow_opts fo;
	char *cause = NULL;

	memset(&fo, 0, sizeof(fo));
	fo.tree = d->root;
	fo.arch = d->o->arch;
	fo.split = d->o->split_branch != NULL ? d->o->split_branch : "uapi/split";
	fo.headers = d->o->headers_branch != NULL ? d->o->headers_branch : "uapi/headers";
	if (strcmp(fo.split, "-") == 0)
		fo.split = NULL;
	if (strcmp(fo.headers, "-") == 0)
		fo.headers = NULL;
	if (ud_follow_open(&d->follow, &d->loop, &fo, on_branches, d, &cause) < 0) {
		ud_log(LOG_ERR, "--branches: %s", cause);
		free(cause);
		return;
	}
	ud_follow_set_markers(d->follow, ud_engine_markers(d->engine));
	ud_log(LOG_INFO, "branches: following the refs of %s (%s, %s)", d->root,
	       fo.split != NULL ? fo.split : "no split branch",
	       fo.headers != NULL ? fo.headers : "no headers branch");
}

void
ud_daemon_first_scan_done(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;
	struct ud_buf line = UD_BUF_INIT;

	ud_progress_end(&d->scan);
	after_batch(d, r);
	d->ready = true;
	ud_daemon_status_line(d, &line);
	ud_log(LOG_INFO, "ready: %s; watching %zu directories", ud_buf_str(&line),
	       ud_watch_count(d->watch));
	ud_buf_free(&line);
	if (d->systemd)
		ud_daemon_send_status(d); /* what it serves, before it says it is ready */
	sd_notify(0, "READY=1");
	ud_sched_done(d->sched);
	if (d->o->branches && !d->stopping)
		start_follow(d);
	if (d->stopping)
		ud_daemon_shutdown(d);
}

/* --- the markers ------------------------------------------------------------------------- */

void
ud_daemon_markers_changed(struct daemon *d, const char *path)
{
	char *cause = NULL;

	if (ud_engine_reload_store_markers(d->engine, &cause) < 0) {
		ud_log(LOG_ERR, "markers: %s", cause);
		free(cause);
	}
	if (d->follow != NULL)
		ud_follow_set_markers(d->follow, ud_engine_markers(d->engine));
	if (path != NULL)
		ud_sched_note(d->sched, path, UD_SCHED_FORCE);
	else
		ud_sched_full(d->sched);
}
