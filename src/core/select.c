// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conditional selection with unifdef 2.5 semantics (see select.h).
 *
 * Like unifdef, this is a state machine over physical lines: each line is
 * parsed into a line type (a conditional directive whose value is true,
 * false or unknown, or a plain line), and a table indexed by the current
 * state and the line type says what to do: keep or drop the line, maybe
 * edit its keyword, and move to another state.  A directive is "dodgy"
 * when a comment around it spans lines; unifdef refuses to change such a
 * directive's output, and so do we.  Comment and literal state is carried
 * from line to line exactly as unifdef carries it, because that decides
 * which lines are directives.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/chars.h"
#include "uapid/core/select.h"
#include "uapid/util/xmalloc.h"

#define MAX_DEPTH 64 /* unifdef's nesting limit */

/* Line types: the value of a conditional directive, or a plain line. */
enum ltype {
	LT_IF,			 /* #if/#ifdef/#ifndef whose value is unknown */
	LT_TRUE,		 /* ... known true */
	LT_FALSE,		 /* ... known false */
	LT_ELIF,		 /* #elif, unknown */
	LT_ELTRUE,		 /* #elif, true */
	LT_ELFALSE,		 /* #elif, false */
	LT_ELSE,		 /* #else */
	LT_ENDIF,		 /* #endif */
	LT_DODGY,		 /* offset: the same, with a comment spanning lines around it */
	LT_PLAIN = 2 * LT_DODGY, /* anything else */
	LT_EOF,			 /* end of input */
	LT__COUNT
};

/* Where we are in the current group. */
enum istate {
	IS_OUTSIDE,	  /* not in a conditional */
	IS_FALSE_PREFIX,  /* false #if so far: dropping, looking for a way in */
	IS_TRUE_PREFIX,	  /* true #if, its directive removed: keeping */
	IS_PASS_MIDDLE,	  /* unknown #if or #elif kept: keeping */
	IS_FALSE_MIDDLE,  /* kept group, false #elif: dropping */
	IS_TRUE_MIDDLE,	  /* kept group, true #elif made #else: keeping */
	IS_PASS_ELSE,	  /* kept group, #else kept: keeping */
	IS_FALSE_ELSE,	  /* #else after a true clause: dropping */
	IS_TRUE_ELSE,	  /* #else after false clauses only: keeping */
	IS_FALSE_TRAILER, /* after a true clause: dropping the rest */
	IS__COUNT
};

/* Comment and literal state carried between lines. */
enum cstate {
	CS_NONE,
	CS_C,	      /* inside slash-star */
	CS_CXX,	      /* inside slash-slash */
	CS_STARTING,  /* a slash at the end of a continued line */
	CS_FINISHING, /* a star at the end of a continued line */
	CS_CHAR,      /* inside '...' */
	CS_STRING,    /* inside "..." */
};

/* Where in a line the directive parser is. */
enum lstate {
	LS_START, /* only white space and comments so far */
	LS_HASH,  /* a '#' was seen: this is a directive */
	LS_DIRTY, /* other text was seen */
};

/* What a transition does. */
enum action {
	A_MISSING, /* never in the table: 0 is what a forgotten entry would read as */
	A_PRINT,   /* keep the line */
	A_DROP,	   /* drop the line */
	A_FPASS,   /* nest, keep, -> PASS_MIDDLE */
	A_FTRUE,   /* nest, drop, -> TRUE_PREFIX */
	A_FFALSE,  /* nest, drop, -> FALSE_PREFIX */
	A_FDROP,   /* nest, drop, -> FALSE_TRAILER */
	A_STRUE,   /* drop, -> TRUE_PREFIX */
	A_SFALSE,  /* drop, -> FALSE_PREFIX */
	A_SELSE,   /* drop, -> TRUE_ELSE */
	A_PELIF,   /* keep, -> PASS_MIDDLE */
	A_PELSE,   /* keep, -> PASS_ELSE */
	A_PENDIF,  /* keep, unnest */
	A_DFALSE,  /* drop, -> FALSE_TRAILER */
	A_DELIF,   /* drop, -> FALSE_MIDDLE */
	A_DELSE,   /* drop, -> FALSE_ELSE */
	A_DENDIF,  /* drop, unnest */
	A_MPASS,   /* "elif" -> "if  ", keep, -> PASS_MIDDLE */
	A_MTRUE,   /* keyword -> "else", keep, -> TRUE_MIDDLE */
	A_MELIF,   /* keyword -> "endif", keep, -> FALSE_TRAILER */
	A_MELSE,   /* keyword -> "endif", keep, -> FALSE_ELSE */
	A_EELIF,   /* error: misplaced #elif */
	A_EELSE,   /* error: misplaced #else */
	A_EENDIF,  /* error: misplaced #endif */
	A_EEOF,	   /* error: end of file inside a conditional */
	A_EDODGY,  /* error: a dodgy directive would change the output */
	A_DONE,	   /* end of input, all closed */
};

