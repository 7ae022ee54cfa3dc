/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The expression evaluator of unifdef 1.171 as Linux carried it from
 * 2.6.2x to 2.6.32 (Tony Finch's 2005 version with Russell King's patch
 * that decides "defined(__KERNEL__) && X"), for the installs of those
 * trees.  Internal to expr.c, which calls it for UD_EXPR_UNIFDEF1.
 */
#ifndef UAPID_CORE_EXPR_UNIFDEF1_H
#define UAPID_CORE_EXPR_UNIFDEF1_H

#include "uapid/core/expr.h"

/*
 * Evaluates expr as that unifdef does: out->truth is its value (unknown
 * when it could not decide), out->symbolic whether a known symbol took
 * part (otherwise unifdef keeps the line as a constant #if), and out->end
 * where it stopped reading, which is expr itself when the value is
 * unknown: the caller treats text left after end as making the line
 * unknown, as unifdef does.
 */
void ud_expr_unifdef1(const char *expr, const struct ud_expr_env *env, struct ud_expr_value *out);

#endif /* UAPID_CORE_EXPR_UNIFDEF1_H */
