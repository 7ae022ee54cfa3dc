// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lexer: bytes to logical lines (see lex.h).
 *
 * One forward pass drives a small state machine (code, block comment, line
 * comment, string, character literal).  Directives collect a normalised
 * copy of their text; ordinary code updates a bracket stack.  Conditional
 * directives save and restore that stack so both branches of
 * "#ifdef X / struct a { / #else / struct b { / #endif" start at the same
 * depth, and "#if 0" bodies do not count at all.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/util/buf.h"
#include "uapid/core/lex.h"
#include "uapid/core/text.h"
#include "uapid/util/xmalloc.h"

enum lex_state {
	ST_CODE,	  /* ordinary text */
	ST_BLOCK_COMMENT, /* inside slash-star */
	ST_LINE_COMMENT,  /* inside slash-slash, to the end of the line */
	ST_STRING,	  /* inside "..." */
	ST_CHAR,	  /* inside '...' */
};

static const char *const dir_names[] = {
	[UD_DIR_NONE] = "none",	      [UD_DIR_IF] = "if",	  [UD_DIR_IFDEF] = "ifdef",
	[UD_DIR_IFNDEF] = "ifndef",   [UD_DIR_ELIF] = "elif",	  [UD_DIR_ELSE] = "else",
	[UD_DIR_ENDIF] = "endif",     [UD_DIR_DEFINE] = "define", [UD_DIR_UNDEF] = "undef",
	[UD_DIR_INCLUDE] = "include", [UD_DIR_ERROR] = "error",	  [UD_DIR_OTHER] = "other",
};
static_assert(ARRAY_SIZE(dir_names) == UD_DIR__COUNT,
	      "dir_names must name every enum ud_dir member");

/* One open conditional, for the bracket-depth bookkeeping. */
struct cond_frame {
	size_t depth_at_if;	  /* bracket stack height at the #if */
	size_t depth_after_first; /* height at the end of the first branch */
	bool had_else;		  /* an #else or #elif was seen */
	bool dead;		  /* the current branch is "#if 0" */
};

struct lexer {
	const char *buf;
	size_t len;
	size_t pos;
	unsigned phys;
	enum lex_state state;

	/* bracket stack: '{' '(' '[' count, 'E' is an extern "C" brace */
	char *brackets;
	size_t nbrackets, abrackets;
	unsigned depth;
	bool pending_extern_c;

	struct cond_frame *frames;
	size_t nframes, aframes;
	unsigned dead; /* frames whose current branch is dead */

	struct ud_buf dtext;
};

const char *
ud_dir_name(enum ud_dir dir)
{
	assert(dir < UD_DIR__COUNT);
	return dir_names[dir];
}

bool
ud_dir_is_cond(enum ud_dir dir)
{
	return dir >= UD_DIR_IF && dir <= UD_DIR_ENDIF;
}

/* Length of a newline at p (1 for LF, 2 for CR LF), 0 if none. */
static size_t
newline_at(const struct lexer *lx, size_t p)
{
	if (p < lx->len && lx->buf[p] == '\n')
		return 1;
	if (p + 1 < lx->len && lx->buf[p] == '\r' && lx->buf[p + 1] == '\n')
		return 2;
	return 0;
}

static void
bracket_push(struct lexer *lx, char kind)
{
	lx->brackets = ud_xgrow(lx->brackets, &lx->abrackets, lx->nbrackets + 1, 1);
	lx->brackets[lx->nbrackets++] = kind;
	if (kind != 'E')
		lx->depth++;
}

static void
bracket_pop(struct lexer *lx)
{
	if (lx->nbrackets == 0)
		return; /* unbalanced close: ignore, depth cannot go negative */
	if (lx->brackets[--lx->nbrackets] != 'E')
		lx->depth--;
}

/* Brings the bracket stack to 'height' entries, padding with braces. */
static void
bracket_set_height(struct lexer *lx, size_t height)
{
	while (lx->nbrackets > height)
		bracket_pop(lx);
	while (lx->nbrackets < height)
		bracket_push(lx, '{');
}

