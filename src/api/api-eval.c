// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Values of the API model (api-internal.h): an expression expanded by
 * api-macro.c, then evaluated with C's integer types on the target ABI
 * (an int is 32 bits, a long is what the ABI says, 1U << 31 is unsigned,
 * (__u8)-1 is 255), sizeof and _Alignof of types laid out by
 * api-layout.c, offsetof, casts.
 *
 * Two modes: a C expression (a macro's value, an array bound) where a
 * name nothing defines is unknown; and a preprocessor condition, where
 * defined() is answered from the target and the headers seen, and a
 * name known to be undefined is 0.  Unknown stays unknown: && and || and
 * ?: decide what one side decides alone.  Nesting is bounded by
 * API_MAX_DEPTH (an unknown value past it).  Pure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/core/expr.h" /* enum ud_tri */
#include "uapid/util/xmalloc.h"

/* ---- integer arithmetic with C's types ---- */

bool
api_rank_unsigned(unsigned rank)
{
	return rank == API_UINT || rank == API_ULONG || rank == API_ULLONG;
}

unsigned
api_rank_bits(unsigned rank, const struct ud_abi *abi)
{
	switch (rank) {
	case API_INT:
	case API_UINT:
		return 32;
	case API_LONG:
	case API_ULONG:
		return abi->t[UD_ABI_LONG].size * 8u;
	default:
		return 64;
	}
}

static uint64_t
truncate_to(uint64_t u, unsigned bits)
{
	return bits >= 64 ? u : u & ((1ull << bits) - 1);
}

long long
api_val_signed(const struct api_val *v, const struct ud_abi *abi)
{
	unsigned bits = api_rank_bits(v->rank, abi);

	if (api_rank_unsigned(v->rank) || bits >= 64 || !(v->u & (1ull << (bits - 1))))
		return (long long)v->u;
	return (long long)(v->u | ~((1ull << bits) - 1));
}

struct ev {
	struct api_ctx *c;
	unsigned h;
	bool pp;
	const struct api_tok *v;
	size_t i, n;
	bool error; /* malformed: nothing is known */
};

static struct api_val
unknown(void)
{
	struct api_val v = {false, 0, API_INT};

	return v;
}

static struct api_val
make(uint64_t u, unsigned rank, const struct ud_abi *abi)
{
	struct api_val v;

	v.known = true;
	v.rank = (unsigned char)rank;
	v.u = truncate_to(u, api_rank_bits(rank, abi));
	return v;
}

/* The common type of a and b (the usual arithmetic conversions). */
static unsigned
common_rank(unsigned a, unsigned b, const struct ud_abi *abi)
{
	unsigned sa = a / 2, sb = b / 2; /* the rank without signedness: int, long, long long */
	bool ua = api_rank_unsigned(a), ub = api_rank_unsigned(b);

	if (ua == ub)
		return sa >= sb ? a : b;
	if (ua && sa >= sb)
		return a;
	if (ub && sb >= sa)
		return b;
	/* the signed one has the higher rank: it wins if it holds every value of the other */
	if (ua) {
		if (api_rank_bits(b, abi) > api_rank_bits(a, abi))
			return b;
		return b + 1; /* its unsigned version */
	}
	if (api_rank_bits(a, abi) > api_rank_bits(b, abi))
		return a;
	return a + 1;
}

static struct api_val
convert(struct api_val v, unsigned rank, const struct ud_abi *abi)
{
	if (!v.known)
		return v;
	return make((uint64_t)api_val_signed(&v, abi), rank, abi);
}

/* Inline: with a literal s, api_tok_is is a length test and a compare of a byte or two. */
static inline bool
peek(const struct ev *e, const char *s)
{
	return e->i < e->n && api_tok_is(&e->v[e->i], s);
}

static inline bool
accept(struct ev *e, const char *s)
{
	if (!peek(e, s))
		return false;
	e->i++;
	return true;
}

static struct api_val comma_expr(struct ev *e);
static struct api_val cond_expr(struct ev *e);
static struct api_val unary(struct ev *e);

/*
 * A decimal literal of at most 19 digits (no overflow) and its suffix, read
 * by hand: most literals evaluated are (the values of known macros stand
 * as such).  False for anything else, left to strtoull.
 */
static bool
decimal_number(const struct api_tok *t, uint64_t *u, bool *has_u, int *longs)
{
	size_t i = 0;

	*u = 0;
	if (t->n == 1 && t->p[0] == '0')
		return true;
	if (t->p[0] < '1' || t->p[0] > '9')
		return false;
	for (; i < t->n && t->p[i] >= '0' && t->p[i] <= '9'; i++) {
		if (i >= 19)
			return false;
		*u = *u * 10 + (uint64_t)(t->p[i] - '0');
	}
	for (; i < t->n; i++) {
		if (t->p[i] == 'u' || t->p[i] == 'U')
			*has_u = true;
		else if (t->p[i] == 'l' || t->p[i] == 'L')
			(*longs)++;
		else
			return false;
	}
	return true;
}

/*
 * An integer literal's value, suffix (a u, the count of l) and base (decimal
 * or not); false when it is not one (a floating constant, a bad suffix).
 */
static bool
literal(const struct api_tok *t, uint64_t *u, bool *has_u, int *longs, bool *decimal)
{
	char buf[80];
	const char *p;
	char *end;

	*has_u = false;
	*longs = 0;
	*decimal = true;
	if (decimal_number(t, u, has_u, longs))
		return true;
	*has_u = false;
	*longs = 0;
	if (t->n >= sizeof(buf))
		return false;
	memcpy(buf, t->p, t->n);
	buf[t->n] = '\0';
	if (strpbrk(buf, ".pP") != NULL ||
	    (strpbrk(buf, "eE") != NULL && strncmp(buf, "0x", 2) != 0 &&
	     strncmp(buf, "0X", 2) != 0))
		return false; /* a floating constant */
	*decimal = buf[0] != '0' || t->n == 1;
	if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
		*u = strtoull(buf + 2, &end, 2);
	else
		*u = strtoull(buf, &end, 0);
	for (p = end; *p != '\0'; p++) {
		if (*p == 'u' || *p == 'U')
			*has_u = true;
		else if (*p == 'l' || *p == 'L')
			(*longs)++;
		else
			return false;
	}
	return true;
}

/* An integer literal: its value and C type (C11 6.4.4.1), or unknown (a float). */
static struct api_val
number(struct ev *e, const struct api_tok *t)
{
	const struct ud_abi *abi = e->c->abi;
	uint64_t u;
	bool has_u, decimal;
	int longs;
	unsigned bits_long = abi->t[UD_ABI_LONG].size * 8u;

	if (!literal(t, &u, &has_u, &longs, &decimal))
		return unknown();
	if (e->pp)
		return make(u, has_u || u > INT64_MAX ? API_ULLONG : API_LLONG, abi);
	/* the first type of the list that holds the value */
	if (longs == 0 && !has_u && u <= 0x7fffffffull)
		return make(u, API_INT, abi);
	if (longs == 0 && (has_u || !decimal) && u <= 0xffffffffull)
		return make(u, API_UINT, abi);
	if (longs <= 1 && !has_u && (bits_long == 64 ? u <= INT64_MAX : u <= 0x7fffffffull))
		return make(u, API_LONG, abi);
	if (longs <= 1 && (has_u || !decimal) && (bits_long == 64 || u <= 0xffffffffull))
		return make(u, API_ULONG, abi);
	if (!has_u && u <= INT64_MAX)
		return make(u, API_LLONG, abi);
	return make(u, API_ULLONG, abi);
}

/* A character constant's value: 'a', '\n', '\0', '\x41', '\101'. */
static struct api_val
character(struct ev *e, const struct api_tok *t)
{
	const char *p = t->p + 1, *end = t->p + t->n - 1;
	uint64_t v = 0;

	if (t->n < 3 || *end != '\'')
		return unknown();
	if (*p != '\\') {
		if (end - p != 1)
			return unknown(); /* multi-character: the compiler's choice */
		v = (unsigned char)*p;
	} else {
		p++;
		switch (*p) {
		case 'n':
			v = '\n';
			break;
		case 't':
			v = '\t';
			break;
		case 'r':
			v = '\r';
			break;
		case 'a':
			v = '\a';
			break;
		case 'b':
			v = '\b';
			break;
		case 'f':
			v = '\f';
			break;
		case 'v':
			v = '\v';
			break;
		case '\\':
			v = '\\';
			break;
		case '\'':
			v = '\'';
			break;
		case '"':
			v = '"';
			break;
		case '?':
			v = '?';
			break;
		case 'x':
			v = strtoull(p + 1, NULL, 16);
			break;
		default:
			if (*p >= '0' && *p <= '7')
				v = strtoull(p, NULL, 8);
			else
				return unknown();
		}
		if (v > 255)
			return unknown();
	}
	/* char is signed on most ABIs: '\xff' is -1 there */
	if (!e->c->abi->char_unsigned && v > 127)
		return make((uint64_t)(int64_t)(int8_t)v, API_INT, e->c->abi);
	return make(v, API_INT, e->c->abi);
}

/* Whether the tokens at e->i start a type name (after a '('). */
static bool
type_name_ahead(struct ev *e)
{
	static const char *const words[] = {
		"void",	      "char",	     "short",	"int",		"long",
		"signed",     "unsigned",    "float",	"double",	"_Bool",
		"const",      "volatile",    "struct",	"union",	"enum",
		"__signed__", "__int128",    "__const", "__volatile__", "__extension__",
		"__int128_t", "__uint128_t",
	};
	const struct api_tok *t;
	struct api_ref r;
	bool undecided;
	size_t k;

	if (e->i >= e->n)
		return false;
	t = &e->v[e->i];
	if (!api_tok_ident(t))
		return false;
	for (k = 0; k < ARRAY_SIZE(words); k++)
		if (api_tok_is(t, words[k]))
			return true;
	if (api_lookup(e->c, e->h, API_NS_ORDINARY, t->p, t->n, true, &r, &undecided))
		return api_sym(e->c, r)->kind == UD_API_TYPEDEF;
	{
		struct api_type ty;
		char *name = ud_xstrndup(t->p, t->n);
		bool is_type = api_type_of_text(e->c, e->h, name, &ty);

		/* a libc type (size_t, uint32_t): what the ABI table knows */
		is_type = is_type && !ty.record && ty.known;
		api_type_free(&ty);
		free(name);
		return is_type;
	}
}

/* The type name from e->i to the matching ')' (not consumed): its text. */
static char *
type_text(struct ev *e, size_t *close)
{
	size_t depth = 0, k;

	for (k = e->i; k < e->n; k++) {
		if (api_tok_is(&e->v[k], "("))
			depth++;
		else if (api_tok_is(&e->v[k], ")")) {
			if (depth == 0)
				break;
			depth--;
		}
	}
	*close = k;
	return api_join(e->v, e->i, k);
}

/* A cast of v to the integer type t. */
static struct api_val
cast(struct ev *e, struct api_val v, const struct api_type *t)
{
	const struct ud_abi *abi = e->c->abi;
	unsigned rank;

	if (!v.known || !t->known)
		return unknown();
	if (t->pointer)
		return convert(v, abi->t[UD_ABI_PTR].size == 8 ? API_ULONG : API_UINT, abi);
	if (!t->integer || t->array)
		return unknown();
	if (t->bits < 32) {
		/* char, short, _Bool: truncated, then promoted to int */
		uint64_t u = truncate_to(v.u, t->bits);

		if (t->bits == 1)
			u = v.u != 0;
		else if (!t->is_unsigned && (u & (1ull << (t->bits - 1))))
			u |= ~((1ull << t->bits) - 1);
		return make(u, API_INT, abi);
	}
	rank = t->rank;
	return make((uint64_t)api_val_signed(&v, abi), rank, abi);
}

/* sizeof or _Alignof of a type name in parentheses at e->i ('(' consumed by the caller). */
static struct api_val
size_or_align(struct ev *e, bool align)
{
	size_t close;
	char *text = type_text(e, &close);
	struct api_type t;
	struct api_val v = unknown();
	unsigned rank = e->c->abi->t[UD_ABI_PTR].size == 8 ? API_ULONG : API_UINT;

	if (api_type_of_text(e->c, e->h, text, &t) && t.known)
		v = make(align ? t.align : t.size, rank, e->c->abi);
	api_type_free(&t);
	free(text);
	e->i = close < e->n ? close + 1 : e->n;
	return v;
}

/*
 * sizeof(((TYPE *)0)->a.b): the size of a member, a common spelling in
 * headers; at e->i, just after "sizeof".  False when it is not that shape.
 */
static bool
member_size(struct ev *e, struct api_val *out)
{
	size_t k = e->i, close, depth = 0, end;
	struct api_type t;
	struct ud_buf path = UD_BUF_INIT;
	char *text;
	bool ok = false;

	if (!(k + 3 < e->n && api_tok_is(&e->v[k], "(") && api_tok_is(&e->v[k + 1], "(") &&
	      api_tok_is(&e->v[k + 2], "(")))
		return false;
	/* the ')' closing the third '(' */
	for (close = k + 3; close < e->n; close++) {
		if (api_tok_is(&e->v[close], "("))
			depth++;
		else if (api_tok_is(&e->v[close], ")")) {
			if (depth == 0)
				break;
			depth--;
		}
	}
	/* (TYPE *) 0 ) -> path ) */
	if (close + 4 >= e->n || !api_tok_is(&e->v[close - 1], "*") ||
	    !api_tok_is(&e->v[close + 1], "0") || !api_tok_is(&e->v[close + 2], ")") ||
	    !(api_tok_is(&e->v[close + 3], "->")))
		return false;
	for (end = close + 4; end < e->n && !api_tok_is(&e->v[end], ")"); end++) {
		if (api_tok_ident(&e->v[end]))
			ud_buf_add(&path, e->v[end].p, e->v[end].n);
		else if (api_tok_is(&e->v[end], "."))
			ud_buf_addch(&path, '.');
		else
			break;
	}
	if (end >= e->n || !api_tok_is(&e->v[end], ")")) {
		ud_buf_free(&path);
		return false;
	}
	text = api_join(e->v, k + 3, close - 1);
	*out = unknown();
	if (api_type_of_text(e->c, e->h, text, &t) && t.known && t.record) {
		struct api_ref r;
		bool undecided;
		const char *tag = t.spelled;

		if (api_lookup(e->c, e->h, API_NS_TAG, tag, strlen(tag), true, &r, &undecided)) {
			const struct ud_api_layout *l = api_layout_sym(e->c, r);
			const struct ud_api_field *f =
				l != NULL ? api_layout_field(l, ud_buf_str(&path)) : NULL;

			if (f != NULL && f->size % 8 == 0)
				*out = make(f->size / 8,
					    e->c->abi->t[UD_ABI_PTR].size == 8 ? API_ULONG
									       : API_UINT,
					    e->c->abi);
		}
	}
	api_type_free(&t);
	free(text);
	ud_buf_free(&path);
	e->i = end + 1;
	ok = true;
	return ok;
}

/* offsetof(TYPE, a.b) and __builtin_offsetof: at e->i, after the word. */
static struct api_val
offset_of(struct ev *e)
{
	size_t k, comma = 0, depth = 0;
	struct api_val v = unknown();
	struct ud_buf path = UD_BUF_INIT;
	struct api_type t;
	char *text;

	if (!accept(e, "("))
		return unknown();
	for (k = e->i; k < e->n; k++) {
		if (api_tok_is(&e->v[k], "("))
			depth++;
		else if (api_tok_is(&e->v[k], ")")) {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && api_tok_is(&e->v[k], ",") && comma == 0)
			comma = k;
	}
	if (comma == 0 || k >= e->n) {
		e->i = k < e->n ? k + 1 : e->n;
		return unknown();
	}
	text = api_join(e->v, e->i, comma);
	for (depth = comma + 1; depth < k; depth++)
		ud_buf_add(&path, e->v[depth].p, e->v[depth].n);
	if (api_type_of_text(e->c, e->h, text, &t) && t.known && t.record) {
		struct api_ref r;
		bool undecided;

		if (api_lookup(e->c, e->h, API_NS_TAG, t.spelled, strlen(t.spelled), true, &r,
			       &undecided)) {
			const struct ud_api_layout *l = api_layout_sym(e->c, r);
			const struct ud_api_field *f =
				l != NULL ? api_layout_field(l, ud_buf_str(&path)) : NULL;

			if (f != NULL && f->offset % 8 == 0)
				v = make(f->offset / 8,
					 e->c->abi->t[UD_ABI_PTR].size == 8 ? API_ULONG : API_UINT,
					 e->c->abi);
		}
	}
	api_type_free(&t);
	free(text);
	ud_buf_free(&path);
	e->i = k + 1;
	return v;
}

/* A name left after expansion: an enum constant, or unknown (0 in a condition when undefined). */
static struct api_val
name(struct ev *e, const struct api_tok *t)
{
	struct api_ref r;
	bool undecided = false;

	if (t->n == sizeof(API_UNKNOWN_WORD) - 1 && memcmp(t->p, API_UNKNOWN_WORD, t->n) == 0)
		return unknown();
	/* enum constants are C's: the preprocessor does not see them */
	if (!e->pp && api_lookup(e->c, e->h, API_NS_ORDINARY, t->p, t->n, true, &r, &undecided)) {
		struct ud_api_sym *s = api_sym(e->c, r);

		if (s->kind == UD_API_ENUM_CONST) {
			api_eval_sym(e->c, r);
			if (s->has_value)
				return make((uint64_t)s->value,
					    s->value_unsigned ? API_UINT : API_INT, e->c->abi);
		}
		return unknown();
	}
	if (e->pp && !undecided) {
		const char *value;

		/* a name no macro defines is 0 in a condition, if nothing may define it */
		if (e->c->alone ||
		    api_abi_macro(e->c, t->p, t->n, &value) == UD_ABI_MACRO_UNDEFINED ||
		    api_lookup(e->c, e->h, API_NS_MACRO, t->p, t->n, true, &r, &undecided))
			return make(0, API_LLONG, e->c->abi);
	}
	return unknown();
}

static struct api_val
primary(struct ev *e)
{
	const struct api_tok *t;

	if (e->i >= e->n) {
		e->error = true;
		return unknown();
	}
	t = &e->v[e->i++];
	if (api_tok_is(t, "(")) {
		struct api_val v = comma_expr(e);

		if (!accept(e, ")"))
			e->error = true;
		return v;
	}
	if (ud_is_digit((unsigned char)t->p[0]))
		return number(e, t);
	if (t->p[0] == '\'')
		return character(e, t);
	if (t->p[0] == '"') {
		while (e->i < e->n && e->v[e->i].p[0] == '"')
			e->i++; /* adjacent strings: one literal, not a number */
		return unknown();
	}
	if (api_tok_is(t, "__builtin_offsetof") || api_tok_is(t, "offsetof"))
		return offset_of(e);
	if (api_tok_ident(t))
		return name(e, t);
	e->error = true;
	return unknown();
}

static struct api_val
postfix(struct ev *e)
{
	struct api_val v = primary(e);

	/* what C allows after a primary is not a constant: an index, a call, a member */
	while (peek(e, "[") || peek(e, "(") || peek(e, ".") || peek(e, "->")) {
		v = unknown();
		if (accept(e, "[") || accept(e, "(")) {
			size_t depth = 1;

			while (e->i < e->n && depth > 0) {
				if (peek(e, "(") || peek(e, "["))
					depth++;
				else if (peek(e, ")") || peek(e, "]"))
					depth--;
				e->i++;
			}
		} else {
			e->i += 2;
		}
	}
	return v;
}

static struct api_val
unary(struct ev *e)
{
	const struct ud_abi *abi = e->c->abi;
	struct api_val v;

	if (accept(e, "+"))
		return unary(e);
	if (accept(e, "-")) {
		v = unary(e);
		return v.known ? make(0 - v.u, v.rank, abi) : v;
	}
	if (accept(e, "~")) {
		v = unary(e);
		return v.known ? make(~v.u, v.rank, abi) : v;
	}
	if (accept(e, "!")) {
		v = unary(e);
		return v.known ? make(v.u == 0, e->pp ? API_LLONG : API_INT, abi) : v;
	}
	if (!e->pp && (peek(e, "sizeof") || peek(e, "_Alignof") || peek(e, "__alignof__") ||
		       peek(e, "__alignof"))) {
		bool align = !api_tok_is(&e->v[e->i], "sizeof");
		struct api_val m;

		e->i++;
		if (!align && member_size(e, &m))
			return m;
		if (peek(e, "(")) {
			e->i++;
			if (type_name_ahead(e))
				return size_or_align(e, align);
			e->i--;
		}
		(void)unary(e); /* sizeof of an expression: its type is not tracked */
		return unknown();
	}
	if (!e->pp && peek(e, "(")) {
		size_t save = e->i;

		e->i++;
		if (type_name_ahead(e)) {
			size_t close;
			char *text = type_text(e, &close);
			struct api_type t;
			bool ok = api_type_of_text(e->c, e->h, text, &t);

			free(text);
			e->i = close < e->n ? close + 1 : e->n;
			if (peek(e, "{")) {
				api_type_free(&t);
				e->error = true; /* a compound literal */
				return unknown();
			}
			v = unary(e);
			v = ok ? cast(e, v, &t) : unknown();
			api_type_free(&t);
			return v;
		}
		e->i = save;
	}
	return postfix(e);
}

enum binop {
	B_MUL,
	B_DIV,
	B_MOD,
	B_ADD,
	B_SUB,
	B_SHL,
	B_SHR,
	B_LT,
	B_GT,
	B_LE,
	B_GE,
	B_EQ,
	B_NE,
	B_AND,
	B_XOR,
	B_OR
};

static const struct {
	const char *text;
	enum binop op;
	int prec;
} binops[] = {
	{"*", B_MUL, 10}, {"/", B_DIV, 10}, {"%", B_MOD, 10}, {"+", B_ADD, 9},
	{"-", B_SUB, 9},  {"<<", B_SHL, 8}, {">>", B_SHR, 8}, {"<", B_LT, 7},
	{">", B_GT, 7},	  {"<=", B_LE, 7},  {">=", B_GE, 7},  {"==", B_EQ, 6},
	{"!=", B_NE, 6},  {"&", B_AND, 5},  {"^", B_XOR, 4},  {"|", B_OR, 3},
};

/*
 * The index in binops of the operator token t spells, or -1.  Asked after
 * every operand, mostly of a ')' or ',' or a name: those are turned away
 * by their length or first byte before the table is read.
 */
static int
binop_of(const struct api_tok *t)
{
	size_t k;

	if (t->n > 2 || memchr("*/%+-<>=!&^|", t->p[0], 12) == NULL)
		return -1;
	for (k = 0; k < ARRAY_SIZE(binops); k++)
		if (binops[k].text[0] == t->p[0] &&
		    (t->n == 1 ? binops[k].text[1] == '\0'
			       : binops[k].text[1] == t->p[1] && binops[k].text[2] == '\0'))
			return (int)k;
	return -1;
}

static struct api_val
apply(struct ev *e, enum binop op, struct api_val a, struct api_val b)
{
	const struct ud_abi *abi = e->c->abi;
	unsigned rank, bits, cmp_rank = e->pp ? API_LLONG : API_INT;
	bool uns;
	long long sa, sb;

	if (!a.known || !b.known)
		return unknown();
	if (op == B_SHL || op == B_SHR) {
		long long n = api_val_signed(&b, abi);

		bits = api_rank_bits(a.rank, abi);
		if (n < 0 || n >= (long long)bits)
			return unknown(); /* undefined in C */
		if (op == B_SHL)
			return make(a.u << n, a.rank, abi);
		if (api_rank_unsigned(a.rank))
			return make(a.u >> n, a.rank, abi);
		return make((uint64_t)(api_val_signed(&a, abi) >> n), a.rank, abi);
	}
	rank = common_rank(a.rank, b.rank, abi);
	a = convert(a, rank, abi);
	b = convert(b, rank, abi);
	uns = api_rank_unsigned(rank);
	sa = api_val_signed(&a, abi);
	sb = api_val_signed(&b, abi);
	switch (op) {
	case B_MUL:
		return make(a.u * b.u, rank, abi);
	case B_DIV:
	case B_MOD:
		if (b.u == 0 || (!uns && sb == -1 && sa == INT64_MIN))
			return unknown();
		if (uns)
			return make(op == B_DIV ? a.u / b.u : a.u % b.u, rank, abi);
		return make((uint64_t)(op == B_DIV ? sa / sb : sa % sb), rank, abi);
	case B_ADD:
		return make(a.u + b.u, rank, abi);
	case B_SUB:
		return make(a.u - b.u, rank, abi);
	case B_LT:
		return make(uns ? a.u < b.u : sa < sb, cmp_rank, abi);
	case B_GT:
		return make(uns ? a.u > b.u : sa > sb, cmp_rank, abi);
	case B_LE:
		return make(uns ? a.u <= b.u : sa <= sb, cmp_rank, abi);
	case B_GE:
		return make(uns ? a.u >= b.u : sa >= sb, cmp_rank, abi);
	case B_EQ:
		return make(a.u == b.u, cmp_rank, abi);
	case B_NE:
		return make(a.u != b.u, cmp_rank, abi);
	case B_AND:
		return make(a.u & b.u, rank, abi);
	case B_XOR:
		return make(a.u ^ b.u, rank, abi);
	default:
		return make(a.u | b.u, rank, abi);
	}
}

/* Precedence climbing over the binary operators from | up. */
static struct api_val
binary(struct ev *e, int min_prec)
{
	struct api_val a = unary(e);

	for (;;) {
		int found;

		if (e->i >= e->n || e->error)
			break;
		found = binop_of(&e->v[e->i]);
		if (found < 0 || binops[found].prec < min_prec)
			break;
		e->i++;
		a = apply(e, binops[found].op, a, binary(e, binops[found].prec + 1));
	}
	return a;
}

static struct api_val
logical_and(struct ev *e)
{
	struct api_val a = binary(e, 3);

	while (accept(e, "&&")) {
		struct api_val b = binary(e, 3);

		if ((a.known && a.u == 0) || (b.known && b.u == 0))
			a = make(0, e->pp ? API_LLONG : API_INT, e->c->abi);
		else if (a.known && b.known)
			a = make(1, e->pp ? API_LLONG : API_INT, e->c->abi);
		else
			a = unknown();
	}
	return a;
}

static struct api_val
logical_or(struct ev *e)
{
	struct api_val a = logical_and(e);

	while (accept(e, "||")) {
		struct api_val b = logical_and(e);

		if ((a.known && a.u != 0) || (b.known && b.u != 0))
			a = make(1, e->pp ? API_LLONG : API_INT, e->c->abi);
		else if (a.known && b.known)
			a = make(0, e->pp ? API_LLONG : API_INT, e->c->abi);
		else
			a = unknown();
	}
	return a;
}

static struct api_val
cond_expr(struct ev *e)
{
	struct api_val c = logical_or(e), a, b;

	if (!accept(e, "?"))
		return c;
	a = comma_expr(e);
	if (!accept(e, ":")) {
		e->error = true;
		return unknown();
	}
	b = cond_expr(e);
	if (!c.known) {
		/* both sides alike: the value is known anyway */
		if (a.known && b.known && a.u == b.u && a.rank == b.rank)
			return a;
		return unknown();
	}
	if (a.known && b.known) {
		unsigned rank = common_rank(a.rank, b.rank, e->c->abi);

		return convert(c.u != 0 ? a : b, rank, e->c->abi);
	}
	return c.u != 0 ? a : b;
}

static struct api_val
comma_expr(struct ev *e)
{
	struct api_val v = cond_expr(e);

	while (accept(e, ","))
		v = cond_expr(e);
	return v;
}

/*
 * Evaluates the expansion out (freed) in header h's view; ok false when
 * the expansion failed.
 */
static struct api_val
evaluate_expanded(struct api_ctx *c, unsigned h, bool ok, struct api_toks *out, bool pp)
{
	struct ev e;
	struct api_val v = unknown();

	if (ok && out->n > 0) {
		memset(&e, 0, sizeof(e));
		e.c = c;
		e.h = h;
		e.pp = pp;
		e.v = out->v;
		e.n = out->n;
		v = comma_expr(&e);
		if (e.error || e.i != e.n)
			v = unknown();
	}
	api_expand_done(c, out);
	return v;
}

static bool plain_number(const char *text);

/* Expands text in header h's view and evaluates it. */
static struct api_val
evaluate(struct api_ctx *c, unsigned h, const char *text, bool pp)
{
	struct api_toks out = {NULL, 0, 0};
	struct api_val v;
	bool ok;

	if (c->depth > API_MAX_DEPTH)
		return unknown();
	if (plain_number(text)) {
		/* a number alone (an array's bound, 5,000 a diff): nothing expands, one token */
		struct ev e;
		struct api_tok t;

		memset(&e, 0, sizeof(e));
		memset(&t, 0, sizeof(t));
		e.c = c;
		e.pp = pp;
		t.p = text;
		t.n = strlen(text);
		return number(&e, &t);
	}
	c->depth++;
	ok = api_expand(c, h, text, pp, &out);
	v = evaluate_expanded(c, h, ok, &out, pp);
	c->depth--;
	return v;
}

/*
 * evaluate() of object-like macro r's replacement in its header's view,
 * from the tokens api_macro_body keeps (not read again from its text),
 * as a use of its name would expand it.
 */
static struct api_val
evaluate_macro(struct api_ctx *c, struct api_ref r)
{
	struct api_toks out = {NULL, 0, 0};
	struct api_val v;
	bool ok;

	if (c->depth > API_MAX_DEPTH)
		return unknown();
	c->depth++;
	ok = api_expand_macro(c, r, &out);
	v = evaluate_expanded(c, r.h, ok, &out, false);
	c->depth--;
	return v;
}

struct api_val
api_eval_text(struct api_ctx *c, unsigned h, const char *text)
{
	return evaluate(c, h, text, false);
}

int
api_eval_condition(struct api_ctx *c, unsigned h, const char *text)
{
	struct api_val v = evaluate(c, h, text, true);

	return !v.known ? UD_UNKNOWN : v.u != 0 ? UD_TRUE : UD_FALSE;
}

/* A decimal or hex literal alone ("16", "0x1f", "4U"): no macro to expand. */
static bool
plain_number(const char *text)
{
	const char *p = text;

	if (!ud_is_digit((unsigned char)*p))
		return false;
	while (ud_is_alnum((unsigned char)*p))
		p++;
	return *p == '\0' && strchr(text, 'e') == NULL && strchr(text, 'E') == NULL;
}

/*
 * A value kept only if it is the same on every path: "(implicit)" enum
 * constants were counted by the reader from the constants before them.
 */
void
api_eval_sym(struct api_ctx *c, struct api_ref r)
{
	struct ud_api_sym *s = api_sym(c, r);
	struct api_symstate *st = &c->hd[r.h].st[r.i];
	struct api_val v;
	long long before;

	if (st->value_st != API_TODO)
		return;
	if (s->kind == UD_API_MACRO && s->params != NULL) {
		st->value_st = API_DONE;
		return;
	}
	if (s->kind != UD_API_MACRO && s->kind != UD_API_ENUM_CONST) {
		st->value_st = API_DONE;
		return;
	}
	if (s->kind == UD_API_ENUM_CONST && strcmp(s->text, "(implicit)") == 0) {
		st->value_st = API_DONE; /* the reader counted it */
		return;
	}
	st->value_st = API_BUSY;
	before = s->value;
	if (s->has_value && plain_number(s->text)) {
		/* the reader's value stands; only its type is the evaluator's */
		struct ev e;
		struct api_tok t;

		memset(&e, 0, sizeof(e));
		memset(&t, 0, sizeof(t));
		e.c = c;
		t.p = s->text;
		t.n = strlen(s->text);
		v = number(&e, &t);
	} else if (s->kind == UD_API_ENUM_CONST) {
		/* C evaluates an enumerator where it stands: with the macros defined before it */
		unsigned cur_h = c->cur_h, cur_line = c->cur_line;
		const char *cur_cond = c->cur_cond;

		c->cur_h = r.h;
		c->cur_line = s->line;
		c->cur_cond = NULL;
		v = evaluate(c, r.h, s->text, false);
		c->cur_h = cur_h;
		c->cur_line = cur_line;
		c->cur_cond = cur_cond;
	} else {
		unsigned long words = c->view_words;

		v = evaluate_macro(c, r);
		st->view_dependent = c->view_words != words;
	}
	if (v.known) {
		if (!s->has_value)
			c->hd[r.h].dirty = st->changed = true;
		st->rank = v.rank;
		st->rank_known = true;
		s->has_value = true;
		s->value_unsigned = api_rank_unsigned(v.rank);
		s->value = s->value_unsigned ? (long long)v.u : api_val_signed(&v, c->abi);
		/* an enum constant that fits in an int is an int */
		if (s->kind == UD_API_ENUM_CONST && s->value_unsigned && v.u <= 0x7fffffffull)
			s->value_unsigned = false;
		if (s->value != before)
			c->hd[r.h].dirty = st->changed = true;
	}
	st->value_st = API_DONE;
}
