/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kbuild export lists: which headers a directory exports to userspace,
 * and the edits a split makes to them.
 *
 * Pure buffer work (the tree module reads and writes the files).  The
 * forms understood are those of the kernel's header export lists:
 * "header-y += a.h b.h" (also opt-header, asm-headers; +=, := or =),
 * backslash continuations, # comments, "include path/to/Kbuild.asm", and
 * ifeq/ifneq/ifdef/ifndef .. else .. endif stanzas.  "header-y += dir/"
 * names a subdirectory, not a header, and is ignored.
 */
#ifndef UAPID_KBUILD_H
#define UAPID_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"

struct ud_kbuild_entry {
	char *name;	    /* "foo.h" */
	unsigned line;	    /* physical line of the assignment holding it */
	unsigned cond_line; /* first line of the innermost enclosing stanza, 0 if none */
	bool included;	    /* found in a file named by an "include" line */
};

struct ud_kbuild {
	struct ud_kbuild_entry *v;
	size_t n, alloc;
	char **includes; /* "include X" paths, as written */
	size_t nincludes, aincludes;
};

#define UD_KBUILD_INIT                                                                             \
	{                                                                                          \
		NULL, 0, 0, NULL, 0, 0                                                             \
	}

/* Parses a Kbuild file's text, appending to kb. */
void ud_kbuild_parse(const char *buf, size_t len, struct ud_kbuild *kb);
/*
 * Decides an ifeq/ifneq/ifdef/ifndef line, given as its text without
 * comments and with white space squeezed: true when its body counts.
 */
typedef bool (*ud_kbuild_cond)(const char *line, void *ctx);
/*
 * Appends the words assigned to var (with +=, := or =) in buf to kb, only
 * from sections that cond (NULL: every section) says count; "else" flips
 * a section.  Words naming directories or holding make expressions are
 * skipped, as in export lists.
 */
void ud_kbuild_var(const char *buf, size_t len, const char *var, ud_kbuild_cond cond, void *ctx,
		   struct ud_kbuild *kb);
void ud_kbuild_free(struct ud_kbuild *kb);
/* Index of the entry for name, or -1. */
long ud_kbuild_find(const struct ud_kbuild *kb, const char *name);
/*
 * Removes the exports of the n names from the Kbuild text buf into out, in
 * one pass: time linear in the text and the names (what a directory of
 * 20,000 exports needs).  Each name's first listing goes (its word, and the
 * blanks before it; a line left with no word goes too).  When that entry
 * sits in a conditional stanza, moved[k] receives the innermost stanza
 * around it with only names[k] in it (its opening lines, an "else" before
 * the entry, its endif); otherwise "header-y += NAME".  A stanza around a
 * removed entry that exports nothing once all of them are gone is removed
 * whole, with one blank line before it.  moved is an array of n buffers,
 * each reset first and left empty when its name is not listed; a name
 * repeated in names counts once (its later places stay empty).  Returns
 * how many names were found and removed; out is a copy of buf when none.
 */
size_t ud_kbuild_remove_all(const char *buf, size_t len, const char *const *names, size_t n,
			    struct ud_buf *out, struct ud_buf *moved);
/*
 * ud_kbuild_remove_all for one name, moved appended to (not reset).
 * Returns 1 if the entry was found and removed, 0 if not.
 */
int ud_kbuild_remove(const char *buf, size_t len, const char *name, struct ud_buf *out,
		     struct ud_buf *moved);
/* Appends an export (text as made by ud_kbuild_remove) to a Kbuild text. */
void ud_kbuild_append(struct ud_buf *kbuild, const char *moved);

#define UD_KBUILD_UAPI_HEADER "# UAPI Header export list\n"

#endif /* UAPID_KBUILD_H */