/*
 * One row per state; ROW takes exactly one action per line type, so a row
 * one entry short (unifdef's old bug) does not compile.
 */
#define ROW(if_, t, f, elif, eltrue, elfalse, else_, endif, d_if, d_t, d_f, d_elif, d_eltrue,      \
	    d_elfalse, d_else, d_endif, plain, eof)                                                \
	{                                                                                          \
		if_, t, f, elif, eltrue, elfalse, else_, endif, d_if, d_t, d_f, d_elif, d_eltrue,  \
			d_elfalse, d_else, d_endif, plain, eof                                     \
	}
static_assert(LT__COUNT == 18, "ROW lists one action per line type");
#define P A_PRINT
#define D A_DROP
/* Columns: IF TRUE FALSE ELIF ELTRUE ELFALSE ELSE ENDIF, then the same dodgy, then PLAIN EOF */
static const unsigned char trans[IS__COUNT][LT__COUNT] = {
	[IS_OUTSIDE] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_EELIF, A_EELIF, A_EELIF, A_EELSE, A_EENDIF,
			   A_FPASS, A_EDODGY, A_EDODGY, A_EELIF, A_EELIF, A_EELIF, A_EELSE,
			   A_EENDIF, P, A_DONE),
	[IS_FALSE_PREFIX] = ROW(A_FDROP, A_FDROP, A_FDROP, A_MPASS, A_STRUE, A_SFALSE, A_SELSE,
				A_DENDIF, A_FDROP, A_FDROP, A_FDROP, A_MPASS, A_EDODGY, A_EDODGY,
				A_EDODGY, A_EDODGY, D, A_EEOF),
	[IS_TRUE_PREFIX] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_DFALSE, A_DFALSE, A_DFALSE, A_DELSE,
			       A_DENDIF, A_FPASS, A_EDODGY, A_EDODGY, A_EDODGY, A_EDODGY, A_EDODGY,
			       A_EDODGY, A_EDODGY, P, A_EEOF),
	[IS_PASS_MIDDLE] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_PELIF, A_MTRUE, A_DELIF, A_PELSE,
			       A_PENDIF, A_FPASS, A_EDODGY, A_EDODGY, A_PELIF, A_EDODGY, A_EDODGY,
			       A_PELSE, A_PENDIF, P, A_EEOF),
	[IS_FALSE_MIDDLE] = ROW(A_FDROP, A_FDROP, A_FDROP, A_PELIF, A_MTRUE, A_DELIF, A_PELSE,
				A_PENDIF, A_FDROP, A_FDROP, A_FDROP, A_EDODGY, A_EDODGY, A_EDODGY,
				A_EDODGY, A_EDODGY, D, A_EEOF),
	[IS_TRUE_MIDDLE] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_MELIF, A_MELIF, A_MELIF, A_MELSE,
			       A_PENDIF, A_FPASS, A_EDODGY, A_EDODGY, A_EDODGY, A_EDODGY, A_EDODGY,
			       A_EDODGY, A_PENDIF, P, A_EEOF),
	[IS_PASS_ELSE] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_EELIF, A_EELIF, A_EELIF, A_EELSE,
			     A_PENDIF, A_FPASS, A_EDODGY, A_EDODGY, A_EELIF, A_EELIF, A_EELIF,
			     A_EELSE, A_PENDIF, P, A_EEOF),
	[IS_FALSE_ELSE] = ROW(A_FDROP, A_FDROP, A_FDROP, A_EELIF, A_EELIF, A_EELIF, A_EELSE,
			      A_DENDIF, A_FDROP, A_FDROP, A_FDROP, A_EELIF, A_EELIF, A_EELIF,
			      A_EELSE, A_EDODGY, D, A_EEOF),
	[IS_TRUE_ELSE] = ROW(A_FPASS, A_FTRUE, A_FFALSE, A_EELIF, A_EELIF, A_EELIF, A_EELSE,
			     A_DENDIF, A_FPASS, A_EDODGY, A_EDODGY, A_EELIF, A_EELIF, A_EELIF,
			     A_EELSE, A_EDODGY, P, A_EEOF),
	[IS_FALSE_TRAILER] = ROW(A_FDROP, A_FDROP, A_FDROP, A_DFALSE, A_DFALSE, A_DFALSE, A_DELSE,
				 A_DENDIF, A_FDROP, A_FDROP, A_FDROP, A_DFALSE, A_DFALSE, A_DFALSE,
				 A_DELSE, A_EDODGY, D, A_EEOF),
};
#undef P
#undef D
#undef ROW

