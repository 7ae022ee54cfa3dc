// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Growable byte buffer (see buf.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

char ud_buf_slop[1];

void
ud_buf_init(struct ud_buf *b)
{
	b->data = ud_buf_slop;
	b->len = 0;
	b->alloc = 0;
}

void
ud_buf_free(struct ud_buf *b)
{
	if (b == NULL)
		return;
	if (b->alloc > 0)
		free(b->data);
	ud_buf_init(b);
}

void
ud_buf_reset(struct ud_buf *b)
{
	b->len = 0;
	if (b->alloc > 0)
		b->data[0] = '\0';
}

void
ud_buf_setlen(struct ud_buf *b, size_t len)
{
	assert(len <= b->len);
	b->len = len;
	if (b->alloc > 0)
		b->data[len] = '\0';
}

void
ud_buf_grow(struct ud_buf *b, size_t extra)
{
	if (b->alloc == 0)
		b->data = NULL; /* the slop (or a zeroed struct's NULL): nothing to keep */
	b->data = ud_xgrow(b->data, &b->alloc, b->len + extra + 1, 1);
}

void
ud_buf_add(struct ud_buf *b, const void *data, size_t len)
{
	ud_buf_grow(b, len);
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
ud_buf_addstr(struct ud_buf *b, const char *s)
{
	ud_buf_add(b, s, strlen(s));
}

void
ud_buf_addch(struct ud_buf *b, char c)
{
	ud_buf_add(b, &c, 1);
}

void
ud_buf_vaddf(struct ud_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	ud_buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
ud_buf_addf(struct ud_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ud_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

const char *
ud_buf_str(const struct ud_buf *b)
{
	return b->data != NULL ? b->data : "";
}

char *
ud_buf_detach(struct ud_buf *b, size_t *len)
{
	char *p;

	if (b->alloc == 0)
		ud_buf_grow(b, 0), b->data[0] = '\0';
	p = b->data;
	if (len != NULL)
		*len = b->len;
	ud_buf_init(b);
	return p;
}
