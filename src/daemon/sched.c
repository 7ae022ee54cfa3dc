// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scheduler (sched.h): one timer, one pending set.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"
#include "uapid/daemon/sched.h"
#include "uapid/util/xmalloc.h"

#define NS_PER_MS 1000000ULL

struct ud_sched {
	uv_timer_t timer; /* the loop clock's alarm */
	struct ud_sched_clock clock;
	unsigned settle_ms;
	char *root; /* the work tree: its git lock is looked for at each batch */
	ud_sched_run_fn run;
	void *ctx;
	struct ud_sched_batch *pending; /* NULL: nothing waits */
	bool running;			/* a batch is out */
	bool armed;			/* the timer is set */
	bool arming_lone;		/* ... for a lone save */
	bool running_lone;		/* the batch out is a lone save's */
	unsigned lone_tail;		/* lone batches run back to back for one save's tail */
	uint64_t lone_first_ns;		/* when the lone save's first event came */
	struct ud_map lone_paths;	/* the paths its batches ran (at most LONE_PATHS_MAX) */
	bool waiting_git;
	uint64_t last_event_ns; /* the last event seen */
	uint64_t last_done_ns;	/* when the last batch finished */
	uint64_t hold_until_ns; /* ud_sched_retry: nothing runs before */
};

/*
 * The rest of a lone save, when its events came in more than one read of
 * inotify (an editor's temporary file, then the rename): a few paths
 * whose first event came within 5 ms of the lone batch's run at once too,
 * up to three batches; more, or later, is a burst.  Later, within the
 * settle time, still counts when the save's own paths come again: an
 * editor descheduled between writing its temporary file and renaming it
 * (a loaded machine) sends the rest of the same save, not a burst, and
 * made it wait the settle time (bench-watch: 100 ms for 2 renames in 100).
 */
#define LONE_TAIL_PATHS 8
#define LONE_TAIL_BATCHES 3
#define LONE_TAIL_NS (5 * NS_PER_MS)
#define LONE_PATHS_MAX (LONE_TAIL_PATHS * (LONE_TAIL_BATCHES + 1))

static uint64_t
now(const struct ud_sched *s)
{
	return s->clock.now(s->clock.ctx);
}

static struct ud_sched_batch *
pending(struct ud_sched *s)
{
	if (s->pending == NULL) {
		s->pending = ud_xcalloc(1, sizeof(*s->pending));
		s->pending->first_ns = now(s);
	}
	return s->pending;
}

static void
arm(struct ud_sched *s, uint64_t ms)
{
	uint64_t t = now(s);

	/* a batch that could not be recorded is tried again after its back-off, not before */
	if (s->hold_until_ns > t) {
		uint64_t left = (s->hold_until_ns - t + NS_PER_MS - 1) / NS_PER_MS;

		if (ms < left)
			ms = left;
	}
	/* refused only for a timer being closed: the scheduler is going away */
	s->armed = s->clock.set(s->clock.ctx, ms) == 0;
}

/*
 * A burst's next batch: due the settle time after the last one finished
 * (or now, when that is past), whatever comes meanwhile.  Throttled, not
 * debounced: a tree that never stops changing is still followed, each
 * change seen within about the settle time and one batch's work.
 */
static void
throttle(struct ud_sched *s)
{
	uint64_t settle = (uint64_t)s->settle_ms * NS_PER_MS, since;

	if (s->pending == NULL || s->running || s->armed)
		return;
	since = now(s) - s->last_done_ns;
	arm(s, since >= settle ? 0 : (settle - since + NS_PER_MS - 1) / NS_PER_MS);
}

/* Is git's index lock there?  Looked up each time: a "git init" may come later. */
static bool
git_busy(const struct ud_sched *s)
{
	char *lock = s->root != NULL ? ud_sched_git_lockfile(s->root) : NULL;
	struct stat st;
	bool busy = lock != NULL && lstat(lock, &st) == 0;

	free(lock);
	return busy;
}

