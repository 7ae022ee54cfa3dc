/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Include conversion: #include "x.h" to #include <dir/x.h>, the pre-step of
 * the 2012 split (a quoted include stops working once the including header
 * and its neighbour live in different directories).
 *
 * Pure: the caller decides, through a resolver, what each quoted name
 * turns into (the io layer checks the file exists).
 */
#ifndef UAPID_INCLUDES_H
#define UAPID_INCLUDES_H

#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"

/*
 * Given the text between the quotes, returns the malloc'd name to put
 * between angle brackets, or NULL to leave the line alone.
 */
typedef char *(*ud_include_resolver)(const char *quoted, void *ctx);

/*
 * Rewrites quoted #include lines of buf[0..len) into out.  Returns the
 * number of lines changed, or a negative errno when the buffer cannot be
 * lexed (diagnostics say why).
 */
int ud_fix_includes(const char *buf, size_t len, ud_include_resolver resolve, void *ctx,
		    struct ud_buf *out, struct ud_diags *diags);

#endif /* UAPID_INCLUDES_H */
