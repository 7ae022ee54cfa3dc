/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scheduler: when the daemon processes what the watcher reported.
 *
 * Paths are collected (each once, with the kinds of event seen) until a
 * batch is due.  A lone save is due at once: the first event after a
 * quiet spell runs on the next turn of the loop, so every event of that
 * one read of inotify (an editor's write-temporary-then-rename is three)
 * goes into one batch, and nothing waits out a delay.  Events that come
 * while a batch runs, or on the heels of one, are a burst (a checkout, a
 * copy over the tree): they go into the next batch, due the settle time
 * after the last one finished, so a burst is taken in a few large
 * batches and a tree that never stops changing is still followed.  While
 * git holds its index lock (a checkout or rebase in flight) nothing runs:
 * the lock is looked at again every settle time until it is gone.
 */
#ifndef UAPID_SCHED_H
#define UAPID_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "uapid/util/map.h"

/* A kind for ud_sched_note beside the watcher's: split and install it again, whatever its stat
 * says. */
#define UD_SCHED_FORCE (1u << 8)

/* What a batch is asked to look at. */
struct ud_sched_batch {
	struct ud_map paths; /* tree-relative path -> (void *)(uintptr_t)watch kinds */
	bool full;	     /* look at the whole tree (events were lost) */
	bool force_all;	     /* ... and split and install everything again */
	uint64_t first_ns;   /* when the first of its events came (the scheduler's clock) */
};

/*
 * Called on the loop thread when a batch is due; the callee owns b (free
 * with ud_sched_batch_free) and calls ud_sched_done when it has finished.
 */
typedef void (*ud_sched_run_fn)(void *ctx, struct ud_sched_batch *b);

struct ud_sched;

/*
 * root: the tree, whose git index lock (ud_sched_git_lockfile) holds
 * batches back; NULL for none.  NULL when libuv refuses the timer.
 */
struct ud_sched *ud_sched_new(uv_loop_t *loop, unsigned settle_ms, const char *root,
			      ud_sched_run_fn run, void *ctx);
/* An event: rel may have changed (kinds from watch.h). */
void ud_sched_note(struct ud_sched *s, const char *rel, unsigned kinds);
/* Everything may have changed: the next batch looks at the whole tree (force: redoes it all). */
void ud_sched_full(struct ud_sched *s);
void ud_sched_force_all(struct ud_sched *s);
/*
 * The last batch could not be recorded (a full disk, an I/O error): the
 * next one looks at the whole tree, and nothing runs for ms, whatever
 * comes meanwhile (it joins that batch).  Called while the batch is out,
 * before ud_sched_done; the wait is on the scheduler's timer.
 */
void ud_sched_retry(struct ud_sched *s, unsigned ms);
/* Counts work the caller runs itself (the first scan) as the running batch. */
void ud_sched_hold(struct ud_sched *s);
/* The running batch has finished. */
void ud_sched_done(struct ud_sched *s);
/* Is a batch running or waiting? */
bool ud_sched_busy(const struct ud_sched *s);
void ud_sched_set_settle(struct ud_sched *s, unsigned settle_ms);
/*
 * The scheduler's clock: the time and one alarm.  ud_sched_new's is the
 * loop's: uv_hrtime, and a timer on the loop.  A test sets a fake one that
 * it advances by hand, so that it checks the rules to the millisecond
 * whatever the speed of the machine.
 */
struct ud_sched_clock {
	uint64_t (*now)(void *ctx); /* monotonic nanoseconds */
	/*
	 * Sets the alarm: ud_sched_alarm is to be called once, ms from now (0:
	 * on the next turn of the loop), in place of any alarm set before.
	 * Returns 0, or a negative errno when it cannot (the scheduler is
	 * going away).
	 */
	int (*set)(void *ctx, uint64_t ms);
	void (*cancel)(void *ctx); /* takes back the alarm set, if any */
	void *ctx;
};
/* Runs s on clock c (copied) in place of the loop's; before any event. */
void ud_sched_set_clock(struct ud_sched *s, const struct ud_sched_clock *c);
/* The alarm set through the clock went off. */
void ud_sched_alarm(struct ud_sched *s);
/* Is the scheduler holding back because git's index lock is there? */
bool ud_sched_waiting_for_git(const struct ud_sched *s);
void ud_sched_batch_free(struct ud_sched_batch *b);
/* Stops the timer; the memory goes once the loop has closed it. */
void ud_sched_close(struct ud_sched *s);

/*
 * The index lock of the git work tree at root: ROOT/.git/index.lock, or
 * the one of the directory a ".git" file points to (a linked work tree);
 * NULL when root is not a git work tree.
 */
char *ud_sched_git_lockfile(const char *root);

#endif /* UAPID_SCHED_H */
