// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header path mapping tests.
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/path.h"

START_TEST(test_normalize)
{
	static const char *const cases[][2] = {
		{"asm/../arch/abi.h", "arch/abi.h"},
		{"a/./b//c.h", "a/b/c.h"},
		{"a/b/../../c.h", "c.h"},
		{"../x.h", "../x.h"},
		{"a/../../x.h", "../x.h"},
		{"../a/b/..", "../a"},
		{"", ""},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *n = ud_path_normalize(cases[i][0]);

		ck_assert_str_eq(n, cases[i][1]);
		free(n);
	}
	{
		char *d = ud_path_dir("a/b/c.h");

		ck_assert_str_eq(d, "a/b");
		free(d);
		d = ud_path_dir("c.h");
		ck_assert_str_eq(d, "");
		free(d);
	}
}
END_TEST

START_TEST(test_mapping)
{
	char *t;

	ck_assert_str_eq(ud_path_include_name("include/linux/kernel.h"), "linux/kernel.h");
	ck_assert_str_eq(ud_path_include_name("arch/x86/include/asm/ptrace.h"), "asm/ptrace.h");
	ck_assert_str_eq(ud_path_include_name("arch/cris/include/arch-v10/arch/sv.h"),
			 "arch-v10/arch/sv.h");
	ck_assert_ptr_null(ud_path_include_name("drivers/foo.h"));
	ck_assert_ptr_null(ud_path_include_name("arch/x86/kernel/foo.h"));
	ck_assert_ptr_null(ud_path_include_name("arch//include/x.h"));
	ck_assert_ptr_null(ud_path_include_name("include/"));
	t = ud_path_uapi_twin("include/linux/kernel.h");
	ck_assert_str_eq(t, "include/uapi/linux/kernel.h");
	free(t);
	t = ud_path_uapi_twin("arch/x86/include/asm/ptrace.h");
	ck_assert_str_eq(t, "arch/x86/include/uapi/asm/ptrace.h");
	free(t);
	ck_assert_ptr_null(ud_path_uapi_twin("include/uapi/linux/kernel.h"));
	ck_assert(ud_path_is_uapi("arch/x86/include/uapi/asm/ptrace.h"));
	ck_assert(!ud_path_is_uapi("include/linux/uapi.h"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_normalize);
	tcase_add_test(tc, test_mapping);
	suite_add_tcase(s, tc);
	return test_run(s);
}
