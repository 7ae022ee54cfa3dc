// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conditional selection tests: unifdef 2.5 semantics with __KERNEL__
 * undefined and __EXPORTED_HEADERS__ defined, and the older unifdefs of
 * 2.6.x trees.
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/select.h"

static const struct ud_expr_sym syms[] = {
	{"__KERNEL__", NULL},
	{"__EXPORTED_HEADERS__", "1"},
};

static void
expect(const char *in, const char *want)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_msg(ud_select(in, strlen(in), syms, 2, &out, NULL, &d) == 0, "failed: %s",
		      d.n ? d.v[0].message : "");
	ck_assert_msg(strcmp(ud_buf_str(&out), want) == 0, "in:\n%s\ngot:\n%s\nwant:\n%s", in,
		      ud_buf_str(&out), want);
	ud_buf_free(&out);
	ud_diags_free(&d);
}

static void
expect_error(const char *in, unsigned line, const char *text)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_lt(ud_select(in, strlen(in), syms, 2, &out, NULL, &d), 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.v[0].line, line);
	ck_assert_msg(strstr(d.v[0].message, text) != NULL, "'%s'", d.v[0].message);
	ud_buf_free(&out);
	ud_diags_free(&d);
}

START_TEST(test_known_symbols)
{
	expect("a\n#ifdef __KERNEL__\nk\n#endif\nb\n", "a\nb\n");
	expect("#ifndef __KERNEL__\nu\n#endif\n", "u\n");
	expect("#ifdef __KERNEL__\nk\n#else\nu\n#endif\n", "u\n");
	expect("#if defined(__KERNEL__) && defined(X)\nk\n#endif\n", "");
	expect("#if !defined(__KERNEL__) || defined(X)\nu\n#endif\n", "u\n");
	expect("#ifndef __EXPORTED_HEADERS__\n#warning no\n#endif\n", "");
	expect("#if __KERNEL__\nk\n#endif\n", "");
}
END_TEST

START_TEST(test_unknown_kept)
{
	expect("#ifdef X\nx\n#else\ny\n#endif\n", "#ifdef X\nx\n#else\ny\n#endif\n");
	/* a known side that does not decide leaves the line as it is */
	expect("#if defined(X) && !defined(__KERNEL__)\nx\n#endif\n",
	       "#if defined(X) && !defined(__KERNEL__)\nx\n#endif\n");
	/* constant conditions are kept too */
	expect("#if 0\ndoc\n#endif\n", "#if 0\ndoc\n#endif\n");
	expect("#if 1\nx\n#endif\n", "#if 1\nx\n#endif\n");
	/* trailing text makes a known #ifdef unknown */
	expect("#ifdef __KERNEL__ junk\nk\n#endif\n", "#ifdef __KERNEL__ junk\nk\n#endif\n");
}
END_TEST

START_TEST(test_elif_rewrites)
{
	/* a false #if followed by an unknown #elif: the #elif becomes "#if  " */
	expect("#ifdef __KERNEL__\nk\n#elif defined(X)\nx\n#else\ny\n#endif\n",
	       "#if   defined(X)\nx\n#else\ny\n#endif\n");
	/* an unknown #if followed by a true #elif: #else, and the rest goes */
	expect("#if defined(X)\nx\n#elif !defined(__KERNEL__) /* c */\nu\n#else\nz\n#endif\n",
	       "#if defined(X)\nx\n#else\nu\n#endif\n");
	/* false #elif in a kept group is dropped with its body */
	expect("#if defined(X)\nx\n#elif defined(__KERNEL__)\nk\n#endif\n",
	       "#if defined(X)\nx\n#endif\n");
	/* false then true #elif: the true body, no directives */
	expect("#if defined(__KERNEL__)\nk\n#elif 1 == 1 && !defined(__KERNEL__)\nu\n#endif\n",
	       "u\n");
}
END_TEST

START_TEST(test_comments_and_continuations)
{
	expect("#ifdef __KERNEL__ /* a comment */\nk\n#endif /* __KERNEL__ */\n", "");
	/* a continued directive carries its next line */
	expect("#if defined(X) || \\\n    defined(Y)\nx\n#endif\n",
	       "#if defined(X) || \\\n    defined(Y)\nx\n#endif\n");
	/* "#ifdef" in a comment or string is no directive */
	expect("/*\n#ifdef __KERNEL__\n*/\nchar *s = \"#ifdef __KERNEL__\";\n",
	       "/*\n#ifdef __KERNEL__\n*/\nchar *s = \"#ifdef __KERNEL__\";\n");
	/* no final newline */
	expect("#ifndef __KERNEL__\nu\n#endif", "u\n");
}
END_TEST

