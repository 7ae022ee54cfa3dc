/*
 * The frame of a header: banner, include guard, include-order check
 * (see frame.h).
 */
#include <string.h>

#include "uapid/chars.h"
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

/* The banner of the 2012 scripts: the comment that starts the file. */
void
ud_frame_banner(struct ud_classified *c)
{
	c->banner_first = 0;
	c->banner_end = comment_block_end(&c->lx, 0);
}

/* Does the text of logical lines [a, b) read like a licence or copyright notice? */
static bool
is_licence(const struct ud_lexed *lx, size_t a, size_t b)
{
	static const char *const words[] = {"Copyright", "copyright", "COPYRIGHT", "License",
					    "SPDX-License-Identifier"};
	size_t li, w;

	for (li = a; li < b; li++)
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++)
			if (ud_line_contains(lx, li, words[w]))
				return true;
	return false;
}

/*
 * A file that opens with its include guard may carry its licence comment
 * just inside it; upstream moved such a comment in front of the guard in
 * both outputs.  Only blank lines may stand between the guard's #define
 * and the comment.
 */
void
ud_frame_late_banner(struct ud_classified *c)
{
	const struct ud_lexed *lx = &c->lx;
	size_t li, end;

	if (c->banner_end > 0 || c->guard < 0)
		return;
	for (li = c->guard_define + 1; li < lx->nlines && (lx->lines[li].flags & UD_LINE_BLANK);
	     li++)
		;
	if (li >= lx->nlines || c->cond.line_group[li] != c->guard)
		return;
	end = comment_block_end(lx, li);
	if (end == 0 || !is_licence(lx, li, end))
		return;
	c->banner_first = li;
	c->banner_end = end;
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
