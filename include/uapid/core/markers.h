/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Coaching markers: tell the splitter what to do where it cannot decide.
 *
 * In-source markers of the 2012 scripts are honoured by the classifier
 * directly ("// DISINTEGRATE: INCLUDE UAPI HERE" on its own line and a
 * trailing "// DISINTEGRATE: RETAIN" on an #if line).  This module holds the
 * out-of-tree form, one marker a line:
 *
 *     PATH ACTION [SELECTOR] [# why]
 *
 * ACTION is retain, kernel, uapi, include-here, skip or split-compound;
 * SELECTOR names a directive by its text and occurrence, quoted, with an
 * optional #N (1-based): '#ifdef __KERNEL__'#2.  Pure: parses a buffer.
 */
#ifndef UAPID_MARKERS_H
#define UAPID_MARKERS_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/diag.h"

/* The in-source markers of the 2012 scripts. */
#define UD_MARKER_INCLUDE_HERE "// DISINTEGRATE: INCLUDE UAPI HERE" /* a line of its own */
#define UD_MARKER_RETAIN "// DISINTEGRATE: RETAIN"		    /* trailing an #if line */

enum ud_marker_action {
	UD_MARK_RETAIN,		/* keep this conditional unsplit, in the uapi header */
	UD_MARK_KERNEL,		/* this conditional, whole, belongs to the kernel header */
	UD_MARK_UAPI,		/* this conditional, whole, belongs to the uapi header */
	UD_MARK_INCLUDE_HERE,	/* put the uapi #include right after this directive */
	UD_MARK_SKIP,		/* leave the file alone */
	UD_MARK_SPLIT_COMPOUND, /* split defined(__KERNEL__) && X into two groups */
	UD_MARK__COUNT
};

struct ud_marker {
	char *path; /* tree-relative header path */
	enum ud_marker_action action;
	char *selector;	     /* normalised directive text ("#ifdef __KERNEL__"), NULL if none */
	unsigned occurrence; /* 1-based */
	char *why;	     /* NULL if none */
	unsigned line;	     /* line in the markers file */
};

struct ud_markers {
	struct ud_marker *v;
	size_t n, alloc;
};

#define UD_MARKERS_INIT                                                                            \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/*
 * Parses a markers file's text and appends to 'set'.  Problems are error
 * diagnostics naming the line; returns 0, or -EINVAL if any line was bad
 * (good lines are still added).
 */
int ud_markers_parse(struct ud_markers *set, const char *buf, size_t len, struct ud_diags *diags);
/* Adds one marker; strings are copied. */
void ud_markers_add(struct ud_markers *set, const char *path, enum ud_marker_action action,
		    const char *selector, unsigned occurrence, const char *why);
/*
 * The markers for 'path', as a malloc'd array of pointers into set (free
 * the array, not the markers) in *out; returns how many (0: *out is NULL).
 */
size_t ud_markers_for(const struct ud_markers *set, const char *path,
		      const struct ud_marker ***out);
void ud_markers_free(struct ud_markers *set);
const char *ud_marker_action_name(enum ud_marker_action a);
/* Normalises directive text for selector matching: "#" + collapsed words. */
char *ud_selector_normalize(const char *text);
/* The action called name ("retain", "kernel", ...): 0 with *out, or -EINVAL. */
int ud_marker_action_parse(const char *name, enum ud_marker_action *out);
/*
 * Does text name a preprocessor directive a marker can select ("#ifdef
 * __KERNEL__", "# if X", "#endif")?  0, or -EINVAL with *why (static text
 * saying what is wrong): an empty selector or one whose first word is no
 * directive selects nothing, and would only ever fail to match.
 */
int ud_selector_check(const char *text, const char **why);

#endif /* UAPID_MARKERS_H */
