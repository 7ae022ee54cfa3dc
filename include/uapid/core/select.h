/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conditional selection: resolve the preprocessor conditionals that depend
 * on a few known symbols and keep everything else, line for line, the way
 * the kernel's headers_install does it with unifdef 2.5 (-U__KERNEL__
 * -D__EXPORTED_HEADERS__), or with the older unifdef of an older tree, so
 * installed headers come out byte-identical.
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

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/core/expr.h"

/* For each output line, the input line it came from (1-based). */
struct ud_linemap {
	unsigned *v;
	size_t n, alloc;
};

void ud_linemap_free(struct ud_linemap *m);

/*
 * Which unifdef a tree's install runs (its scripts/unifdef.c; see
 * ud_unifdef_recognise in install.h).  They agree on the kernel's
 * headers except where noted.
 */
enum ud_unifdef {
	UD_UNIFDEF_25,	 /* unifdef 2.5 (3.x on): CRLF lines kept as CRLF */
	UD_UNIFDEF_1190, /* 1.190 (2.6.35's): lines end at "\n" only, a
			  * bare "-DSYM" has the value "" */
	UD_UNIFDEF_1171, /* 1.171 with the kernel's boolean patch (2.6.32's):
			  * as 1.190, and its own expression reading
			  * (UD_EXPR_UNIFDEF1); it aborts on a directive that
			  * ends the file without a newline */
};

/*
 * Selects buf[0..len) into out.  Returns 0, or -EINVAL with an error
 * diagnostic naming the line (unbalanced or obfuscated conditionals, an
 * unterminated literal, a comment open at the end of the file); out is
 * then incomplete and must not be used.
 */
int ud_select(const char *buf, size_t len, const struct ud_expr_sym *syms, size_t nsyms,
	      struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags);
/* ud_select as the given unifdef does it (ud_select is UD_UNIFDEF_25). */
int ud_select_as(enum ud_unifdef version, const char *buf, size_t len,
		 const struct ud_expr_sym *syms, size_t nsyms, struct ud_buf *out,
		 struct ud_linemap *map, struct ud_diags *diags);

#endif /* UAPID_SELECT_H */
