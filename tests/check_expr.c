/*
 * Condition evaluation tests.
 */
#include "testutil.h"
#include "uapid/expr.h"

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

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
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
	suite_add_tcase(s, tc);
	return test_run(s);
}
