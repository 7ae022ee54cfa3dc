// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Install tests: the headers_install.sh edits (expectations produced by
 * GNU sed running the script's own expressions), the SPDX and CONFIG_
 * rules, the leak list parser.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/install.h"

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

	for (i = 0; i < ARRAY_SIZE(sed_cases); i++) {
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

/*
 * headers_install.pl's per-line edits (3.x), each case as Perl 5.36 runs
 * the script's expressions on it: the 3.8 and the 3.7 form of the _UAPI
 * guard edits.  The line keeps its newline, so \s can take it.
 */
static const struct {
	const char *in, *perl38, *perl37;
} pl_cases[] = {
	{"\tvoid __user *p;\n", "\tvoid *p;\n", "\tvoid *p;\n"},
	{"\tchar __user\n", "\tchar ", "\tchar "},
	{"(__user __force int *)x\n", "(int *)x\n", "(int *)x\n"},
	{"\tint (__user*p);\n", "\tint (__user*p);\n", "\tint (__user*p);\n"},
	{"\t__iomem\n", "\t", "\t"},
	{"__user x\n", "__user x\n", "__user x\n"},
	{"\tvoid __user\t*tab;\n", "\tvoid *tab;\n", "\tvoid *tab;\n"},
	{"int f(void) __attribute_const__;\n", "int f(void) __attribute_const__;\n",
	 "int f(void) __attribute_const__;\n"},
	{"int g(void) __attribute_const__ ;\n", "int g(void) ;\n", "int g(void) ;\n"},
	{"int h(void) __attribute_const__\n", "int h(void) ", "int h(void) "},
	{"int __attribute_const__x;\n", "int __attribute_const__x;\n",
	 "int __attribute_const__x;\n"},
	{"struct s { int a; } __packed;\n", "struct s { int a; } __attribute__((packed));\n",
	 "struct s { int a; } __attribute__((packed));\n"},
	{"x__packed __packed_y __packed\n", "x__packed __packed_y __attribute__((packed))\n",
	 "x__packed __packed_y __attribute__((packed))\n"},
	{"(__packed)\n", "(__attribute__((packed)))\n", "(__attribute__((packed)))\n"},
	{"__packed\n", "__attribute__((packed))\n", "__attribute__((packed))\n"},
	{"#include <linux/compiler.h>\n", "\n", "\n"},
	{" #include <linux/compiler.h>\n", " #include <linux/compiler.h>\n",
	 " #include <linux/compiler.h>\n"},
	{"#include <linux/compiler.h> /* c */\n", " /* c */\n", " /* c */\n"},
	{"#include <linux/compiler_types.h>\n", "#include <linux/compiler_types.h>\n",
	 "#include <linux/compiler_types.h>\n"},
	{"static inline int f(void)\n", "static __inline__ int f(void)\n",
	 "static __inline__ int f(void)\n"},
	{"inline\n", "__inline__\n", "__inline__\n"},
	{"(inline)\n", "(inline)\n", "(inline)\n"},
	{"\tunsigned int inline_count;\n", "\tunsigned int inline_count;\n",
	 "\tunsigned int inline_count;\n"},
	{"x inline inline\n", "x __inline__ __inline__\n", "x __inline__ __inline__\n"},
	{"asm asm\n", "__asm__ asm\n", "__asm__ asm\n"},
	{"asm\n", "__asm__\n", "__asm__\n"},
	{"asm(\"x\");\n", "__asm__(\"x\");\n", "__asm__(\"x\");\n"},
	{"\tasm volatile(\"\" ::: \"memory\");\n", "\t__asm__ __volatile__(\"\" ::: \"memory\");\n",
	 "\t__asm__ __volatile__(\"\" ::: \"memory\");\n"},
	{"int asm_x;\n", "int asm_x;\n", "int asm_x;\n"},
	{"(volatile)\n", "(volatile)\n", "(volatile)\n"},
	{"(volatile int *)p\n", "(__volatile__ int *)p\n", "(__volatile__ int *)p\n"},
	{"volatile(x)\n", "__volatile__(x)\n", "__volatile__(x)\n"},
	{"\tvolatile\n", "\t__volatile__\n", "\t__volatile__\n"},
	{"a volatile volatile b\n", "a __volatile__ volatile b\n", "a __volatile__ volatile b\n"},
	{"#ifndef _UAPI_LINUX_FOO_H\n", "#ifndef _LINUX_FOO_H\n", "#ifndef _LINUX_FOO_H\n"},
	{"#ifndef\t\t_UAPI__ASM_X\n", "#ifndef __ASM_X\n", "#ifndef\t\t_UAPI__ASM_X\n"},
	{"#ifndef  _UAPI_X\n", "#ifndef _X\n", "#ifndef  _UAPI_X\n"},
	{"#define _UAPI_LINUX_FOO_H\n", "#define _LINUX_FOO_H\n", "#define _LINUX_FOO_H\n"},
	{"#define\t_UAPI_T\n", "#define _T\n", "#define\t_UAPI_T\n"},
	{"#endif /* _UAPI_LINUX_FOO_H */\n", "#endif /* _LINUX_FOO_H */\n",
	 "#endif /* _LINUX_FOO_H */\n"},
	{"#endif\t/*_UAPI_X */\n", "#endif /* _X */\n", "#endif\t/*_UAPI_X */\n"},
	{"#endif/*_UAPI_X */\n", "#endif/*_UAPI_X */\n", "#endif/*_UAPI_X */\n"},
	{"#endif /*  _UAPI_Y */\n", "#endif /* _Y */\n", "#endif /*  _UAPI_Y */\n"},
	{"# define _UAPI_SPACED\n", "# define _UAPI_SPACED\n", "# define _UAPI_SPACED\n"},
	{"  #ifndef _UAPI_X\n", "  #ifndef _X\n", "  #ifndef _X\n"},
	{"#ifndef _UAPI_A /* #define _UAPI_B */\n", "#ifndef _A /* #define _B */\n",
	 "#ifndef _A /* #define _B */\n"},
	{"#ifndef _UAPI_A_UAPI #ifndef _UAPI_C\n", "#ifndef _A_UAPI #ifndef _UAPI_C\n",
	 "#ifndef _A_UAPI #ifndef _UAPI_C\n"},
	{"int h(void) __attribute_const__", "int h(void)", "int h(void)"},
	{"\tvoid __user\r\n", "\tvoid \n", "\tvoid \n"},
	{"__user", "__user", "__user"},
	{" __user", " __user", " __user"},
};

START_TEST(test_pl_edits)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pl_cases); i++) {
		struct ud_buf out = UD_BUF_INIT;

		ud_install_pl_line(pl_cases[i].in, strlen(pl_cases[i].in), true, &out);
		ck_assert_msg(strcmp(ud_buf_str(&out), pl_cases[i].perl38) == 0,
			      "3.8: '%s' -> '%s', perl says '%s'", pl_cases[i].in, ud_buf_str(&out),
			      pl_cases[i].perl38);
		ud_buf_reset(&out);
		ud_install_pl_line(pl_cases[i].in, strlen(pl_cases[i].in), false, &out);
		ck_assert_msg(strcmp(ud_buf_str(&out), pl_cases[i].perl37) == 0,
			      "3.7: '%s' -> '%s', perl says '%s'", pl_cases[i].in, ud_buf_str(&out),
			      pl_cases[i].perl37);
		ud_buf_free(&out);
	}
}
END_TEST

