// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LSP base framing (lsp-frame.h).  No I/O.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uapid/client/lsp-frame.h"
#include "uapid/util/xmalloc.h"

static const char content_length[] = "content-length";

/* Is the header line [p, p+n) "Content-Length: ..."?  Then *value points past the colon. */
static bool
is_content_length(const char *p, size_t n, const char **value)
{
	size_t k = sizeof(content_length) - 1, i;

	if (n <= k || p[k] != ':')
		return false;
	for (i = 0; i < k; i++)
		if (tolower((unsigned char)p[i]) != content_length[i])
			return false;
	*value = p + k + 1;
	return true;
}

/* The decimal value in [p, end), blanks around it allowed: 0, or -1 when it is no number. */
static int
parse_length(const char *p, const char *end, size_t *out)
{
	size_t v = 0;
	bool digits = false;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(*p - '0');
		digits = true;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (!digits || p != end)
		return -1;
	*out = v;
	return 0;
}

int
ud_lsp_take_message(struct ud_buf *in, json_t **msg, char **cause)
{
	const char *p, *end, *head_end;
	size_t hlen, blen = 0, line = 0;
	bool have_length = false;
	json_error_t jerr;

	*msg = NULL;
	if (in->len == 0)
		return 0;
	head_end = memmem(in->data, in->len, "\r\n\r\n", 4);
	if (head_end == NULL) {
		if (in->len <= UD_LSP_MAX_HEADER)
			return 0;
		*cause = ud_xasprintf("a message header over %d bytes", UD_LSP_MAX_HEADER);
		return -1;
	}
	hlen = (size_t)(head_end - in->data) + 4;
	if (hlen > UD_LSP_MAX_HEADER + 4) {
		*cause = ud_xasprintf("a message header over %d bytes", UD_LSP_MAX_HEADER);
		return -1;
	}
	for (p = in->data; p < head_end + 2; p = end + 2) {
		const char *value;

		end = memmem(p, (size_t)(head_end + 2 - p), "\r\n", 2);
		line++;
		if (!is_content_length(p, (size_t)(end - p), &value))
			continue;
		if (parse_length(value, end, &blen) < 0) {
			*cause = ud_xasprintf("header line %zu: Content-Length is not a number",
					      line);
			return -1;
		}
		have_length = true;
	}
	if (!have_length) {
		*cause = ud_xasprintf("a message header without Content-Length");
		return -1;
	}
	if (blen > UD_LSP_MAX_MESSAGE) {
		*cause = ud_xasprintf("a message of %zu bytes, over the bound of %zu", blen,
				      UD_LSP_MAX_MESSAGE);
		return -1;
	}
	if (in->len - hlen < blen)
		return 0;
	*msg = json_loadb(in->data + hlen, blen, 0, &jerr);
	memmove(in->data, in->data + hlen + blen, in->len - hlen - blen);
	ud_buf_setlen(in, in->len - hlen - blen);
	return 1;
}

char *
ud_lsp_frame(const char *body, size_t body_len, size_t *len)
{
	char head[64];
	int hl = snprintf(head, sizeof(head), "Content-Length: %zu\r\n\r\n", body_len);
	char *out = ud_xmalloc((size_t)hl + body_len + 1);

	memcpy(out, head, (size_t)hl);
	memcpy(out + hl, body, body_len);
	out[hl + body_len] = '\0';
	*len = (size_t)hl + body_len;
	return out;
}
