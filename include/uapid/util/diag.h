/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics: user-facing problems found in an input, with a line.
 *
 * The core never prints; it collects these in a list and the command
 * layer prints them as "path:line: severity: message".
 */
#ifndef UAPID_DIAG_H
#define UAPID_DIAG_H

#include <stddef.h>

enum ud_severity {
	UD_SEV_NOTE,	/* explains a decision; never changes the exit code */
	UD_SEV_WARNING, /* handled, but a person should look */
	UD_SEV_ERROR,	/* the file could not be handled as asked */
};

struct ud_diag {
	char *path;    /* owned; NULL: the file the list is about */
	unsigned line; /* 1-based physical line, 0 when about the whole file */
	enum ud_severity severity;
	char *message; /* owned */
};

struct ud_diags {
	struct ud_diag *v;
	size_t n;
	size_t alloc;
};

#define UD_DIAGS_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

void ud_diags_add(struct ud_diags *d, unsigned line, enum ud_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same about another file than the list's own (a Kbuild file, a directory). */
void ud_diags_add_at(struct ud_diags *d, const char *path, unsigned line, enum ud_severity sev,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Number of diagnostics of at least the given severity. */
size_t ud_diags_count(const struct ud_diags *d, enum ud_severity min);
/* Moves every diagnostic of 'from' to the end of 'to'; 'from' is left empty. */
void ud_diags_move(struct ud_diags *to, struct ud_diags *from);
void ud_diags_free(struct ud_diags *d);
const char *ud_severity_name(enum ud_severity sev);

#endif /* UAPID_DIAG_H */
