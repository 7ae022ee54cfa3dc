/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growable byte buffer, in the spirit of git's strbuf.
 *
 * Invariant: data is always a NUL-terminated string (data[len] == '\0'):
 * an initialised, never-written buffer points at ud_buf_slop, an empty
 * string no one writes to (as git's strbuf_slopbuf), with alloc == 0.  A
 * zeroed struct (data NULL) is an empty buffer too, for the functions
 * here; ud_buf_str reads either.  All growable text in uapid goes through
 * this type.
 */
#ifndef UAPID_BUF_H
#define UAPID_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct ud_buf {
	char *data;
	size_t len;
	size_t alloc;
};

/*
 * The storage of every empty buffer: "" (alloc 0 says a buffer owns none).
 * Nothing writes to it: the functions here write only to storage a
 * buffer owns, and a caller writes no byte of an empty buffer.
 */
extern char ud_buf_slop[1];

#define UD_BUF_INIT                                                                                \
	{                                                                                          \
		ud_buf_slop, 0, 0                                                                  \
	}

void ud_buf_init(struct ud_buf *b);
/* Frees the contents; the struct itself may be reused after ud_buf_init. */
void ud_buf_free(struct ud_buf *b);
/* Empties the buffer but keeps its storage. */
void ud_buf_reset(struct ud_buf *b);
/* Shortens the buffer to len bytes (len <= b->len), keeping it NUL-terminated. */
void ud_buf_setlen(struct ud_buf *b, size_t len);
/* Ensures room for 'extra' more bytes plus the terminating NUL. */
void ud_buf_grow(struct ud_buf *b, size_t extra);
void ud_buf_add(struct ud_buf *b, const void *data, size_t len);
void ud_buf_addstr(struct ud_buf *b, const char *s);
void ud_buf_addch(struct ud_buf *b, char c);
void ud_buf_addf(struct ud_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ud_buf_vaddf(struct ud_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Returns the text ("" when empty); the buffer still owns it. */
const char *ud_buf_str(const struct ud_buf *b);
/* Hands the storage to the caller (free() it); the buffer is left empty. */
char *ud_buf_detach(struct ud_buf *b, size_t *len);

#endif /* UAPID_BUF_H */
