// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small text jobs (see text.h).
 */
#include <string.h>

#include "uapid/util/chars.h"
#include "uapid/core/text.h"

size_t
ud_squeeze(char *dst, const char *src, size_t n)
{
	size_t i, o = 0;
	bool space = false;

	for (i = 0; i < n; i++) {
		char c = src[i];

		if (ud_is_space(c)) {
			space = o > 0;
			continue;
		}
		if (space)
			dst[o++] = ' ';
		space = false;
		dst[o++] = c;
	}
	dst[o] = '\0';
	return o;
}

const char *
ud_directive_word(const char *s, const char *e, const char *word)
{
	size_t k = strlen(word);

	while (s < e && ud_is_space(*s))
		s++;
	if (s >= e || *s != '#')
		return NULL;
	for (s++; s < e && ud_is_space(*s); s++)
		;
	if ((size_t)(e - s) < k || memcmp(s, word, k) != 0)
		return NULL;
	return s + k;
}

const char *
ud_skip_comment(const char *p, const char *e, bool *in_comment)
{
	while (p < e) {
		if (*in_comment) {
			const char *c = memmem(p, (size_t)(e - p), "*/", 2);

			if (c == NULL)
				return e;
			*in_comment = false;
			p = c + 2;
		} else if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			*in_comment = true;
			p += 2;
		} else {
			return p;
		}
	}
	return e;
}
