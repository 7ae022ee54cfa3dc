// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C tokens the API model is read from (api-internal.h): comments
 * dropped, continuations joined, each token with its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/chars.h"
#include "uapid/xmalloc.h"

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

void
api_tokenize(const char *text, size_t len, struct api_toks *out)
{
	const char *p = text, *e = text + len;
	unsigned line = 1;
	bool bol = true;

	while (p < e) {
		struct api_tok t;

		memset(&t, 0, sizeof(t));

		p = skip_cont(p, e, &line);
		if (p >= e)
			break;
		if (*p == '\n') {
			line++;
			bol = true;
			p++;
			continue;
		}
		if (ud_is_space((unsigned char)*p)) {
			/* a run of blanks at once, not a turn of the loop each */
			do
				p++;
			while (p < e && (*p == ' ' || *p == '\t'));
			continue;
		}
		if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			p = skip_comment(p + 2, e, &line);
			continue;
		}
		if (p + 1 < e && p[0] == '/' && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		t.p = p;
		t.line = line;
		t.bol = bol;
		bol = false;
		if (ud_is_ident_start((unsigned char)*p)) {
			while (p < e && ud_is_ident((unsigned char)*p))
				p++;
		} else if (ud_is_digit((unsigned char)*p) ||
			   (*p == '.' && p + 1 < e && ud_is_digit((unsigned char)p[1]))) {
			while (p < e &&
			       (ud_is_alnum((unsigned char)*p) || *p == '.' || *p == '_' ||
				((*p == '+' || *p == '-') &&
				 (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p' || p[-1] == 'P'))))
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < e && *p != q && *p != '\n') {
				if (*p == '\\' && p + 1 < e)
					p++;
				p++;
			}
			if (p < e && *p == q)
				p++;
		} else {
			p += punct_len(p, e);
		}
		t.n = (size_t)(p - t.p);
		if (out->n == out->alloc)
			out->v = ud_xgrow(out->v, &out->alloc,
					  out->n < (len >> 3) ? (len >> 3) + 16 : out->n + 1,
					  sizeof(*out->v));
		out->v[out->n++] = t;
	}
}

/* Whether api_join writes token i (> a) with no space before it. */
static bool
tight(const struct api_tok *v, size_t i)
{
	return api_tok_is(&v[i], ",") || api_tok_is(&v[i], ")") || api_tok_is(&v[i], "]") ||
	       api_tok_is(&v[i], ";") || api_tok_is(&v[i - 1], "(") || api_tok_is(&v[i - 1], "[") ||
	       api_tok_is(&v[i], "[") || api_tok_is(&v[i - 1], "~") ||
	       (api_tok_is(&v[i], "(") && api_tok_ident(&v[i - 1]));
}

/*
 * Measured first, then written into one allocation: the readers join
 * some 600,000 token runs a diff, and a growing buffer reallocated for
 * most of them.
 */
char *
api_join(const struct api_tok *v, size_t a, size_t b)
{
	size_t i, len = 0;
	char *out, *p;

	for (i = a; i < b; i++)
		len += v[i].n + (i > a && !tight(v, i));
	p = out = ud_xmalloc(len + 1);
	for (i = a; i < b; i++) {
		if (i > a && !tight(v, i))
			*p++ = ' ';
		memcpy(p, v[i].p, v[i].n);
		p += v[i].n;
	}
	*p = '\0';
	return out;
}

size_t
api_match(const struct api_tok *v, size_t i, size_t b)
{
	const char *open = api_tok_is(&v[i], "{") ? "{" : api_tok_is(&v[i], "(") ? "(" : "[";
	const char *close = open[0] == '{' ? "}" : open[0] == '(' ? ")" : "]";
	size_t depth = 0;

	for (; i < b; i++) {
		if (api_tok_is(&v[i], open))
			depth++;
		else if (api_tok_is(&v[i], close) && --depth == 0)
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
