/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A growable list of owned strings: paths, Kbuild names, macro names.  The
 * one string-list type of uapid.
 */
#ifndef UAPID_STRLIST_H
#define UAPID_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

struct ud_strlist {
	char **v;
	size_t n, alloc;
};

#define UD_STRLIST_INIT                                                                            \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Appends a copy of s (or of its first n bytes). */
void ud_strlist_add(struct ud_strlist *l, const char *s);
void ud_strlist_addn(struct ud_strlist *l, const char *s, size_t n);
/* Appends s itself: the list takes ownership of the malloc'd string. */
void ud_strlist_take(struct ud_strlist *l, char *s);
/* Sorts (strcmp order) and drops duplicates. */
void ud_strlist_sort(struct ud_strlist *l);
/* Index of s (its first n bytes) in the list, or -1; linear. */
long ud_strlist_findn(const struct ud_strlist *l, const char *s, size_t n);
bool ud_strlist_has(const struct ud_strlist *l, const char *s);
/* Index of s in a sorted list, or -1; logarithmic. */
long ud_strlist_bsearch(const struct ud_strlist *sorted, const char *s);
/* Removes entry i, keeping the order of the rest. */
void ud_strlist_remove(struct ud_strlist *l, size_t i);
void ud_strlist_free(struct ud_strlist *l);

#endif /* UAPID_STRLIST_H */
