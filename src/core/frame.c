// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frame of a header: banner, include guard, include-order check
 * (see frame.h).
 */
#include <string.h>

#include "uapid/util/chars.h"
#include "frame.h"

/* The first identifier of a directive argument, copied into the arena. */
const char *
ud_frame_first_ident(struct ud_arena *a, const char *s)
{
	size_t n = 0;

	while (ud_is_ident(s[n]))
		n++;
	return n > 0 ? ud_arena_strndup(a, s, n) : NULL;
}

/*
 * If logical line li starts a slash-star comment at column 0, returns the
 * line after the one that closes it, as the 2012 scripts read a banner: the
 * first line with a comment close ends it, and only blanks may follow the
 * close.  Returns 0 when there is no such comment.
 */
static size_t
comment_block_end(const struct ud_lexed *lx, size_t li)
{
	size_t n;
	const char *t;

	if (li >= lx->nlines || lx->lines[li].dir != UD_DIR_NONE)
		return 0;
	t = ud_line_text(lx, li, &n);
	if (n < 2 || t[0] != '/' || t[1] != '*')
		return 0;
	for (; li < lx->nlines; li++) {
		const struct ud_line *l = &lx->lines[li];
		size_t i, close = 0;
		bool found = false;

		if (l->dir != UD_DIR_NONE || l->first != l->last)
			return 0; /* a continued line or directive: not a plain comment */
		t = ud_line_text(lx, li, &n);
		for (i = 0; i + 1 < n; i++)
			if (t[i] == '*' && t[i + 1] == '/') {
				found = true;
				close = i + 2; /* the last close on the line, as upstream */
			}
		if (!found)
			continue;
		for (i = close; i < n; i++)
			if (t[i] != ' ' && t[i] != '\t')
				return 0;
		return li + 1;
	}
	return 0;
}

/* Makes logical lines [first, end) part of the banner. */
static void
add_banner(struct ud_classified *c, size_t first, size_t end)
{
	size_t li;

	for (li = first; li < end; li++)
		c->role[li] = UD_ROLE_BANNER;
	if (end > first)
		c->banner_last = end - 1;
}

/* Is logical line li empty: no character at all before its newline? */
static bool
is_empty(const struct ud_lexed *lx, size_t li)
{
	size_t n;

	ud_line_text(lx, li, &n);
	return n == 0;
}

/*
 * The banner of the 2012 scripts: the run of slash-star comments and empty
 * lines that opens the file, less one final empty line (that one stays
 * where it is).  A line holding only white space is not empty: it ends the
 * run, as it ended the scripts' banner match.
 */
void
ud_frame_banner(struct ud_classified *c)
{
	const struct ud_lexed *lx = &c->lx;
	size_t li = 0, end = 0;

	c->banner_last = UD_NO_LINE;
	while (li < lx->nlines) {
		size_t next;

		if (is_empty(lx, li)) {
			li++;
			continue;
		}
		next = comment_block_end(lx, li);
		if (next == 0)
			break;
		li = end = next;
	}
	if (end == 0)
		return; /* no comment opens the file */
	/* the empty lines after the last comment belong to the run, less one */
	if (li > end)
		end = li - 1;
	add_banner(c, 0, end);
}

/* Does s[0..n) hold an e-mail address (word@word.word)? */
static bool
has_email(const char *s, size_t n)
{
	size_t at, a, b;

	for (at = 1; at + 1 < n; at++) {
		if (s[at] != '@')
			continue;
		for (a = at; a > 0 && (ud_is_alnum(s[a - 1]) || strchr("._%+-", s[a - 1])); a--)
			;
		for (b = at + 1; b < n && (ud_is_alnum(s[b]) || s[b] == '-' || s[b] == '.'); b++)
			;
		if (a < at && memchr(s + at + 1, '.', b - at - 1) != NULL && s[b - 1] != '.')
			return true;
	}
	return false;
}

/* Does s[0..n) contain word, compared without regard to case? */
static bool
contains_nocase(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k && ud_to_lower(s[i + j]) == word[j]; j++)
			;
		if (j == k)
			return true;
	}
	return false;
}

/*
 * Does the comment on logical lines [a, b) carry a licence (Copyright,
 * License/Licence, GPL) or, when 'email' allows it, an attribution (an
 * e-mail address)?
 */
static bool
is_licence(const struct ud_lexed *lx, size_t a, size_t b, bool email)
{
	size_t li, n;

	for (li = a; li < b; li++) {
		const char *t = ud_line_text(lx, li, &n);

		if (contains_nocase(t, n, "copyright") || contains_nocase(t, n, "license") ||
		    contains_nocase(t, n, "licence") || ud_line_contains(lx, li, "GPL") ||
		    (email && has_email(t, n)))
			return true;
	}
	return false;
}

