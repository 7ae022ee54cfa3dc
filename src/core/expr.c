// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Three-valued evaluation of preprocessor conditions (see expr.h).
 *
 * Precedence climbing over the text, one operator table whose rows say
 * which grammar has them.  Values carry their number when known, so
 * "1 == 1" is true; an unknown operand makes only its own operation
 * unknown, except where && and || are decided by one side alone.
 * Nesting is capped (MAX_NESTING) so hostile input cannot exhaust the
 * stack; past the cap the expression is an error.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr-unifdef1.h"
#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/core/expr.h"

#define MAX_NESTING 256

/* Binary operators, in the order they are matched (longer spellings first). */
enum binop {
	OP_COMMA,
	OP_COND, /* ?: */
	OP_OR,
	OP_AND,
	OP_BITOR,
	OP_BITXOR,
	OP_BITAND,
	OP_EQ,
	OP_NE,
	OP_LE,
	OP_GE,
	OP_LT,
	OP_GT,
	OP_SHL,
	OP_SHR,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
};

static const struct {
	const char *text;
	enum binop op;
	int prec;     /* higher binds tighter */
	bool unifdef; /* unifdef 2.5 knows it */
} binops[] = {
	{"||", OP_OR, 3, true},	   {"&&", OP_AND, 4, true},    {"==", OP_EQ, 8, true},
	{"!=", OP_NE, 8, true},	   {"<<", OP_SHL, 10, false},  {">>", OP_SHR, 10, false},
	{"<=", OP_LE, 9, true},	   {">=", OP_GE, 9, true},     {"<", OP_LT, 9, true},
	{">", OP_GT, 9, true},	   {",", OP_COMMA, 1, false},  {"?", OP_COND, 2, false},
	{"|", OP_BITOR, 5, false}, {"^", OP_BITXOR, 6, false}, {"&", OP_BITAND, 7, false},
	{"+", OP_ADD, 11, false},  {"-", OP_SUB, 11, false},   {"*", OP_MUL, 12, false},
	{"/", OP_DIV, 12, false},  {"%", OP_MOD, 12, false},
};

struct val {
	enum ud_tri t;
	long long n; /* meaningful when t is known */
};

struct eval {
	const struct ud_expr_env *env;
	const char *p; /* the next unread byte */
	unsigned nesting;
	bool error, symbolic;
};

static const char *const kclass_names[] = {
	[UD_KC_NONE] = "none",	 [UD_KC_KERNEL] = "kernel-only", [UD_KC_USER] = "user-only",
	[UD_KC_ALWAYS] = "both", [UD_KC_NEVER] = "never",	 [UD_KC_COMPOUND] = "compound",
};
static_assert(ARRAY_SIZE(kclass_names) == UD_KC__COUNT,
	      "kclass_names must name every enum ud_kclass member");

static const struct val UNKNOWN = {UD_UNKNOWN, 0};

static struct val
known(long long n)
{
	struct val v = {n != 0 ? UD_TRUE : UD_FALSE, n};

	return v;
}