/* The edits append to what out holds. */
START_TEST(test_pl_appends)
{
	struct ud_buf out = UD_BUF_INIT;

	ud_buf_addstr(&out, "kept:");
	ud_install_pl_line("inline x\n", 9, true, &out);
	ck_assert_str_eq(ud_buf_str(&out), "kept:__inline__ x\n");
	ud_buf_free(&out);
}
END_TEST

/* A whole 3.x header: the Perl edits, then unifdef; no SPDX or CONFIG_ check (as the 3.8 script).
 */
START_TEST(test_pl_header)
{
	static const char in[] = "/* SPDX-License-Identifier: GPL-2.0 */\n"
				 "#ifndef _UAPI_LINUX_P_H\n"
				 "#define _UAPI_LINUX_P_H\n"
				 "#include <linux/compiler.h>\n"
				 "struct p {\n"
				 "\tchar __user\n"
				 "\t\t*name;\n"
				 "\tint x;\n"
				 "} __packed;\n"
				 "#ifdef __KERNEL__\n"
				 "int kernel_only;\n"
				 "#endif\n"
				 "#ifndef __EXPORTED_HEADERS__\n"
				 "#warning \"no\"\n"
				 "#endif\n"
				 "#ifdef CONFIG_P_LEGACY\n"
				 "#define P_LEGACY 1\n"
				 "#endif\n"
				 "static inline int p(void) { return 1; }\n"
				 "#endif /* _UAPI_LINUX_P_H */\n";
	static const char q[] = "#ifndef  _UAPI_Q_H\n#define _UAPI_Q_H\n#endif\t/* _UAPI_Q_H */\n";
	static const char unbalanced[] = "#ifdef __KERNEL__\nint k;\n";
	static const unsigned lines[] = {1, 2, 3, 4, 5, 6, 8, 9, 16, 17, 18, 19, 20};
	struct ud_buf out = UD_BUF_INIT;
	struct ud_linemap map = {NULL, 0, 0};
	struct ud_diags d = UD_DIAGS_INIT;
	size_t i;

	ck_assert_int_eq(ud_install_header_pl(in, sizeof(in) - 1, true, &out, &map, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out), "/* SPDX-License-Identifier: GPL-2.0 */\n"
					   "#ifndef _LINUX_P_H\n"
					   "#define _LINUX_P_H\n"
					   "\n"
					   "struct p {\n"
					   "\tchar \t\t*name;\n"
					   "\tint x;\n"
					   "} __attribute__((packed));\n"
					   "#ifdef CONFIG_P_LEGACY\n"
					   "#define P_LEGACY 1\n"
					   "#endif\n"
					   "static __inline__ int p(void) { return 1; }\n"
					   "#endif /* _LINUX_P_H */\n");
	ck_assert_uint_eq(d.n, 0);
	/* each output line names the source line it starts on (a joined line: the first) */
	ck_assert_uint_eq(map.n, ARRAY_SIZE(lines));
	for (i = 0; i < map.n; i++)
		ck_assert_msg(map.v[i] == lines[i], "output line %zu from %u, want %u", i + 1,
			      map.v[i], lines[i]);
	ud_linemap_free(&map);

	/* the 3.7 guard edits want exactly one blank; no map asked for */
	ck_assert_int_eq(ud_install_header_pl(q, strlen(q), false, &out, NULL, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out),
			 "#ifndef  _UAPI_Q_H\n#define _Q_H\n#endif\t/* _UAPI_Q_H */\n");
	ck_assert_int_eq(ud_install_header_pl(q, strlen(q), true, &out, NULL, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out), "#ifndef _Q_H\n#define _Q_H\n#endif /* _Q_H */\n");
	ck_assert_uint_eq(d.n, 0);

	/* what unifdef refuses, and bytes that are no text */
	ck_assert_int_eq(ud_install_header_pl(unbalanced, strlen(unbalanced), true, &out, NULL, &d),
			 -EINVAL);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ck_assert_uint_eq(d.v[0].line, 1);
	ud_diags_free(&d);
	ck_assert_int_eq(ud_install_header_pl("a\0b\n", 4, true, &out, NULL, &d), -EINVAL);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	/* empty input, empty output */
	ck_assert_int_eq(ud_install_header_pl("", 0, true, &out, NULL, &d), 0);
	ck_assert_uint_eq(out.len, 0);
	ud_buf_free(&out);
}
END_TEST

