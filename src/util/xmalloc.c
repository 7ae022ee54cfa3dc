// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation helpers that never return NULL (see xmalloc.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/xmalloc.h"

static void
out_of_memory(size_t size)
{
	fprintf(stderr, "uapid: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
ud_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *
ud_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory(nmemb * size);
	return p;
}

void *
ud_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *
ud_xgrow(void *ptr, size_t *alloc, size_t want, size_t elem)
{
	size_t n = *alloc;

	if (want <= n)
		return ptr;
	if (n < 16)
		n = 16;
	while (n < want) {
		if (n > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		n *= 2;
	}
	if (n > SIZE_MAX / elem)
		out_of_memory(SIZE_MAX);
	*alloc = n;
	return ud_xrealloc(ptr, n * elem);
}

char *
ud_xstrdup(const char *s)
{
	return ud_xstrndup(s, strlen(s));
}

char *
ud_xstrndup(const char *s, size_t n)
{
	char *p = ud_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
ud_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory(strlen(fmt));
	va_end(ap);
	return s;
}

char *
ud_xstrcat3(const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *s = ud_xmalloc(na + nb + nc + 1);

	memcpy(s, a, na);
	memcpy(s + na, b, nb);
	memcpy(s + na + nb, c, nc + 1);
	return s;
}
