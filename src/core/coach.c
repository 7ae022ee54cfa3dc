// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The coaching a refused header needs (coach.h).  Each refusal of the
 * classifier is decided by one marker on one directive:
 *
 *   #elif in a __KERNEL__ conditional      kernel on the conditional's #if
 *   #elif mentions __KERNEL__               retain on the conditional's #if
 *   __KERNEL__ conditional nested in another kernel on the outer #if
 *   no include guard, kernel-only content   retain on each __KERNEL__ #if
 *                                           (the header then moves whole, its
 *                                           __KERNEL__ parts left to the
 *                                           install's unifdef)
 *
 * tests/cli/cli-coach.sh feeds every kind back to `uapid split`.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/core/coach.h"
#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

/* The logical line of the directive starting on physical line phys, or nlines. */
static size_t
directive_at(const struct ud_lexed *lx, unsigned phys)
{
	size_t li;

	for (li = 0; li < lx->nlines; li++)
		if (lx->lines[li].first == phys && lx->lines[li].dir != UD_DIR_NONE)
			return li;
	return lx->nlines;
}

/* "PATH ACTION 'SELECTOR'[#N]" for the directive at logical line li, added once. */
static void
add_marker(struct ud_strlist *out, const char *path, const char *action, const struct ud_lexed *lx,
	   size_t li)
{
	char *norm = ud_selector_normalize(lx->lines[li].dtext), *other, *line;
	unsigned occurrence = 0;
	size_t i;

	for (i = 0; i <= li; i++) {
		if (lx->lines[i].dir == UD_DIR_NONE)
			continue;
		other = ud_selector_normalize(lx->lines[i].dtext);
		occurrence += strcmp(other, norm) == 0;
		free(other);
	}
	if (occurrence > 1)
		line = ud_xasprintf("%s %s '%s'#%u", path, action, norm, occurrence);
	else
		line = ud_xasprintf("%s %s '%s'", path, action, norm);
	if (ud_strlist_has(out, line))
		free(line);
	else
		ud_strlist_take(out, line);
	free(norm);
}

/* The number after "(opened at line " in message, or 0. */
static unsigned
opened_at(const char *message)
{
	const char *p = strstr(message, "(opened at line ");

	return p != NULL ? (unsigned)strtoul(p + 16, NULL, 10) : 0;
}

enum ud_coach
ud_coach(const char *path, const struct ud_split_result *res, struct ud_strlist *out)
{
	const struct ud_classified *c = &res->model;
	const struct ud_lexed *lx = &c->lx;
	size_t i, before = out->n;

	if (res->outcome != UD_SPLIT_REFUSED)
		return UD_COACH_NONE;
	/* rejected before a model (NUL byte, too large), or conditionals that do not pair up */
	if (!c->lexed || !c->cond.balanced)
		return UD_COACH_BROKEN;
	for (i = 0; i < res->diags.n; i++) {
		const struct ud_diag *d = &res->diags.v[i];
		size_t li;
		long g;

		if (d->severity != UD_SEV_ERROR)
			continue;
		if (strncmp(d->message, "#elif in a __KERNEL__ conditional", 33) == 0 ||
		    strncmp(d->message, "__KERNEL__ conditional nested in another", 40) == 0) {
			li = directive_at(lx, opened_at(d->message));
			if (li < lx->nlines)
				add_marker(out, path, "kernel", lx, li);
		} else if (strncmp(d->message, "#elif mentions __KERNEL__", 25) == 0) {
			li = directive_at(lx, d->line);
			g = li < lx->nlines ? c->cond.line_group[li] : -1;
			if (g >= 0)
				add_marker(out, path, "retain", lx, c->cond.groups[g].if_line);
		} else if (strncmp(d->message, "no include guard", 16) == 0) {
			size_t gi;

			for (gi = 0; gi < c->cond.ngroups; gi++)
				if (c->cond.groups[gi].nesting == 0 &&
				    c->cond.groups[gi].mentions_kernel)
					add_marker(out, path, "retain", lx,
						   c->cond.groups[gi].if_line);
		}
	}
	return out->n > before ? UD_COACH_MARKER : UD_COACH_NONE;
}
