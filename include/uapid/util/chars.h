/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ASCII character classes, independent of the locale: C source, Kbuild
 * files and the kernel's sed and Perl rules are all byte-oriented.
 */
#ifndef UAPID_CHARS_H
#define UAPID_CHARS_H

#include <stdbool.h>
#include <stddef.h>

static inline bool
ud_is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool
ud_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline bool
ud_is_alnum(int c)
{
	return ud_is_alpha(c) || ud_is_digit(c);
}

/* A character that may start a C identifier. */
static inline bool
ud_is_ident_start(int c)
{
	return ud_is_alpha(c) || c == '_';
}

/* A character of a C identifier. */
static inline bool
ud_is_ident(int c)
{
	return ud_is_alnum(c) || c == '_';
}

/*
 * The next whole identifier in the NUL-terminated text, scanning from *p:
 * one that does not start inside another word ("x" of "0x1f" is not one).
 * Returns its first byte with *len its length and *p just past it, or NULL
 * at the end of text.
 */
static inline const char *
ud_next_ident(const char *text, const char **p, size_t *len)
{
	const char *s = *p;

	for (; *s != '\0'; s++) {
		const char *b = s;

		if (!ud_is_ident_start((unsigned char)*s) ||
		    (s > text && ud_is_ident((unsigned char)s[-1])))
			continue;
		while (ud_is_ident((unsigned char)*s))
			s++;
		*p = s;
		*len = (size_t)(s - b);
		return b;
	}
	*p = s;
	return NULL;
}

/* POSIX [[:space:]]: blank, tab, newline, vertical tab, form feed, carriage return. */
static inline bool
ud_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* ASCII lower case of c; other bytes unchanged. */
static inline int
ud_to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

#endif /* UAPID_CHARS_H */
