/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conditional selection: resolve the preprocessor conditionals that depend
 * on a few known symbols and keep everything else, line for line, the way
 * the kernel's headers_install does it with unifdef 2.5 (-U__KERNEL__
 * -D__EXPORTED_HEADERS__), so installed headers come out byte-identical.
 *
 * Known-false groups are dropped, known-true directives are removed and
 * their bodies kept, conditions that stay unknown (or that are constant,
 * like "#if 0") are kept verbatim; an #elif that becomes the first kept
 * clause turns into "#if", one that becomes known-true into "#else".
 *
 * Pure: a buffer in, a buffer out, own implementation of those semantics.
 */
#ifndef UAPID_SELECT_H
#define UAPID_SELECT_H

#include <stddef.h>

#include "uapid/buf.h"
#include "uapid/diag.h"
#include "uapid/expr.h"

/* For each output line, the input line it came from (1-based). */
struct ud_linemap {
	unsigned *v;
	size_t n, alloc;
};

void ud_linemap_free(struct ud_linemap *m);

/*
 * Selects buf[0..len) into out.  Returns 0, or -EINVAL with an error
 * diagnostic naming the line (unbalanced or obfuscated conditionals, an
 * unterminated literal, a comment open at the end of the file); out is
 * then incomplete and must not be used.
 */
int ud_select(const char *buf, size_t len, const struct ud_expr_sym *syms, size_t nsyms,
	      struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags);

#endif /* UAPID_SELECT_H */
