/*
 * Preprocessor condition evaluation, three-valued.
 *
 * Only one macro is known: __KERNEL__, whose state the caller chooses
 * (defined, undefined, or unknown).  Everything else is unknown, so
 * "defined(CONFIG_X)" is unknown while "defined(__KERNEL__) && 0" is false.
 * Supports defined X, defined(X), !, &&, ||, parentheses and integer
 * literals; any other operator makes its sub-expression unknown without
 * hiding what the rest of the expression says.
 */
#ifndef UAPID_EXPR_H
#define UAPID_EXPR_H

#include <stdbool.h>

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

/*
 * Evaluates a controlling expression (the text after #if/#elif).
 * Malformed input yields UD_UNKNOWN, never an error.
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
