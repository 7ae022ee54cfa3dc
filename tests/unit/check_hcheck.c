// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header check tests (headers_check.pl rules and kernel-only leftovers).
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/hcheck.h"

static const char *const installed[][2] = {
	{"linux/types.h", "#include <asm/types.h>\n"},
	{"asm/types.h", "typedef unsigned int __u32;\n"},
	{"drm/drm.h", "#include <linux/types.h>\n"},
};

static const char *
lookup(const char *name, size_t *len, void *ctx)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < ARRAY_SIZE(installed); i++)
		if (strcmp(installed[i][0], name) == 0) {
			*len = strlen(installed[i][1]);
			return installed[i][1];
		}
	return NULL;
}

static void
check(const char *dst, const char *text, const char *src, const struct ud_linemap *map,
      struct ud_diags *d)
{
	struct ud_hcheck_input in;

	memset(&in, 0, sizeof(in));
	in.dst = dst;
	in.text = text;
	in.len = strlen(text);
	in.src = src;
	in.srclen = src ? strlen(src) : 0;
	in.map = map;
	in.srcarch = "x86";
	in.lookup = lookup;
	ud_hcheck(&in, d);
}

START_TEST(test_rules)
{
	struct ud_diags d = UD_DIAGS_INIT;

	check("linux/a.h",
	      "#include <linux/types.h>\n"
	      "#include <linux/missing.h>\n"
	      "#include <asm/types.h>\n"
	      "extern int kernel_var;\n"
	      "extern \"C\" {\n"
	      "int f(void);\n",
	      NULL, NULL, &d);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 2, "included file 'linux/missing.h' is not exported"));
	ck_assert(
		has_diag(&d, UD_SEV_WARNING, 3, "<linux/types.h> is preferred over <asm/types.h>"));
	ck_assert(has_diag(&d, UD_SEV_WARNING, 4, "userspace cannot reference"));
	ck_assert(!has_diag(&d, UD_SEV_WARNING, 5, "userspace cannot reference"));
	ck_assert(has_diag(&d, UD_SEV_WARNING, 6, "userspace cannot reference"));
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_sized_types)
{
	struct ud_diags d = UD_DIAGS_INIT;

	check("linux/b.h", "/* __u32 in a comment */\nstruct b { __u32 x; };\n", NULL, NULL, &d);
	ck_assert(has_diag(&d, UD_SEV_WARNING, 2, "without #include <linux/types.h>"));
	ud_diags_free(&d);
	/* through a quoted include that includes linux/types.h */
	check("drm/c.h", "#include \"drm.h\"\nstruct c { __u32 x; };\n", NULL, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
	/* types headers themselves are exempt */
	check("asm/posix_types.h", "typedef __u32 t;\n", NULL, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_kernel_only_macros)
{
	static const char src[] = "#ifdef __KERNEL__\n"		       /* 1 */
				  "#define MAX 16\n"		       /* 2 */
				  "#define sigcontext sigcontext_64\n" /* 3 */
				  "#endif\n"			       /* 4 */
				  "struct t { int e[MAX]; };\n"	       /* 5 */
				  "struct sigcontext { int x; };\n"    /* 6 */
				  "#if defined(X) && __KERNEL__\n"     /* 7 */
				  "#endif\n";			       /* 8 */
	static const char out[] = "struct t { int e[MAX]; };\n"
				  "struct sigcontext { int x; };\n"
				  "#if defined(X) && __KERNEL__\n"
				  "#endif\n";
	unsigned lines[] = {5, 6, 7, 8};
	struct ud_linemap map = {lines, 4, 4};
	struct ud_diags d = UD_DIAGS_INIT;

	check("linux/t.h", out, src, &map, &d);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 5,
			   "uses MAX, which this header defines only under __KERNEL__ (line 2)"));
	ck_assert(!has_diag(&d, UD_SEV_ERROR, 6, "sigcontext"));
	ck_assert(has_diag(&d, UD_SEV_WARNING, 7, "__KERNEL__ left in an installed header"));
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hcheck");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rules);
	tcase_add_test(tc, test_sized_types);
	tcase_add_test(tc, test_kernel_only_macros);
	suite_add_tcase(s, tc);
	return test_run(s);
}
