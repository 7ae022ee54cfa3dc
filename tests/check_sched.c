// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scheduler tests, on a real libuv loop: a lone event runs on the next
 * turn, the events of one turn make one batch, events during a batch or
 * on its heels wait for the settle time, a stream that never stops is
 * still followed, a full rescan, and git's index lock (a plain .git
 * directory or a linked work tree's) holding batches back.
 *
 * Machines are noisy: the tests check order and grouping, and bound
 * times generously (what is due "at once" runs on the next turn of the
 * loop; what must wait is checked not to have run on that turn).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "testutil.h"
#include "uapid/map.h"
#include "uapid/sched.h"
#include "uapid/watch.h"

#define WAIT_MS test_wait_ms(2000) /* the longest anything due may take */
#define MAX_RUNS 16
/*
 * The scheduler's timers run on the loop's clock: cached at each turn of
 * the loop and read from CLOCK_MONOTONIC_COARSE (a few ms per tick), so a
 * timer may fire that much before uv_hrtime() says it is due.  Lower
 * bounds on a wait allow for it.
 */
#define CLOCK_SLACK_MS 10

struct run {
	char *paths; /* "path=kinds ...", sorted */
	bool full;
	uint64_t first_ns, at_ns;
};

struct fx {
	uv_loop_t loop;
	uv_timer_t tick, feeder;
	struct ud_sched *s;
	char *dir;
	struct run runs[MAX_RUNS];
	int nruns;
	bool hold;		    /* keep the batch running until the test says done */
	struct ud_sched_batch *out; /* the batch held */
	unsigned fed;		    /* events the feeder gave */
	int stop_feeding_at;	    /* the feeder stops once this many batches ran */
};

static uint64_t
ms_since(uint64_t ns)
{
	return (uv_hrtime() - ns) / 1000000;
}

static void
on_run(void *ctx, struct ud_sched_batch *b)
{
	struct fx *x = ctx;
	struct ud_strlist l = UD_STRLIST_INIT;
	struct run *r;
	const char *k;
	void *v;
	size_t i;

	ck_assert_int_lt(x->nruns, MAX_RUNS);
	ck_assert_ptr_null(x->out); /* never two batches at once */
	r = &x->runs[x->nruns++];
	r->at_ns = uv_hrtime();
	r->first_ns = b->first_ns;
	r->full = b->full;
	for (i = 0; ud_map_next(&b->paths, &i, &k, &v);)
		ud_strlist_take(&l, ud_xasprintf("%s=%u", k, (unsigned)(uintptr_t)v));
	ud_strlist_sort(&l);
	r->paths = joined(&l);
	ud_strlist_free(&l);
	ck_assert(ud_sched_busy(x->s));
	if (x->hold) {
		x->out = b;
		return;
	}
	ud_sched_batch_free(b);
	ud_sched_done(x->s);
}

/* Ends the batch held. */
static void
done(struct fx *x)
{
	ck_assert_ptr_nonnull(x->out);
	ud_sched_batch_free(x->out);
	x->out = NULL;
	ud_sched_done(x->s);
}

static void
on_tick(uv_timer_t *t)
{
	(void)t;
}

/* One turn of the loop, waiting for nothing. */
static void
turn(struct fx *x)
{
	uv_run(&x->loop, UV_RUN_NOWAIT);
}

/* Runs the loop until n batches ran or WAIT_MS passed; returns whether they did. */
static bool
run_until(struct fx *x, int n)
{
	uint64_t end = uv_hrtime() + (uint64_t)WAIT_MS * 1000000;

	while (x->nruns < n && uv_hrtime() < end) {
		uv_timer_start(&x->tick, on_tick, 10, 0);
		uv_run(&x->loop, UV_RUN_ONCE);
	}
	uv_timer_stop(&x->tick);
	return x->nruns >= n;
}

/* Runs the loop for about ms. */
static void
spin(struct fx *x, unsigned ms)
{
	uint64_t end = uv_hrtime() + (uint64_t)ms * 1000000;

	while (uv_hrtime() < end) {
		uv_timer_start(&x->tick, on_tick, 5, 0);
		uv_run(&x->loop, UV_RUN_ONCE);
	}
	uv_timer_stop(&x->tick);
}

