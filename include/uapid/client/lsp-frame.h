/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Language Server Protocol's base framing: a header block of
 * "Name: value" lines ending with an empty line (each line ending CR LF),
 * then a body of Content-Length bytes.  Header names are matched without
 * regard to case; headers other than Content-Length are skipped.
 */
#ifndef UAPID_LSP_FRAME_H
#define UAPID_LSP_FRAME_H

#include <jansson.h>
#include <stddef.h>

#include "uapid/util/buf.h"

#define UD_LSP_MAX_HEADER 8192		      /* bytes in one message's header block */
#define UD_LSP_MAX_MESSAGE ((size_t)64 << 20) /* bytes in one message's body */

/*
 * Takes the first whole message off the front of in.  Returns 1 with *msg
 * (NULL when the body is not JSON: the caller answers a parse error; the
 * message is consumed either way), 0 when more bytes are needed (in is
 * untouched), or -1 with *cause (malloc'd) when the framing is broken
 * beyond repair: no Content-Length, a length that is not a number or is
 * over UD_LSP_MAX_MESSAGE, a header block over UD_LSP_MAX_HEADER.
 */
int ud_lsp_take_message(struct ud_buf *in, json_t **msg, char **cause);

/* The framed text of one message body (malloc'd, *len bytes). */
char *ud_lsp_frame(const char *body, size_t body_len, size_t *len);

#endif /* UAPID_LSP_FRAME_H */
