/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The frame of a header: its banner, include guard and include-order
 * check, found as the 2012 scripts found them.  Internal to the
 * classifier (classify.c), which calls these while it decides what each
 * conditional group is.
 */
#ifndef UAPID_CORE_FRAME_H
#define UAPID_CORE_FRAME_H

#include <stdbool.h>

#include "uapid/core/classify.h"

/* The comments that open the file: their lines get UD_ROLE_BANNER. */
void ud_frame_banner(struct ud_classified *c);
/* Licence comments just inside the guard, when the file has no leading banner. */
void ud_frame_late_banner(struct ud_classified *c);
/* Is group gi the include guard?  Sets guard_name and guard_define if so. */
bool ud_frame_is_guard(struct ud_classified *c, long gi);
/* Is group gi a top-level include-order check (#ifndef X / #error / #endif)? */
bool ud_frame_is_order_check(const struct ud_classified *c, long gi);
/* The first identifier of s, copied into the arena; NULL if none. */
const char *ud_frame_first_ident(struct ud_arena *a, const char *s);

#endif /* UAPID_CORE_FRAME_H */