/* Is logical line li inside a conditional that names __KERNEL__? */
static bool
under_kernel_cond(const struct ud_classified *c, size_t li)
{
	long g;

	for (g = c->cond.line_group[li]; g >= 0; g = c->cond.groups[g].parent)
		if (c->cond.groups[g].mentions_kernel)
			return true;
	return false;
}

/*
 * The later licence comment of a file that opens with its guard: the first
 * slash-star comment at column 0 inside the guard that names a copyright or
 * a licence (an e-mail address alone is not enough this far down), outside
 * any __KERNEL__ conditional.  Returns its first logical line and sets
 * *end, or returns UD_NO_LINE.
 */
static size_t
later_licence(const struct ud_classified *c, size_t *end)
{
	const struct ud_lexed *lx = &c->lx;
	size_t endif = c->cond.groups[c->guard].endif_line, li;

	for (li = c->guard_define + 1; li < lx->nlines && li < endif; li++) {
		size_t e = comment_block_end(lx, li);

		if (e == 0)
			continue;
		if (is_licence(lx, li, e, false) && !under_kernel_cond(c, li)) {
			*end = e;
			return li;
		}
		li = e - 1;
	}
	return UD_NO_LINE;
}

/*
 * A file that opens with its include guard may carry its licence and
 * attribution comments inside it; upstream moved them in front of the
 * guard in both outputs.  The run of such comments right after the guard's
 * #define moves (blank lines between them stay where they are); it ends at
 * the first comment that is only descriptive, or at anything else.  When
 * there is no such run, the first licence comment further down moves.
 */
void
ud_frame_late_banner(struct ud_classified *c)
{
	const struct ud_lexed *lx = &c->lx;
	size_t li = c->guard_define + 1, end;

	if (c->banner_last != UD_NO_LINE || c->guard < 0)
		return;
	for (;;) {
		while (li < lx->nlines && (lx->lines[li].flags & UD_LINE_BLANK))
			li++;
		if (li >= lx->nlines || c->cond.line_group[li] != c->guard)
			break;
		end = comment_block_end(lx, li);
		if (end == 0 || !is_licence(lx, li, end, true))
			break;
		add_banner(c, li, end);
		li = end;
	}
	if (c->banner_last == UD_NO_LINE && (li = later_licence(c, &end)) != UD_NO_LINE)
		add_banner(c, li, end);
}

/* Is group g a top-level "#ifndef X" followed by "#define X [1]"? */
bool
ud_frame_is_guard(struct ud_classified *c, long gi)
{
	const struct ud_group *g = &c->cond.groups[gi];
	const struct ud_lexed *lx = &c->lx;
	const struct ud_line *ifl = &lx->lines[g->if_line];
	const char *name, *d;
	size_t dl = g->if_line + 1, n;

	if (g->parent >= 0 || ifl->dir != UD_DIR_IFNDEF || g->nclauses != 1 ||
	    g->endif_line == UD_NO_LINE)
		return false;
	name = ud_frame_first_ident(&c->lx.arena, ifl->arg);
	if (name == NULL || strcmp(name, "__KERNEL__") == 0 || strncmp(name, "CONFIG_", 7) == 0)
		return false;
	if (dl >= lx->nlines || lx->lines[dl].dir != UD_DIR_DEFINE)
		return false;
	d = lx->lines[dl].arg;
	n = strlen(name);
	if (strncmp(d, name, n) != 0 || (d[n] != '\0' && strcmp(d + n, " 1") != 0))
		return false;
	c->guard_name = name;
	c->guard_define = dl;
	return true;
}

/* Is group g a top-level "#ifndef X" whose body is just "#error ..."? */
bool
ud_frame_is_order_check(const struct ud_classified *c, long gi)
{
	const struct ud_group *g = &c->cond.groups[gi];
	const struct ud_lexed *lx = &c->lx;
	const struct ud_line *ifl = &lx->lines[g->if_line];

	if (g->parent >= 0 || ifl->dir != UD_DIR_IFNDEF || g->nclauses != 1 ||
	    g->endif_line != g->if_line + 2)
		return false;
	if (strncmp(ifl->arg, "__KERNEL__", 10) == 0 || strncmp(ifl->arg, "CONFIG_", 7) == 0)
		return false;
	return lx->lines[g->if_line + 1].dir == UD_DIR_ERROR;
}
