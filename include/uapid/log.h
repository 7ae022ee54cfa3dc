/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's log: one line per event on stderr.  Under journald (its
 * JOURNAL_STREAM names our stderr) each line starts with the "<N>"
 * priority prefix journald reads; elsewhere with "uapid: ".  On a
 * terminal, a progress line can stand in the last line and is rewritten
 * in place until the next log line.  Any thread may log: a line is
 * written whole, in one call, never interleaved with another.
 */
#ifndef UAPID_LOG_H
#define UAPID_LOG_H

#include <stdbool.h>
#include <syslog.h>

/* Looks at stderr once: journald's stream, a terminal, or neither. */
void ud_log_init(void);
/* Lines above this priority (LOG_DEBUG > LOG_INFO) are not written; LOG_INFO at start. */
void ud_log_set_level(int max_priority);
void ud_log(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A progress line on a terminal (nothing elsewhere); the next line replaces it. */
void ud_log_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool ud_log_to_journal(void);

#endif /* UAPID_LOG_H */
