// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Out-of-tree marker file tests.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/core/markers.h"

START_TEST(test_parse)
{
	static const char text[] =
		"# markers for a tree we do not own\n"
		"\n"
		"include/linux/a.h retain '#ifdef __KERNEL__'#2 # second group stays\n"
		"include/linux/a.h include-here '#include   <linux/b.h>'\n"
		"arch/x86/include/asm/c.h skip\n"
		"include/linux/d.h split-compound '#if defined(__KERNEL__) && defined(X)'\n";
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	const struct ud_marker **m = NULL;

	ck_assert_int_eq(ud_markers_parse(&set, text, sizeof(text) - 1, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(set.n, 4);
	ck_assert_str_eq(set.v[0].path, "include/linux/a.h");
	ck_assert_int_eq(set.v[0].action, UD_MARK_RETAIN);
	ck_assert_str_eq(set.v[0].selector, "#ifdef __KERNEL__");
	ck_assert_uint_eq(set.v[0].occurrence, 2);
	ck_assert_str_eq(set.v[0].why, "second group stays");
	ck_assert_uint_eq(set.v[0].line, 3);
	ck_assert_str_eq(set.v[1].selector, "#include <linux/b.h>");
	ck_assert_uint_eq(set.v[1].occurrence, 1);
	ck_assert_ptr_null(set.v[2].selector);
	ck_assert_int_eq(set.v[2].action, UD_MARK_SKIP);
	ck_assert_uint_eq(ud_markers_for(&set, "include/linux/a.h", &m), 2);
	ck_assert_ptr_eq(m[0], &set.v[0]);
	ck_assert_ptr_eq(m[1], &set.v[1]);
	free(m);
	ck_assert_uint_eq(ud_markers_for(&set, "include/linux/none.h", &m), 0);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(ud_marker_action_name(UD_MARK_SPLIT_COMPOUND), "split-compound");
	ud_markers_free(&set);
	ud_diags_free(&d);
}
END_TEST

static void
expect_bad(const char *line, const char *text)
{
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	char *all = ud_xasprintf("a.h skip\n%s\n", line);

	ck_assert_int_lt(ud_markers_parse(&set, all, strlen(all), &d), 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.v[0].line, 2);
	ck_assert_msg(strstr(d.v[0].message, text) != NULL, "'%s' -> '%s'", line, d.v[0].message);
	ck_assert_uint_eq(set.n, 1); /* the good line is kept */
	free(all);
	ud_markers_free(&set);
	ud_diags_free(&d);
}

START_TEST(test_errors)
{
	expect_bad("a.h", "no action");
	expect_bad("a.h frobnicate '#if X'", "unknown marker action 'frobnicate'");
	expect_bad("a.h retain", "needs a selector");
	expect_bad("a.h retain '#if X", "unterminated selector");
	expect_bad("a.h retain '#if X'#0", "occurrence must be 1 or more");
	expect_bad("a.h retain #if X", "needs a selector"); /* '#' starts the why */
	expect_bad("a.h retain '#if X' junk", "unexpected text");
	expect_bad("a.h retain ''", "names no directive");
	expect_bad("a.h retain 'x'", "first word is no preprocessor directive");
	expect_bad("a.h retain '#ifdefx X'", "first word is no preprocessor directive");
}
END_TEST

START_TEST(test_fields)
{
	enum ud_marker_action a;
	const char *why = NULL;

	ck_assert_int_eq(ud_marker_action_parse("split-compound", &a), 0);
	ck_assert_int_eq(a, UD_MARK_SPLIT_COMPOUND);
	ck_assert_int_eq(ud_marker_action_parse("", &a), -EINVAL);
	ck_assert_int_eq(ud_marker_action_parse("kernel ", &a), -EINVAL);
	ck_assert_int_eq(ud_selector_check("#ifdef __KERNEL__", &why), 0);
	ck_assert_int_eq(ud_selector_check("  # if defined(X)", &why), 0);
	ck_assert_int_eq(ud_selector_check("#if(X)", &why), 0);
	ck_assert_int_eq(ud_selector_check("#if!X", &why), 0);
	ck_assert_int_eq(ud_selector_check("#include <linux/types.h>", &why), 0);
	ck_assert_int_eq(ud_selector_check("#include\"x.h\"", &why), 0);
	ck_assert_int_eq(ud_selector_check("#endif", &why), 0);
	ck_assert_int_eq(ud_selector_check("else", &why), 0);
	ck_assert_int_eq(ud_selector_check("", &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "names no directive"));
	ck_assert_int_eq(ud_selector_check("#", &why), -EINVAL);
	ck_assert_int_eq(ud_selector_check("x", &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "no preprocessor directive"));
	ck_assert_int_eq(ud_selector_check("#ifdefined X", &why), -EINVAL);
	ck_assert_int_eq(ud_selector_check("#IFDEF X", &why), -EINVAL);
}
END_TEST

START_TEST(test_normalize)
{
	char *s = ud_selector_normalize("  #  ifdef\t __KERNEL__  ");

	ck_assert_str_eq(s, "#ifdef __KERNEL__");
	free(s);
	s = ud_selector_normalize("if X");
	ck_assert_str_eq(s, "#if X");
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("markers");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_normalize);
	suite_add_tcase(s, tc);
	return test_run(s);
}
