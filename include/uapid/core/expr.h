/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Preprocessor condition evaluation, three-valued: the one evaluator of
 * uapid, shared by the classifier and the installer's conditional
 * selection.
 *
 * A caller names the symbols it knows (defined with a value, or
 * undefined); every other name is unknown, so "defined(CONFIG_X)" is
 * unknown while "defined(__KERNEL__) && 0" is false.  Two grammars:
 *
 *  - UD_EXPR_C, the C preprocessor's: every operator, ?:, character
 *    constants; an operator uapid cannot evaluate on unknown operands
 *    makes its sub-expression unknown without hiding what the rest says.
 *  - UD_EXPR_UNIFDEF, unifdef 2.5's, so installed headers come out as the
 *    kernel's headers_install made them: only || && == != < <= > >= ! ()
 *    defined, numbers and names; any other operator ends the expression,
 *    and an error anywhere makes the whole expression an error.
 *  - UD_EXPR_UNIFDEF1, unifdef 1.171's as Linux 2.6.27 to 2.6.32 carried
 *    it (expr-unifdef1.c): a name it does not know stops the reading.
 *
 * Pure: no allocation, bounded nesting (deeper input is an error).
 */
#ifndef UAPID_EXPR_H
#define UAPID_EXPR_H

#include <stdbool.h>
#include <stddef.h>

enum ud_tri {
	UD_FALSE,
	UD_TRUE,
	UD_UNKNOWN,
};

enum ud_kstate {
	UD_KERNEL_UNDEFINED,
	UD_KERNEL_DEFINED,
	UD_KERNEL_UNKNOWN,
};

/* How a condition relates to __KERNEL__. */
enum ud_kclass {
	UD_KC_NONE,	/* does not mention __KERNEL__ */
	UD_KC_KERNEL,	/* true exactly when __KERNEL__ is defined */
	UD_KC_USER,	/* true exactly when __KERNEL__ is not defined */
	UD_KC_ALWAYS,	/* mentions __KERNEL__ but is always true */
	UD_KC_NEVER,	/* mentions __KERNEL__ but is always false */
	UD_KC_COMPOUND, /* depends on __KERNEL__ together with other symbols */
	UD_KC__COUNT
};

enum ud_expr_dialect {
	UD_EXPR_C,	  /* the C preprocessor's grammar */
	UD_EXPR_UNIFDEF,  /* unifdef 2.5's grammar and quirks (and 1.190's: the same) */
	UD_EXPR_UNIFDEF1, /* unifdef 1.171's, with the kernel's boolean patch */
};

/* A symbol whose state is known. */
struct ud_expr_sym {
	const char *name;
	const char *value; /* NULL: undefined (-U); "1" for a plain -D */
};

struct ud_expr_env {
	enum ud_expr_dialect dialect;
	const struct ud_expr_sym *syms; /* borrowed; may be NULL when nsyms is 0 */
	size_t nsyms;
	/*
	 * Skips what may stand between tokens and returns the next token's
	 * start; NULL skips blanks and tabs.  unifdef's comment tracking plugs
	 * in here.
	 */
	const char *(*skip)(const char *p, void *ctx);
	void *ctx;
};

struct ud_expr_value {
	enum ud_tri truth; /* UD_UNKNOWN also when error is set */
	long long num;	   /* the value, when truth is known */
	bool error;	   /* malformed: nothing is known */
	bool symbolic;	   /* a name or defined() was used: not a constant expression */
	const char *end;   /* where evaluation stopped (trailing text is the caller's business) */
};

/* The symbol of env named by p[0..n), or NULL when its state is unknown. */
const struct ud_expr_sym *ud_expr_find_sym(const struct ud_expr_env *env, const char *p, size_t n);
/* Evaluates the expression at expr (a NUL-terminated controlling expression). */
void ud_expr_evaluate(const char *expr, const struct ud_expr_env *env, struct ud_expr_value *out);
/*
 * The classifier's question: the value of an #if/#elif expression in C
 * grammar with only __KERNEL__ known (in the given state).  Malformed input
 * and trailing text give UD_UNKNOWN, never an error.
 */
enum ud_tri ud_expr_eval(const char *expr, enum ud_kstate kernel);
/* True if the text names the identifier __KERNEL__ (as a whole word). */
bool ud_expr_mentions_kernel(const char *expr);
/* True if the expression uses && or ||. */
bool ud_expr_has_logic(const char *expr);
enum ud_tri ud_tri_and(enum ud_tri a, enum ud_tri b);
enum ud_tri ud_tri_or(enum ud_tri a, enum ud_tri b);
enum ud_tri ud_tri_not(enum ud_tri a);
/* Classifies a condition from its values with __KERNEL__ defined and not. */
enum ud_kclass ud_kclass_of(bool mentions, enum ud_tri when_kernel, enum ud_tri when_user);
const char *ud_kclass_name(enum ud_kclass kc);

#endif /* UAPID_EXPR_H */
