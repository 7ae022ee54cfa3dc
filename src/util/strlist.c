// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lists of owned strings (see strlist.h).
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/strlist.h"
#include "uapid/util/xmalloc.h"

void
ud_strlist_take(struct ud_strlist *l, char *s)
{
	l->v = ud_xgrow(l->v, &l->alloc, l->n + 1, sizeof(char *));
	l->v[l->n++] = s;
}

void
ud_strlist_add(struct ud_strlist *l, const char *s)
{
	ud_strlist_take(l, ud_xstrdup(s));
}

void
ud_strlist_addn(struct ud_strlist *l, const char *s, size_t n)
{
	ud_strlist_take(l, ud_xstrndup(s, n));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
ud_strlist_sort(struct ud_strlist *l)
{
	size_t i, o = 0;

	if (l->n == 0)
		return;
	qsort(l->v, l->n, sizeof(char *), cmp_str);
	for (i = 0; i < l->n; i++) {
		if (o > 0 && strcmp(l->v[o - 1], l->v[i]) == 0) {
			free(l->v[i]);
			continue;
		}
		l->v[o++] = l->v[i];
	}
	l->n = o;
}

long
ud_strlist_findn(const struct ud_strlist *l, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strncmp(l->v[i], s, n) == 0 && l->v[i][n] == '\0')
			return (long)i;
	return -1;
}

bool
ud_strlist_has(const struct ud_strlist *l, const char *s)
{
	return ud_strlist_findn(l, s, strlen(s)) >= 0;
}

long
ud_strlist_bsearch(const struct ud_strlist *sorted, const char *s)
{
	size_t lo = 0, hi = sorted->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sorted->v[mid], s);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void
ud_strlist_remove(struct ud_strlist *l, size_t i)
{
	free(l->v[i]);
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(char *));
	l->n--;
}

void
ud_strlist_free(struct ud_strlist *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}
