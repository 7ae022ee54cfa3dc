// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Release name order: kernel tags from v2.6.11 to v6.x sorted as
 * `git tag --sort=version:refname` with versionsort.suffix=-rc sorts them,
 * numbers by value, release candidates before their release, and a total
 * order on names of the same value.
 */
#include <stdlib.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/api/version.h"

static int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

static int
by_version(const void *a, const void *b)
{
	return ud_version_cmp(*(const char *const *)a, *(const char *const *)b);
}

START_TEST(test_kernel_tags)
{
	/* in the order they must sort */
	static const char *const want[] = {
		"v2.6.11",  "v2.6.12-rc2", "v2.6.12-rc3", "v2.6.12",   "v2.6.12.1", "v2.6.39",
		"v3.0-rc1", "v3.0-rc7",	   "v3.0",	  "v3.0.1",    "v3.1",	    "v3.2",
		"v3.9",	    "v3.10-rc1",   "v3.10",	  "v3.11",     "v4.19",	    "v4.20",
		"v5.0",	    "v5.4-rc1",	   "v5.4-rc2",	  "v5.4-rc10", "v5.4",	    "v5.4.1",
		"v5.4.10",  "v5.5-rc1",	   "v5.10",	  "v6.1",      "v6.12-rc1", "v6.12",
	};
	size_t n = ARRAY_SIZE(want), i, j;
	const char **v = malloc(n * sizeof(*v));

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			ck_assert_msg(sign(ud_version_cmp(want[i], want[j])) ==
					      (i < j ? -1 : i > j),
				      "%s vs %s", want[i], want[j]);
	/* sorted from a shuffled order */
	for (i = 0; i < n; i++)
		v[i] = want[(i * 7 + 3) % n];
	qsort(v, n, sizeof(*v), by_version);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(v[i], want[i]);
	free(v);
}
END_TEST

START_TEST(test_numbers)
{
	ck_assert_int_lt(ud_version_cmp("v9", "v10"), 0);
	ck_assert_int_gt(ud_version_cmp("v100", "v99"), 0);
	/* longer than any integer: still by value */
	ck_assert_int_lt(ud_version_cmp("v123456789012345678901234567890",
					"v123456789012345678901234567891"),
			 0);
	ck_assert_int_lt(ud_version_cmp("v99999999999999999999", "v100000000000000000000"), 0);
	/* the same value, spelled otherwise: ordered, not equal */
	ck_assert_int_ne(ud_version_cmp("v1.01", "v1.1"), 0);
	ck_assert_int_eq(sign(ud_version_cmp("v1.01", "v1.1")),
			 -sign(ud_version_cmp("v1.1", "v1.01")));
	ck_assert_int_eq(ud_version_cmp("v5.4", "v5.4"), 0);
	ck_assert_int_eq(ud_version_cmp("", ""), 0);
	ck_assert_int_lt(ud_version_cmp("", "v1"), 0);
}
END_TEST

START_TEST(test_suffixes)
{
	/* pre-release stages in order, all before the release and what follows it */
	ck_assert_int_lt(ud_version_cmp("v1.0-alpha1", "v1.0-beta1"), 0);
	ck_assert_int_lt(ud_version_cmp("v1.0-beta2", "v1.0-pre1"), 0);
	ck_assert_int_lt(ud_version_cmp("v1.0-pre9", "v1.0-rc1"), 0);
	ck_assert_int_lt(ud_version_cmp("v1.0-rc9", "v1.0"), 0);
	ck_assert_int_lt(ud_version_cmp("v1.0-rc9", "v1.0.1"), 0);
	ck_assert_int_lt(ud_version_cmp("v1.0-rc9", "v1.0a"), 0);
	/* another suffix is not a pre-release: it follows the release */
	ck_assert_int_gt(ud_version_cmp("v2.6.11-tree", "v2.6.11"), 0);
	ck_assert_int_lt(ud_version_cmp("v2.6.11-tree", "v2.6.12-rc2"), 0);
	/* other names keep the byte order */
	ck_assert_int_lt(ud_version_cmp("alpha", "beta"), 0);
	ck_assert_int_lt(ud_version_cmp("release-1", "release-2"), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("version");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kernel_tags);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_suffixes);
	suite_add_tcase(s, tc);
	return test_run(s);
}
