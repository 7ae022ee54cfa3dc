// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Progress lines on a terminal (progress.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uapid/io/progress.h"

#define NS_PER_S 1000000000ull
/* at most ten redraws a second: a terminal is slower than our loops */
#define REDRAW_NS (NS_PER_S / 10)

/*
 * The line standing on the terminal now, if any: one terminal, one line.
 * The progress is drawn by the one thread that owns it, but a log line
 * may come from any thread (the daemon's branch follower logs from its
 * worker) and takes the line off first: on_screen and each line's shown
 * flag are therefore read and written atomically, and whoever clears the
 * flag writes the erase.
 */
static struct ud_progress *on_screen;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* "12,345": thousands separated, whatever the locale. */
static void
group(char *out, size_t size, size_t n)
{
	char digits[32];
	size_t len, i, o = 0;

	len = (size_t)snprintf(digits, sizeof(digits), "%zu", n);
	for (i = 0; i < len && o + 1 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0 && o + 2 < size)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

/* "~48 s left", "~3 min left", "~1 h 5 min left". */
static void
eta(char *out, size_t size, double left)
{
	unsigned long s = (unsigned long)(left + 0.5);

	if (s < 60)
		snprintf(out, size, "~%lu s left", s < 1 ? 1 : s);
	else if (s < 3600)
		snprintf(out, size, "~%lu min left", (s + 30) / 60);
	else
		snprintf(out, size, "~%lu h %lu min left", s / 3600, (s % 3600 + 30) / 60);
}

size_t
ud_progress_format(char *out, size_t size, const char *what, const char *unit, size_t done,
		   size_t total, double seconds)
{
	char d[32], t[32], rate[32] = "", left[48] = "";
	double per_s = seconds > 0 ? (double)done / seconds : 0;
	int n;

	group(d, sizeof(d), done);
	if (done > 0 && seconds > 0)
		snprintf(rate, sizeof(rate), per_s >= 10 ? "%.0f/s" : "%.1f/s", per_s);
	if (total > 0 && done < total && per_s > 0)
		eta(left, sizeof(left), (double)(total - done) / per_s);
	if (total > 0) {
		group(t, sizeof(t), total);
		n = snprintf(out, size, "%s: %s/%s %s", what, d, t, unit);
	} else {
		n = snprintf(out, size, "%s: %s %s", what, d, unit);
	}
	if (n >= 0 && (size_t)n < size && rate[0] != '\0')
		n += snprintf(out + n, size - (size_t)n, left[0] != '\0' ? " (%s, %s)" : " (%s)",
			      rate, left);
	if (n < 0)
		n = 0;
	return (size_t)n < size ? (size_t)n : size > 0 ? size - 1 : 0;
}

/* One write(2) per redraw, so the line is never torn by another writer. */
static void
put(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* a terminal that went away takes no progress */
		s += w;
		n -= (size_t)w;
	}
}

/* Does fd reach a person: a terminal, not journald's stream, not TERM=dumb. */
static bool
is_interactive(int fd)
{
	const char *term = getenv("TERM"), *js = getenv("JOURNAL_STREAM");
	unsigned long dev, ino;
	struct stat st;

	if (!isatty(fd) || (term != NULL && strcmp(term, "dumb") == 0))
		return false;
	return !(js != NULL && sscanf(js, "%lu:%lu", &dev, &ino) == 2 && fstat(fd, &st) == 0 &&
		 (unsigned long)st.st_dev == dev && (unsigned long)st.st_ino == ino);
}

static uint64_t
delay_ns(void)
{
	const char *s = getenv("UAPID_PROGRESS_DELAY");
	char *end;
	double v;

	if (s == NULL || s[0] == '\0')
		return NS_PER_S;
	v = strtod(s, &end);
	if (*end != '\0' || !(v >= 0) || v > 86400)
		return NS_PER_S;
	return (uint64_t)(v * (double)NS_PER_S);
}

void
ud_progress_start(struct ud_progress *p, const char *what, const char *unit, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->unit = unit;
	p->fd = STDERR_FILENO;
	p->enabled = !quiet && is_interactive(p->fd);
	p->start_ns = now_ns();
	p->delay_ns = delay_ns();
}

/* Erases p's line when it stands (any thread). */
static void
erase(struct ud_progress *p)
{
	struct ud_progress *expected = p;

	if (!__atomic_exchange_n(&p->shown, false, __ATOMIC_ACQ_REL))
		return;
	put(p->fd, "\r\033[K", 4);
	__atomic_compare_exchange_n(&on_screen, &expected, NULL, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

void
ud_progress_clear(struct ud_progress *p)
{
	erase(p); /* the next update draws at once: shown is false */
}

static void
draw(struct ud_progress *p, uint64_t now)
{
	struct ud_progress *other;
	char line[256];
	size_t n;

	line[0] = '\r';
	n = 1 + ud_progress_format(line + 1, sizeof(line) - 5, p->what, p->unit, p->done, p->total,
				   (double)(now - p->start_ns) / NS_PER_S);
	/* erase what a longer earlier line left to the right */
	memcpy(line + n, "\033[K", 3);
	other = __atomic_load_n(&on_screen, __ATOMIC_ACQUIRE);
	if (other != NULL && other != p)
		erase(other);
	put(p->fd, line, n + 3);
	__atomic_store_n(&on_screen, p, __ATOMIC_RELEASE);
	__atomic_store_n(&p->shown, true, __ATOMIC_RELEASE);
	p->last_ns = now;
}

void
ud_progress_update(struct ud_progress *p, size_t done, size_t total)
{
	uint64_t now;

	p->done = done;
	p->total = total;
	if (!p->enabled)
		return;
	now = now_ns();
	if (now - p->start_ns < p->delay_ns)
		return;
	if (__atomic_load_n(&p->shown, __ATOMIC_ACQUIRE) && now - p->last_ns < REDRAW_NS &&
	    done != total)
		return;
	draw(p, now);
}

void
ud_progress_interrupt(void)
{
	struct ud_progress *p = __atomic_load_n(&on_screen, __ATOMIC_ACQUIRE);

	if (p != NULL)
		erase(p);
}

void
ud_progress_end(struct ud_progress *p)
{
	ud_progress_clear(p);
	p->enabled = false;
}

static void
progress_cb(void *ctx, size_t done, size_t total)
{
	ud_progress_update(ctx, done, total);
}

struct ud_progress_cb
ud_progress_cb_for(struct ud_progress *p)
{
	struct ud_progress_cb cb = {progress_cb, p};

	return cb;
}