/* The paths a lone save's first batch runs, so that its late rest is known by them. */
static void
remember_lone(struct ud_sched *s, const struct ud_sched_batch *b)
{
	const char *k;
	size_t i = 0;

	ud_map_free(&s->lone_paths, NULL); /* a new save */
	while (ud_map_next(&b->paths, &i, &k, NULL) && s->lone_paths.n < LONE_PATHS_MAX)
		ud_map_put(&s->lone_paths, k, (void *)1);
}

/* Does the pending batch name a path the lone save's batches ran? */
static bool
same_save(const struct ud_sched *s)
{
	const char *k;
	size_t i = 0;

	while (ud_map_next(&s->pending->paths, &i, &k, NULL))
		if (ud_map_has(&s->lone_paths, k))
			return true;
	return false;
}

void
ud_sched_alarm(struct ud_sched *s)
{
	struct ud_sched_batch *b;

	s->armed = false;
	if (s->pending == NULL || s->running)
		return;
	if (s->arming_lone && s->lone_tail > 0 && s->pending->paths.n > LONE_TAIL_PATHS) {
		/* the "tail" grew into a burst before its turn came: it waits like one */
		s->arming_lone = false;
		throttle(s);
		return;
	}
	s->running_lone = s->arming_lone;
	s->arming_lone = false;
	if (git_busy(s)) {
		s->waiting_git = true;
		arm(s, s->settle_ms > 0 ? s->settle_ms : 50);
		return;
	}
	s->waiting_git = false;
	b = s->pending;
	s->pending = NULL;
	s->running = true;
	/* the save's own paths, not its tails': the paths of a burst do not widen them */
	if (s->running_lone && s->lone_tail == 0)
		remember_lone(s, b);
	s->run(s->ctx, b);
}

static void
on_timer(uv_timer_t *t)
{
	ud_sched_alarm(t->data);
}

/* The loop clock: uv_hrtime, and the scheduler's timer on the loop. */
static uint64_t
loop_now(void *ctx)
{
	(void)ctx;
	return uv_hrtime();
}

static int
loop_set(void *ctx, uint64_t ms)
{
	struct ud_sched *s = ctx;

	return uv_timer_start(&s->timer, on_timer, ms, 0);
}

static void
loop_cancel(void *ctx)
{
	struct ud_sched *s = ctx;

	(void)uv_timer_stop(&s->timer); /* cannot fail: it only unlinks the timer */
}

struct ud_sched *
ud_sched_new(uv_loop_t *loop, unsigned settle_ms, const char *root, ud_sched_run_fn run, void *ctx)
{
	struct ud_sched *s = ud_xcalloc(1, sizeof(*s));

	if (uv_timer_init(loop, &s->timer) != 0) {
		free(s);
		return NULL;
	}
	s->timer.data = s;
	s->clock = (struct ud_sched_clock){loop_now, loop_set, loop_cancel, s};
	s->settle_ms = settle_ms;
	s->root = root != NULL ? ud_xstrdup(root) : NULL;
	s->run = run;
	s->ctx = ctx;
	return s;
}

static bool
lone_tail(struct ud_sched *s)
{
	uint64_t after;

	if (!s->running_lone || s->pending == NULL || s->pending->paths.n > LONE_TAIL_PATHS ||
	    s->lone_tail >= LONE_TAIL_BATCHES)
		return false;
	after = s->pending->first_ns - s->lone_first_ns;
	if (after > LONE_TAIL_NS && (after > (uint64_t)s->settle_ms * NS_PER_MS || !same_save(s)))
		return false;
	s->lone_tail++;
	s->arming_lone = true;
	arm(s, 0);
	return true;
}

