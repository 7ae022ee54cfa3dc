/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Makefile reader's insides, shared by its three files: reading
 * (make.c), expansion (make-expand.c) and the make functions (make-fn.c).
 * Internal to the reader.
 */
#ifndef UAPID_CORE_MAKE_INT_H
#define UAPID_CORE_MAKE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/core/make.h"
#include "uapid/util/strlist.h"

#define MAX_DEPTH 200 /* nested expansions before a self-reference is assumed */
#define MAX_COND 64   /* nested conditionals */
#define MAX_ARGS 10   /* $(0) .. $(9) of $(call) */

enum flavor {
	FL_RECURSIVE, /* = : expanded when used */
	FL_SIMPLE,    /* := : expanded when set */
};

struct var {
	char *name;
	char *value;
	enum flavor flavor;
	bool cmdline; /* set by ud_make_define: the Makefile cannot change it */
};

/* A target- or pattern-specific variable ("T: VAR := value"). */
struct tvar {
	char *target; /* a target, or a pattern with % */
	char *name;
	char *value; /* expanded for :=, raw for = and += */
	enum flavor flavor;
	bool append;
};

/* The frame of an expansion: where we are, and what $@, $1 ... mean there. */
struct frame {
	const char *target, *stem, *first_prereq, *prereqs;
	const char *args[MAX_ARGS]; /* $(call) arguments, NULL outside a call */
	size_t nargs;
	bool in_call;
};

struct ud_make {
	enum ud_make_mode mode;
	struct ud_make_io io;
	struct var *vars;
	size_t nvars, avars;
	struct tvar *tvars;
	size_t ntvars, atvars;
	struct ud_make_rule *rules;
	size_t nrules, arules;
	struct ud_strlist files; /* labels, owned: rules point into them */

	/* the expansion in progress */
	struct frame *frame;
	const char *file;
	unsigned line;
	unsigned depth;
	bool failed;  /* an error stopped this expansion */
	bool in_rule; /* expanding a recipe: $(error) is the rule's own */
	struct ud_diags *diags;
};

/* The variable name[0..n), or NULL. */
struct var *make_find_var(const struct ud_make *m, const char *name, size_t n);
/* A new variable, or the one of that name emptied for a new value. */
struct var *make_new_var(struct ud_make *m, const char *name);
/* The blank-separated words of s. */
void make_words_of(const char *s, struct ud_strlist *out);
/* Does word match pattern (one % at most)?  *stem gets the matched part. */
bool make_pattern_match(const char *pat, size_t pn, const char *w, size_t wn, const char **stem,
			size_t *sn);
/* Appends pattern with its % replaced by stem. */
void make_add_replaced(struct ud_buf *out, const char *pat, size_t pn, const char *stem, size_t sn);
/* Normalises a path for comparing: "./" and "x/../" go, "//" is one '/'. */
char *make_norm_path(const char *p);
/* Splits s[0..n) at top-level commas into at most max pieces (the last takes the rest). */
size_t make_split_args(const char *s, size_t n, size_t max, const char **a, size_t *an);
/* s[0..n) expanded, malloc'd. */
char *make_expand_str(struct ud_make *m, const char *s, size_t n);
/* $(patsubst PAT,REPL,TEXT), also the $(var:a=b) substitution reference. */
void make_patsubst(const char *pat, const char *repl, const char *text, struct ud_buf *out);
/*
 * A function call: name is the function's, args its unexpanded argument
 * text.  Returns false when name is not a function.
 */
bool make_call_function(struct ud_make *m, const char *name, size_t nn, const char *args, size_t an,
			struct ud_buf *out);
/* Expands the value of a variable (recursive ones in the current frame). */
void make_expand_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out);
/* The same, ignoring target- and pattern-specific values. */
void make_global_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out);
/* Expands s[0..n) into out. */
void make_expand(struct ud_make *m, const char *s, size_t n, struct ud_buf *out);
/* An error at the current line; stops the expansion in progress. */
void make_fail(struct ud_make *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* UAPID_CORE_MAKE_INT_H */
