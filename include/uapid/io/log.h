/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's log: one line per event on stderr.  Under journald (its
 * JOURNAL_STREAM names our stderr) each line starts with the "<N>"
 * priority prefix journald reads; elsewhere with "uapid: ".  A progress
 * line standing on a terminal (progress.h) is taken off before each log
 * line and drawn again by its next update.  Any thread may log: a line is
 * written whole, in one call, never interleaved with another.
 */
#ifndef UAPID_LOG_H
#define UAPID_LOG_H

#include <stdbool.h>
#include <syslog.h>

/* Looks at stderr once: journald's stream or not. */
void ud_log_init(void);
/* Lines above this priority (LOG_DEBUG > LOG_INFO) are not written; LOG_INFO at start. */
void ud_log_set_level(int max_priority);
void ud_log(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool ud_log_to_journal(void);

#endif /* UAPID_LOG_H */
