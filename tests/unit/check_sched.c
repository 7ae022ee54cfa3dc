// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scheduler tests, on a fake clock the tests advance by hand: a lone event
 * runs on the next turn, the events of one turn make one batch, events
 * during a batch or on its heels wait for the settle time, a stream that
 * never stops is still followed, a full rescan, a back-off, and git's
 * index lock (a plain .git directory or a linked work tree's) holding
 * batches back.  No test waits on real time: what must wait is checked
 * not to have run a millisecond before it is due, and to run when it is.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "testutil.h"
#include "uapid/util/map.h"
#include "uapid/daemon/sched.h"
#include "uapid/daemon/watch.h"

#define MS 1000000ULL /* nanoseconds */
#define WAIT_MS 10000 /* the longest anything due may take, on the fake clock */
#define MAX_RUNS 16

struct run {
	char *paths; /* "path=kinds ...", sorted */
	bool full;
	uint64_t first_ns, at_ns;
};

struct fx {
	uv_loop_t loop;
	struct ud_sched *s;
	char *dir;
	uint64_t now_ns;   /* the fake clock */
	bool alarm;	   /* the scheduler's alarm is set ... */
	uint64_t alarm_ns; /* ... for then */
	struct run runs[MAX_RUNS];
	int nruns;
	bool hold;		    /* keep the batch running until the test says done */
	struct ud_sched_batch *out; /* the batch held */
};

static uint64_t
fake_now(void *ctx)
{
	return ((struct fx *)ctx)->now_ns;
}

static int
fake_set(void *ctx, uint64_t ms)
{
	struct fx *x = ctx;

	x->alarm = true;
	x->alarm_ns = x->now_ns + ms * MS;
	return 0;
}

static void
fake_cancel(void *ctx)
{
	((struct fx *)ctx)->alarm = false;
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
	r->at_ns = x->now_ns;
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

/* One turn of the loop: the alarm goes off when it is due. */
static void
turn(struct fx *x)
{
	if (x->alarm && x->alarm_ns <= x->now_ns) {
		x->alarm = false;
		ud_sched_alarm(x->s);
	}
}

/* The clock moves on by ms, the loop turning at each millisecond. */
static void
advance(struct fx *x, unsigned ms)
{
	unsigned i;

	for (i = 0; i < ms; i++) {
		x->now_ns += MS;
		turn(x);
	}
}

/* Advances the clock until n batches ran or WAIT_MS passed; returns whether they did. */
static bool
run_until(struct fx *x, int n)
{
	unsigned i;

	for (i = 0; i < WAIT_MS && x->nruns < n; i++)
		advance(x, 1);
	return x->nruns >= n;
}

/* The time since t, in ms on the fake clock. */
static uint64_t
ms_since(const struct fx *x, uint64_t t)
{
	return (x->now_ns - t) / MS;
}

static void
setup(struct fx *x, const char *name, unsigned settle_ms, bool with_root)
{
	memset(x, 0, sizeof(*x));
	x->dir = test_dir(name);
	ck_assert_int_eq(uv_loop_init(&x->loop), 0);
	x->now_ns = 3600 * 1000 * MS; /* an hour after boot, say */
	x->s = ud_sched_new(&x->loop, settle_ms, with_root ? x->dir : NULL, on_run, x);
	ck_assert_ptr_nonnull(x->s);
	ud_sched_set_clock(x->s, &(struct ud_sched_clock){fake_now, fake_set, fake_cancel, x});
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
	before = x.now_ns;
	ud_sched_note(x.s, "include/linux/a.h", C);
	ck_assert_int_eq(x.nruns, 0); /* not from inside the note */
	ck_assert(ud_sched_busy(x.s));
	/* the next turn of the loop: no settle time waited out */
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert_str_eq(x.runs[0].paths, "include/linux/a.h=1");
	ck_assert(!x.runs[0].full);
	ck_assert_uint_eq(x.runs[0].first_ns, before);
	ck_assert_uint_eq(x.runs[0].at_ns, before);
	ck_assert(!ud_sched_busy(x.s));
	/* and nothing more */
	advance(&x, 300);
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
	advance(&x, 300);
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
	advance(&x, 20);
	ud_sched_note(x.s, "b.h", C);
	ud_sched_note(x.s, "c.h", E);
	ud_sched_note(x.s, "b.h", E);
	advance(&x, 300);
	ck_assert_int_eq(x.nruns, 1);
	ck_assert(ud_sched_busy(x.s));
	/* once it is done, they are a burst: they wait for the settle time, to the ms */
	t = x.now_ns;
	done(&x);
	ck_assert(ud_sched_busy(x.s));
	turn(&x);
	advance(&x, 99);
	ck_assert_int_eq(x.nruns, 1);
	advance(&x, 1);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert_str_eq(x.runs[1].paths, "b.h=3 c.h=2");
	ck_assert_uint_eq(ms_since(&x, t), 100);
	done(&x);
	ck_assert(!ud_sched_busy(x.s));
	advance(&x, 200);
	ck_assert_int_eq(x.nruns, 2);
	teardown(&x);
}
END_TEST

/* A save whose events come in two reads of inotify: its tail runs at once too. */
START_TEST(test_lone_tail)
{
	struct fx x;

	setup(&x, "tail", 100, false);
	ud_sched_note(x.s, ".a.h.swp", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* within 5 ms of the save's first event */
	advance(&x, 5);
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
	ck_assert_uint_eq(x.runs[3].at_ns - x.runs[2].at_ns, 100 * MS);
	teardown(&x);
}
END_TEST

/* A save's rest that comes late (its editor descheduled) is known by its paths: at once too. */
START_TEST(test_late_tail)
{
	struct fx x;

	setup(&x, "late", 100, false);
	ud_sched_note(x.s, ".a.h.swp", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* 30 ms later, past the 5 ms tail: the temporary file again, and the rename */
	advance(&x, 30);
	ud_sched_note(x.s, ".a.h.swp", E);
	ud_sched_note(x.s, "a.h", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert_str_eq(x.runs[1].paths, ".a.h.swp=2 a.h=2");
	/* another path as late is a burst: it waits the settle time */
	advance(&x, 10);
	ud_sched_note(x.s, "b.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert(run_until(&x, 3));
	ck_assert_uint_eq(x.runs[2].at_ns - x.runs[1].at_ns, 100 * MS);
	teardown(&x);
}
END_TEST

START_TEST(test_on_the_heels)
{
	struct fx x;

	setup(&x, "heels", 100, false);
	ud_sched_note(x.s, "a.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	/* right after a batch, and 6 ms after the save (past its 5 ms tail): a burst */
	advance(&x, 6);
	ud_sched_note(x.s, "b.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 1);
	ud_sched_note(x.s, "c.h", C);
	ck_assert(run_until(&x, 2));
	ck_assert_str_eq(x.runs[1].paths, "b.h=1 c.h=1");
	/* due the settle time after the last batch finished */
	ck_assert_uint_eq(x.runs[1].at_ns - x.runs[0].at_ns, 100 * MS);
	/* after a quiet spell it is a lone save again */
	advance(&x, 250);
	ck_assert_int_eq(x.nruns, 2);
	ud_sched_note(x.s, "d.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert_str_eq(x.runs[2].paths, "d.h=1");
	teardown(&x);
}
END_TEST

/* How many paths a run has. */
static unsigned
paths_in(const struct run *r)
{
	unsigned n = r->paths[0] != '\0';
	const char *p;

	for (p = r->paths; (p = strchr(p, ' ')) != NULL; p++)
		n++;
	return n;
}

START_TEST(test_stream)
{
	struct fx x;
	unsigned fed = 0, total = 0, i;
	int k;

	/* settle 25 ms; an event every 8 ms (past a save's tail), until five batches ran */
	setup(&x, "stream", 25, false);
	for (i = 1; i <= WAIT_MS && x.nruns < 5; i++) {
		x.now_ns += MS;
		if (i % 8 == 0) {
			char rel[32];

			snprintf(rel, sizeof(rel), "s/%u.h", fed++);
			ud_sched_note(x.s, rel, C);
		}
		turn(&x);
	}
	ck_assert_int_eq(x.nruns, 5);
	/* its first event is a lone save */
	ck_assert_str_eq(x.runs[0].paths, "s/0.h=1");
	/* the rest never settles, and is still processed: a batch the settle time after the last */
	ck_assert_str_eq(x.runs[1].paths, "s/1.h=1 s/2.h=1 s/3.h=1");
	for (k = 1; k < x.nruns; k++) {
		ck_assert_uint_eq(x.runs[k].at_ns - x.runs[k - 1].at_ns, 25 * MS);
		ck_assert_uint_ge(x.runs[k].at_ns, x.runs[k].first_ns);
	}
	/* every event in one batch */
	for (k = 0; k < x.nruns; k++)
		total += paths_in(&x.runs[k]);
	ck_assert_uint_eq(total, fed);
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
	advance(&x, 250);
	ud_sched_note(x.s, "a.h", C);
	ud_sched_full(x.s);
	ud_sched_note(x.s, "b.h", E);
	turn(&x);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert(x.runs[1].full);
	ck_assert_str_eq(x.runs[1].paths, "a.h=1 b.h=2");
	/* during a batch: after it */
	x.hold = true;
	advance(&x, 250);
	ud_sched_note(x.s, "c.h", C);
	turn(&x);
	ck_assert_int_eq(x.nruns, 3);
	ck_assert(!x.runs[2].full);
	ud_sched_full(x.s);
	advance(&x, 150);
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
	t0 = x.now_ns;
	ud_sched_retry(x.s, 300);
	x.hold = false;
	done(&x);
	ck_assert(ud_sched_busy(x.s));
	/* a lone save during the back-off joins the retry, it does not run before it */
	advance(&x, 100);
	ud_sched_note(x.s, "b.h", C);
	advance(&x, 199);
	ck_assert_int_eq(x.nruns, 1);
	advance(&x, 1);
	ck_assert_int_eq(x.nruns, 2);
	ck_assert_uint_eq(ms_since(&x, t0), 300);
	ck_assert(x.runs[1].full);
	ck_assert_str_eq(x.runs[1].paths, "b.h=1");
	/* after it, events run as before: a lone save at once */
	advance(&x, 50);
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
	uint64_t t;

	setup(&x, "hold", 50, false);
	/* the first scan, run by the caller itself, counts as the running batch */
	ud_sched_hold(x.s);
	ck_assert(ud_sched_busy(x.s));
	ud_sched_note(x.s, "a.h", C);
	advance(&x, 200);
	ck_assert_int_eq(x.nruns, 0);
	t = x.now_ns;
	ud_sched_done(x.s);
	turn(&x);
	ck_assert_int_eq(x.nruns, 0);
	ck_assert(run_until(&x, 1));
	ck_assert_str_eq(x.runs[0].paths, "a.h=1");
	ck_assert_uint_eq(ms_since(&x, t), 50);
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
	advance(&x, 300);
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
	advance(&x, 100);
	ud_sched_full(x.s);
	advance(&x, 200);
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
	advance(&x, 200);
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
	tcase_add_test(tc, test_late_tail);
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