static void
setup(struct fx *x, const char *name, unsigned settle_ms, bool with_root)
{
	memset(x, 0, sizeof(*x));
	x->dir = test_dir(name);
	ck_assert_int_eq(uv_loop_init(&x->loop), 0);
	ck_assert_int_eq(uv_timer_init(&x->loop, &x->tick), 0);
	ck_assert_int_eq(uv_timer_init(&x->loop, &x->feeder), 0);
	x->feeder.data = x;
	x->s = ud_sched_new(&x->loop, settle_ms, with_root ? x->dir : NULL, on_run, x);
	ck_assert_ptr_nonnull(x->s);
	ck_assert(!ud_sched_busy(x->s));
	ck_assert(!ud_sched_waiting_for_git(x->s));
}

static void
teardown(struct fx *x)
{
	int i;

	if (x->out != NULL)
		done(x);
	ud_sched_close(x->s);
	uv_close((uv_handle_t *)&x->tick, NULL);
	uv_close((uv_handle_t *)&x->feeder, NULL);
	ck_assert_int_eq(uv_run(&x->loop, UV_RUN_DEFAULT), 0);
	ck_assert_int_eq(uv_loop_close(&x->loop), 0);
	for (i = 0; i < x->nruns; i++)
		free(x->runs[i].paths);
	free(x->dir);
}

#define E UD_WATCH_ENTRY
#define C UD_WATCH_CHANGED

