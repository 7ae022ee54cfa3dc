/*
 * Install tests: the headers_install.sh edits (expectations produced by
 * GNU sed running the script's own expressions), the SPDX and CONFIG_
 * rules, the leak list parser.
 */
#include "testutil.h"
#include "uapid/install.h"

static const struct {
	const char *in, *want;
} sed_cases[] = {
	{"\tvoid __user *p;", "\tvoid *p;"},
	{"(__user __force int *)x", "(__force int *)x"},
	{"\tint (__user*p);", "\tint (__user*p);"},
	{"extern int f(void) __attribute_const__;", "extern int f(void) __attribute_const__;"},
	{"extern int g(void) __attribute_const__ ;", "extern int g(void)  ;"},
	{"int __attribute_const__x;", "int __attribute_const__x;"},
	{"#include <linux/compiler.h>", ""},
	{"#include <linux/compiler_types.h> /* c */", " /* c */"},
	{" #include <linux/compiler.h>", " #include <linux/compiler.h>"},
	{"struct s { int a; } __packed;", "struct s { int a; } __attribute__((packed));"},
	{"struct t { int a; } __packed __packed;",
	 "struct t { int a; } __attribute__((packed)) __packed;"},
	{"int x__packed;", "int x__packed;"},
	{"_packed __packed_x __packed", "_packed __packed_x __attribute__((packed))"},
	{"static inline int f(void)", "static __inline__ int f(void)"},
	{"asm volatile(\"nop\");", "__asm__ volatile(\"nop\");"},
	{"static inline void g(void) { asm(\"x\"); }",
	 "static __inline__ void g(void) { __asm__(\"x\"); }"},
	{"inline", "__inline__"},
	{"\tunsigned int inline_count;", "\tunsigned int inline_count;"},
	{"#ifndef _UAPI_LINUX_FOO_H", "#ifndef _LINUX_FOO_H"},
	{"#define _UAPI_LINUX_FOO_H", "#define _LINUX_FOO_H"},
	{"#endif /* _UAPI_LINUX_FOO_H */", "#endif /* _LINUX_FOO_H */"},
	{"#endif /*_UAPI_X */", "#endif /* _X */"},
	{"# define _UAPI_SPACED", "# define _UAPI_SPACED"},
	{"#ifndef  _UAPI__ASM_X", "#ifndef __ASM_X"},
};

START_TEST(test_sed_edits)
{
	size_t i;

	for (i = 0; i < sizeof(sed_cases) / sizeof(sed_cases[0]); i++) {
		struct ud_buf out = UD_BUF_INIT;

		ud_install_sed_line(sed_cases[i].in, strlen(sed_cases[i].in), &out);
		ck_assert_msg(strcmp(ud_buf_str(&out), sed_cases[i].want) == 0,
			      "'%s' -> '%s', sed says '%s'", sed_cases[i].in, ud_buf_str(&out),
			      sed_cases[i].want);
		ud_buf_free(&out);
	}
}
END_TEST

static int
install(const char *path, const char *in, struct ud_install_rules *rules, struct ud_buf *out,
	struct ud_diags *d)
{
	return ud_install_header(path, in, strlen(in), rules, out, NULL, d);
}

START_TEST(test_whole_header)
{
	static const char in[] = "/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
				 "#ifndef _UAPI_LINUX_X_H\n"
				 "#define _UAPI_LINUX_X_H\n"
				 "#include <linux/compiler.h>\n"
				 "struct x { void __user *p; } __packed;\n"
				 "#ifdef __KERNEL__\n"
				 "int k;\n"
				 "#endif\n"
				 "#endif /* _UAPI_LINUX_X_H */\n";
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_eq(install("include/uapi/linux/x.h", in, NULL, &out, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out),
			 "/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
			 "#ifndef _LINUX_X_H\n"
			 "#define _LINUX_X_H\n"
			 "\n"
			 "struct x { void *p; } __attribute__((packed));\n"
			 "#endif /* _LINUX_X_H */\n");
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_spdx)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_lt(install("a.h", "/* x */\n/* SPDX-License-Identifier: GPL-2.0 */\nint a;\n",
				 NULL, &out, &d),
			 0);
	ck_assert_uint_eq(d.v[0].line, 2);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "WITH Linux-syscall-note"));
	ud_diags_free(&d);
	/* non-GPL licences need no note */
	ck_assert_int_eq(install("a.h", "/* SPDX-License-Identifier: MIT */\n", NULL, &out, &d), 0);
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_config_leaks)
{
	static const char in[] = "/* CONFIG_IN_COMMENT\n   CONFIG_STILL_COMMENT */\n"
				 "#ifdef CONFIG_FOO\n"
				 "#define A 1 /* CONFIG_C */\n"
				 "#endif\n"
				 "#define B CONFIG_BAR\n";
	static const char script[] = "#!/bin/sh\nconfig_leak_ignores=\"\n"
				     "include/uapi/linux/a.h:CONFIG_BAR\n\"\nfor c in x\n";
	struct ud_install_rules rules;
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_uint_eq(ud_install_rules_parse(script, sizeof(script) - 1, &rules), 1);
	ck_assert_str_eq(rules.leak_ignores[0], "include/uapi/linux/a.h:CONFIG_BAR");
	ck_assert_int_lt(install("include/uapi/linux/a.h", in, &rules, &out, &d), 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.v[0].line, 3);
	ck_assert_str_eq(d.v[0].message, "leaks CONFIG_FOO to user space");
	ud_diags_free(&d);
	/* without the grandfathered entry, CONFIG_BAR leaks too */
	ck_assert_int_lt(install("include/uapi/linux/b.h", in, &rules, &out, &d), 0);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.v[1].line, 6);
	ud_diags_free(&d);
	ud_install_rules_free(&rules);
	ud_buf_free(&out);
}
END_TEST

START_TEST(test_bad_input)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_lt(ud_install_header("a.h", "a\0b", 3, NULL, &out, NULL, &d), 0);
	ud_diags_free(&d);
	ck_assert_int_lt(install("a.h", "#ifdef X\n", NULL, &out, &d), 0);
	ck_assert_uint_eq(d.v[0].line, 1);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "no #endif"));
	ud_diags_free(&d);
	ud_buf_free(&out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("install");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sed_edits);
	tcase_add_test(tc, test_whole_header);
	tcase_add_test(tc, test_spdx);
	tcase_add_test(tc, test_config_leaks);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	return test_run(s);
}
