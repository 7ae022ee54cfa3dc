/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ASCII character classes, independent of the locale: C source, Kbuild
 * files and the kernel's sed and Perl rules are all byte-oriented.
 */
#ifndef UAPID_CHARS_H
#define UAPID_CHARS_H

#include <stdbool.h>

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