START_TEST(test_lone)
{
	struct fx x;
	uint64_t before;

	setup(&x, "lone", 200, false);
	before = uv_hrtime();
	ud_sched_note(x.s, "include/linux/a.h", C);
	ck_assert_int_eq(x.nruns, 0); /* not from inside the note */
	ck_assert(ud_sched_busy(x.s));
	/* the next turn of the loop: no settle time waited out */
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert_str_eq(x.runs[0].paths, "include/linux/a.h=1");
	ck_assert(!x.runs[0].full);
	ck_assert_uint_ge(x.runs[0].first_ns, before);
	ck_assert_uint_le(x.runs[0].first_ns, x.runs[0].at_ns);
	ck_assert(!ud_sched_busy(x.s));
	/* and nothing more */
	spin(&x, 300);
	ck_assert_int_eq(x.nruns, 1);
	/* after a quiet spell, the next lone event runs at once too */
	ud_sched_note(x.s, "include/linux/b.h", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert_str_eq(x.runs[1].paths, "include/linux/b.h=2");
	teardown(&x);
}
END_TEST

START_TEST(test_one_turn_one_batch)
{
	struct fx x;

	setup(&x, "turn", 200, false);
	/* an editor's save, and a neighbour: one read of inotify */
	ud_sched_note(x.s, "include/linux/.a.h.swp", E);
	ud_sched_note(x.s, "include/linux/.a.h.swp", C);
	ud_sched_note(x.s, "include/linux/a.h", E);
	ud_sched_note(x.s, "include/linux/b.h", C);
	ud_sched_note(x.s, "include/linux/a.h", C);
	ud_sched_note(x.s, "include/linux/a.h", E);
	ud_sched_note(x.s, "include", E | UD_WATCH_DIR);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* each path once, with every kind it was noted with */
	ck_assert_str_eq(
		x.runs[0].paths,
		"include/linux/.a.h.swp=3 include/linux/a.h=3 include/linux/b.h=1 include=6");
	spin(&x, 300);
	ck_assert_int_eq(x.nruns, 1);
	teardown(&x);
}
END_TEST

START_TEST(test_during_batch)
{
	struct fx x;
	uint64_t t;

	setup(&x, "during", 100, false);
	x.hold = true;
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* while the batch runs, events are collected, not run (later than a save's tail) */
	spin(&x, 20);
	ud_sched_note(x.s, "b.h", C);
	ud_sched_note(x.s, "c.h", E);
	ud_sched_note(x.s, "b.h", E);
	spin(&x, 300);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(ud_sched_busy(x.s));
	/* once it is done, they are a burst: they wait for the settle time */
	t = uv_hrtime();
	done(&x);
	ck_assert(ud_sched_busy(x.s));
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert_msg(run_until(&x, 2), "the second batch did not run within %u ms", WAIT_MS);
	ck_assert_str_eq(x.runs[1].paths, "b.h=3 c.h=2");
	/* not at once: half the settle time at least (less the loop clock's coarseness) */
	ck_assert_uint_ge(ms_since(t), 50 - CLOCK_SLACK_MS);
	done(&x);
	ck_assert(!ud_sched_busy(x.s));
	spin(&x, 200);
	ck_assert_int_eq(x.nruns, 2);
	teardown(&x);
}
END_TEST

/* A save whose events come in two reads of inotify: its tail runs at once too. */
START_TEST(test_lone_tail)
{
	struct fx x;

	setup(&x, "tail", 100, false);
	ud_sched_set_lone_tail(x.s, 2000);
	ud_sched_note(x.s, ".a.h.swp", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ud_sched_note(x.s, ".a.h.swp", E);
	ud_sched_note(x.s, "a.h", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert_str_eq(x.runs[1].paths, ".a.h.swp=2 a.h=2");
	/* a tail of many paths is a burst: it waits */
	ud_sched_note(x.s, "b.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	{
		char rel[16];
		unsigned i;

		for (i = 0; i < 20; i++) {
			snprintf(rel, sizeof(rel), "m%u.h", i);
			ud_sched_note(x.s, rel, C);
		}
	}
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert(run_until(&x, 4));
	teardown(&x);
}
END_TEST

START_TEST(test_on_the_heels)
{
	struct fx x;
	uint64_t t;

	setup(&x, "heels", 100, false);
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* right after a batch (and past a save's tail): a burst, not a lone save */
	spin(&x, 20);
	t = uv_hrtime();
	ud_sched_note(x.s, "b.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ud_sched_note(x.s, "c.h", C);
	ck_assert(run_until(&x, 2));
	ck_assert_str_eq(x.runs[1].paths, "b.h=1 c.h=1");
	ck_assert_uint_ge(ms_since(t), 50 - CLOCK_SLACK_MS);
	/* after a quiet spell it is a lone save again */
	spin(&x, 250);
	ck_assert_int_eq(x.nruns, 2);
	ud_sched_note(x.s, "d.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert_str_eq(x.runs[2].paths, "d.h=1");
	teardown(&x);
}
END_TEST

/* An event every 8 ms (past a save's tail), until enough batches ran. */
static void
on_feed(uv_timer_t *t)
{
	struct fx *x = t->data;
	char rel[32];

	if (x->nruns >= x->stop_feeding_at) {
		uv_timer_stop(t);
		return;
	}
	snprintf(rel, sizeof(rel), "s/%u.h", x->fed++);
	ud_sched_note(x->s, rel, C);
}

START_TEST(test_stream)
{
	struct fx x;
	uint64_t start;
	unsigned fed;

	/*
	 * settle 25 ms: a burst waits a few settle times at most (sched.h says
	 * how many; at most twenty, 500 ms, is what is checked here)
	 */
	setup(&x, "stream", 25, false);
	x.stop_feeding_at = 2;
	start = uv_hrtime();
	uv_timer_start(&x.feeder, on_feed, 8, 8);
	/* its first event is a lone save */
	ck_assert(run_until(&x, 1));
	ck_assert_str_eq(x.runs[0].paths, "s/0.h=1");
	fed = x.fed;
	/* the rest never settles, and is still processed */
	ck_assert_msg(run_until(&x, 2), "a continuous stream waited more than %u ms", WAIT_MS);
	ck_assert_uint_le(ms_since(start), WAIT_MS);
	/* the stream went on meanwhile (how many events a loaded machine's timer gave is not the
	 * point) */
	ck_assert_uint_gt(x.fed, fed);
	ck_assert_ptr_nonnull(strstr(x.runs[1].paths, "s/1.h=1"));
	ck_assert_ptr_null(strstr(x.runs[1].paths, "s/0.h"));
	/* all that came before it ran, in one batch */
	{
		unsigned n = 1;
		const char *p;

		for (p = x.runs[1].paths; (p = strchr(p, ' ')) != NULL; p++)
			n++;
		ck_assert_uint_ge(n, 2);
		ck_assert_uint_le(n, x.fed - 1);
	}
	ck_assert_uint_ge(x.runs[1].at_ns, x.runs[1].first_ns);
	uv_timer_stop(&x.feeder);
	teardown(&x);
}
END_TEST

START_TEST(test_full)
{
	struct fx x;

	setup(&x, "full", 100, false);
	/* alone: the next turn, the whole tree */
	ud_sched_full(x.s);
	ck_assert(ud_sched_busy(x.s));
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(x.runs[0].full);
	ck_assert_str_eq(x.runs[0].paths, "");
	/* with events: one batch, the events and full */
	spin(&x, 250);
	ud_sched_note(x.s, "a.h", C);
	ud_sched_full(x.s);
	ud_sched_note(x.s, "b.h", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert(x.runs[1].full);
	ck_assert_str_eq(x.runs[1].paths, "a.h=1 b.h=2");
	/* during a batch: after it */
	x.hold = true;
	spin(&x, 250);
	ud_sched_note(x.s, "c.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert(!x.runs[2].full);
	ud_sched_full(x.s);
	spin(&x, 150);
	ck_assert_int_eq(x.nruns, 3);
	done(&x);
	ck_assert(run_until(&x, 4));
	ck_assert(x.runs[3].full);
	ck_assert_str_eq(x.runs[3].paths, "");
	teardown(&x);
}
END_TEST

/*
 * A batch that could not be recorded: the next one is full and waits out
 * its back-off, whatever comes meanwhile (a lone save included).
 */
START_TEST(test_retry)
{
	struct fx x;
	uint64_t t0;

	setup(&x, "retry", 20, false);
	x.hold = true;
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	t0 = uv_hrtime();
	ud_sched_retry(x.s, 300);
	x.hold = false;
	done(&x);
	ck_assert(ud_sched_busy(x.s));
	/* a lone save during the back-off joins the retry, it does not run before it */
	spin(&x, 100);
	ud_sched_note(x.s, "b.h", C);
	spin(&x, 100);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(run_until(&x, 2));
	ck_assert_uint_ge(ms_since(t0) + CLOCK_SLACK_MS, 300);
	ck_assert(x.runs[1].full);
	ck_assert_str_eq(x.runs[1].paths, "b.h=1");
	/* after it, events run as before: a lone save at once */
	spin(&x, 50);
	ud_sched_note(x.s, "c.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert(!x.runs[2].full);
	teardown(&x);
}
END_TEST

START_TEST(test_hold)
{
	struct fx x;

	setup(&x, "hold", 50, false);
	/* the first scan, run by the caller itself, counts as the running batch */
	ud_sched_hold(x.s);
	ck_assert(ud_sched_busy(x.s));
	ud_sched_note(x.s, "a.h", C);
	spin(&x, 200);
	ck_assert_int_eq(x.nruns, 0);
	ud_sched_done(x.s);
	turn(&x);
	ck_assert_int_eq(x.nruns, 0);
	ck_assert(run_until(&x, 1));
	ck_assert_str_eq(x.runs[0].paths, "a.h=1");
	/* a settle time changed on the way: the next burst waits the new one */
	ud_sched_set_settle(x.s, 0);
	ud_sched_note(x.s, "b.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	teardown(&x);
}
END_TEST

/* Writes dir/rel, an empty file. */
static void
touch(const char *dir, const char *rel)
{
	put(dir, rel, "");
}

START_TEST(test_git_lock)
{
	struct fx x;

	setup(&x, "git", 20, true);
	touch(x.dir, ".git/HEAD");
	touch(x.dir, ".git/index.lock");
	/* a checkout in flight: nothing runs, however long */
	ud_sched_note(x.s, "include/linux/a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 0);
	ck_assert(ud_sched_waiting_for_git(x.s));
	ud_sched_note(x.s, "include/linux/b.h", E);
	spin(&x, 300);
	ck_assert_int_eq(x.nruns, 0);
	ck_assert(ud_sched_waiting_for_git(x.s));
	ck_assert(ud_sched_busy(x.s));
	/* git is done: what came meanwhile runs, in one batch */
	del(x.dir, ".git/index.lock");
	ck_assert_msg(run_until(&x, 1), "nothing ran within %d ms of the lock's removal", WAIT_MS);
	ck_assert_str_eq(x.runs[0].paths, "include/linux/a.h=1 include/linux/b.h=2");
	ck_assert(!ud_sched_waiting_for_git(x.s));
	ck_assert(!ud_sched_busy(x.s));
	/* and a full rescan waits too */
	touch(x.dir, ".git/index.lock");
	spin(&x, 100);
	ud_sched_full(x.s);
	spin(&x, 200);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(ud_sched_waiting_for_git(x.s));
	del(x.dir, ".git/index.lock");
	ck_assert(run_until(&x, 2));
	ck_assert(x.runs[1].full);
	teardown(&x);
}
END_TEST

/* A tree that is no git work tree, or a scheduler without a root: no lock to wait for. */
START_TEST(test_no_git)
{
	struct fx x;

	setup(&x, "nogit", 20, true);
	touch(x.dir, "index.lock");
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(!ud_sched_waiting_for_git(x.s));
	teardown(&x);
	setup(&x, "noroot", 20, false);
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	teardown(&x);
}
END_TEST

/* Checks ud_sched_git_lockfile(root) against want (NULL: none). */
static void
assert_lockfile(const char *root, const char *want)
{
	char *got = ud_sched_git_lockfile(root);

	if (want == NULL)
		ck_assert_msg(got == NULL, "%s: %s", root, got);
	else
		ck_assert_str_eq(got != NULL ? got : "(null)", want);
	free(got);
}

START_TEST(test_git_lockfile)
{
	char *d = test_dir("lockfile"), *repo = ud_xasprintf("%s/main", d);
	char *wt = ud_xasprintf("%s/wt", d), *want, *text;

	/* not a work tree */
	assert_lockfile(d, NULL);
	assert_lockfile(wt, NULL);
	/* a plain work tree */
	touch(repo, ".git/HEAD");
	want = ud_xasprintf("%s/.git/index.lock", repo);
	assert_lockfile(repo, want);
	free(want);
	/* a linked work tree: "gitdir: PATH", absolute */
	touch(repo, ".git/worktrees/wt/HEAD");
	text = ud_xasprintf("gitdir: %s/.git/worktrees/wt\n", repo);
	put(wt, ".git", text);
	free(text);
	want = ud_xasprintf("%s/.git/worktrees/wt/index.lock", repo);
	assert_lockfile(wt, want);
	free(want);
	/* ... without a newline, or with CRLF */
	text = ud_xasprintf("gitdir: %s/.git/worktrees/wt", repo);
	put(wt, ".git", text);
	free(text);
	want = ud_xasprintf("%s/.git/worktrees/wt/index.lock", repo);
	assert_lockfile(wt, want);
	text = ud_xasprintf("gitdir: %s/.git/worktrees/wt\r\n", repo);
	put(wt, ".git", text);
	free(text);
	assert_lockfile(wt, want);
	free(want);
	/* ... relative to the work tree */
	put(wt, ".git", "gitdir: ../main/.git/worktrees/wt\n");
	want = ud_xasprintf("%s/../main/.git/worktrees/wt/index.lock", wt);
	assert_lockfile(wt, want);
	free(want);
	/* a .git file that is not a link: none */
	put(wt, ".git", "not a gitdir line\n");
	assert_lockfile(wt, NULL);
	put(wt, ".git", "");
	assert_lockfile(wt, NULL);
	free(repo);
	free(wt);
	free(d);
}
END_TEST

START_TEST(test_git_lock_worktree)
{
	struct fx x;
	char *gitdir, *text, *lock;

	setup(&x, "worktree", 20, true);
	gitdir = ud_xasprintf("%s.main/.git/worktrees/wt", x.dir);
	lock = ud_xasprintf("%s/index.lock", gitdir);
	text = ud_xasprintf("gitdir: %s\n", gitdir);
	put(x.dir, ".git", text);
	free(text);
	ck_assert_int_eq(ud_mkdir_p(gitdir, NULL), 0);
	ck_assert_int_eq(ud_write_file(lock, "", 0, 0, NULL), 0);
	/* the lock is in the main repository's directory for the work tree */
	ud_sched_note(x.s, "a.h", C);
	spin(&x, 200);
	ck_assert_int_eq(x.nruns, 0);
	ck_assert(ud_sched_waiting_for_git(x.s));
	ck_assert_int_eq(unlink(lock), 0);
	ck_assert(run_until(&x, 1));
	ck_assert_str_eq(x.runs[0].paths, "a.h=1");
	ck_assert(!ud_sched_waiting_for_git(x.s));
	text = ud_xasprintf("%s.main", x.dir);
	rm_rf(text);
	free(text);
	free(lock);
	free(gitdir);
	teardown(&x);
}
END_TEST

/* Closed with events waiting and a timer set: all goes once the loop has closed it. */
START_TEST(test_close_pending)
{
	struct fx x;

	setup(&x, "close", 1000, false);
	x.hold = true;
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	done(&x);
	ud_sched_note(x.s, "b.h", C);
	ck_assert(ud_sched_busy(x.s));
	teardown(&x); /* b.h never ran */
	ck_assert_int_eq(x.nruns, 1);
	ud_sched_close(NULL);
	ud_sched_batch_free(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("loop");

	tcase_add_test(tc, test_lone);
	tcase_add_test(tc, test_one_turn_one_batch);
	tcase_add_test(tc, test_during_batch);
	tcase_add_test(tc, test_lone_tail);
	tcase_add_test(tc, test_on_the_heels);
	tcase_add_test(tc, test_stream);
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_retry);
	tcase_add_test(tc, test_hold);
	tcase_add_test(tc, test_git_lock);
	tcase_add_test(tc, test_no_git);
	tcase_add_test(tc, test_git_lockfile);
	tcase_add_test(tc, test_git_lock_worktree);
	tcase_add_test(tc, test_close_pending);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "sched");
}