struct selector {
	const char *buf, *end;
	const char *pos; /* next unread byte */
	unsigned lineno;
	struct ud_expr_env env; /* the known symbols, unifdef's grammar, skipcomment */
	enum cstate cs;
	enum lstate ls;
	enum istate stack[MAX_DEPTH];
	unsigned opened[MAX_DEPTH]; /* line of each open group's #if */
	unsigned depth;
	struct ud_buf line; /* the current line, editable */
	size_t keyword;	    /* offset of the directive keyword in line */
	struct ud_diags *diags;
	struct ud_buf *out;
	struct ud_linemap *map; /* may be NULL */
	unsigned unit_first;	/* input line where the current line unit starts */
	bool failed;
	const char *newline; /* "\n" or "\r\n", from the first line */
	enum ud_unifdef version;
	bool crlf; /* 2.5 knows "\r\n" line ends; 1.x sees the '\r' as text */
};

static void
fail(struct selector *s, const char *msg)
{
	if (!s->failed)
		ud_diags_add(s->diags, s->lineno, UD_SEV_ERROR, "%s", msg);
	s->failed = true;
}

/* Does cp start with lit?  strncmp(cp, lit, strlen(lit)) == 0, inlined: this runs per character. */
static inline bool
at_lit(const char *cp, const char *lit)
{
	for (; *lit != '\0'; lit++, cp++)
		if (*cp != *lit)
			return false;
	return true;
}

/* Past the characters that cannot end or change the comment state cs (they only move cp on). */
static const char *
skip_plain(enum cstate cs, const char *cp)
{
	switch (cs) {
	case CS_C:
		cp += strcspn(cp, "*\\");
		break;
	case CS_CXX:
		cp += strcspn(cp, "\n\\");
		break;
	case CS_CHAR:
	case CS_STRING:
		cp += strcspn(cp, "'\"\n\\");
		break;
	default:
		break;
	}
	return cp;
}

/*
 * Past the code characters that skipcomment, outside comments and
 * literals, would only step over one call at a time: all but the ones that
 * can start a comment, a literal, a continuation or a new line.
 */
static const char *
skip_code(const char *cp)
{
	return cp + strcspn(cp, "/\\'\"\n");
}

/*
 * Skips white space, comments and literals from cp, updating the comment
 * and line state; stops at the first other character or the line's end.
 * Inside a comment or literal, runs of ordinary characters are skipped in
 * one loop (skip_plain): unifdef's one step per character, in fewer steps.
 */
