// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header reader's numbers (api-reader.h): the numeric names a header
 * has defined so far (its macros and enum constants with a value), and the
 * value of an expression read from them.  Apart from the reader's other
 * parts because directives, members, enum bodies and the late pass over
 * macros all ask it, and because most of it is fast paths (a plain number,
 * the short shapes most macros have) before ud_expr_evaluate.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api-reader.h"
#include "uapid/util/arena.h"
#include "uapid/util/chars.h"
#include "uapid/core/expr.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/* value in decimal, in the reader's arena: what printf("%lld") gives, for a name every macro has */
static char *
decimal(struct reader *r, long long value)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u =
		value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (value < 0)
		*--p = '-';
	return ud_arena_strndup(&r->keys, p, strlen(p));
}

void
api_remember(struct reader *r, const char *name, long long value)
{
	struct ud_expr_sym *s;
	size_t h;

	r->known.v = ud_xgrow(r->known.v, &r->known.alloc, r->known.n + 1, sizeof(*r->known.v));
	s = &r->known.v[r->known.n++];
	/* in the arena: as many as the header's numeric names, dropped with the reader */
	s->name = ud_arena_strndup(&r->keys, name, strlen(name));
	s->value = decimal(r, value);
	/* one hash for the look-up and the insertion */
	h = ud_map_hash(name);
	if (ud_map_get_hashed(&r->known.first, name, h) == NULL)
		ud_map_put_hashed(&r->known.first, name, h, (void *)(uintptr_t)r->known.n);
}

/*
 * The known names expression text uses, each its first entry: an
 * environment ud_expr_evaluate answers the same from as from the whole
 * list, at the cost of the expression's words, not of the header's names.
 * Returns the count; *out (malloc'd, the caller frees it) holds them.
 */
static size_t
known_used(const struct reader *r, const char *text, struct ud_expr_sym **out)
{
	const char *p = text, *b;
	size_t n = 0, alloc = 0, len;
	char word[256];

	*out = NULL;
	while ((b = ud_next_ident(text, &p, &len)) != NULL) {
		uintptr_t at;

		if (len < sizeof(word)) {
			memcpy(word, b, len);
			word[len] = '\0';
			at = (uintptr_t)ud_map_get(&r->known.first, word);
		} else {
			char *long_word = ud_xstrndup(b, len);

			at = (uintptr_t)ud_map_get(&r->known.first, long_word);
			free(long_word);
		}
		if (at == 0)
			continue;
		*out = ud_xgrow(*out, &alloc, n + 1, sizeof(**out));
		(*out)[n++] = r->known.v[at - 1];
	}
	return n;
}

/*
 * The value of a lone decimal (up to 18 digits) or hexadecimal (up to 15)
 * constant, as ud_expr_evaluate reads it (strtoull): most macros are one,
 * and need no environment nor parser.  False for anything else.
 */
