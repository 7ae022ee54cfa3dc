// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order of release names (version.h).
 */
#include <stdbool.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/api/version.h"

/* Pre-release suffixes, from the earliest stage: a later one sorts after an earlier one. */
static const char *const prerelease[] = {"alpha", "beta", "pre", "rc"};

static bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The rank (1 + index in prerelease[]) of the suffix at s[at], where a
 * name and another part: "-rc1" there, or "rc1" right after a '-' both
 * had; 0 when there is none.
 */
static int
suffix_rank(const char *s, size_t at)
{
	const char *p = s + at;
	size_t i;

	if (*p == '-')
		p++;
	else if (at == 0 || s[at - 1] != '-')
		return 0;
	for (i = 0; i < ARRAY_SIZE(prerelease); i++)
		if (strncmp(p, prerelease[i], strlen(prerelease[i])) == 0)
			return (int)i + 1;
	return 0;
}

/* Compares the digit runs at *pa and *pb by value and moves both past them. */
static int
number_cmp(const char **pa, const char **pb)
{
	const char *a = *pa, *b = *pb, *ea, *eb;
	size_t na, nb;
	int c;

	while (*a == '0' && digit(a[1]))
		a++;
	while (*b == '0' && digit(b[1]))
		b++;
	for (ea = a; digit(*ea); ea++)
		;
	for (eb = b; digit(*eb); eb++)
		;
	*pa = ea;
	*pb = eb;
	na = (size_t)(ea - a);
	nb = (size_t)(eb - b);
	if (na != nb)
		return na < nb ? -1 : 1; /* no overflow, whatever the length */
	c = memcmp(a, b, na);
	return c < 0 ? -1 : c > 0;
}

int
ud_version_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;

	for (;;) {
		int ra, rb;

		if (digit(*pa) && digit(*pb)) {
			int c = number_cmp(&pa, &pb);

			if (c != 0)
				return c;
			continue;
		}
		if (*pa == *pb) {
			if (*pa == '\0')
				break;
			pa++;
			pb++;
			continue;
		}
		/* they part here: a pre-release comes before whatever the other has */
		ra = suffix_rank(a, (size_t)(pa - a));
		rb = suffix_rank(b, (size_t)(pb - b));
		if (ra != rb)
			return ra == 0 ? 1 : rb == 0 ? -1 : ra < rb ? -1 : 1;
		if (*pa == '\0' || *pb == '\0')
			return *pa == '\0' ? -1 : 1;
		return (unsigned char)*pa < (unsigned char)*pb ? -1 : 1;
	}
	/* the same value: the bytes decide */
	{
		int c = strcmp(a, b);

		return c < 0 ? -1 : c > 0;
	}
}