/* Is the identifier ending just before 'p' on this line "extern"? */
static bool
preceded_by_extern(const struct lexer *lx, size_t line_start, size_t p)
{
	size_t e = p;

	while (e > line_start && (lx->buf[e - 1] == ' ' || lx->buf[e - 1] == '\t'))
		e--;
	if (e < line_start + 6 || memcmp(lx->buf + e - 6, "extern", 6) != 0)
		return false;
	return e - 6 == line_start || !ud_is_ident((unsigned char)lx->buf[e - 7]);
}

/* Handles a code byte of a non-directive line: brackets and extern "C". */
static void
code_byte(struct lexer *lx, char c)
{
	if (lx->dead > 0)
		return;
	switch (c) {
	case '{':
		bracket_push(lx, lx->pending_extern_c ? 'E' : '{');
		break;
	case '(':
	case '[':
		bracket_push(lx, c);
		break;
	case '}':
	case ')':
	case ']':
		bracket_pop(lx);
		break;
	default:
		break;
	}
	if (c != ' ' && c != '\t' && c != '\r')
		lx->pending_extern_c = false;
}

static enum ud_dir
directive_kind(const char *name, size_t n)
{
	static const struct {
		const char *name;
		enum ud_dir dir;
	} table[] = {
		{"if", UD_DIR_IF},	     {"ifdef", UD_DIR_IFDEF},
		{"ifndef", UD_DIR_IFNDEF},   {"elif", UD_DIR_ELIF},
		{"else", UD_DIR_ELSE},	     {"endif", UD_DIR_ENDIF},
		{"define", UD_DIR_DEFINE},   {"undef", UD_DIR_UNDEF},
		{"include", UD_DIR_INCLUDE}, {"include_next", UD_DIR_INCLUDE},
		{"error", UD_DIR_ERROR},     {"warning", UD_DIR_ERROR},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (strlen(table[i].name) == n && memcmp(table[i].name, name, n) == 0)
			return table[i].dir;
	return UD_DIR_OTHER;
}

/*
 * Turns the raw directive text collected in lx->dtext (after the '#') into
 * its normalised form in the arena and fills dir, dtext and arg.
 */
static void
finish_directive(struct lexer *lx, struct ud_lexed *out, struct ud_line *l)
{
	size_t n = lx->dtext.len, o, name;
	char *d = ud_arena_alloc(&out->arena, n + 1);

	o = ud_squeeze(d, ud_buf_str(&lx->dtext), n);
	for (name = 0; name < o && ud_is_ident((unsigned char)d[name]); name++)
		;
	l->dir = name > 0 ? directive_kind(d, name) : UD_DIR_OTHER;
	l->dtext = d;
	l->arg = d + name + (d[name] == ' ' ? 1 : 0);
}

/* Updates the conditional frames and bracket stack for a directive. */
static void
track_conditional(struct lexer *lx, const struct ud_line *l)
{
	struct cond_frame *f;

	switch (l->dir) {
	case UD_DIR_IF:
	case UD_DIR_IFDEF:
	case UD_DIR_IFNDEF:
		lx->frames = ud_xgrow(lx->frames, &lx->aframes, lx->nframes + 1, sizeof(*f));
		f = &lx->frames[lx->nframes++];
		f->depth_at_if = lx->nbrackets;
		f->depth_after_first = 0;
		f->had_else = false;
		f->dead = l->dir == UD_DIR_IF && strcmp(l->arg, "0") == 0;
		lx->dead += f->dead;
		break;
	case UD_DIR_ELIF:
	case UD_DIR_ELSE:
		if (lx->nframes == 0)
			break;
		f = &lx->frames[lx->nframes - 1];
		if (!f->had_else)
			f->depth_after_first = lx->nbrackets;
		f->had_else = true;
		lx->dead -= f->dead;
		f->dead = false;
		bracket_set_height(lx, f->depth_at_if);
		break;
	case UD_DIR_ENDIF:
		if (lx->nframes == 0)
			break;
		f = &lx->frames[--lx->nframes];
		lx->dead -= f->dead;
		if (f->had_else)
			bracket_set_height(lx, f->depth_after_first);
		break;
	default:
		break;
	}
}

/* Lexes one logical line starting at lx->pos. */
static void
lex_line(struct lexer *lx, struct ud_lexed *out, struct ud_line *l)
{
	size_t start = lx->pos, p = lx->pos, nl;
	bool directive = false, code = false, comment = false;

	l->first = lx->phys;
	l->start = start;
	l->depth = lx->depth;
	l->flags = 0;
	if (lx->state == ST_BLOCK_COMMENT) {
		l->flags |= UD_LINE_STARTS_IN_COMMENT | UD_LINE_COMMENT;
		comment = true;
	} else {
		size_t q = p;

		while (q < lx->len && (lx->buf[q] == ' ' || lx->buf[q] == '\t'))
			q++;
		if (q < lx->len && lx->buf[q] == '#') {
			directive = true;
			code = true;
			p = q + 1;
			ud_buf_reset(&lx->dtext);
		}
	}

	while (p < lx->len) {
		char c = lx->buf[p];

		/* backslash-newline splices lines in every state */
		if (c == '\\' && (nl = newline_at(lx, p + 1)) > 0) {
			p += 1 + nl;
			lx->phys++;
			l->flags |= UD_LINE_CONTINUED;
			continue;
		}
		if ((nl = newline_at(lx, p)) > 0) {
			if (lx->state == ST_BLOCK_COMMENT && directive) {
				/* a comment opened in a directive extends it */
				p += nl;
				lx->phys++;
				continue;
			}
			if (lx->state != ST_BLOCK_COMMENT)
				lx->state = ST_CODE; /* literals and // end here */
			p += nl;
			break;
		}
		switch (lx->state) {
		case ST_CODE:
			if (c == '/' && p + 1 < lx->len && lx->buf[p + 1] == '*') {
				lx->state = ST_BLOCK_COMMENT;
				comment = true;
				if (directive)
					ud_buf_addch(&lx->dtext, ' ');
				p += 2;
				continue;
			}
			if (c == '/' && p + 1 < lx->len && lx->buf[p + 1] == '/') {
				lx->state = ST_LINE_COMMENT;
				comment = true;
				p += 2;
				continue;
			}
			if (c == '"' || c == '\'') {
				if (!directive && c == '"' && preceded_by_extern(lx, start, p))
					lx->pending_extern_c = true;
				else if (!directive)
					lx->pending_extern_c = false;
				lx->state = c == '"' ? ST_STRING : ST_CHAR;
				code = true;
				if (directive)
					ud_buf_addch(&lx->dtext, c);
				p++;
				continue;
			}
			if (c != ' ' && c != '\t' && c != '\r')
				code = true;
			if (directive)
				ud_buf_addch(&lx->dtext, c);
			else
				code_byte(lx, c);
			p++;
			continue;
		case ST_BLOCK_COMMENT:
			if (c == '*' && p + 1 < lx->len && lx->buf[p + 1] == '/') {
				lx->state = ST_CODE;
				p += 2;
				continue;
			}
			p++;
			continue;
		case ST_LINE_COMMENT:
			p++;
			continue;
		case ST_STRING:
		case ST_CHAR:
			if (directive)
				ud_buf_addch(&lx->dtext, c);
			if (c == '\\' && p + 1 < lx->len && !newline_at(lx, p + 1)) {
				if (directive)
					ud_buf_addch(&lx->dtext, lx->buf[p + 1]);
				p += 2;
				continue;
			}
			if ((c == '"' && lx->state == ST_STRING) ||
			    (c == '\'' && lx->state == ST_CHAR))
				lx->state = ST_CODE;
			p++;
			continue;
		}
	}
	if (lx->state == ST_LINE_COMMENT || lx->state == ST_STRING || lx->state == ST_CHAR)
		lx->state = ST_CODE; /* end of input inside a literal or // comment */

	l->last = lx->phys;
	l->end = p;
	if (lx->state == ST_BLOCK_COMMENT)
		l->flags |= UD_LINE_ENDS_IN_COMMENT;
	if (comment)
		l->flags |= UD_LINE_COMMENT;
	if (code)
		l->flags |= UD_LINE_CODE;
	if (!code && !comment)
		l->flags |= UD_LINE_BLANK;
	l->dir = UD_DIR_NONE;
	if (directive) {
		finish_directive(lx, out, l);
		track_conditional(lx, l);
	}
	lx->pos = p;
	lx->phys++;
}

int
ud_lex(const char *buf, size_t len, struct ud_lexed *out, struct ud_diags *diags)
{
	struct lexer lx;
	size_t alines = 0;
	const char *nul;

	memset(out, 0, sizeof(*out));
	out->buf = buf;
	out->len = len;
	out->final_newline = true;
	if (len > UD_LEX_MAX_SIZE) {
		ud_diags_add(diags, 0, UD_SEV_ERROR,
			     "file is %zu bytes, larger than the %zu MiB limit", len,
			     UD_LEX_MAX_SIZE / ((size_t)1024 * 1024));
		return -EINVAL;
	}
	if ((nul = memchr(buf, '\0', len)) != NULL) {
		unsigned line = 1;
		const char *q;

		for (q = buf; q < nul; q++)
			line += *q == '\n';
		ud_diags_add(diags, line, UD_SEV_ERROR, "NUL byte in input: not a text header");
		return -EINVAL;
	}

	memset(&lx, 0, sizeof(lx));
	lx.buf = buf;
	lx.len = len;
	lx.phys = 1;
	lx.state = ST_CODE;
	ud_buf_init(&lx.dtext);

	while (lx.pos < len) {
		out->lines = ud_xgrow(out->lines, &alines, out->nlines + 1, sizeof(*out->lines));
		lex_line(&lx, out, &out->lines[out->nlines]);
		out->nlines++;
	}
	out->nphys = lx.phys - 1;
	if (len > 0) {
		const char *first_nl = memchr(buf, '\n', len);

		out->crlf = first_nl != NULL && first_nl > buf && first_nl[-1] == '\r';
		out->final_newline = buf[len - 1] == '\n';
	}
	free(lx.brackets);
	free(lx.frames);
	ud_buf_free(&lx.dtext);
	return 0;
}

void
ud_lexed_free(struct ud_lexed *lx)
{
	if (lx == NULL)
		return;
	free(lx->lines);
	ud_arena_free(&lx->arena);
	lx->lines = NULL;
	lx->nlines = 0;
}

size_t
ud_line_textlen(const struct ud_lexed *lx, const struct ud_line *l)
{
	size_t e = l->end;

	if (e > l->start && lx->buf[e - 1] == '\n') {
		e--;
		if (e > l->start && lx->buf[e - 1] == '\r')
			e--;
	}
	return e - l->start;
}

const char *
ud_line_text(const struct ud_lexed *lx, size_t li, size_t *len)
{
	*len = ud_line_textlen(lx, &lx->lines[li]);
	return lx->buf + lx->lines[li].start;
}

bool
ud_line_is(const struct ud_lexed *lx, size_t li, const char *s)
{
	size_t n, k = strlen(s);
	const char *t = ud_line_text(lx, li, &n);

	while (n > 0 && (*t == ' ' || *t == '\t'))
		t++, n--;
	while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	return n == k && memcmp(t, s, k) == 0;
}

bool
ud_line_contains(const struct ud_lexed *lx, size_t li, const char *s)
{
	size_t n, k = strlen(s), i;
	const char *t = ud_line_text(lx, li, &n);

	for (i = 0; i + k <= n; i++)
		if (memcmp(t + i, s, k) == 0)
			return true;
	return false;
}
