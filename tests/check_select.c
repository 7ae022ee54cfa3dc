// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conditional selection tests: unifdef 2.5 semantics with __KERNEL__
 * undefined and __EXPORTED_HEADERS__ defined.
 */
#include "testutil.h"
#include "uapid/select.h"

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
	suite_add_tcase(s, tc);
	return test_run(s);
}