static const char *
skipcomment(struct selector *s, const char *cp)
{
	while (*cp != '\0') {
		if (*cp == '\\') {
			if (s->crlf && at_lit(cp, "\\\r\n")) {
				cp += 3; /* a continuation does not end the line */
				continue;
			}
			if (cp[1] == '\n') {
				cp += 2;
				continue;
			}
		}
		switch (s->cs) {
		case CS_NONE:
			if (*cp == '/') {
				if (s->crlf && at_lit(cp, "/\\\r\n")) {
					s->cs = CS_STARTING;
					cp += 4;
				} else if (at_lit(cp, "/\\\n")) {
					s->cs = CS_STARTING;
					cp += 3;
				} else if (cp[1] == '*') {
					s->cs = CS_C;
					cp += 2;
				} else if (cp[1] == '/') {
					s->cs = CS_CXX;
					cp += 2;
				} else {
					return cp;
				}
			} else if (*cp == '\'') {
				s->cs = CS_CHAR;
				s->ls = LS_DIRTY;
				cp++;
			} else if (*cp == '"') {
				s->cs = CS_STRING;
				s->ls = LS_DIRTY;
				cp++;
			} else if (*cp == '\n') {
				s->ls = LS_START;
				cp++;
			} else if (*cp == ' ' || (*cp == '\r' && s->crlf) || *cp == '\t') {
				cp++;
			} else {
				return cp;
			}
			continue;
		case CS_CXX:
			if (*cp == '\n') {
				s->cs = CS_NONE;
				s->ls = LS_START;
			}
			cp = skip_plain(s->cs, cp + 1);
			continue;
		case CS_CHAR:
		case CS_STRING:
			if ((s->cs == CS_CHAR && *cp == '\'') ||
			    (s->cs == CS_STRING && *cp == '"')) {
				s->cs = CS_NONE;
				cp++;
			} else if (*cp == '\\') {
				cp += cp[1] == '\0' ? 1 : 2;
			} else if (*cp == '\n') {
				fail(s, s->cs == CS_CHAR ? "unterminated char literal"
							 : "unterminated string literal");
				return cp + strlen(cp);
			} else {
				cp = skip_plain(s->cs, cp + 1);
			}
			continue;
		case CS_C:
			if (*cp != '*') {
				cp = skip_plain(CS_C, cp + 1);
			} else if (s->crlf && at_lit(cp, "*\\\r\n")) {
				s->cs = CS_FINISHING;
				cp += 4;
			} else if (at_lit(cp, "*\\\n")) {
				s->cs = CS_FINISHING;
				cp += 3;
			} else if (cp[1] == '/') {
				s->cs = CS_NONE;
				cp += 2;
			} else {
				cp++;
			}
			continue;
		case CS_STARTING:
			if (*cp == '*') {
				s->cs = CS_C;
				cp++;
			} else if (*cp == '/') {
				s->cs = CS_CXX;
				cp++;
			} else {
				s->cs = CS_NONE;
				s->ls = LS_DIRTY;
			}
			continue;
		case CS_FINISHING:
			if (*cp == '/') {
				s->cs = CS_NONE;
				cp++;
			} else {
				s->cs = CS_C;
			}
			continue;
		}
	}
	return cp;
}

static const char *
skipsym(const char *cp)
{
	while (ud_is_ident(*cp))
		cp++;
	return cp;
}

/* skipcomment for the evaluator: comments inside an expression move the state too. */
static const char *
skip_cb(const char *cp, void *ctx)
{
	return skipcomment(ctx, cp);
}

/* The line type of an #if/#elif expression: constant ones stay unknown. */
static enum ltype
ifeval(struct selector *s, const char **cpp, bool elif)
{
	struct ud_expr_value v;

	ud_expr_evaluate(*cpp, &s->env, &v);
	*cpp = v.end;
	if (!v.symbolic || v.truth == UD_UNKNOWN)
		return elif ? LT_ELIF : LT_IF;
	if (v.truth == UD_TRUE)
		return elif ? LT_ELTRUE : LT_TRUE;
	return elif ? LT_ELFALSE : LT_FALSE;
}

/* Reads the next physical line (with its newline) onto the end of s->line. */
static bool
read_line(struct selector *s)
{
	const char *nl;
	size_t n;

	if (s->pos >= s->end)
		return false;
	nl = memchr(s->pos, '\n', (size_t)(s->end - s->pos));
	n = nl != NULL ? (size_t)(nl + 1 - s->pos) : (size_t)(s->end - s->pos);
	ud_buf_add(&s->line, s->pos, n);
	s->pos += n;
	return true;
}

static bool
kwis(const char *kw, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(kw, word, n) == 0;
}

