// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Accept files (accept.h): the lines read (comments, blank lines, a
 * struct's keyword joined to its tag, the reason required), and applied to
 * an API diff's JSON: what is accepted, what is not (compatible changes,
 * another header or rule), the summary recounted, lines that matched
 * nothing listed.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/proto/accept.h"

static const char file[] = "# decided\n"
			   "\n"
			   "linux/a.h  A_*   value   values moved together  \n"
			   "linux/a.h struct a_req member-removed   y was never used\r\n"
			   "linux/c.h - removed gone since v4.0\n"
			   "linux/z.h Z value stale";

START_TEST(test_parse)
{
	struct ud_accept a;
	char *cause = NULL;

	ck_assert_int_eq(ud_accept_parse(&a, "acc", file, strlen(file), &cause), 0);
	ck_assert_uint_eq(a.n, 4);
	ck_assert_str_eq(a.v[0].symbol, "A_*");
	ck_assert_str_eq(a.v[0].reason, "values moved together");
	ck_assert_uint_eq(a.v[0].line, 3);
	ck_assert_str_eq(a.v[1].symbol, "struct a_req");
	ck_assert_str_eq(a.v[1].rule, "member-removed");
	ck_assert_str_eq(a.v[1].reason, "y was never used");
	ck_assert_str_eq(a.v[2].symbol, "-");
	ck_assert_uint_eq(a.v[3].line, 6);
	ud_accept_free(&a);
	ud_accept_free(NULL);

	/* no reason: refused, with the line */
	ck_assert_int_eq(ud_accept_parse(&a, "acc", "# c\nlinux/a.h A value  \n", 22, &cause),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(cause, "acc:2: "));
	free(cause);
}
END_TEST

static json_t *
change(const char *header, const char *symbol, const char *verdict, const char *rule)
{
	return json_pack("{s:s, s:s?, s:s, s:s}", "header", header, "symbol", symbol, "verdict",
			 verdict, "rule", rule);
}

START_TEST(test_apply)
{
	struct ud_accept a;
	char *cause = NULL;
	json_t *d = json_pack("{s:{s:i, s:i, s:i}, s:[o, o, o, o, o, o]}", "summary", "breaking", 4,
			      "review", 1, "compatible", 1, "changes",
			      change("linux/a.h", "A_ONE [if defined(X)]", "breaking", "value"),
			      change("linux/a.h", "A_TWO", "review", "value"),
			      change("linux/a.h", "A_NEW", "compatible", "value"),
			      change("linux/a.h", "struct a_req", "breaking", "size"),
			      change("linux/b.h", "A_ONE", "breaking", "value"),
			      change("linux/c.h", NULL, "breaking", "removed"));
	json_t *c = json_object_get(d, "changes"), *s = json_object_get(d, "summary");
	json_t *um;

	ck_assert_int_eq(ud_accept_parse(&a, "acc", file, strlen(file), &cause), 0);
	ck_assert_uint_eq(ud_accept_apply(&a, d), 3);
	/* the condition is not part of the symbol matched */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 0), "verdict")),
			 "accepted");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 0), "accepted_at")),
			 "acc:3");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 1), "accepted_from")),
			 "review");
	/* a compatible change needs no decision; another rule, another header: not accepted */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 2), "verdict")),
			 "compatible");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 3), "verdict")),
			 "breaking");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 4), "verdict")),
			 "breaking");
	/* a header's own change: "-" */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 5), "verdict")),
			 "accepted");
	ck_assert_int_eq(json_integer_value(json_object_get(s, "breaking")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "review")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "accepted")), 3);
	/* struct a_req member-removed and linux/z.h matched nothing */
	um = json_object_get(json_object_get(d, "accept"), "unmatched");
	ck_assert_uint_eq(json_array_size(um), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(um, 0), "line")), 4);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(um, 1), "text")),
			 "linux/z.h Z value stale");
	ud_accept_free(&a);
	json_decref(d);
}
END_TEST

START_TEST(test_params)
{
	json_t *d = json_pack("{s:{s:i}, s:[o]}", "summary", "breaking", 1, "changes",
			      change("linux/a.h", "A", "breaking", "value"));
	json_t *p = json_pack("{s:s, s:s}", "accept", "linux/a.h A value ok", "accept_name", "f");
	json_t *bad = json_pack("{s:i}", "accept", 1), *none = json_object();
	char *cause = NULL;

	ck_assert_int_eq(ud_accept_params(none, d, &cause), 0);
	ck_assert_ptr_null(json_object_get(d, "accept"));
	ck_assert_int_eq(ud_accept_params(bad, d, &cause), -EINVAL);
	free(cause);
	ck_assert_int_eq(ud_accept_params(p, d, &cause), 0);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(json_object_get(d, "changes"), 0), "accepted_at")),
			 "f:1");
	json_decref(d);
	json_decref(p);
	json_decref(bad);
	json_decref(none);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("accept");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_apply);
	tcase_add_test(tc, test_params);
	suite_add_tcase(s, tc);
	return test_run(s);
}
