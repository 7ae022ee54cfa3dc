// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unifdef 1.171's expression evaluator, with the kernel's boolean patch
 * (see expr-unifdef1.h).  The trees of 2.6.27 to 2.6.32 installed their
 * headers through it, and its quirks decide their installed bytes, so
 * this follows its shape rather than expr.c's:
 *
 *  - four precedence levels (||, &&, == !=, < <= > >=) over a unary
 *    level (! ( number defined(NAME) NAME), values are C ints;
 *  - a name it does not know, "defined" without parentheses, and a
 *    parenthesised part whose value is unknown stop the reading where
 *    they stand: the text after them is left unread, and unifdef keeps
 *    a line whose expression it did not read to the end;
 *  - && and || are decided by one known side ("and always false"), but
 *    the number carried is not updated when the left side was known, so
 *    "1 && 0" reads as true and "0 || 1" as false, as there;
 *  - an expression with no known symbol is constant and kept.
 */
#include <stdlib.h>
#include <string.h>

#include "expr-unifdef1.h"
#include "uapid/util/chars.h"

#define MAX_NESTING 256 /* unifdef has none; hostile input must not exhaust our stack */

enum lt {
	L_TRUE,
	L_FALSE,
	L_IF, /* unknown */
};

enum op {
	OP_OR,
	OP_AND,
	OP_EQ,
	OP_NE,
	OP_LE,
	OP_GE,
	OP_LT,
	OP_GT,
};

/* The operators of each level, in the order unifdef tries them. */
static const struct {
	const char *text;
	enum op op;
} levels[4][4] = {
	{{"||", OP_OR}},
	{{"&&", OP_AND}},
	{{"==", OP_EQ}, {"!=", OP_NE}},
	{{"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}},
};

struct ev {
	const struct ud_expr_env *env;
	bool constant; /* no known symbol read yet (unifdef's keepthis) */
	unsigned nesting;
	bool too_deep;
};

static const char *
skip(const struct ev *e, const char *p)
{
	if (e->env->skip != NULL)
		return e->env->skip(p, e->env->ctx);
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *
skipsym(const char *p)
{
	while (ud_is_ident(*p))
		p++;
	return p;
}

static int
apply(enum op op, int a, int b)
{
	switch (op) {
	case OP_OR:
		return a || b;
	case OP_AND:
		return a && b;
	case OP_EQ:
		return a == b;
	case OP_NE:
		return a != b;
	case OP_LE:
		return a <= b;
	case OP_GE:
		return a >= b;
	case OP_LT:
		return a < b;
	case OP_GT:
		return a > b;
	}
	return 0;
}

static enum lt table(struct ev *e, int level, int *valp, const char **cpp);

/* ! ( number defined(NAME) NAME; *cpp moves only where unifdef moves it. */
static enum lt
unary(struct ev *e, int *valp, const char **cpp)
{
	const char *cp = skip(e, *cpp);

	if (++e->nesting > MAX_NESTING) {
		e->too_deep = true;
		e->nesting--;
		return L_IF;
	}
	if (*cp == '!') {
		cp++;
		if (unary(e, valp, &cp) == L_IF) {
			*cpp = cp;
			e->nesting--;
			return L_IF;
		}
		*valp = !*valp;
	} else if (*cp == '(') {
		cp++;
		if (table(e, 0, valp, &cp) == L_IF) {
			e->nesting--;
			return L_IF;
		}
		cp = skip(e, cp);
		if (*cp++ != ')') {
			e->nesting--;
			return L_IF;
		}
	} else if (ud_is_digit(*cp)) {
		*valp = (int)strtol(cp, NULL, 0);
		cp = skipsym(cp);
	} else if (strncmp(cp, "defined", 7) == 0 && !ud_is_ident(cp[7])) {
		const struct ud_expr_sym *sym;
		const char *name;

		cp = skip(e, cp + 7);
		if (*cp++ != '(') {
			e->nesting--;
			return L_IF;
		}
		name = cp = skip(e, cp);
		cp = skipsym(cp);
		sym = ud_expr_find_sym(e->env, name, (size_t)(cp - name));
		cp = skip(e, cp);
		if (*cp++ != ')') {
			e->nesting--;
			return L_IF;
		}
		if (sym == NULL) {
			*cpp = cp;
			e->nesting--;
			return L_IF;
		}
		*valp = sym->value != NULL;
		e->constant = false;
	} else if (ud_is_ident(*cp)) {
		const char *end = skipsym(cp);
		const struct ud_expr_sym *sym = ud_expr_find_sym(e->env, cp, (size_t)(end - cp));

		if (sym == NULL) {
			e->nesting--;
			return L_IF;
		}
		if (sym->value == NULL) {
			*valp = 0;
		} else {
			char *ep;

			*valp = (int)strtol(sym->value, &ep, 0);
			if (*ep != '\0' || ep == sym->value) {
				e->nesting--;
				return L_IF;
			}
		}
		cp = end;
		e->constant = false;
	} else {
		e->nesting--;
		return L_IF;
	}
	*cpp = cp;
	e->nesting--;
	return *valp ? L_TRUE : L_FALSE;
}

/* One precedence level: its operands from the next level, left to right. */
static enum lt
table(struct ev *e, int level, int *valp, const char **cpp)
{
	const char *cp = *cpp;
	enum lt lhs, rhs;
	int val = 0;

	lhs = level == 3 ? unary(e, valp, &cp) : table(e, level + 1, valp, &cp);
	for (;;) {
		size_t i, n = 0;
		enum op op = OP_OR;

		cp = skip(e, cp);
		for (i = 0; i < 4 && levels[level][i].text != NULL; i++) {
			n = strlen(levels[level][i].text);
			if (strncmp(cp, levels[level][i].text, n) == 0)
				break;
		}
		if (i == 4 || levels[level][i].text == NULL)
			break;
		op = levels[level][i].op;
		cp += n;
		rhs = level == 3 ? unary(e, &val, &cp) : table(e, level + 1, &val, &cp);
		if (op == OP_AND && (lhs == L_FALSE || rhs == L_FALSE)) {
			if (lhs == L_IF)
				*valp = val;
			lhs = L_FALSE;
			continue;
		}
		if (op == OP_OR && (lhs == L_TRUE || rhs == L_TRUE)) {
			if (lhs == L_IF)
				*valp = val;
			lhs = L_TRUE;
			continue;
		}
		if (rhs == L_IF)
			lhs = L_IF;
		if (lhs != L_IF)
			*valp = apply(op, *valp, val);
	}
	*cpp = cp;
	if (lhs != L_IF)
		lhs = *valp ? L_TRUE : L_FALSE;
	return lhs;
}

void
ud_expr_unifdef1(const char *expr, const struct ud_expr_env *env, struct ud_expr_value *out)
{
	struct ev e = {env, true, 0, false};
	const char *cp = expr;
	int val = 0;
	enum lt r = table(&e, 0, &val, &cp);

	memset(out, 0, sizeof(*out));
	out->error = e.too_deep;
	out->symbolic = !e.constant;
	out->truth = r == L_IF || e.too_deep ? UD_UNKNOWN : r == L_TRUE ? UD_TRUE : UD_FALSE;
	out->num = val;
	/* unifdef takes the position only from an expression it could decide */
	out->end = out->truth == UD_UNKNOWN ? expr : cp;
}