void
ud_sched_note(struct ud_sched *s, const char *rel, unsigned kinds)
{
	uint64_t t = now(s), settle = (uint64_t)s->settle_ms * NS_PER_MS;
	bool fresh = s->pending == NULL;
	bool quiet = (s->last_event_ns == 0 || t - s->last_event_ns >= settle) &&
		     (s->last_done_ns == 0 || t - s->last_done_ns >= settle);
	struct ud_sched_batch *b = pending(s);
	uintptr_t old = (uintptr_t)ud_map_get(&b->paths, rel);

	ud_map_put(&b->paths, rel, (void *)(old | kinds));
	s->last_event_ns = t;
	if (s->running)
		return; /* ud_sched_done schedules what came meanwhile */
	if (fresh && quiet) {
		/* a lone save: at once, with the rest of this read of inotify */
		s->lone_tail = 0;
		s->lone_first_ns = t;
		s->arming_lone = true;
		arm(s, 0);
		return;
	}
	if (!s->armed && lone_tail(s))
		return;
	/* more of a lone save's events run at once with it; a burst's wait for their turn */
	throttle(s);
}

void
ud_sched_full(struct ud_sched *s)
{
	pending(s)->full = true;
	s->last_event_ns = now(s);
	if (!s->running && !s->armed)
		arm(s, 0);
}

void
ud_sched_force_all(struct ud_sched *s)
{
	pending(s)->force_all = true;
	ud_sched_full(s);
}

void
ud_sched_retry(struct ud_sched *s, unsigned ms)
{
	pending(s)->full = true;
	s->hold_until_ns = now(s) + (uint64_t)ms * NS_PER_MS;
	if (!s->running) {
		s->clock.cancel(s->clock.ctx); /* armed earlier: now later */
		arm(s, 0);
	}
}

void
ud_sched_hold(struct ud_sched *s)
{
	s->running = true;
}

void
ud_sched_done(struct ud_sched *s)
{
	s->running = false;
	s->last_done_ns = now(s);
	if (!lone_tail(s))
		throttle(s);
}

bool
ud_sched_busy(const struct ud_sched *s)
{
	return s->running || s->pending != NULL;
}

void
ud_sched_set_settle(struct ud_sched *s, unsigned settle_ms)
{
	s->settle_ms = settle_ms;
}

void
ud_sched_set_clock(struct ud_sched *s, const struct ud_sched_clock *c)
{
	s->clock = *c;
}

bool
ud_sched_waiting_for_git(const struct ud_sched *s)
{
	return s->waiting_git;
}

void
ud_sched_batch_free(struct ud_sched_batch *b)
{
	if (b == NULL)
		return;
	ud_map_free(&b->paths, NULL);
	free(b);
}

static void
on_closed(uv_handle_t *h)
{
	struct ud_sched *s = h->data;

	ud_sched_batch_free(s->pending);
	ud_map_free(&s->lone_paths, NULL);
	free(s->root);
	free(s);
}

void
ud_sched_close(struct ud_sched *s)
{
	if (s == NULL)
		return;
	s->clock.cancel(s->clock.ctx);
	uv_close((uv_handle_t *)&s->timer, on_closed);
}

char *
ud_sched_git_lockfile(const char *root)
{
	char *dotgit = ud_xasprintf("%s/.git", root), *lock = NULL;
	struct ud_buf b = UD_BUF_INIT;
	struct stat st;

	if (stat(dotgit, &st) < 0) {
		free(dotgit);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		lock = ud_xasprintf("%s/index.lock", dotgit);
	} else if (ud_read_file(dotgit, &b, NULL) == 0 && b.len > 8 &&
		   strncmp(b.data, "gitdir: ", 8) == 0) {
		/* a linked work tree: "gitdir: PATH", PATH relative to root or absolute */
		char *dir = ud_xstrndup(b.data + 8, strcspn(b.data + 8, "\r\n"));

		lock = dir[0] == '/' ? ud_xasprintf("%s/index.lock", dir)
				     : ud_xasprintf("%s/%s/index.lock", root, dir);
		free(dir);
	}
	ud_buf_free(&b);
	free(dotgit);
	return lock;
}
