/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress of long work, for a person at a terminal.
 *
 * Two halves.  Library loops that can run long (the headers-branch
 * backfill, the compile test, installs, API models) take a struct
 * ud_progress_cb and report "done of total" through it; they never print.
 * The programs turn those reports into one line on stderr, rewritten in
 * place and cleared at the end:
 *
 *     headers branch: 1,840/12,000 commits (212/s, ~48 s left)
 *
 * The line is drawn only on a terminal (never into a pipe or a file, nor
 * under journald, nor with TERM=dumb), only once the work has run for a
 * moment (UAPID_PROGRESS_DELAY seconds, default 1, as git's
 * GIT_PROGRESS_DELAY: short work stays silent), and at most ten times a
 * second.  A struct ud_progress is started, updated and ended by one
 * thread; ud_progress_interrupt (the log's, before each line) may run on
 * any.  The batch commands and the daemon's first scan share it.
 */
#ifndef UAPID_PROGRESS_H
#define UAPID_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A report of work done: done of total (total 0 when not known yet). */
struct ud_progress_cb {
	void (*fn)(void *ctx, size_t done, size_t total);
	void *ctx;
};

/* Calls cb when there is one (cb or its fn may be NULL). */
static inline void
ud_progress_report(const struct ud_progress_cb *cb, size_t done, size_t total)
{
	if (cb != NULL && cb->fn != NULL)
		cb->fn(cb->ctx, done, total);
}

struct ud_progress {
	const char *what;  /* "headers branch"; borrowed */
	const char *unit;  /* "commits"; borrowed */
	int fd;		   /* where the line goes (stderr) */
	bool enabled;	   /* a terminal, and not --quiet */
	bool shown;	   /* a line stands on the terminal now */
	uint64_t start_ns; /* when the work started */
	uint64_t last_ns;  /* when the line was last drawn */
	uint64_t delay_ns; /* nothing is drawn before start + delay */
	size_t done, total;
};

/*
 * Starts a progress line for what, counted in unit, on stderr.  quiet
 * (--quiet, --json) turns it off; so does a stderr that is not a
 * terminal.  Nothing is drawn yet.
 */
void ud_progress_start(struct ud_progress *p, const char *what, const char *unit, bool quiet);
/* Records done of total and redraws the line when it is due. */
void ud_progress_update(struct ud_progress *p, size_t done, size_t total);
/*
 * Takes the line off the terminal before something else is printed there;
 * the next update draws it again.
 */
void ud_progress_clear(struct ud_progress *p);
/* The work ended: the line is cleared for good (a no-op when never shown). */
void ud_progress_end(struct ud_progress *p);
/*
 * Takes whichever progress line stands on the terminal off it, so that a
 * log or diagnostic line can be written there; the next update of that
 * progress draws it again.  The log and the commands' reports call it
 * before each line they print.
 */
void ud_progress_interrupt(void);
/* A struct ud_progress_cb that updates p. */
struct ud_progress_cb ud_progress_cb_for(struct ud_progress *p);

/*
 * The line's text (no control characters) for done of total after
 * seconds, into out (NUL-terminated, cut at size).  Returns its length.
 */
size_t ud_progress_format(char *out, size_t size, const char *what, const char *unit, size_t done,
			  size_t total, double seconds);

#endif /* UAPID_PROGRESS_H */