/*
 * The scripts of before the split, as their lines are (2.6.35's; 2.6.2x's
 * local file handles and "-U__KERNEL__" alone; 3.x's __packed edit and
 * unifdef exit check); what uapid reads from them.
 */
#define PL_HEAD                                                                                    \
	"#!/usr/bin/perl -w\n"                                                                     \
	"# headers_install prepare the listed header files\n"                                      \
	"use strict;\n"                                                                            \
	"\n"                                                                                       \
	"my ($readdir, $installdir, $arch, @files) = @ARGV;\n"                                     \
	"\n"
#define PL_OPEN                                                                                    \
	"foreach my $file (@files) {\n"                                                            \
	"\tmy $tmpfile = \"$installdir/$file.tmp\";\n"                                             \
	"\topen(my $in, '<', \"$readdir/$file\")\n"                                                \
	"\t    or die \"$readdir/$file: $!\\n\";\n"                                                \
	"\topen(my $out, '>', $tmpfile)\n"                                                         \
	"\t    or die \"$tmpfile: $!\\n\";\n"                                                      \
	"\twhile (my $line = <$in>) {\n"
#define PL_EDITS_A                                                                                 \
	"\t\t$line =~ s/([\\s(])__user\\s/$1/g;\n"                                                 \
	"\t\t$line =~ s/([\\s(])__force\\s/$1/g;\n"                                                \
	"\t\t$line =~ s/([\\s(])__iomem\\s/$1/g;\n"                                                \
	"\t\t$line =~ s/\\s__attribute_const__\\s/ /g;\n"                                          \
	"\t\t$line =~ s/\\s__attribute_const__$//g;\n"
