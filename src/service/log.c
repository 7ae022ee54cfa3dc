// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's log (log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/log.h"
#include "uapid/progress.h"

static bool journal, tty, progress_shown;
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
	tty = !journal && isatty(STDERR_FILENO);
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

void
ud_log(int priority, const char *fmt, ...)
{
	va_list ap;

	if (priority > max_priority)
		return;
	ud_progress_interrupt(); /* a batch command's progress line */
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
	if (journal)
		fprintf(stderr, "<%d>", priority);
	else
		fputs(priority <= LOG_WARNING
			      ? (priority <= LOG_ERR ? "uapid: error: " : "uapid: warning: ")
			      : "uapid: ",
		      stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void
ud_log_progress(const char *fmt, ...)
{
	va_list ap;

	if (!tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}
