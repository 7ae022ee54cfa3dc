// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Include conversion tests (the resolver stands in for the file system).
 */
#include "testutil.h"
#include "uapid/core/includes.h"

static char *
resolve(const char *quoted, void *ctx)
{
	(void)ctx;
	if (strcmp(quoted, "page-nommu.h") == 0)
		return ud_xstrdup("asm/page-nommu.h");
	if (strcmp(quoted, "../arch/x.agh") == 0)
		return ud_xstrdup("arch/x.agh");
	return NULL; /* does not exist beside the header: leave it */
}

START_TEST(test_convert)
{
	static const char in[] = "#include \"page-nommu.h\"\n"
				 "#  include   \"../arch/x.agh\" /* keep me */\n"
				 "#include \"missing.h\"\n"
				 "#include <linux/types.h>\n"
				 "char *s = \"#include \\\"page-nommu.h\\\"\";\n"
				 "/*\n#include \"page-nommu.h\"\n*/\n";
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_eq(ud_fix_includes(in, sizeof(in) - 1, resolve, NULL, &out, &d), 2);
	ck_assert_str_eq(ud_buf_str(&out), "#include <asm/page-nommu.h>\n"
					   "#  include   <arch/x.agh> /* keep me */\n"
					   "#include \"missing.h\"\n"
					   "#include <linux/types.h>\n"
					   "char *s = \"#include \\\"page-nommu.h\\\"\";\n"
					   "/*\n#include \"page-nommu.h\"\n*/\n");
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_bad_input)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_lt(ud_fix_includes("a\0b", 3, resolve, NULL, &out, &d), 0);
	ck_assert_uint_eq(d.n, 1);
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("includes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_convert);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	return test_run(s);
}
