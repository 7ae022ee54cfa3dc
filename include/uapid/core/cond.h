/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conditional tree: the #if/#ifdef/#ifndef .. #elif .. #else .. #endif
 * groups of a lexed header, with their clauses and bodies, and for every
 * clause how its condition relates to __KERNEL__.
 *
 * Built iteratively from the lexed lines (no recursion).  Unbalanced or
 * misordered directives produce error diagnostics, never a crash: a stray
 * #else/#elif/#endif is left as an ordinary line and an unterminated group
 * is closed at the end of the file.
 */
#ifndef UAPID_COND_H
#define UAPID_COND_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/diag.h"
#include "uapid/core/expr.h"
#include "uapid/core/lex.h"

#define UD_NO_LINE ((size_t)-1)

struct ud_clause {
	size_t line; /* logical line of the #if/#elif/#else directive */
	enum ud_dir dir;
	size_t body_first; /* body: logical lines [body_first, body_end) */
	size_t body_end;
	bool own_mentions; /* this directive's own text names __KERNEL__ */
	/* the condition under which the body is compiled (earlier clauses false) */
	enum ud_tri when_kernel, when_user;
	enum ud_kclass kclass;
};

struct ud_group {
	size_t if_line;	   /* logical line of the opening directive */
	size_t endif_line; /* logical line of #endif, UD_NO_LINE if missing */
	struct ud_clause *clauses;
	size_t nclauses, aclauses;
	long parent;	      /* enclosing group, -1 at top level */
	long parent_clause;   /* clause of the parent whose body holds this group */
	unsigned nesting;     /* 0 at top level */
	bool mentions_kernel; /* some clause names __KERNEL__ */
};

struct ud_cond {
	struct ud_group *groups; /* in order of their opening directive */
	size_t ngroups, agroups;
	/* per logical line: innermost group holding it (its directives or a body), or -1 */
	long *line_group;
	/* per logical line: clause index of line_group whose body holds it; -1 on a directive */
	long *line_clause;
	bool balanced; /* no structural error was found */
};

/* Builds the tree; returns 0.  Free with ud_cond_free whatever happens. */
int ud_cond_build(const struct ud_lexed *lx, struct ud_cond *cond, struct ud_diags *diags);
void ud_cond_free(struct ud_cond *cond);
/* The group's directive lines, in order, into lines[] (nclauses + 1 max); returns count. */
size_t ud_group_directives(const struct ud_group *g, size_t *lines);

#endif /* UAPID_COND_H */
