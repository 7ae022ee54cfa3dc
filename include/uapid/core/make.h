/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A reader for the part of GNU make that kernel Makefiles use to describe
 * their headers: variables (=, :=, ::=, +=, ?=, define .. endef, target-
 * and pattern-specific), rules and their recipes, conditionals, include,
 * and the text functions.  It evaluates, it never runs anything: $(shell)
 * expands to nothing (the Makefiles use it to make directories), and a
 * recipe is only ever expanded, never executed.
 *
 * uapid reads the tree's own Makefiles with it (which architecture a tree
 * refuses, how each generated header is made, which files the 3.x install
 * picks) instead of carrying a table per kernel version.  What it does not
 * know is an error naming the file and line, never a guess.
 *
 * Kbuild's helpers (scripts/Kbuild.include) are built in rather than read:
 * $(call if_changed,X) and $(call cmd,X) are $(cmd_X), $(call filechk,X)
 * is $(filechk_X), and comma, space, basetarget, kbuild-file and
 * real-prereqs mean what they mean there.
 *
 * Pure: files come through the io callbacks; no globals.
 */
#ifndef UAPID_MAKE_H
#define UAPID_MAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/util/strlist.h"

struct ud_make;

/* How the reader reaches files: paths as the Makefile spells them, expanded. */
struct ud_make_io {
	/* Does path exist ($(wildcard), and include of an optional file)? */
	bool (*exists)(const char *path, void *ctx);
	/* The text of path; 0, or a negative errno (the file is missing or unreadable). */
	int (*read)(const char *path, struct ud_buf *out, void *ctx);
	/*
	 * The entries of directory path matching a glob's last component are
	 * not needed by kernel header Makefiles beyond "*" and "*\/": list
	 * returns the names in path (directories with a trailing '/').
	 * May be NULL: a wildcard with a '*' is then an error.
	 */
	int (*list)(const char *path, struct ud_strlist *names, void *ctx);
	void *ctx;
};

enum ud_make_mode {
	/* Everything must be understood: an unknown construct stops the read. */
	UD_MAKE_STRICT,
	/*
	 * For a whole top-level Makefile, of which a few variables and rules
	 * matter: what is not understood expands to nothing and is kept as a
	 * note, includes are not followed, and $(error) outside a rule is a
	 * note too.
	 */
	UD_MAKE_TOLERANT,
};

/* A rule: targets, prerequisites and recipe lines, all as written. */
struct ud_make_rule {
	struct ud_strlist targets; /* expanded when read */
	char *prereqs;		   /* expanded when read */
	struct ud_strlist recipe;  /* unexpanded */
	const char *file;	   /* where it was read (owned by the reader) */
	unsigned line;
	unsigned *recipe_lines; /* line of each recipe line */
};

struct ud_make *ud_make_new(enum ud_make_mode mode, const struct ud_make_io *io);
void ud_make_free(struct ud_make *m);
/* Sets a variable as the command line would (ARCH=x86): it wins over the Makefile. */
void ud_make_define(struct ud_make *m, const char *name, const char *value);
/*
 * Reads a Makefile's text, named label in messages.  Returns 0, or -EINVAL
 * with an error diagnostic "label:line: ..." in d (strict mode, or an
 * $(error) in tolerant mode's rules); notes go to d too.
 */
int ud_make_read(struct ud_make *m, const char *label, const char *text, size_t len,
		 struct ud_diags *d);
/* The value of a variable as written, unexpanded (borrowed), NULL when it is not defined. */
const char *ud_make_raw(const struct ud_make *m, const char *name);
/* The expanded value of a variable (malloc'd), NULL when it is not defined. */
char *ud_make_var(struct ud_make *m, const char *name, struct ud_diags *d);
/*
 * The rule that makes target: an explicit one, else the pattern rule
 * whose target pattern matches (*stem receives the part % matched, malloc'd;
 * NULL for an explicit rule).  NULL when none.
 */
const struct ud_make_rule *ud_make_rule(struct ud_make *m, const char *target, char **stem);
/*
 * Expands recipe line i of rule r for target (with $@, $<, $*, $^ and the
 * target's and pattern's own variables).  Returns the text (malloc'd), or
 * NULL when expansion failed ($(error), an unknown function): the reason
 * is an error diagnostic in d naming the Makefile line.
 */
char *ud_make_recipe(struct ud_make *m, const struct ud_make_rule *r, size_t i, const char *target,
		     const char *stem, struct ud_diags *d);
/* Expands text in the global scope (malloc'd), NULL on failure as ud_make_recipe. */
char *ud_make_expand(struct ud_make *m, const char *text, struct ud_diags *d);
/* Splits an expanded command line into words, shell-like (quotes, backslashes); appends. */
void ud_make_words(const char *text, struct ud_strlist *out);

#endif /* UAPID_MAKE_H */
