// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * String list tests: adding, sorting with duplicates dropped, searching,
 * removing in order, freeing.
 */
#include <stdio.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/strlist.h"

START_TEST(test_add)
{
	struct ud_strlist l = UD_STRLIST_INIT;
	char word[] = "abcdef";

	ud_strlist_add(&l, word);
	ud_strlist_addn(&l, word, 3);
	ud_strlist_addn(&l, word, 0);
	ud_strlist_take(&l, ud_xstrdup("taken"));
	word[0] = 'X'; /* add and addn copy */
	ck_assert_uint_eq(l.n, 4);
	ck_assert_uint_ge(l.alloc, 4);
	ck_assert_str_eq(l.v[0], "abcdef");
	ck_assert_str_eq(l.v[1], "abc");
	ck_assert_str_eq(l.v[2], "");
	ck_assert_str_eq(l.v[3], "taken");
	ud_strlist_free(&l);
}
END_TEST

START_TEST(test_grow)
{
	struct ud_strlist l = UD_STRLIST_INIT;
	size_t i;

	for (i = 0; i < 1000; i++)
		ud_strlist_take(&l, ud_xasprintf("%04zu", i));
	ck_assert_uint_eq(l.n, 1000);
	for (i = 0; i < 1000; i += 111) {
		char want[8];

		snprintf(want, sizeof(want), "%04zu", i);
		ck_assert_str_eq(l.v[i], want);
	}
	ck_assert_int_eq(ud_strlist_bsearch(&l, "0999"), 999);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "0000"), 0);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "0500"), 500);
	ud_strlist_free(&l);
}
END_TEST

START_TEST(test_sort)
{
	static const char *const in[] = {"b.h", "a.h", "c.h", "a.h", "b.h", "a.h", "B.h"};
	struct ud_strlist l = UD_STRLIST_INIT;
	size_t i;

	ud_strlist_sort(&l); /* empty: nothing to do */
	ck_assert_uint_eq(l.n, 0);
	for (i = 0; i < ARRAY_SIZE(in); i++)
		ud_strlist_add(&l, in[i]);
	ud_strlist_sort(&l);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.v[0], "B.h"); /* strcmp order: upper case first */
	ck_assert_str_eq(l.v[1], "a.h");
	ck_assert_str_eq(l.v[2], "b.h");
	ck_assert_str_eq(l.v[3], "c.h");
	ud_strlist_sort(&l); /* sorting a sorted list changes nothing */
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.v[3], "c.h");
	ud_strlist_free(&l);

	ud_strlist_add(&l, "same");
	ud_strlist_add(&l, "same");
	ud_strlist_add(&l, "same");
	ud_strlist_sort(&l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0], "same");
	ud_strlist_free(&l);
}
END_TEST

START_TEST(test_find)
{
	struct ud_strlist l = UD_STRLIST_INIT;

	ud_strlist_add(&l, "linux/types.h");
	ud_strlist_add(&l, "abc");
	ud_strlist_add(&l, "ab");
	ck_assert_int_eq(ud_strlist_findn(&l, "abcdef", 3), 1);
	ck_assert_int_eq(ud_strlist_findn(&l, "abcdef", 2), 2);
	ck_assert_int_eq(ud_strlist_findn(&l, "abcdef", 1), -1); /* "a" is only a prefix */
	ck_assert_int_eq(ud_strlist_findn(&l, "abcdef", 6), -1);
	ck_assert_int_eq(ud_strlist_findn(&l, "linux/types.h", 13), 0);
	ck_assert(ud_strlist_has(&l, "ab"));
	ck_assert(ud_strlist_has(&l, "abc"));
	ck_assert(!ud_strlist_has(&l, "a"));
	ck_assert(!ud_strlist_has(&l, "abcd"));
	ck_assert(!ud_strlist_has(&l, ""));
	ud_strlist_free(&l);
	ck_assert(!ud_strlist_has(&l, "ab")); /* an empty list has nothing */
	ck_assert_int_eq(ud_strlist_findn(&l, "ab", 2), -1);
}
END_TEST

START_TEST(test_bsearch)
{
	static const char *const in[] = {"m", "c", "x", "a", "q", "f"};
	struct ud_strlist l = UD_STRLIST_INIT;
	size_t i;

	ck_assert_int_eq(ud_strlist_bsearch(&l, "a"), -1);
	for (i = 0; i < ARRAY_SIZE(in); i++)
		ud_strlist_add(&l, in[i]);
	ud_strlist_sort(&l); /* a c f m q x */
	ck_assert_int_eq(ud_strlist_bsearch(&l, "a"), 0);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "c"), 1);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "f"), 2);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "m"), 3);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "q"), 4);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "x"), 5);
	ck_assert_int_eq(ud_strlist_bsearch(&l, "0"), -1); /* before the first */
	ck_assert_int_eq(ud_strlist_bsearch(&l, "d"), -1); /* between */
	ck_assert_int_eq(ud_strlist_bsearch(&l, "z"), -1); /* after the last */
	ck_assert_int_eq(ud_strlist_bsearch(&l, "mm"), -1);
	ud_strlist_free(&l);
}
END_TEST

START_TEST(test_remove)
{
	struct ud_strlist l = UD_STRLIST_INIT;

	ud_strlist_add(&l, "d");
	ud_strlist_add(&l, "a");
	ud_strlist_add(&l, "c");
	ud_strlist_add(&l, "b");
	ud_strlist_remove(&l, 1); /* the rest keep their (unsorted) order */
	ck_assert_uint_eq(l.n, 3);
	ck_assert_str_eq(l.v[0], "d");
	ck_assert_str_eq(l.v[1], "c");
	ck_assert_str_eq(l.v[2], "b");
	ud_strlist_remove(&l, 2); /* the last */
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(l.v[0], "d");
	ck_assert_str_eq(l.v[1], "c");
	ud_strlist_remove(&l, 0); /* the first */
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0], "c");
	ud_strlist_remove(&l, 0);
	ck_assert_uint_eq(l.n, 0);
	ud_strlist_add(&l, "again"); /* still usable */
	ck_assert_str_eq(l.v[0], "again");
	ud_strlist_free(&l);
}
END_TEST

START_TEST(test_free)
{
	struct ud_strlist l = UD_STRLIST_INIT;

	ud_strlist_free(NULL);
	ud_strlist_free(&l); /* never used */
	ud_strlist_add(&l, "x");
	ud_strlist_add(&l, "y");
	ud_strlist_free(&l);
	ck_assert_ptr_null(l.v);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_eq(l.alloc, 0);
	ud_strlist_free(&l); /* twice is safe */
	ud_strlist_add(&l, "reused");
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0], "reused");
	ud_strlist_free(&l);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("strlist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_bsearch);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_free);
	suite_add_tcase(s, tc);
	return test_run(s);
}