/* Parses the next line into s->line and returns its type. */
static enum ltype
parseline(struct selector *s)
{
	enum ltype lt = LT_PLAIN;
	enum cstate was;
	const char *cp;

	ud_buf_reset(&s->line);
	if (!read_line(s))
		return LT_EOF;
	s->lineno++;
	s->unit_first = s->lineno;
	if (s->newline == NULL) {
		const char *l = ud_buf_str(&s->line);
		size_t n = s->line.len;

		s->newline =
			s->crlf && n >= 2 && l[n - 1] == '\n' && l[n - 2] == '\r' ? "\r\n" : "\n";
	}
	was = s->cs;
	cp = skipcomment(s, ud_buf_str(&s->line));
	if (s->ls == LS_START) {
		if (*cp == '#') {
			s->ls = LS_HASH;
			cp = skipcomment(s, cp + 1);
		} else if (*cp != '\0') {
			s->ls = LS_DIRTY;
		}
	}
	if (s->cs == CS_NONE && s->ls == LS_HASH) {
		const char *kw = cp;
		size_t kwlen;

		s->keyword = (size_t)(kw - s->line.data);
		cp = skipsym(cp);
		kwlen = (size_t)(cp - kw);
		if ((s->crlf && strncmp(cp, "\\\r\n", 3) == 0) || strncmp(cp, "\\\n", 2) == 0)
			fail(s, "a line continuation inside a directive keyword");
		if (kwis(kw, kwlen, "ifdef") || kwis(kw, kwlen, "ifndef")) {
			const struct ud_expr_sym *sym;

			cp = skipcomment(s, cp);
			sym = ud_expr_find_sym(&s->env, cp, (size_t)(skipsym(cp) - cp));
			if (sym == NULL) {
				lt = LT_IF;
			} else {
				bool defined = sym->value != NULL;

				lt = (kw[2] == 'n') != defined ? LT_TRUE : LT_FALSE;
			}
			cp = skipsym(cp);
		} else if (kwis(kw, kwlen, "if")) {
			lt = ifeval(s, &cp, false);
		} else if (kwis(kw, kwlen, "elif")) {
			lt = ifeval(s, &cp, true);
		} else if (kwis(kw, kwlen, "else")) {
			lt = LT_ELSE;
		} else if (kwis(kw, kwlen, "endif")) {
			lt = LT_ENDIF;
		} else {
			s->ls = LS_DIRTY;
			lt = LT_PLAIN;
		}
		cp = skipcomment(s, cp);
		if (*cp != '\0') {
			s->ls = LS_DIRTY;
			if (lt == LT_TRUE || lt == LT_FALSE)
				lt = LT_IF;
			if (lt == LT_ELTRUE || lt == LT_ELFALSE)
				lt = LT_ELIF;
		}
		if (lt != LT_PLAIN && (was != CS_NONE || s->cs != CS_NONE)) {
			lt = (enum ltype)(lt + LT_DODGY);
			if (s->cs != CS_NONE)
				s->ls = LS_DIRTY;
		}
		if (s->ls == LS_HASH) {
			/* a continued directive: its next line travels with it */
			size_t off = (size_t)(cp - s->line.data);

			if (s->version == UD_UNIFDEF_1171) {
				fail(s, "unifdef 1.171 aborts here (a directive that ends the file "
					"without a newline): the kernel's install of this tree "
					"writes a truncated header");
				return lt;
			}
			if (!read_line(s)) {
				ud_buf_addstr(&s->line, s->newline);
				s->ls = LS_START;
			} else {
				s->lineno++;
				s->ls = LS_DIRTY;
			}
			cp = s->line.data + off;
		}
	}
	if (s->ls == LS_DIRTY)
		while (*cp != '\0') {
			cp++;
			if (s->cs == CS_NONE)
				cp = skip_code(cp);
			cp = skipcomment(s, cp);
		}
	return lt;
}

/* Replaces the directive from its keyword on with word and a newline. */
static void
keyword_edit(struct selector *s, const char *word)
{
	s->line.len = s->keyword;
	s->line.data[s->line.len] = '\0';
	ud_buf_addstr(&s->line, word);
	ud_buf_addstr(&s->line, s->newline);
}

static void
nest(struct selector *s)
{
	if (s->depth + 1 >= MAX_DEPTH) {
		fail(s, "too many levels of nesting");
		return;
	}
	s->depth++;
	s->opened[s->depth] = s->unit_first;
}