static int
hex_digit(int c)
{
	if (ud_is_digit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool
plain_number(const char *p, long long *out)
{
	unsigned long long n = 0;
	size_t k = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		for (k = 2; k < 17 && hex_digit((unsigned char)p[k]) >= 0; k++)
			n = n * 16 + (unsigned long long)hex_digit((unsigned char)p[k]);
		if (k == 2)
			return false;
	} else if (p[0] == '0') {
		k = 1; /* "0"; octal ("010") is the parser's */
	} else {
		for (; k < 18 && ud_is_digit((unsigned char)p[k]); k++)
			n = n * 10 + (unsigned long long)(p[k] - '0');
	}
	if (k == 0 || p[k] != '\0')
		return false;
	*out = (long long)n;
	return true;
}

/* The value of the known name at [p, p + n), as ud_expr_evaluate reads it; false when unknown. */
static bool
known_value(const struct reader *r, const char *p, size_t n, long long *out)
{
	char word[256];
	uintptr_t at;

	assert(n < sizeof(word));
	memcpy(word, p, n);
	word[n] = '\0';
	at = (uintptr_t)ud_map_get(&r->known.first, word);
	if (at == 0)
		return false;
	/* decimal() wrote it: strtoll reads it back whole */
	*out = strtoll(r->known.v[at - 1].value, NULL, 10);
	return true;
}

/*
 * One operand of a short expression at *p: a plain number or a name.
 * Returns 1 with its value, 0 for a name with no known value, -1 for
 * anything else (the parser's).
 */
static int
short_operand(const struct reader *r, const char **p, long long *out)
{
	const char *b = *p, *e = b;
	char num[24];

	if (ud_is_digit((unsigned char)*b)) {
		while (ud_is_alnum((unsigned char)*e))
			e++;
		if ((size_t)(e - b) >= sizeof(num) || *e == '.')
			return -1;
		memcpy(num, b, (size_t)(e - b));
		num[e - b] = '\0';
		if (!plain_number(num, out))
			return -1;
		*p = e;
		return 1;
	}
	if (!ud_is_ident_start((unsigned char)*b))
		return -1;
	while (ud_is_ident((unsigned char)*e))
		e++;
	if (*e == '(' || e - b >= 256 || (e - b == 7 && memcmp(b, "defined", 7) == 0))
		return -1;
	*p = e;
	return known_value(r, b, (size_t)(e - b), out) ? 1 : 0;
}

/*
 * The value of the shapes most macros have ("A", "(1 << 3)", "(BASE + 2)":
 * an operand, or two around one of << + - |, in one optional pair of
 * parentheses), computed as ud_expr_evaluate does with no environment to
 * build.  Returns 1 known, 0 unknown, -1 another shape.
 */
static int
short_expr(const struct reader *r, const char *p, long long *out)
{
	bool paren = *p == '(';
	long long a, b;
	int ka, kb;
	char op;

	p += paren;
	if ((ka = short_operand(r, &p, &a)) < 0)
		return -1;
	op = '\0';
	if (*p == ' ' || (*p != ')' && *p != '\0')) {
		while (*p == ' ')
			p++;
		op = *p;
		if (op == '<' && p[1] == '<')
			p++;
		else if (op != '+' && op != '-' && op != '|')
			return -1;
		p++;
		if (*p == op || *p == '=')
			return -1;
		while (*p == ' ')
			p++;
		if ((kb = short_operand(r, &p, &b)) < 0)
			return -1;
		ka = ka && kb;
	}
	if (paren && *p++ != ')')
		return -1;
	if (*p != '\0')
		return -1;
	if (!ka)
		return 0;
	switch (op) {
	case '<':
		if (b < 0 || b > 63)
			return 0;
		a = (long long)((unsigned long long)a << b);
		break;
	case '+':
		a = (long long)((unsigned long long)a + (unsigned long long)b);
		break;
	case '-':
		a = (long long)((unsigned long long)a - (unsigned long long)b);
		break;
	case '|':
		a |= b;
		break;
	default:
		break;
	}
	*out = a;
	return 1;
}

/*
 * A call of a name with no known value ("_IOW(...)", "v4l2_fourcc(...)")
 * as all the text: unknown, as ud_expr_evaluate finds after skipping the
 * arguments (an unclosed list is its error, unknown too).  Returns 0
 * then, -1 for anything else.
 */
static int
unknown_call(const struct reader *r, const char *p)
{
	const char *e = p;
	size_t level = 0;
	char word[256];

	if (!ud_is_ident_start((unsigned char)*p))
		return -1;
	while (ud_is_ident((unsigned char)*e))
		e++;
	if (*e != '(' || (size_t)(e - p) >= sizeof(word) ||
	    (e - p == 7 && memcmp(p, "defined", 7) == 0))
		return -1;
	memcpy(word, p, (size_t)(e - p));
	word[e - p] = '\0';
	if (ud_map_get(&r->known.first, word) != NULL)
		return -1;
	/* the parser counts every parenthesis, quoted or not */
	for (; *e != '\0'; e++) {
		if (*e == '(')
			level++;
		else if (*e == ')' && --level == 0)
			return e[1] == '\0' ? 0 : -1;
	}
	return 0;
}

/* The value of expression text, with the header's numeric names so far; false when unknown. */
bool
api_evaluate(struct reader *r, const char *text, long long *out)
{
	struct ud_expr_env env;
	struct ud_expr_value v;
	struct ud_expr_sym *used;
	char stack[256], *copy;
	size_t i, j, len;
	bool ok;
	int k;

	if (text[0] == '\0')
		return false;
	/* a plain number is its own rewriting below: no copy */
	if (plain_number(text, out))
		return true;
	/* casts and integer suffixes the preprocessor's grammar does not know */
	len = strlen(text);
	/* a character constant's decimal (3 bytes) is as long as its quoted form */
	copy = len < sizeof(stack) ? stack : ud_xmalloc(len + 1);
	for (i = j = 0; text[i] != '\0'; i++) {
		if (text[i] == '\'' && text[i + 1] != '\0' && text[i + 1] != '\\' &&
		    text[i + 2] == '\'') {
			/* a character constant ('T' in _IOR('T', ...)): its value */
			unsigned c = (unsigned char)text[i + 1];

			if (c >= 100)
				copy[j++] = (char)('0' + c / 100);
			if (c >= 10)
				copy[j++] = (char)('0' + c / 10 % 10);
			copy[j++] = (char)('0' + c % 10);
			i += 2;
			continue;
		}
		if (ud_is_digit((unsigned char)text[i]) &&
		    (i == 0 || !ud_is_ident((unsigned char)text[i - 1]))) {
			while (ud_is_alnum((unsigned char)text[i]) &&
			       !(text[i] == 'u' || text[i] == 'U' || text[i] == 'l' ||
				 text[i] == 'L'))
				copy[j++] = text[i++];
			while (text[i] == 'u' || text[i] == 'U' || text[i] == 'l' || text[i] == 'L')
				i++;
			i--;
			continue;
		}
		copy[j++] = text[i];
	}
	copy[j] = '\0';
	if (plain_number(copy, out)) {
		ok = true;
	} else if ((k = short_expr(r, copy, out)) >= 0 || (k = unknown_call(r, copy)) >= 0) {
		ok = k == 1;
	} else {
		memset(&env, 0, sizeof(env));
		env.dialect = UD_EXPR_C;
		env.nsyms = known_used(r, copy, &used);
		env.syms = used;
		ud_expr_evaluate(copy, &env, &v);
		ok = !v.error && v.truth != UD_UNKNOWN && v.end != NULL && *v.end == '\0';
		free(used);
		if (ok)
			*out = v.num;
	}
	if (copy != stack)
		free(copy);
	return ok;
}