static const char *
skip_blanks(const char *p, void *ctx)
{
	(void)ctx;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Moves the cursor past what stands between tokens; returns it. */
static const char *
ws(struct eval *e)
{
	e->p = e->env->skip != NULL ? e->env->skip(e->p, e->env->ctx) : skip_blanks(e->p, NULL);
	return e->p;
}

static bool
c_grammar(const struct eval *e)
{
	return e->env->dialect == UD_EXPR_C;
}

static const char *
skip_ident(const char *p)
{
	while (ud_is_ident(*p))
		p++;
	return p;
}

const struct ud_expr_sym *
ud_expr_find_sym(const struct ud_expr_env *env, const char *p, size_t n)
{
	size_t i;

	for (i = 0; n > 0 && i < env->nsyms; i++)
		if (strlen(env->syms[i].name) == n && memcmp(env->syms[i].name, p, n) == 0)
			return &env->syms[i];
	return NULL;
}

/* The value of a known symbol used as a number. */
static struct val
sym_value(struct eval *e, const struct ud_expr_sym *sym)
{
	char *end;
	long long n;

	if (sym->value == NULL)
		return known(0);
	errno = 0;
	n = strtoll(sym->value, &end, 0);
	if (end == sym->value || *end != '\0' || errno != 0) {
		if (!c_grammar(e))
			e->error = true;
		return UNKNOWN;
	}
	return known(n);
}

/*
 * Skips a macro's argument list at the cursor, if there is one.  An
 * unbalanced list is an error in C grammar; unifdef leaves the cursor
 * where it was.
 */
static void
skip_args(struct eval *e)
{
	const char *start = ws(e);
	int level = 0;

	if (*e->p != '(')
		return;
	do {
		if (*e->p == '(')
			level++;
		else if (*e->p == ')')
			level--;
		e->p++;
		ws(e);
	} while (level != 0 && *e->p != '\0');
	if (level != 0) {
		if (c_grammar(e))
			e->error = true;
		else
			e->p = start;
	}
}

/* A number: C integer constants with suffixes; unifdef reads it with strtol. */
static struct val
number(struct eval *e)
{
	const char *start = e->p;
	char *end;
	unsigned long long n;

	errno = 0;
	if (c_grammar(e)) {
		n = strtoull(start, &end, 0);
		e->p = start;
		while (ud_is_ident(*e->p) || *e->p == '.')
			e->p++;
		if (end == start || memchr(start, '.', (size_t)(e->p - start)) != NULL)
			return UNKNOWN; /* not an integer constant */
		return known(errno != 0 ? -1 : (long long)n);
	}
	n = (unsigned long long)strtol(start, &end, 0);
	if (end == start) {
		e->error = true;
		return UNKNOWN;
	}
	e->p = skip_ident(start);
	return known((long long)(long)n);
}

/* defined NAME or defined(NAME), the cursor just after "defined". */
static struct val
defined(struct eval *e)
{
	const struct ud_expr_sym *sym;
	const char *name;
	bool paren;
	struct val v;

	e->symbolic = true;
	ws(e);
	paren = *e->p == '(';
	if (paren) {
		e->p++;
		ws(e);
	}
	name = e->p;
	e->p = skip_ident(name);
	if (e->p == name && c_grammar(e)) {
		e->error = true;
		return UNKNOWN;
	}
	sym = ud_expr_find_sym(e->env, name, (size_t)(e->p - name));
	v = sym == NULL ? UNKNOWN : known(sym->value != NULL);
	if (paren) {
		if (*ws(e) != ')') {
			e->error = true;
			return UNKNOWN;
		}
		e->p++;
	}
	return v;
}

static struct val binary(struct eval *e, int min_prec);

static struct val
unary(struct eval *e)
{
	struct val v = UNKNOWN;
	char c;

	if (++e->nesting > MAX_NESTING) {
		e->error = true;
		return UNKNOWN;
	}
	c = *ws(e);
	if (c == '!') {
		e->p++;
		v = unary(e);
		if (v.t != UD_UNKNOWN)
			v = known(!v.n);
	} else if (c_grammar(e) && (c == '-' || c == '+' || c == '~')) {
		e->p++;
		v = unary(e);
		if (v.t != UD_UNKNOWN)
			v = known(c == '-'   ? (long long)(0ull - (unsigned long long)v.n)
				  : c == '~' ? ~v.n
					     : v.n);
	} else if (c == '(') {
		e->p++;
		v = binary(e, 1);
		if (*ws(e) != ')')
			e->error = true;
		else
			e->p++;
	} else if (ud_is_digit(c)) {
		v = number(e);
	} else if (c == '\'' && c_grammar(e)) {
		/* a character constant: its value depends on the compiler */
		e->p++;
		while (*e->p != '\0' && *e->p != '\'')
			e->p += (*e->p == '\\' && e->p[1] != '\0') ? 2 : 1;
		if (*e->p == '\'')
			e->p++;
		else
			e->error = true;
	} else if (ud_is_ident_start(c)) {
		const char *name = e->p;
		const struct ud_expr_sym *sym;

		e->p = skip_ident(name);
		if (e->p - name == 7 && memcmp(name, "defined", 7) == 0) {
			v = defined(e);
		} else {
			e->symbolic = true;
			sym = ud_expr_find_sym(e->env, name, (size_t)(e->p - name));
			v = sym != NULL ? sym_value(e, sym) : UNKNOWN;
			if (sym == NULL || sym->value != NULL)
				skip_args(e);
		}
	} else {
		e->error = true;
	}
	e->nesting--;
	return v;
}

/* The binary operator at the cursor that this grammar knows, or -1. */
static int
peek_binop(struct eval *e)
{
	const char *p = ws(e);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(binops); i++) {
		size_t n = strlen(binops[i].text);

		if ((binops[i].unifdef || c_grammar(e)) && strncmp(p, binops[i].text, n) == 0)
			return (int)i;
	}
	return -1;
}

