/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Header checks on an installed uapi header: the rules of the kernel's
 * usr/include/headers_check.pl, and leftovers of kernel-only content.
 *
 *  - an #include <asm/...> or <linux/...> of a header that is not
 *    installed (error);
 *  - extern declarations and function prototypes: userspace cannot
 *    reference what the kernel defines (warning);
 *  - <asm/types.h> where <linux/types.h> is preferred (warning);
 *  - __u32 and friends without <linux/types.h>, directly or through
 *    the headers it includes (warning);
 *  - __KERNEL__ left in code (warning), and macros used in the installed
 *    header that its source defines only under __KERNEL__ (error).
 *
 * Pure: the installed text and, optionally, the source text and line map
 * come in; other installed headers are looked up through a callback.
 * Diagnostics carry source lines when a map is given.
 */
#ifndef UAPID_HCHECK_H
#define UAPID_HCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/diag.h"
#include "uapid/core/select.h"

/* The text of installed header NAME ("linux/types.h"), or NULL if it is not installed. */
typedef const char *(*ud_hcheck_lookup)(const char *name, size_t *len, void *ctx);

struct ud_hcheck_input {
	const char *dst;  /* installed name: "linux/foo.h" */
	const char *text; /* installed text */
	size_t len;
	const char *src; /* source text, or NULL (generated headers) */
	size_t srclen;
	const struct ud_linemap *map; /* installed line -> source line, or NULL */
	const char *srcarch;
	ud_hcheck_lookup lookup;
	void *ctx;
};

/* Runs every check; appends to diags; returns the number of errors found. */
unsigned ud_hcheck(const struct ud_hcheck_input *in, struct ud_diags *diags);

#endif /* UAPID_HCHECK_H */
