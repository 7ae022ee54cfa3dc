// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C tokens the API model is read from (api-internal.h): comments
 * dropped, continuations joined, each token with its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

bool
api_tok_ident(const struct api_tok *t)
{
	return t->n > 0 && ud_is_ident_start((unsigned char)t->p[0]);
}

/* Skips a backslash-newline at p; returns the new p. */
static const char *
skip_cont(const char *p, const char *e, unsigned *line)
{
	while (p + 1 < e && p[0] == '\\' &&
	       (p[1] == '\n' || (p[1] == '\r' && p + 2 < e && p[2] == '\n'))) {
		p += p[1] == '\n' ? 2 : 3;
		(*line)++;
	}
	return p;
}

/* The newlines in [p, e). */
static unsigned
newlines(const char *p, const char *e)
{
	unsigned n = 0;

	while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/*
 * Past the end of the comment whose text starts at p, counting its lines;
 * e when it has none.  Comments are a third of a uapi header's bytes:
 * memchr finds each '*' instead of a test per byte.
 */
static const char *
skip_comment(const char *p, const char *e, unsigned *line)
{
	while (p + 1 < e) {
		const char *star = memchr(p, '*', (size_t)(e - 1 - p));

		if (star == NULL)
			break;
		*line += newlines(p, star);
		if (star[1] == '/')
			return star + 2;
		p = star + 1;
	}
	/* unterminated: to the end (the line count past it no longer matters) */
	return e;
}

/*
 * The length of the punctuator at p: the longest of "...", "<<=", ">>=",
 * "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "##",
 * "+=", "-=", "*=", "/=", "|=", "&=", "^=" there, else 1.  A switch on the
 * first byte: a search of the list for each was a tenth of the tokenizer.
 */
static size_t
punct_len(const char *p, const char *e)
{
	char d, f;

	if (p + 1 >= e)
		return 1;
	d = p[1];
	f = p + 2 < e ? p[2] : '\0';
	switch (p[0]) {
	case '.':
		return d == '.' && f == '.' ? 3 : 1;
	case '<':
	case '>':
		if (d == p[0])
			return f == '=' ? 3 : 2;
		return d == '=' ? 2 : 1;
	case '-':
		return d == '>' || d == '-' || d == '=' ? 2 : 1;
	case '+':
	case '&':
	case '|':
		return d == p[0] || d == '=' ? 2 : 1;
	case '#':
		return d == '#' ? 2 : 1;
	case '=':
	case '!':
	case '*':
	case '/':
	case '^':
		return d == '=' ? 2 : 1;
	default:
		return 1;
	}
}

/*
 * What a byte can start, for api_tokenize's dispatch: one table look-up
 * in place of a chain of tests per byte (the tokenizer reads every byte
 * of every header a diff parses).  LC_IDENT, LC_DIGIT and LC_DOT are in
 * that order: numbers go on over all three.
 */
enum lex_class {
	LC_PUNCT,     /* any other byte: a punctuator, or a token of one byte */
	LC_NEWLINE,   /* '\n' */
	LC_BLANK,     /* space, tab, vertical tab, form feed, carriage return */
	LC_BACKSLASH, /* a line continuation, or a token */
	LC_SLASH,     /* a comment, or a punctuator */
	LC_QUOTE,     /* a string or character literal */
	LC_IDENT,     /* a letter or '_' */
	LC_DIGIT,     /* '0' to '9' */
	LC_DOT,	      /* a number when a digit follows, else a punctuator */
};

#define LC_2(c, k) [(c)] = (k), [(c) + 1] = (k)
#define LC_5(c, k) LC_2(c, k), LC_2((c) + 2, k), [(c) + 4] = (k)
#define LC_10(c, k) LC_5(c, k), LC_5((c) + 5, k)
#define LC_26(c, k) LC_10(c, k), LC_10((c) + 10, k), LC_5((c) + 20, k), [(c) + 25] = (k)

static const unsigned char lex_class[256] = {
	['\n'] = LC_NEWLINE,  [' '] = LC_BLANK,	    ['\t'] = LC_BLANK,	   ['\v'] = LC_BLANK,
	['\f'] = LC_BLANK,    ['\r'] = LC_BLANK,    ['\\'] = LC_BACKSLASH, ['/'] = LC_SLASH,
	['"'] = LC_QUOTE,     ['\''] = LC_QUOTE,    ['_'] = LC_IDENT,	   ['.'] = LC_DOT,
	LC_26('a', LC_IDENT), LC_26('A', LC_IDENT), LC_10('0', LC_DIGIT),
};

/* The bytes that go on an identifier: letters, digits and '_'. */
static const bool ident_byte[256] = {
	['_'] = true,
	LC_26('a', true),
	LC_26('A', true),
	LC_10('0', true),
};

/*
 * Past the identifier bytes from p: four a turn while four are left, the
 * end tested once for them (the identifier bytes were the tokenizer's
 * largest cost).
 */
static inline const char *
ident_end(const char *p, const char *e)
{
	const unsigned char *u = (const unsigned char *)p;

	for (; e - (const char *)u >= 4; u += 4) {
		if (!ident_byte[u[0]])
			return (const char *)u;
		if (!ident_byte[u[1]])
			return (const char *)u + 1;
		if (!ident_byte[u[2]])
			return (const char *)u + 2;
		if (!ident_byte[u[3]])
			return (const char *)u + 3;
	}
	while ((const char *)u < e && ident_byte[*u])
		u++;
	return (const char *)u;
}

/*
 * Past the pp-number (what C's preprocessor reads as one number) whose
 * first byte is before p: digits, letters, '_', '.', and a sign after an
 * exponent's e or p.
 */
static const char *
number_end(const char *p, const char *e)
{
	for (; p < e; p++) {
		if ((unsigned)(lex_class[(unsigned char)*p] - LC_IDENT) <= LC_DOT - LC_IDENT)
			continue;
		if ((*p == '+' || *p == '-') &&
		    (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p' || p[-1] == 'P'))
			continue;
		break;
	}
	return p;
}

/* Past the string or character literal at p (to its line's end when unterminated). */
static const char *
lex_quoted(const char *p, const char *e)
{
	char q = *p++;

	while (p < e && *p != q && *p != '\n') {
		if (*p == '\\' && p + 1 < e)
			p++;
		p++;
	}
	if (p < e && *p == q)
		p++;
	return p;
}

void
api_tokenize(const char *text, size_t len, struct api_toks *out)
{
	const char *p = text, *e = text + len;
	unsigned line = 1;
	bool bol = true;

	while (p < e) {
		enum lex_class k = lex_class[(unsigned char)*p];
		struct api_tok *t;
		const char *b = p;

		switch (k) {
		case LC_NEWLINE:
			line++;
			bol = true;
			p++;
			continue;
		case LC_BLANK:
			/* a run of blanks at once, not a turn of the loop each */
			do
				p++;
			while (p < e && (*p == ' ' || *p == '\t'));
			continue;
		case LC_BACKSLASH:
			if ((p = skip_cont(p, e, &line)) != b)
				continue;
			break;
		case LC_SLASH:
			if (p + 1 < e && p[1] == '*') {
				p = skip_comment(p + 2, e, &line);
				continue;
			}
			if (p + 1 < e && p[1] == '/') {
				while (p < e && *p != '\n')
					p++;
				continue;
			}
			break;
		default:
			break;
		}
		if (k == LC_IDENT)
			p = ident_end(p + 1, e);
		else if (k == LC_DIGIT ||
			 (k == LC_DOT && p + 1 < e && lex_class[(unsigned char)p[1]] == LC_DIGIT))
			p = number_end(p + 1, e);
		else if (k == LC_QUOTE)
			p = lex_quoted(p, e);
		else
			p += punct_len(p, e);
		if (out->n == out->alloc)
			out->v = ud_xgrow(out->v, &out->alloc,
					  out->n < (len >> 3) ? (len >> 3) + 16 : out->n + 1,
					  sizeof(*out->v));
		t = &out->v[out->n++];
		t->p = b;
		t->n = (size_t)(p - b);
		t->line = line;
		t->bol = bol;
		t->hide = NULL;
		bol = false;
	}
}

/* Whether t is the one-byte token c. */
static inline bool
tok_is1(const struct api_tok *t, char c)
{
	return t->n == 1 && t->p[0] == c;
}

/*
 * Whether api_join writes token i (> a) with no space before it: after
 * "(", "[" or "~"; before ",", ")", "]", ";" or "[", and before a "("
 * after an identifier.
 */
static inline bool
tight(const struct api_tok *v, size_t i)
{
	if (v[i].n == 1) {
		switch (v[i].p[0]) {
		case ',':
		case ')':
		case ']':
		case ';':
		case '[':
			return true;
		case '(':
			if (api_tok_ident(&v[i - 1]))
				return true;
			break;
		default:
			break;
		}
	}
	return tok_is1(&v[i - 1], '(') || tok_is1(&v[i - 1], '[') || tok_is1(&v[i - 1], '~');
}

size_t
api_join_len(const struct api_tok *v, size_t a, size_t b)
{
	size_t i, len = 0;

	for (i = a; i < b; i++)
		len += v[i].n + (i > a && !tight(v, i));
	return len;
}

char *
api_join_to(char *out, const struct api_tok *v, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++) {
		if (i > a && !tight(v, i))
			*out++ = ' ';
		memcpy(out, v[i].p, v[i].n);
		out += v[i].n;
	}
	*out = '\0';
	return out;
}

/*
 * Measured first, then written into one allocation: the readers join
 * some 600,000 token runs a diff, and a growing buffer reallocated for
 * most of them.
 */
char *
api_join(const struct api_tok *v, size_t a, size_t b)
{
	char *out = ud_xmalloc(api_join_len(v, a, b) + 1);

	api_join_to(out, v, a, b);
	return out;
}

size_t
api_match(const struct api_tok *v, size_t i, size_t b)
{
	char open = tok_is1(&v[i], '{') ? '{' : tok_is1(&v[i], '(') ? '(' : '[';
	char close = open == '{' ? '}' : open == '(' ? ')' : ']';
	size_t depth = 0;

	for (; i < b; i++) {
		if (tok_is1(&v[i], open))
			depth++;
		else if (tok_is1(&v[i], close) && --depth == 0)
			return i;
	}
	return b;
}

bool
api_is_attr(const struct api_tok *t)
{
	return api_tok_is(t, "__attribute__") || api_tok_is(t, "__attribute") ||
	       api_tok_is(t, "__aligned") || api_tok_is(t, "__packed") || api_tok_is(t, "__user") ||
	       api_tok_is(t, "__extension__");
}