static struct val
apply(enum binop op, struct val a, struct val b)
{
	unsigned long long ua = (unsigned long long)a.n, ub = (unsigned long long)b.n;

	switch (op) {
	case OP_OR:
		if (a.t == UD_TRUE || b.t == UD_TRUE)
			return known(1);
		return a.t == UD_FALSE && b.t == UD_FALSE ? known(0) : UNKNOWN;
	case OP_AND:
		if (a.t == UD_FALSE || b.t == UD_FALSE)
			return known(0);
		return a.t == UD_TRUE && b.t == UD_TRUE ? known(1) : UNKNOWN;
	case OP_COMMA:
		return b;
	default:
		break;
	}
	if (a.t == UD_UNKNOWN || b.t == UD_UNKNOWN)
		return UNKNOWN;
	switch (op) {
	case OP_BITOR:
		return known(a.n | b.n);
	case OP_BITXOR:
		return known(a.n ^ b.n);
	case OP_BITAND:
		return known(a.n & b.n);
	case OP_EQ:
		return known(a.n == b.n);
	case OP_NE:
		return known(a.n != b.n);
	case OP_LE:
		return known(a.n <= b.n);
	case OP_GE:
		return known(a.n >= b.n);
	case OP_LT:
		return known(a.n < b.n);
	case OP_GT:
		return known(a.n > b.n);
	case OP_SHL:
		return b.n < 0 || b.n > 63 ? UNKNOWN : known((long long)(ua << b.n));
	case OP_SHR:
		return b.n < 0 || b.n > 63 ? UNKNOWN : known(a.n >> b.n);
	case OP_ADD:
		return known((long long)(ua + ub));
	case OP_SUB:
		return known((long long)(ua - ub));
	case OP_MUL:
		return known((long long)(ua * ub));
	case OP_DIV:
	case OP_MOD:
		if (b.n == 0 || (a.n == LLONG_MIN && b.n == -1))
			return UNKNOWN;
		return known(op == OP_DIV ? a.n / b.n : a.n % b.n);
	default:
		return UNKNOWN;
	}
}

static struct val
binary(struct eval *e, int min_prec)
{
	struct val lhs;
	int i;

	if (++e->nesting > MAX_NESTING) {
		e->error = true;
		return UNKNOWN;
	}
	lhs = unary(e);
	while (!e->error && (i = peek_binop(e)) >= 0 && binops[i].prec >= min_prec) {
		e->p += strlen(binops[i].text);
		if (binops[i].op == OP_COND) {
			struct val a = binary(e, 1), b;

			if (*ws(e) != ':') {
				e->error = true;
				break;
			}
			e->p++;
			b = binary(e, binops[i].prec); /* right-associative */
			lhs = lhs.t == UD_TRUE					       ? a
			      : lhs.t == UD_FALSE				       ? b
			      : (a.t != UD_UNKNOWN && b.t != UD_UNKNOWN && a.n == b.n) ? a
										       : UNKNOWN;
			continue;
		}
		lhs = apply(binops[i].op, lhs, binary(e, binops[i].prec + 1));
	}
	e->nesting--;
	return lhs;
}

void
ud_expr_evaluate(const char *expr, const struct ud_expr_env *env, struct ud_expr_value *out)
{
	struct eval e;
	struct val v;

	if (env->dialect == UD_EXPR_UNIFDEF1) {
		ud_expr_unifdef1(expr, env, out);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.env = env;
	e.p = expr;
	v = binary(&e, 1);
	out->error = e.error;
	out->truth = e.error ? UD_UNKNOWN : v.t;
	out->num = e.error ? 0 : v.n;
	out->symbolic = e.symbolic;
	out->end = e.p;
}

enum ud_tri
ud_expr_eval(const char *expr, enum ud_kstate kernel)
{
	static const struct ud_expr_sym defined_sym = {"__KERNEL__", "1"};
	static const struct ud_expr_sym undefined_sym = {"__KERNEL__", NULL};
	struct ud_expr_env env = {UD_EXPR_C, NULL, 0, NULL, NULL};
	struct ud_expr_value v;

	if (kernel != UD_KERNEL_UNKNOWN) {
		env.syms = kernel == UD_KERNEL_DEFINED ? &defined_sym : &undefined_sym;
		env.nsyms = 1;
	}
	ud_expr_evaluate(expr, &env, &v);
	if (v.error || *skip_blanks(v.end, NULL) != '\0')
		return UD_UNKNOWN;
	return v.truth;
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