static void
run(struct selector *s, enum ltype lt)
{
	enum action a = (enum action)trans[s->stack[s->depth]][lt];
	bool keep = false;
	enum istate next = s->stack[s->depth];

	switch (a) {
	case A_MISSING:
		assert(!"transition table entry missing");
		fail(s, "internal error: no transition for this line");
		return;
	case A_PRINT:
		keep = true;
		break;
	case A_DROP:
		break;
	case A_FPASS:
		nest(s);
		keep = true;
		next = IS_PASS_MIDDLE;
		break;
	case A_FTRUE:
		nest(s);
		next = IS_TRUE_PREFIX;
		break;
	case A_FFALSE:
		nest(s);
		next = IS_FALSE_PREFIX;
		break;
	case A_FDROP:
		nest(s);
		next = IS_FALSE_TRAILER;
		break;
	case A_STRUE:
		next = IS_TRUE_PREFIX;
		break;
	case A_SFALSE:
		next = IS_FALSE_PREFIX;
		break;
	case A_SELSE:
		next = IS_TRUE_ELSE;
		break;
	case A_PELIF:
		keep = true;
		next = IS_PASS_MIDDLE;
		break;
	case A_PELSE:
		keep = true;
		next = IS_PASS_ELSE;
		break;
	case A_PENDIF:
	case A_DENDIF:
		keep = a == A_PENDIF;
		s->depth--;
		next = s->stack[s->depth];
		break;
	case A_DFALSE:
		next = IS_FALSE_TRAILER;
		break;
	case A_DELIF:
		next = IS_FALSE_MIDDLE;
		break;
	case A_DELSE:
		next = IS_FALSE_ELSE;
		break;
	case A_MPASS:
		memcpy(s->line.data + s->keyword, "if  ", 4);
		keep = true;
		next = IS_PASS_MIDDLE;
		break;
	case A_MTRUE:
		keyword_edit(s, "else");
		keep = true;
		next = IS_TRUE_MIDDLE;
		break;
	case A_MELIF:
		keyword_edit(s, "endif");
		keep = true;
		next = IS_FALSE_TRAILER;
		break;
	case A_MELSE:
		keyword_edit(s, "endif");
		keep = true;
		next = IS_FALSE_ELSE;
		break;
	case A_EELIF:
		fail(s, "#elif without a matching #if");
		return;
	case A_EELSE:
		fail(s, "#else without a matching #if, or a second #else");
		return;
	case A_EENDIF:
		fail(s, "#endif without a matching #if");
		return;
	case A_EEOF:
		s->lineno = s->opened[s->depth];
		fail(s, "end of file inside this conditional: no #endif");
		return;
	case A_EDODGY:
		fail(s, "a comment spans the lines of a directive whose value changes the output");
		return;
	case A_DONE:
		return;
	}
	s->stack[s->depth] = next;
	if (keep) {
		const char *p = s->line.data, *end = p + s->line.len;
		unsigned ln = s->unit_first;

		ud_buf_add(s->out, s->line.data, s->line.len);
		/* one map entry per output line: each newline, and a last line without one */
		while (s->map != NULL && p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			p = nl != NULL ? nl + 1 : end;
			s->map->v = ud_xgrow(s->map->v, &s->map->alloc, s->map->n + 1,
					     sizeof(unsigned));
			s->map->v[s->map->n++] = ln++;
		}
	}
}

void
ud_linemap_free(struct ud_linemap *m)
{
	if (m == NULL)
		return;
	free(m->v);
	m->v = NULL;
	m->n = m->alloc = 0;
}

int
ud_select(const char *buf, size_t len, const struct ud_expr_sym *syms, size_t nsyms,
	  struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags)
{
	return ud_select_as(UD_UNIFDEF_25, buf, len, syms, nsyms, out, map, diags);
}

int
ud_select_as(enum ud_unifdef version, const char *buf, size_t len, const struct ud_expr_sym *syms,
	     size_t nsyms, struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags)
{
	struct selector s;
	enum ltype lt;

	memset(&s, 0, sizeof(s));
	s.buf = s.pos = buf;
	s.end = buf + len;
	s.version = version;
	s.crlf = version == UD_UNIFDEF_25;
	s.env.dialect = version == UD_UNIFDEF_1171 ? UD_EXPR_UNIFDEF1 : UD_EXPR_UNIFDEF;
	s.env.syms = syms;
	s.env.nsyms = nsyms;
	s.env.skip = skip_cb;
	s.env.ctx = &s;
	s.diags = diags;
	s.out = out;
	s.map = map;
	if (map != NULL)
		map->n = 0;
	s.stack[0] = IS_OUTSIDE;
	ud_buf_reset(out);
	if (memchr(buf, '\0', len) != NULL) {
		ud_diags_add(diags, 0, UD_SEV_ERROR, "NUL byte in input");
		return -EINVAL;
	}
	do {
		lt = parseline(&s);
		run(&s, lt);
	} while (lt != LT_EOF && !s.failed);
	if (!s.failed && s.cs != CS_NONE && s.cs != CS_CXX)
		fail(&s, "end of file inside a comment or literal");
	ud_buf_free(&s.line);
	return s.failed ? -EINVAL : 0;
}