START_TEST(test_errors)
{
	expect_error("#endif\n", 1, "#endif without");
	expect_error("#else\n", 1, "#else without");
	expect_error("a\n#ifdef X\n#if Y\n#endif\n", 2, "no #endif");
	expect_error("#ifdef X\n#else\n#else\n#endif\n", 3, "second #else");
	expect_error("#ifdef __KERNEL__ /* spans\n lines */\nk\n#endif\n", 1, "comment spans");
	expect_error("int c = 'x;\n", 1, "unterminated char literal");
	expect_error("/* open\n", 1, "end of file inside a comment");
}
END_TEST

START_TEST(test_linemap)
{
	static const char in[] =
		"a\n#ifdef __KERNEL__\nk\n#endif\nb\n#if defined(X) || \\\n Y\nc\n";
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_linemap m = {NULL, 0, 0};

	ck_assert_int_lt(ud_select(in, sizeof(in) - 1, syms, 2, &out, &m, &d), 0); /* no #endif */
	ud_diags_free(&d);
	ck_assert_int_eq(
		ud_select("a\n#ifdef __KERNEL__\nk\n#endif\nb\n", 31, syms, 2, &out, &m, &d), 0);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_uint_eq(m.v[0], 1);
	ck_assert_uint_eq(m.v[1], 5);
	ud_linemap_free(&m);
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_nesting_limit)
{
	struct ud_buf in = UD_BUF_INIT, out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	int i;

	for (i = 0; i < 100; i++)
		ud_buf_addstr(&in, "#ifdef X\n");
	ck_assert_int_lt(ud_select(in.data, in.len, syms, 2, &out, NULL, &d), 0);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "too many levels"));
	ud_buf_free(&in);
	ud_buf_free(&out);
	ud_diags_free(&d);
}
END_TEST

/*
 * The same input through each unifdef a kernel tree built: 1.171 with the
 * kernel's boolean patch (2.6.32), 1.190 (2.6.35) and 2.5 (3.x), each with
 * -U__KERNEL__ -D__EXPORTED_HEADERS__.  The expected texts are what those
 * programs, compiled from the trees' own scripts/unifdef.c, wrote (NULL:
 * it failed; 1.171 aborts on a last line "#endif" without a newline).
 */
