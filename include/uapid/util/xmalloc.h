/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation helpers that never return NULL.
 *
 * Running out of memory is the one failure uapid does not try to recover
 * from (as in tmux): every caller would otherwise need an error path that
 * is never exercised.  These abort with a message instead.
 */
#ifndef UAPID_XMALLOC_H
#define UAPID_XMALLOC_H

#include <stddef.h>

void *ud_xmalloc(size_t size);
void *ud_xcalloc(size_t nmemb, size_t size);
void *ud_xrealloc(void *ptr, size_t size);
/* Grow an array to hold at least 'want' elements of 'elem' bytes; *alloc is updated. */
void *ud_xgrow(void *ptr, size_t *alloc, size_t want, size_t elem);
char *ud_xstrdup(const char *s);
char *ud_xstrndup(const char *s, size_t n);
/* a, b and c in one new string (where printf's format parsing costs more than the copy). */
char *ud_xstrcat3(const char *a, const char *b, const char *c);
/* printf into a newly allocated string. */
char *ud_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* UAPID_XMALLOC_H */
