// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's log (log.h).
 *
 * Any thread may log (the branch follower's worker does): each line,
 * prefix and newline included, is formatted into one buffer and handed
 * to the kernel in one write(2), so lines from two threads never
 * interleave (a write of a line to a pipe or journald's stream socket is
 * not split).  The settings are written once, before any thread starts.
 * A progress line on the terminal (progress.h: the batch commands' and
 * the daemon's first scan) is taken off before each line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/util/buf.h"
#include "uapid/io/log.h"
#include "uapid/io/progress.h"

static bool journal;
static int max_priority = LOG_INFO;

void
ud_log_init(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	struct stat st;
	unsigned long dev, ino;

	journal = js != NULL && sscanf(js, "%lu:%lu", &dev, &ino) == 2 &&
		  fstat(STDERR_FILENO, &st) == 0 && (unsigned long)st.st_dev == dev &&
		  (unsigned long)st.st_ino == ino;
}

void
ud_log_set_level(int p)
{
	max_priority = p;
}

bool
ud_log_to_journal(void)
{
	return journal;
}

/* Writes b whole to stderr: one call, unless the kernel takes less. */
static void
write_all(const struct ud_buf *b)
{
	size_t done = 0;

	while (done < b->len) {
		ssize_t n = write(STDERR_FILENO, b->data + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* nowhere to say it */
		done += (size_t)n;
	}
}

void
ud_log(int priority, const char *fmt, ...)
{
	struct ud_buf line = UD_BUF_INIT;
	va_list ap;

	if (priority > max_priority)
		return;
	ud_progress_interrupt();
	if (journal)
		ud_buf_addf(&line, "<%d>", priority);
	else
		ud_buf_addstr(&line, priority <= LOG_WARNING
					     ? (priority <= LOG_ERR ? "uapid: error: "
								    : "uapid: warning: ")
					     : "uapid: ");
	va_start(ap, fmt);
	ud_buf_vaddf(&line, fmt, ap);
	va_end(ap);
	ud_buf_addstr(&line, "\n");
	write_all(&line);
	ud_buf_free(&line);
}