#define PL_PACKED "\t\t$line =~ s/\\b__packed\\b/__attribute__((packed))/g;\n"
#define PL_EDITS_B                                                                                 \
	"\t\t$line =~ s/^#include <linux\\/compiler.h>//;\n"                                       \
	"\t\t$line =~ s/(^|\\s)(inline)\\b/$1__$2__/g;\n"                                          \
	"\t\t$line =~ s/(^|\\s)(asm)\\b(\\s|[(]|$)/$1__$2__$3/g;\n"                                \
	"\t\t$line =~ s/(^|\\s|[(])(volatile)\\b(\\s|[(]|$)/$1__$2__$3/g;\n"
#define PL_TAIL                                                                                    \
	"\t\tprintf {$out} \"%s\", $line;\n"                                                       \
	"\t}\n"                                                                                    \
	"\tclose $out;\n"                                                                          \
	"\tclose $in;\n"                                                                           \
	"\tsystem $unifdef . \" $tmpfile > $installdir/$file\";\n"
#define PL_CHECK                                                                                   \
	"\tmy $e = $? >> 8;\n"                                                                     \
	"\tif ($e > 1) {\n"                                                                        \
	"\t\tdie \"$tmpfile: $!\\n\";\n"                                                           \
	"\t}\n"
#define PL_END                                                                                     \
	"\tunlink $tmpfile;\n"                                                                     \
	"}\n"                                                                                      \
	"exit 0;\n"
#define UNIFDEF_EXPORTED "my $unifdef = \"scripts/unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__\";\n"

START_TEST(test_pl_recognise)
{
	static const char v2635[] =
		PL_HEAD UNIFDEF_EXPORTED PL_OPEN PL_EDITS_A PL_EDITS_B PL_TAIL PL_END;
	static const char v36[] = PL_HEAD UNIFDEF_EXPORTED PL_OPEN PL_EDITS_A PL_PACKED PL_EDITS_B
		PL_TAIL PL_CHECK PL_END;
	static const char v262x[] =
		PL_HEAD "my $unifdef = \"scripts/unifdef -U__KERNEL__\";\n"
			"foreach my $file (@files) {\n"
			"\tlocal *INFILE;\n"
			"\tlocal *OUTFILE;\n"
			"\tmy $tmpfile = \"$installdir/$file.tmp\";\n"
			"\topen(INFILE, \"<$readdir/$file\")\r\n"
			"\t\tor die \"$readdir/$file: $!\\n\";\n"
			"\topen(OUTFILE, \">$tmpfile\") or die \"$tmpfile: $!\\n\";\n"
			"\twhile (my $line = <INFILE>) {\n" PL_EDITS_A PL_EDITS_B
			"\t\tprintf OUTFILE \"%s\", $line;\n"
			"\t}\n"
			"\tsystem $unifdef . \" $tmpfile > $installdir/$file\";\n" PL_END;
	/* a vendor's extra edit, an edit missing, another unifdef, another way to read */
	static const char vendor[] = PL_HEAD UNIFDEF_EXPORTED PL_OPEN PL_EDITS_A PL_EDITS_B
		"\t\t$line =~ s/__NR_64_/__NR_/g;\n" PL_TAIL PL_CHECK PL_END;
	static const char lacking[] = PL_HEAD UNIFDEF_EXPORTED PL_OPEN PL_EDITS_A PL_TAIL PL_END;
	static const char other_unifdef[] =
		PL_HEAD "my $unifdef = \"scripts/unifdef -U__KERNEL__ -DFOO\";\n" PL_OPEN PL_EDITS_A
			PL_EDITS_B PL_TAIL PL_END;
	static const char other_open[] = PL_HEAD UNIFDEF_EXPORTED
		"open(my $in, '<', $file)\n" PL_EDITS_A PL_EDITS_B PL_TAIL PL_END;
	struct ud_install_pl pl;
	char *why = NULL;

	ck_assert_int_eq(ud_install_pl_recognise(v2635, strlen(v2635), &pl, &why), 0);
	ck_assert(!pl.packed && pl.exported_headers && !pl.unifdef_checked);
	ck_assert_int_eq(pl.guards, UD_PL_GUARDS_NONE);
	ck_assert_int_eq(ud_install_pl_recognise(v36, strlen(v36), &pl, &why), 0);
	ck_assert(pl.packed && pl.exported_headers && pl.unifdef_checked);
	ck_assert_int_eq(ud_install_pl_recognise(v262x, strlen(v262x), &pl, &why), 0);
	ck_assert(!pl.packed && !pl.exported_headers && !pl.unifdef_checked);

	ck_assert_int_eq(ud_install_pl_recognise(vendor, strlen(vendor), &pl, &why), -ENOTSUP);
	ck_assert_msg(strstr(why, "line 24: an edit uapid does not reproduce: $line =~ "
				  "s/__NR_64_/__NR_/g;") != NULL,
		      "%s", why);
	free(why);
	ck_assert_int_eq(ud_install_pl_recognise(lacking, strlen(lacking), &pl, &why), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(why, "lacks an edit"));
	ck_assert_ptr_nonnull(strstr(why, "compiler.h"));
	free(why);
	ck_assert_int_eq(ud_install_pl_recognise(other_unifdef, strlen(other_unifdef), &pl, &why),
			 -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(why, "a unifdef command uapid does not know"));
	free(why);
	ck_assert_int_eq(ud_install_pl_recognise(other_open, strlen(other_open), &pl, &why),
			 -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(why, "$readdir/$file"));
	free(why);
}
END_TEST

