// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conditional tree tests.
 */
#include "testutil.h"
#include "uapid/core/cond.h"

struct tree {
	struct ud_lexed lx;
	struct ud_cond cond;
	struct ud_diags d;
};

static void
build(struct tree *t, const char *s)
{
	memset(t, 0, sizeof(*t));
	ck_assert_int_eq(ud_lex(s, strlen(s), &t->lx, &t->d), 0);
	ck_assert_int_eq(ud_cond_build(&t->lx, &t->cond, &t->d), 0);
}

static void
done(struct tree *t)
{
	ud_cond_free(&t->cond);
	ud_lexed_free(&t->lx);
	ud_diags_free(&t->d);
}

START_TEST(test_groups_and_clauses)
{
	struct tree t;
	const struct ud_group *g;
	size_t lines[8];

	build(&t,
	      "#ifdef __KERNEL__\na\n#else\nb\n#endif\n#if X\n#ifndef __KERNEL__\nc\n#endif\n#elif Y\n#endif\n");
	ck_assert(t.cond.balanced);
	ck_assert_uint_eq(t.cond.ngroups, 3);
	g = &t.cond.groups[0];
	ck_assert_uint_eq(g->nclauses, 2);
	ck_assert_uint_eq(g->endif_line, 4);
	ck_assert_uint_eq(g->clauses[0].body_first, 1);
	ck_assert_uint_eq(g->clauses[0].body_end, 2);
	ck_assert_int_eq(g->clauses[0].kclass, UD_KC_KERNEL);
	ck_assert_int_eq(g->clauses[1].kclass, UD_KC_USER);
	ck_assert_uint_eq(ud_group_directives(g, lines), 3);
	g = &t.cond.groups[2];
	ck_assert_int_eq(g->parent, 1);
	ck_assert_int_eq(g->parent_clause, 0);
	ck_assert_uint_eq(g->nesting, 1);
	ck_assert_int_eq(g->clauses[0].kclass, UD_KC_USER);
	ck_assert_int_eq(t.cond.groups[1].clauses[0].kclass, UD_KC_NONE);
	ck_assert_int_eq(t.cond.line_group[7], 2);
	ck_assert_int_eq(t.cond.line_clause[7], 0);
	ck_assert_int_eq(t.cond.line_group[5], 1);
	ck_assert_int_eq(t.cond.line_clause[5], -1);
	ck_assert_uint_eq(t.d.n, 0);
	done(&t);
}
END_TEST

START_TEST(test_compound_clause)
{
	struct tree t;

	build(&t, "#if defined(__KERNEL__) && defined(CONFIG_X)\n#else\n#endif\n");
	ck_assert_int_eq(t.cond.groups[0].clauses[0].kclass, UD_KC_COMPOUND);
	ck_assert_int_eq(t.cond.groups[0].clauses[1].kclass, UD_KC_COMPOUND);
	done(&t);
}
END_TEST

static void
expect_error(const char *src, unsigned line, const char *text)
{
	struct tree t;
	size_t i;
	bool found = false;

	build(&t, src);
	ck_assert(!t.cond.balanced);
	for (i = 0; i < t.d.n; i++)
		if (t.d.v[i].line == line && t.d.v[i].severity == UD_SEV_ERROR &&
		    strstr(t.d.v[i].message, text) != NULL)
			found = true;
	ck_assert_msg(found, "no error '%s' at line %u for:\n%s", text, line, src);
	done(&t);
}

START_TEST(test_errors)
{
	expect_error("int a;\n#else\n", 2, "#else without #if");
	expect_error("#elif X\n", 1, "#elif without #if");
	expect_error("#endif\n", 1, "#endif without #if");
	expect_error("#if A\n#else\n#else\n#endif\n", 3, "#else after #else");
	expect_error("#if A\n#else\n#elif B\n#endif\n", 3, "#elif after #else");
	expect_error("#ifdef A\n#if B\n#endif\n", 1, "no matching #endif");
}
END_TEST

START_TEST(test_deep_nesting_is_iterative)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_lexed lx;
	struct ud_cond cond;
	struct ud_diags d = UD_DIAGS_INIT;
	int i;

	for (i = 0; i < 50000; i++)
		ud_buf_addstr(&b, "#ifdef X\n");
	for (i = 0; i < 50000; i++)
		ud_buf_addstr(&b, "#endif\n");
	ck_assert_int_eq(ud_lex(b.data, b.len, &lx, &d), 0);
	ud_cond_build(&lx, &cond, &d);
	ck_assert(cond.balanced);
	ck_assert_uint_eq(cond.groups[49999].nesting, 49999);
	ud_cond_free(&cond);
	ud_lexed_free(&lx);
	ud_diags_free(&d);
	ud_buf_free(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cond");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_groups_and_clauses);
	tcase_add_test(tc, test_compound_clause);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_deep_nesting_is_iterative);
	suite_add_tcase(s, tc);
	return test_run(s);
}
