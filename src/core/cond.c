// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conditional tree (see cond.h).
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/chars.h"
#include "uapid/core/cond.h"
#include "uapid/util/xmalloc.h"

/* The value of one directive's own test, before earlier clauses count. */
static enum ud_tri
directive_value(const struct ud_line *l, enum ud_kstate k)
{
	const char *a = l->arg;
	size_t n = 0;
	enum ud_tri v;

	switch (l->dir) {
	case UD_DIR_IF:
	case UD_DIR_ELIF:
		return ud_expr_eval(a, k);
	case UD_DIR_IFDEF:
	case UD_DIR_IFNDEF:
		while (ud_is_ident(a[n]))
			n++;
		if (n == 10 && memcmp(a, "__KERNEL__", 10) == 0)
			v = k == UD_KERNEL_DEFINED     ? UD_TRUE
			    : k == UD_KERNEL_UNDEFINED ? UD_FALSE
						       : UD_UNKNOWN;
		else
			v = UD_UNKNOWN;
		return l->dir == UD_DIR_IFNDEF ? ud_tri_not(v) : v;
	default:
		return UD_TRUE; /* #else */
	}
}

static bool
directive_mentions(const struct ud_line *l)
{
	return l->dir != UD_DIR_ELSE && ud_expr_mentions_kernel(l->arg);
}

/* Appends a clause for directive line 'li' to group g and evaluates it. */
static void
add_clause(const struct ud_lexed *lx, struct ud_group *g, size_t li)
{
	const struct ud_line *l = &lx->lines[li];
	struct ud_clause *c;
	enum ud_tri reach_k = UD_TRUE, reach_u = UD_TRUE;
	size_t i;

	for (i = 0; i < g->nclauses; i++) {
		const struct ud_line *pl = &lx->lines[g->clauses[i].line];

		reach_k = ud_tri_and(reach_k, ud_tri_not(directive_value(pl, UD_KERNEL_DEFINED)));
		reach_u = ud_tri_and(reach_u, ud_tri_not(directive_value(pl, UD_KERNEL_UNDEFINED)));
	}
	g->clauses = ud_xgrow(g->clauses, &g->aclauses, g->nclauses + 1, sizeof(*g->clauses));
	c = &g->clauses[g->nclauses++];
	memset(c, 0, sizeof(*c));
	c->line = li;
	c->dir = l->dir;
	c->body_first = li + 1;
	c->body_end = li + 1;
	c->own_mentions = directive_mentions(l);
	if (c->own_mentions)
		g->mentions_kernel = true;
	c->when_kernel = ud_tri_and(reach_k, directive_value(l, UD_KERNEL_DEFINED));
	c->when_user = ud_tri_and(reach_u, directive_value(l, UD_KERNEL_UNDEFINED));
	c->kclass = ud_kclass_of(g->mentions_kernel, c->when_kernel, c->when_user);
}

int
ud_cond_build(const struct ud_lexed *lx, struct ud_cond *cond, struct ud_diags *diags)
{
	long *stack = NULL; /* open groups, innermost last */
	size_t nstack = 0, astack = 0, li;

	memset(cond, 0, sizeof(*cond));
	cond->balanced = true;
	cond->line_group = ud_xcalloc(lx->nlines ? lx->nlines : 1, sizeof(long));
	cond->line_clause = ud_xcalloc(lx->nlines ? lx->nlines : 1, sizeof(long));

	for (li = 0; li < lx->nlines; li++) {
		const struct ud_line *l = &lx->lines[li];
		long cur = nstack > 0 ? stack[nstack - 1] : -1;
		struct ud_group *g = cur >= 0 ? &cond->groups[cur] : NULL;

		cond->line_group[li] = cur;
		cond->line_clause[li] = g != NULL ? (long)g->nclauses - 1 : -1;

		switch (l->dir) {
		case UD_DIR_IF:
		case UD_DIR_IFDEF:
		case UD_DIR_IFNDEF: {
			long idx = (long)cond->ngroups;
			struct ud_group *ng;

			cond->groups = ud_xgrow(cond->groups, &cond->agroups, cond->ngroups + 1,
						sizeof(*cond->groups));
			ng = &cond->groups[cond->ngroups++];
			memset(ng, 0, sizeof(*ng));
			ng->if_line = li;
			ng->endif_line = UD_NO_LINE;
			ng->parent = cur;
			ng->parent_clause = cond->line_clause[li];
			ng->nesting = (unsigned)nstack;
			add_clause(lx, ng, li);
			stack = ud_xgrow(stack, &astack, nstack + 1, sizeof(*stack));
			stack[nstack++] = idx;
			cond->line_group[li] = idx;
			cond->line_clause[li] = -1;
			break;
		}
		case UD_DIR_ELIF:
		case UD_DIR_ELSE:
			if (g == NULL) {
				ud_diags_add(diags, l->first, UD_SEV_ERROR, "#%s without #if",
					     ud_dir_name(l->dir));
				cond->balanced = false;
				break;
			}
			if (g->clauses[g->nclauses - 1].dir == UD_DIR_ELSE) {
				ud_diags_add(diags, l->first, UD_SEV_ERROR,
					     "#%s after #else (the group opened at line %u)",
					     ud_dir_name(l->dir), lx->lines[g->if_line].first);
				cond->balanced = false;
			}
			g->clauses[g->nclauses - 1].body_end = li;
			add_clause(lx, g, li);
			cond->line_clause[li] = -1;
			break;
		case UD_DIR_ENDIF:
			if (g == NULL) {
				ud_diags_add(diags, l->first, UD_SEV_ERROR, "#endif without #if");
				cond->balanced = false;
				break;
			}
			g->clauses[g->nclauses - 1].body_end = li;
			g->endif_line = li;
			cond->line_clause[li] = -1;
			nstack--;
			break;
		default:
			break;
		}
	}
	while (nstack > 0) {
		struct ud_group *g = &cond->groups[stack[--nstack]];

		g->clauses[g->nclauses - 1].body_end = lx->nlines;
		ud_diags_add(diags, lx->lines[g->if_line].first, UD_SEV_ERROR,
			     "#%s has no matching #endif", ud_dir_name(lx->lines[g->if_line].dir));
		cond->balanced = false;
	}
	free(stack);
	return 0;
}

void
ud_cond_free(struct ud_cond *cond)
{
	size_t i;

	if (cond == NULL)
		return;
	for (i = 0; i < cond->ngroups; i++)
		free(cond->groups[i].clauses);
	free(cond->groups);
	free(cond->line_group);
	free(cond->line_clause);
	memset(cond, 0, sizeof(*cond));
}

size_t
ud_group_directives(const struct ud_group *g, size_t *lines)
{
	size_t i, n = 0;

	for (i = 0; i < g->nclauses; i++)
		lines[n++] = g->clauses[i].line;
	if (g->endif_line != UD_NO_LINE)
		lines[n++] = g->endif_line;
	return n;
}