START_TEST(test_unifdef_recognise)
{
	static const char v25[] =
		"const char copyright[] =\n    \"@(#) $Version: unifdef-2.5 $\\n\"\n";
	static const char v190[] = "    \"$dotat: unifdef/unifdef.c,v 1.190 2009/11/27 17:21:26 "
				   "fanf2 Exp $\",\n";
	static const char v171[] =
		"__IDSTRING(dotat, \"$dotat: things/unifdef.c,v 1.171 2005/03/08 "
		"12:38:48 fanf2 Exp $\");\n"
		"\tlhs = ops->inner(ops+1, valp, &cp);\n";
	static const char v171_unpatched[] = "\"$dotat: things/unifdef.c,v 1.171 2005/03/08 "
					     "12:38:48 fanf2 Exp $\"\n"
					     "\tif (ops->inner(ops+1, valp, &cp) == LT_IF)\n";
	enum ud_unifdef u;

	ck_assert_int_eq(ud_unifdef_recognise(v25, strlen(v25), &u), 0);
	ck_assert_int_eq(u, UD_UNIFDEF_25);
	ck_assert_int_eq(ud_unifdef_recognise(v190, strlen(v190), &u), 0);
	ck_assert_int_eq(u, UD_UNIFDEF_1190);
	ck_assert_int_eq(ud_unifdef_recognise(v171, strlen(v171), &u), 0);
	ck_assert_int_eq(u, UD_UNIFDEF_1171);
	/* 1.171 as FreeBSD has it, without the kernel's patch: another evaluator */
	ck_assert_int_eq(ud_unifdef_recognise(v171_unpatched, strlen(v171_unpatched), &u),
			 -ENOTSUP);
	ck_assert_int_eq(ud_unifdef_recognise("int main;", 9, &u), -ENOTSUP);
}
END_TEST

/*
 * The pre-split edits: no __packed edit before 3.x, no guard edits before
 * 3.7 (Perl 5.36 running 2.6.35's expressions gives these).
 */
START_TEST(test_pl_presplit_edits)
{
	static const char in[] = "struct s { int a; } __packed;\n"
				 "#include <linux/compiler.h>\n"
				 "#ifndef _UAPI_LINUX_FOO_H\n"
				 "static inline void f(void) { asm volatile(\"nop\"); }\n"
				 "\tchar __user\n"
				 "\t\t*name;\n";
	static const char want[] =
		"struct s { int a; } __packed;\n"
		"\n"
		"#ifndef _UAPI_LINUX_FOO_H\n"
		"static __inline__ void f(void) { __asm__ __volatile__(\"nop\"); }\n"
		"\tchar \t\t*name;\n";
	struct ud_install_pl pl = {false, UD_PL_GUARDS_NONE, true, false, UD_UNIFDEF_1190};
	struct ud_buf out = UD_BUF_INIT;
	const char *p = in;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');

		ud_install_pl_edit_line(p, (size_t)(nl + 1 - p), &pl, &out);
		p = nl + 1;
	}
	ck_assert_str_eq(ud_buf_str(&out), want);
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
	tcase_add_test(tc, test_pl_edits);
	tcase_add_test(tc, test_pl_appends);
	tcase_add_test(tc, test_pl_header);
	tcase_add_test(tc, test_pl_recognise);
	tcase_add_test(tc, test_unifdef_recognise);
	tcase_add_test(tc, test_pl_presplit_edits);
	suite_add_tcase(s, tc);
	return test_run(s);
}