static const struct {
	const char *in, *v1171, *v1190, *v25;
} version_cases[] = {
	{"#if defined(__KERNEL__) && __LINUX_ARM_ARCH__ >= 6\n"
	 "k\n"
	 "#else\n"
	 "u\n"
	 "#endif\n",
	 "#if defined(__KERNEL__) && __LINUX_ARM_ARCH__ >= 6\n"
	 "k\n"
	 "#else\n"
	 "u\n"
	 "#endif\n",
	 "u\n", "u\n"},
	{"#if defined __KERNEL__\n"
	 "k\n"
	 "#endif\n"
	 "x\n",
	 "#if defined __KERNEL__\n"
	 "k\n"
	 "#endif\n"
	 "x\n",
	 "x\n", "x\n"},
	{"#if defined(__KERNEL__) && (defined(X) || defined(Y))\n"
	 "k\n"
	 "#endif\n",
	 "#if defined(__KERNEL__) && (defined(X) || defined(Y))\n"
	 "k\n"
	 "#endif\n",
	 "", ""},
	{"#if !defined(__KERNEL__) && defined(__KERNEL__)\n"
	 "both\n"
	 "#endif\n",
	 "both\n", "", ""},
	{"#if defined(__KERNEL__) || !defined(__KERNEL__)\n"
	 "either\n"
	 "#endif\n",
	 "", "either\n", "either\n"},
	{"#if defined(X) && defined(__KERNEL__)\n"
	 "k\n"
	 "#endif\n"
	 "#if defined(X) || !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n",
	 "u\n", "u\n", "u\n"},
	{"#if defined(X)\n"
	 "a\n"
	 "#elif defined(__KERNEL__) && Y\n"
	 "b\n"
	 "#elif !defined(__KERNEL__)\n"
	 "c\n"
	 "#else\n"
	 "d\n"
	 "#endif\n",
	 "#if defined(X)\n"
	 "a\n"
	 "#elif defined(__KERNEL__) && Y\n"
	 "b\n"
	 "#else\n"
	 "c\n"
	 "#endif\n",
	 "#if defined(X)\n"
	 "a\n"
	 "#else\n"
	 "c\n"
	 "#endif\n",
	 "#if defined(X)\n"
	 "a\n"
	 "#else\n"
	 "c\n"
	 "#endif\n"},
	{"#if !defined(X) && !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if (defined(__KERNEL__))\n"
	 "k\n"
	 "#endif\n"
	 "#if 0\n"
	 "z\n"
	 "#endif\n",
	 "#if !defined(X) && !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if 0\n"
	 "z\n"
	 "#endif\n",
	 "#if !defined(X) && !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if 0\n"
	 "z\n"
	 "#endif\n",
	 "#if !defined(X) && !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if 0\n"
	 "z\n"
	 "#endif\n"},
	{"#ifdef __KERNEL__\r\n"
	 "k\r\n"
	 "#endif\r\n"
	 "#ifndef __KERNEL__\r\n"
	 "u\r\n"
	 "#else\r\n"
	 "k\r\n"
	 "#endif\r\n",
	 "#ifdef __KERNEL__\r\n"
	 "k\r\n"
	 "#endif\r\n"
	 "#ifndef __KERNEL__\r\n"
	 "u\r\n"
	 "#else\r\n"
	 "k\r\n"
	 "#endif\r\n",
	 "#ifdef __KERNEL__\r\n"
	 "k\r\n"
	 "#endif\r\n"
	 "#ifndef __KERNEL__\r\n"
	 "u\r\n"
	 "#else\r\n"
	 "k\r\n"
	 "#endif\r\n",
	 "u\r\n"},
	{"#if __EXPORTED_HEADERS__\n"
	 "e\n"
	 "#endif\n"
	 "#ifdef __EXPORTED_HEADERS__\n"
	 "f\n"
	 "#endif\n",
	 "#if __EXPORTED_HEADERS__\n"
	 "e\n"
	 "#endif\n"
	 "f\n",
	 "#if __EXPORTED_HEADERS__\n"
	 "e\n"
	 "#endif\n"
	 "f\n",
	 "e\n"
	 "f\n"},
	{"#ifndef _X_H\n"
	 "#define _X_H\n"
	 "#ifdef __KERNEL__\n"
	 "k\n"
	 "#endif\n"
	 "#endif",
	 NULL,
	 "#ifndef _X_H\n"
	 "#define _X_H\n"
	 "#endif\n",
	 "#ifndef _X_H\n"
	 "#define _X_H\n"
	 "#endif\n"},
	{"#if FOO(1) || !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if !defined(__KERNEL__) || FOO(1)\n"
	 "v\n"
	 "#endif\n",
	 "#if FOO(1) || !defined(__KERNEL__)\n"
	 "u\n"
	 "#endif\n"
	 "#if !defined(__KERNEL__) || FOO(1)\n"
	 "v\n"
	 "#endif\n",
	 "u\n"
	 "v\n",
	 "u\n"
	 "v\n"},
};

static void
expect_as(enum ud_unifdef v, const char *in, const char *want)
{
	/* a bare -D: 2.5 gives it the value 1, the older ones "" */
	const struct ud_expr_sym vsyms[] = {
		{"__KERNEL__", NULL},
		{"__EXPORTED_HEADERS__", v == UD_UNIFDEF_25 ? "1" : ""},
	};
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	int rc = ud_select_as(v, in, strlen(in), vsyms, 2, &out, NULL, &d);

	if (want == NULL) {
		ck_assert_msg(rc < 0, "unifdef %d fails on:\n%s", (int)v, in);
	} else {
		ck_assert_msg(rc == 0, "unifdef %d: failed: %s", (int)v, d.n ? d.v[0].message : "");
		ck_assert_msg(strcmp(ud_buf_str(&out), want) == 0,
			      "unifdef %d, in:\n%s\ngot:\n%s\nwant:\n%s", (int)v, in,
			      ud_buf_str(&out), want);
	}
	ud_buf_free(&out);
	ud_diags_free(&d);
}

START_TEST(test_older_unifdefs)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(version_cases); i++) {
		expect_as(UD_UNIFDEF_1171, version_cases[i].in, version_cases[i].v1171);
		expect_as(UD_UNIFDEF_1190, version_cases[i].in, version_cases[i].v1190);
		expect_as(UD_UNIFDEF_25, version_cases[i].in, version_cases[i].v25);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_known_symbols);
	tcase_add_test(tc, test_unknown_kept);
	tcase_add_test(tc, test_elif_rewrites);
	tcase_add_test(tc, test_comments_and_continuations);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_linemap);
	tcase_add_test(tc, test_nesting_limit);
	tcase_add_test(tc, test_older_unifdefs);
	suite_add_tcase(s, tc);
	return test_run(s);
}
