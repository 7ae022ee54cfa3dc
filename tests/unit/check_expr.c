// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Condition evaluation tests.
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/expr.h"

static enum ud_kclass
kc(const char *e)
{
	return ud_kclass_of(ud_expr_mentions_kernel(e), ud_expr_eval(e, UD_KERNEL_DEFINED),
			    ud_expr_eval(e, UD_KERNEL_UNDEFINED));
}

START_TEST(test_eval)
{
	ck_assert_int_eq(ud_expr_eval("defined(__KERNEL__)", UD_KERNEL_DEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("defined __KERNEL__", UD_KERNEL_UNDEFINED), UD_FALSE);
	ck_assert_int_eq(ud_expr_eval("!defined(__KERNEL__)", UD_KERNEL_UNDEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("defined(__KERNEL__)", UD_KERNEL_UNKNOWN), UD_UNKNOWN);
	ck_assert_int_eq(ud_expr_eval("defined(X)", UD_KERNEL_DEFINED), UD_UNKNOWN);
	ck_assert_int_eq(ud_expr_eval("0", UD_KERNEL_DEFINED), UD_FALSE);
	ck_assert_int_eq(ud_expr_eval("1", UD_KERNEL_DEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("0x10UL", UD_KERNEL_DEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("defined(X) && 0", UD_KERNEL_DEFINED), UD_FALSE);
	ck_assert_int_eq(ud_expr_eval("defined(X) || 1", UD_KERNEL_DEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("(defined(__KERNEL__) && 1) || 0", UD_KERNEL_DEFINED),
			 UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("__KERNEL__", UD_KERNEL_UNDEFINED), UD_FALSE);
	ck_assert_int_eq(ud_expr_eval("X > 2 && defined(__KERNEL__)", UD_KERNEL_UNDEFINED),
			 UD_FALSE);
	ck_assert_int_eq(
		ud_expr_eval("LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)", UD_KERNEL_DEFINED),
		UD_UNKNOWN);
	ck_assert_int_eq(ud_expr_eval("1 ? 0 : 1", UD_KERNEL_DEFINED), UD_FALSE);
	ck_assert_int_eq(ud_expr_eval("'a'", UD_KERNEL_DEFINED), UD_UNKNOWN);
}
END_TEST

START_TEST(test_malformed_is_unknown)
{
	static const char *const bad[] = {"",	       "(",    ")",	"defined(",
					  "defined()", "1 &&", "&& 1",	"defined(__KERNEL__",
					  "1 2",       "@",    "f(1,2", "1 ?"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(ud_expr_eval(bad[i], UD_KERNEL_DEFINED) == UD_UNKNOWN, "'%s'",
			      bad[i]);
}
END_TEST

START_TEST(test_deep_nesting)
{
	char *e = ud_xmalloc(200001);

	memset(e, '(', 100000);
	e[100000] = '1';
	memset(e + 100001, ')', 100000);
	e[200001 - 1] = '\0';
	ck_assert_int_eq(ud_expr_eval(e, UD_KERNEL_DEFINED), UD_UNKNOWN);
	memset(e, '!', 200000);
	e[200000] = '\0';
	ck_assert_int_eq(ud_expr_eval(e, UD_KERNEL_DEFINED), UD_UNKNOWN);
	free(e);
}
END_TEST

START_TEST(test_kclass)
{
	ck_assert_int_eq(kc("defined(__KERNEL__)"), UD_KC_KERNEL);
	ck_assert_int_eq(kc("!defined __KERNEL__"), UD_KC_USER);
	ck_assert_int_eq(kc("defined(__KERNEL__) && defined(CONFIG_X)"), UD_KC_COMPOUND);
	ck_assert_int_eq(kc("!defined(__KERNEL__) || defined(X)"), UD_KC_COMPOUND);
	ck_assert_int_eq(kc("defined(__KERNEL__) || 1"), UD_KC_ALWAYS);
	ck_assert_int_eq(kc("defined(__KERNEL__) && 0"), UD_KC_NEVER);
	ck_assert_int_eq(kc("defined(CONFIG_X)"), UD_KC_NONE);
	ck_assert_str_eq(ud_kclass_name(UD_KC_COMPOUND), "compound");
}
END_TEST

START_TEST(test_mentions)
{
	ck_assert(ud_expr_mentions_kernel("defined(__KERNEL__)"));
	ck_assert(!ud_expr_mentions_kernel("defined(__KERNEL___X)"));
	ck_assert(!ud_expr_mentions_kernel("X__KERNEL__"));
	ck_assert(ud_expr_has_logic("a && b"));
	ck_assert(ud_expr_has_logic("a || b"));
	ck_assert(!ud_expr_has_logic("a & b"));
}
END_TEST

static const struct ud_expr_sym kernel_defined[] = {{"__KERNEL__", "1"}};

/* Evaluates e in C grammar with __KERNEL__ defined. */
static struct ud_expr_value
cval(const char *e)
{
	struct ud_expr_env env = {UD_EXPR_C, kernel_defined, 1, NULL, NULL};
	struct ud_expr_value v;

	ud_expr_evaluate(e, &env, &v);
	return v;
}

/* A known value: truth, number, and evaluation to the end. */
static void
expect_num(const char *e, long long num)
{
	struct ud_expr_value v = cval(e);

	ck_assert_msg(!v.error && v.truth == (num != 0 ? UD_TRUE : UD_FALSE) && v.num == num,
		      "'%s': error %d truth %d num %lld, want %lld", e, v.error, v.truth, v.num,
		      num);
	ck_assert_msg(*v.end == '\0', "'%s' stopped at '%s'", e, v.end);
}

/* An unknown value that is not an error. */
static void
expect_unknown(const char *e)
{
	struct ud_expr_value v = cval(e);

	ck_assert_msg(!v.error && v.truth == UD_UNKNOWN, "'%s': error %d truth %d", e, v.error,
		      v.truth);
}

START_TEST(test_c_arith)
{
	struct ud_expr_value v;

	expect_num("1 == 1", 1);
	expect_num("1 != 1", 0);
	expect_num("(1 << 3) == 8", 1);
	expect_num("1 << 3", 8);
	expect_num("256 >> 4", 16);
	expect_num("-1 < 0", 1);
	expect_num("-1", -1);
	expect_num("+3", 3);
	expect_num("~0 == -1", 1);
	expect_num("!5", 0);
	expect_num("10 - 2 * 3", 4); /* precedence */
	expect_num("(10 - 2) * 3", 24);
	expect_num("10 - 2 - 3", 5); /* left to right */
	expect_num("7 & 3 | 8 ^ 1", 11);
	expect_num("17 % 5", 2);
	expect_num("17 / 5", 3);
	expect_num("0x10 + 010", 24);
	expect_num("10UL >= 10", 1);
	expect_num("2 <= 1", 0);
	expect_num("1, 0", 0);
	expect_num("1 ? 2 : 3", 2);
	expect_num("0 ? 2 : 3", 3);
	expect_num("0 ? 1 : 0 ? 2 : 3", 3); /* right-associative */
	expect_num("1 ? 0 ? 4 : 5 : 6", 5);
	expect_num("X ? 5 : 5", 5); /* both branches agree */
	expect_num("defined __KERNEL__", 1);
	expect_num("__KERNEL__ + 1", 2);

	v = cval("2 > 1 && defined(__KERNEL__)");
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert(v.symbolic);
	v = cval("2 > 1");
	ck_assert(!v.symbolic);

	/* what cannot be computed is unknown, not an error */
	expect_unknown("4 / 0");
	expect_unknown("4 % 0");
	expect_unknown("(-9223372036854775807 - 1) / -1");
	expect_unknown("1 << 64");
	expect_unknown("1 >> -1");
	expect_unknown("1.5");
	expect_unknown("'a' == 97");
	expect_unknown("X ? 1 : 2");
	expect_unknown("FOO(1, (2)) + 1");
	/* 1 == 1 is true also through the classifier's wrapper */
	ck_assert_int_eq(ud_expr_eval("1 == 1", UD_KERNEL_UNDEFINED), UD_TRUE);
	ck_assert_int_eq(ud_expr_eval("4 / 0", UD_KERNEL_DEFINED), UD_UNKNOWN);
	ck_assert_int_eq(ud_expr_eval("(1 << 3) == 8 && !defined(__KERNEL__)", UD_KERNEL_UNDEFINED),
			 UD_TRUE);
	/* trailing text: the wrapper does not guess */
	v = cval("1 2");
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert_str_eq(v.end, "2");
	ck_assert_int_eq(ud_expr_eval("1 2", UD_KERNEL_DEFINED), UD_UNKNOWN);
}
END_TEST

START_TEST(test_unknown_propagation)
{
	struct ud_expr_value v;

	v = cval("X + 1");
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ck_assert(!v.error);
	ck_assert(v.symbolic);
	ck_assert_str_eq(v.end, "");
	expect_num("0 && X", 0);
	expect_num("X && 0", 0);
	expect_num("1 || X", 1);
	expect_num("X || 1", 1);
	expect_num("0 && (X + 1 / 0)", 0);
	expect_num("(X || 1) && defined(__KERNEL__)", 1);
	expect_unknown("1 && X");
	expect_unknown("0 || X");
	expect_unknown("X == X");
	expect_unknown("!X");
	expect_unknown("-X");
	expect_unknown("defined(X) && 1");
	expect_unknown("X < 1 || Y");
}
END_TEST

START_TEST(test_known_symbols)
{
	static const struct ud_expr_sym syms[] = {
		{"A", "3"}, {"B", NULL}, {"V", "abc"}, {"H", "0x10"}};
	struct ud_expr_env c = {UD_EXPR_C, syms, 4, NULL, NULL};
	struct ud_expr_env u = {UD_EXPR_UNIFDEF, syms, 4, NULL, NULL};
	struct ud_expr_value v;

	ud_expr_evaluate("A + 1 == 4", &c, &v);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ud_expr_evaluate("H == 16", &c, &v);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ud_expr_evaluate("B", &c, &v); /* undefined: 0 */
	ck_assert_int_eq(v.truth, UD_FALSE);
	ud_expr_evaluate("defined(B) || defined A", &c, &v);
	ck_assert_int_eq(v.truth, UD_TRUE);
	/* a value that is not a number: unknown in C, an error for unifdef */
	ud_expr_evaluate("V", &c, &v);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ck_assert(!v.error);
	ud_expr_evaluate("V", &u, &v);
	ck_assert(v.error);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ud_expr_evaluate("defined(V)", &u, &v);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert(!v.error);

	ck_assert_ptr_eq(ud_expr_find_sym(&c, "A", 1), &syms[0]);
	ck_assert_ptr_eq(ud_expr_find_sym(&c, "B)", 1), &syms[1]);
	ck_assert_ptr_eq(ud_expr_find_sym(&c, "H == 16", 1), &syms[3]);
	ck_assert_ptr_null(ud_expr_find_sym(&c, "AB", 2));
	ck_assert_ptr_null(ud_expr_find_sym(&c, "Z", 1));
	ck_assert_ptr_null(ud_expr_find_sym(&c, "A", 0));
	c.syms = NULL;
	c.nsyms = 0;
	ck_assert_ptr_null(ud_expr_find_sym(&c, "A", 1));
}
END_TEST

static const struct ud_expr_sym install_syms[] = {{"__KERNEL__", NULL},
						  {"__EXPORTED_HEADERS__", "1"}};

/* Evaluates e in unifdef grammar with the installer's symbols. */
static struct ud_expr_value
uval(const char *e)
{
	struct ud_expr_env env = {UD_EXPR_UNIFDEF, install_syms, 2, NULL, NULL};
	struct ud_expr_value v;

	ud_expr_evaluate(e, &env, &v);
	return v;
}

START_TEST(test_unifdef)
{
	static const char plus[] = "X + 1";
	struct ud_expr_env env = {UD_EXPR_UNIFDEF, install_syms, 2, NULL, NULL};
	struct ud_expr_value v;

	v = uval("defined(__KERNEL__)");
	ck_assert_int_eq(v.truth, UD_FALSE);
	ck_assert(v.symbolic);
	ck_assert(!v.error);
	v = uval("1");
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert_int_eq(v.num, 1);
	ck_assert(!v.symbolic);
	v = uval("!defined(__KERNEL__)");
	ck_assert_int_eq(v.truth, UD_TRUE);
	v = uval("defined __EXPORTED_HEADERS__ && __EXPORTED_HEADERS__ == 1");
	ck_assert_int_eq(v.truth, UD_TRUE);
	v = uval("A && !defined(__KERNEL__)");
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ck_assert(!v.error);
	v = uval("0 && X");
	ck_assert_int_eq(v.truth, UD_FALSE);
	v = uval("defined(__KERNEL__) || 2 >= 1");
	ck_assert_int_eq(v.truth, UD_TRUE);
	/* an operator unifdef does not know ends the expression */
	ud_expr_evaluate(plus, &env, &v);
	ck_assert(!v.error);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ck_assert_ptr_eq(v.end, plus + 2);
	v = uval("1 * 2");
	ck_assert(!v.error);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert_str_eq(v.end, "* 2");
	/* ... and inside parentheses that is an error: nothing is known */
	v = uval("(X + 1)");
	ck_assert(v.error);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	v = uval("(1 + 1) || 1");
	ck_assert(v.error);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	/* unary minus is not unifdef's */
	v = uval("-1");
	ck_assert(v.error);
	/* an empty defined() is unknown, not an error (it is one in C) */
	v = uval("defined()");
	ck_assert(!v.error);
	ck_assert_int_eq(v.truth, UD_UNKNOWN);
	ck_assert(cval("defined()").error);
	v = uval("defined(X");
	ck_assert(v.error);
}
END_TEST

/* Skips blanks and slash-star comments, as unifdef's comment tracking does. */
static const char *
skip_comments(const char *p, void *ctx)
{
	int *calls = ctx;

	(*calls)++;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (p[0] != '/' || p[1] != '*')
			return p;
		p = strstr(p + 2, "*/");
		if (p == NULL)
			return "";
		p += 2;
	}
}

START_TEST(test_skip_callback)
{
	int calls = 0;
	struct ud_expr_env env = {UD_EXPR_UNIFDEF, install_syms, 2, skip_comments, &calls};
	struct ud_expr_value v;

	ud_expr_evaluate("defined(__EXPORTED_HEADERS__) /* x */ && /**/ 1 /* end */", &env, &v);
	ck_assert(!v.error);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert_str_eq(v.end, "");
	ck_assert_int_gt(calls, 0);
	/* without it the comment is in the way */
	env.skip = NULL;
	ud_expr_evaluate("1 /* x */ && 0", &env, &v);
	ck_assert_int_eq(v.truth, UD_TRUE);
	ck_assert_str_eq(v.end, "/* x */ && 0");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_eval);
	tcase_add_test(tc, test_malformed_is_unknown);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_kclass);
	tcase_add_test(tc, test_mentions);
	tcase_add_test(tc, test_c_arith);
	tcase_add_test(tc, test_unknown_propagation);
	tcase_add_test(tc, test_known_symbols);
	tcase_add_test(tc, test_unifdef);
	tcase_add_test(tc, test_skip_callback);
	suite_add_tcase(s, tc);
	return test_run(s);
}
