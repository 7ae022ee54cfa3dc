/*
 * Three-valued evaluation of preprocessor conditions (see expr.h).
 *
 * A precedence-climbing parser over a tiny tokenizer.  Nesting is capped
 * (MAX_NESTING) so hostile input cannot exhaust the stack; past the cap
 * the whole expression is unknown.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/chars.h"
#include "uapid/expr.h"

#define MAX_NESTING 128

enum tok {
	T_END,
	T_IDENT,
	T_NUMBER,
	T_DEFINED,
	T_LPAREN,
	T_RPAREN,
	T_NOT,
	T_AND,
	T_OR,
	T_BINOP, /* any other binary operator: result unknown */
	T_UNARY, /* - + ~ (also binary - and +): result unknown */
	T_QUESTION,
	T_COLON,
	T_OTHER, /* a character literal or anything unexpected as a value */
	T_BAD,
};

struct parser {
	const char *p;
	enum tok tok;
	const char *tstart;
	size_t tlen;
	int prec; /* for T_BINOP and T_UNARY used as binary */
	enum ud_kstate kernel;
	unsigned nesting;
	bool error;
};

static const char *const kclass_names[] = {
	[UD_KC_NONE] = "none",	 [UD_KC_KERNEL] = "kernel-only", [UD_KC_USER] = "user-only",
	[UD_KC_ALWAYS] = "both", [UD_KC_NEVER] = "never",	 [UD_KC_COMPOUND] = "compound",
};
static_assert(sizeof(kclass_names) / sizeof(kclass_names[0]) == UD_KC__COUNT,
	      "kclass_names must name every enum ud_kclass member");

/* Reads the next token into ps->tok. */
static void
next(struct parser *ps)
{
	const char *p = ps->p;

	while (*p == ' ' || *p == '\t')
		p++;
	ps->tstart = p;
	ps->prec = 0;
	if (*p == '\0') {
		ps->tok = T_END;
	} else if (ud_is_ident_start((unsigned char)*p)) {
		while (ud_is_ident((unsigned char)*p))
			p++;
		ps->tok = (p - ps->tstart == 7 && memcmp(ps->tstart, "defined", 7) == 0) ? T_DEFINED
											 : T_IDENT;
	} else if (*p >= '0' && *p <= '9') {
		while (ud_is_ident((unsigned char)*p) || *p == '.')
			p++;
		ps->tok = T_NUMBER;
	} else if (*p == '\'') {
		p++;
		while (*p != '\0' && *p != '\'')
			p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
		if (*p == '\'')
			p++;
		ps->tok = T_OTHER;
	} else {
		static const struct {
			const char *op;
			enum tok tok;
			int prec;
		} ops[] = {
			{"&&", T_AND, 3},   {"||", T_OR, 2},	{"==", T_BINOP, 7},
			{"!=", T_BINOP, 7}, {"<=", T_BINOP, 8}, {">=", T_BINOP, 8},
			{"<<", T_BINOP, 9}, {">>", T_BINOP, 9}, {"(", T_LPAREN, 0},
			{")", T_RPAREN, 0}, {"!", T_NOT, 0},	{"?", T_QUESTION, 1},
			{":", T_COLON, 0},  {"<", T_BINOP, 8},	{">", T_BINOP, 8},
			{"|", T_BINOP, 4},  {"^", T_BINOP, 5},	{"&", T_BINOP, 6},
			{"*", T_BINOP, 11}, {"/", T_BINOP, 11}, {"%", T_BINOP, 11},
			{"+", T_UNARY, 10}, {"-", T_UNARY, 10}, {"~", T_UNARY, 0},
			{",", T_BINOP, 1},
		};
		size_t i;

		ps->tok = T_BAD;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			size_t n = strlen(ops[i].op);

			if (strncmp(p, ops[i].op, n) == 0) {
				ps->tok = ops[i].tok;
				ps->prec = ops[i].prec;
				p += n;
				break;
			}
		}
		if (ps->tok == T_BAD)
			p++;
	}
	ps->tlen = (size_t)(p - ps->tstart);
	ps->p = p;
}

static bool
is_kernel_ident(const struct parser *ps)
{
	return ps->tok == T_IDENT && ps->tlen == 10 && memcmp(ps->tstart, "__KERNEL__", 10) == 0;
}

static enum ud_tri
kernel_defined(const struct parser *ps)
{
	switch (ps->kernel) {
	case UD_KERNEL_DEFINED:
		return UD_TRUE;
	case UD_KERNEL_UNDEFINED:
		return UD_FALSE;
	default:
		return UD_UNKNOWN;
	}
}

enum ud_tri
ud_tri_and(enum ud_tri a, enum ud_tri b)
{
	if (a == UD_FALSE || b == UD_FALSE)
		return UD_FALSE;
	if (a == UD_TRUE && b == UD_TRUE)
		return UD_TRUE;
	return UD_UNKNOWN;
}

enum ud_tri
ud_tri_or(enum ud_tri a, enum ud_tri b)
{
	if (a == UD_TRUE || b == UD_TRUE)
		return UD_TRUE;
	if (a == UD_FALSE && b == UD_FALSE)
		return UD_FALSE;
	return UD_UNKNOWN;
}

enum ud_tri
ud_tri_not(enum ud_tri a)
{
	return a == UD_UNKNOWN ? UD_UNKNOWN : (a == UD_TRUE ? UD_FALSE : UD_TRUE);
}

static enum ud_tri parse_binary(struct parser *ps, int min_prec);

static enum ud_tri
parse_unary(struct parser *ps)
{
	enum ud_tri v = UD_UNKNOWN;

	if (++ps->nesting > MAX_NESTING) {
		ps->error = true;
		return UD_UNKNOWN;
	}
	switch (ps->tok) {
	case T_NOT:
		next(ps);
		v = ud_tri_not(parse_unary(ps));
		break;
	case T_UNARY:
		next(ps);
		(void)parse_unary(ps);
		v = UD_UNKNOWN;
		break;
	case T_LPAREN:
		next(ps);
		v = parse_binary(ps, 1);
		if (ps->tok != T_RPAREN)
			ps->error = true;
		else
			next(ps);
		break;
	case T_DEFINED: {
		bool paren;

		next(ps);
		paren = ps->tok == T_LPAREN;
		if (paren)
			next(ps);
		if (ps->tok != T_IDENT) {
			ps->error = true;
			break;
		}
		v = is_kernel_ident(ps) ? kernel_defined(ps) : UD_UNKNOWN;
		next(ps);
		if (paren) {
			if (ps->tok != T_RPAREN)
				ps->error = true;
			else
				next(ps);
		}
		break;
	}
	case T_NUMBER: {
		char *end;
		unsigned long long n = strtoull(ps->tstart, &end, 0);

		/* suffixes (u, l) are fine; anything else is not a plain integer */
		v = (end == ps->tstart) ? UD_UNKNOWN : (n != 0 ? UD_TRUE : UD_FALSE);
		next(ps);
		break;
	}
	case T_IDENT:
		/* -D__KERNEL__ defines it as 1; any other name's value is unknown */
		v = is_kernel_ident(ps) ? kernel_defined(ps) : UD_UNKNOWN;
		next(ps);
		if (ps->tok == T_LPAREN) { /* function-like macro: skip its arguments */
			unsigned level = 0;

			do {
				if (ps->tok == T_LPAREN)
					level++;
				else if (ps->tok == T_RPAREN)
					level--;
				next(ps);
			} while (level > 0 && ps->tok != T_END);
			if (level > 0)
				ps->error = true;
			v = UD_UNKNOWN;
		}
		break;
	case T_OTHER:
		next(ps);
		v = UD_UNKNOWN;
		break;
	default:
		ps->error = true;
		break;
	}
	ps->nesting--;
	return v;
}

static enum ud_tri
parse_binary(struct parser *ps, int min_prec)
{
	enum ud_tri lhs;

	if (++ps->nesting > MAX_NESTING) {
		ps->error = true;
		return UD_UNKNOWN;
	}
	lhs = parse_unary(ps);
	while (!ps->error) {
		enum tok op = ps->tok;
		int prec = ps->prec;
		enum ud_tri rhs;

		if (op == T_QUESTION && min_prec <= 1) {
			enum ud_tri a, b;

			next(ps);
			a = parse_binary(ps, 1);
			if (ps->tok != T_COLON) {
				ps->error = true;
				break;
			}
			next(ps);
			b = parse_binary(ps, 1);
			lhs = lhs == UD_TRUE ? a : lhs == UD_FALSE ? b : (a == b ? a : UD_UNKNOWN);
			continue;
		}
		if ((op != T_AND && op != T_OR && op != T_BINOP && op != T_UNARY) ||
		    prec < min_prec || prec == 0)
			break;
		next(ps);
		rhs = parse_binary(ps, prec + 1);
		if (op == T_AND)
			lhs = ud_tri_and(lhs, rhs);
		else if (op == T_OR)
			lhs = ud_tri_or(lhs, rhs);
		else
			lhs = UD_UNKNOWN;
	}
	ps->nesting--;
	return lhs;
}

enum ud_tri
ud_expr_eval(const char *expr, enum ud_kstate kernel)
{
	struct parser ps;
	enum ud_tri v;

	memset(&ps, 0, sizeof(ps));
	ps.p = expr;
	ps.kernel = kernel;
	next(&ps);
	v = parse_binary(&ps, 1);
	if (ps.error || ps.tok != T_END)
		return UD_UNKNOWN;
	return v;
}

bool
ud_expr_mentions_kernel(const char *expr)
{
	const char *p = expr;

	while ((p = strstr(p, "__KERNEL__")) != NULL) {
		bool before = p > expr && ud_is_ident((unsigned char)p[-1]);
		bool after = ud_is_ident((unsigned char)p[10]);

		if (!before && !after)
			return true;
		p += 10;
	}
	return false;
}

bool
ud_expr_has_logic(const char *expr)
{
	return strstr(expr, "&&") != NULL || strstr(expr, "||") != NULL;
}

enum ud_kclass
ud_kclass_of(bool mentions, enum ud_tri when_kernel, enum ud_tri when_user)
{
	if (!mentions)
		return UD_KC_NONE;
	if (when_kernel == UD_TRUE && when_user == UD_FALSE)
		return UD_KC_KERNEL;
	if (when_kernel == UD_FALSE && when_user == UD_TRUE)
		return UD_KC_USER;
	if (when_kernel == UD_TRUE && when_user == UD_TRUE)
		return UD_KC_ALWAYS;
	if (when_kernel == UD_FALSE && when_user == UD_FALSE)
		return UD_KC_NEVER;
	return UD_KC_COMPOUND;
}

const char *
ud_kclass_name(enum ud_kclass kc)
{
	assert(kc < UD_KC__COUNT);
	return kclass_names[kc];
}
