// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols as people name them (macros, tagged records, members, headers by
 * any of their paths; bad names refused with a reason), and changes in
 * words, from two models read by the API parser: values, ioctls, records'
 * members (removed, added, retyped, resized, moved), enum constants,
 * typedefs, conditions, a macro that became an enum constant, and nothing
 * when only the spelling of what it uses changed.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/api/api.h"
#include "uapid/api/apisym.h"

static void
parse_ok(const char *text, enum ud_apisym_form form, const char *name, const char *member,
	 const char *header)
{
	struct ud_apisym_query q;
	char *cause = NULL;

	ck_assert_msg(ud_apisym_parse(text, &q, &cause) == 0, "%s: %s", text, cause);
	ck_assert_int_eq(q.form, form);
	if (name != NULL)
		ck_assert_str_eq(q.names.v[0], name);
	else
		ck_assert_uint_eq(q.names.n, 0);
	if (member != NULL)
		ck_assert_str_eq(q.member, member);
	else
		ck_assert_ptr_null(q.member);
	if (header != NULL)
		ck_assert_str_eq(q.header, header);
	else
		ck_assert_ptr_null(q.header);
	ud_apisym_query_free(&q);
}

static void
parse_bad(const char *text, const char *why)
{
	struct ud_apisym_query q;
	char *cause = NULL;

	ck_assert_msg(ud_apisym_parse(text, &q, &cause) == -EINVAL, "%s accepted", text);
	ck_assert_msg(strstr(cause, why) != NULL, "%s: %s", text, cause);
	free(cause);
	ck_assert_uint_eq(q.names.n, 0);
}

START_TEST(test_parse)
{
	struct ud_apisym_query q;
	char *cause = NULL;

	parse_ok("EPOLL_CLOEXEC", UD_APISYM_NAME, "EPOLL_CLOEXEC", NULL, NULL);
	parse_ok("  struct   epoll_event ", UD_APISYM_NAME, "struct epoll_event", NULL, NULL);
	parse_ok("union sigval", UD_APISYM_NAME, "union sigval", NULL, NULL);
	parse_ok("enum fsconfig_command", UD_APISYM_NAME, "enum fsconfig_command", NULL, NULL);
	parse_ok("struct epoll_event.data", UD_APISYM_MEMBER, "struct epoll_event", "data", NULL);
	parse_ok("struct epoll_event . events", UD_APISYM_MEMBER, "struct epoll_event", "events",
		 NULL);
	parse_ok("linux/eventpoll.h", UD_APISYM_HEADER, NULL, NULL, "linux/eventpoll.h");
	parse_ok("include/uapi/linux/eventpoll.h", UD_APISYM_HEADER, NULL, NULL,
		 "linux/eventpoll.h");
	parse_ok("arch/x86/include/uapi/asm/unistd.h", UD_APISYM_HEADER, NULL, NULL,
		 "asm/unistd.h");
	parse_ok("arch/x86/include/generated/uapi/asm/unistd_64.h", UD_APISYM_HEADER, NULL, NULL,
		 "asm/unistd_64.h");
	parse_ok("usr/include/linux/types.h", UD_APISYM_HEADER, NULL, NULL, "linux/types.h");
	parse_ok("./include/linux/types.h", UD_APISYM_HEADER, NULL, NULL, "linux/types.h");
	parse_ok("stddef.h", UD_APISYM_HEADER, NULL, NULL, "stddef.h");
	/* a plain name may be a typedef whose body has no tag of its own */
	ck_assert_int_eq(ud_apisym_parse("foo_t", &q, &cause), 0);
	ck_assert_uint_eq(q.names.n, 4);
	ck_assert(ud_strlist_has(&q.names, "struct (typedef foo_t)"));
	ck_assert(ud_strlist_has(&q.names, "union (typedef foo_t)"));
	ck_assert(ud_strlist_has(&q.names, "enum (typedef foo_t)"));
	ud_apisym_query_free(&q);
	ck_assert_int_eq(ud_apisym_parse("struct foo", &q, &cause), 0);
	ck_assert_uint_eq(q.names.n, 1);
	ud_apisym_query_free(&q);

	parse_bad("", "empty");
	parse_bad("   ", "empty");
	parse_bad("2FOO", "not a symbol");
	parse_bad("struct", "not a symbol");
	parse_bad("struct a b", "not a symbol");
	parse_bad("FOO BAR", "not a symbol");
	parse_bad("FOO.bar", "struct NAME.MEMBER");
	parse_bad("enum foo.bar", "struct NAME.MEMBER");
	parse_bad("struct foo.", "struct NAME.MEMBER");
	parse_bad("struct foo.2x", "struct NAME.MEMBER");
	parse_bad("linux/", "not a header");
	parse_bad("/usr/include/../etc/passwd.h", "not a header");
	parse_bad("linux/foo.c", "not a header");
}
END_TEST

/* The description of NAME from header text a to text b (NULL when none), and its items. */
static char *
describe(const char *a, const char *b, const char *name, struct ud_apisym_items *items)
{
	struct ud_api_header ha, hb;
	const struct ud_api_sym *sa = NULL, *sb = NULL;
	char *d;
	size_t i;

	ud_api_parse("linux/t.h", a, strlen(a), &ha);
	ud_api_parse("linux/t.h", b, strlen(b), &hb);
	for (i = 0; i < ha.n; i++)
		if (strcmp(ha.v[i].name, name) == 0)
			sa = &ha.v[i];
	for (i = 0; i < hb.n; i++)
		if (strcmp(hb.v[i].name, name) == 0)
			sb = &hb.v[i];
	ck_assert_msg(sa != NULL && sb != NULL, "%s in both versions", name);
	d = ud_apisym_describe(sa, sb, items);
	ud_api_header_free(&ha);
	ud_api_header_free(&hb);
	return d;
}

static void
describes(const char *a, const char *b, const char *name, const char *want)
{
	char *d = describe(a, b, name, NULL);

	if (want == NULL) {
		ck_assert_msg(d == NULL, "%s: '%s', want nothing", name, d);
		return;
	}
	ck_assert_msg(d != NULL && strcmp(d, want) == 0, "%s: '%s', want '%s'", name,
		      d != NULL ? d : "(nothing)", want);
	free(d);
}

START_TEST(test_describe_values)
{
	describes("#define A 4\n", "#define A 5\n", "A", "value 4 -> 5");
	describes("#define A 0x10\n", "#define A 0x20\n", "A", "value 0x10 -> 0x20");
	describes("#define A (1 << 2)\n", "#define A 4\n", "A",
		  "respelled '(1 << 2)' -> '4' (value 4)");
	describes("#define A B\n", "#define A C\n", "A", "'B' -> 'C'");
	describes("#define A(x) (x)\n", "#define A(x, y) (x)\n", "A", "parameters (x) -> (x, y)");
	describes("enum { E0, E1 };\n", "enum { EX, E0, E1 };\n", "E1", "value 1 -> 2");
	describes("#define A 4\n", "#define A 4\n", "A", NULL);
	/* a macro that became an enum constant */
	describes("#define A 4\n", "enum { A = 4 };\n", "A", "macro -> enum constant (value 4)");
	/* the same symbol under another condition */
	describes("#define A 4\n", "#ifdef X\n#define A 4\n#endif\n", "A",
		  "conditions '(none)' -> 'defined(X)'");
	describes("#define A 4\n", "#ifdef X\n#define A 5\n#endif\n", "A",
		  "conditions '(none)' -> 'defined(X)'; value 4 -> 5");
}
END_TEST

START_TEST(test_describe_ioctls)
{
	static const char s[] = "struct s { int a; };\nstruct t { long b; };\n";
	char *a = ud_xasprintf("%s#define IOC _IOW('S', 1, struct s)\n", s);
	char *b = ud_xasprintf("%s#define IOC _IOWR('S', 1, struct s)\n", s);
	char *c = ud_xasprintf("%s#define IOC _IOW('S', 2, struct t)\n", s);

	describes(a, b, "IOC", "ioctl _IOW -> _IOWR");
	describes(a, c, "IOC",
		  "ioctl number 'S', 1 -> 'S', 2; ioctl argument struct s -> struct t");
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_describe_records)
{
	struct ud_apisym_items items = {NULL, 0, 0};
	char *d;

	describes("struct e { __u32 events; __u64 data; };\n",
		  "struct e { __u32 events; __aligned_u64 data; };\n", "struct e",
		  "member data retyped __u64 -> __aligned_u64");
	describes("struct e { int a; int b; };\n", "struct e { int a; int b; int c; };\n",
		  "struct e", "member c added at the end");
	describes("struct e { int a; int b; };\n", "struct e { int a; int c; int b; };\n",
		  "struct e", "member c added");
	describes("struct e { int a; char n[4]; };\n", "struct e { int a; char n[8]; };\n",
		  "struct e", "member n resized [4] -> [8]");
	describes("struct e { int a; char n; };\n", "struct e { int a; char n[8]; };\n", "struct e",
		  "member n retyped char -> char [8]");
	describes("struct e { int a : 3; };\n", "struct e { int a : 4; };\n", "struct e",
		  "member a retyped int : 3 -> int : 4");
	describes("struct e { int a; int b; };\n", "struct e { int b; int a; };\n", "struct e",
		  "member b moved");
	describes("struct e { int a; } __attribute__((packed));\n", "struct e { int a; };\n",
		  "struct e", "attributes '__attribute__((packed))' -> ''");
	/* the same members: nothing of its own changed */
	describes("struct e { int a; };\n", "struct e {\n\tint a;\n};\n", "struct e", NULL);
	d = describe("struct e { int a; int b; long c; };\n",
		     "struct e { int a; long c; short d; };\n", "struct e", &items);
	ck_assert_str_eq(d, "member b removed; member d added at the end");
	ck_assert_uint_eq(items.n, 2);
	ck_assert_str_eq(items.v[0].member, "b");
	ck_assert_str_eq(items.v[0].text, "member b removed");
	ck_assert_str_eq(items.v[1].member, "d");
	free(d);
	ud_apisym_items_free(&items);
	ck_assert_uint_eq(items.n, 0);
	describes("union u { int a; };\n", "union u { int a; long b; };\n", "union u",
		  "member b added at the end");
}
END_TEST

START_TEST(test_describe_enums_typedefs)
{
	describes("enum c { C_A, C_B };\n", "enum c { C_A, C_B, C_C };\n", "enum c",
		  "constant C_C added at the end");
	describes("enum c { C_A, C_B };\n", "enum c { C_A };\n", "enum c", "constant C_B removed");
	describes("enum c { C_A, C_B };\n", "enum c { C_B, C_A };\n", "enum c",
		  "constants reordered");
	describes("typedef int t_t;\n", "typedef long t_t;\n", "t_t", "'int t_t' -> 'long t_t'");
}
END_TEST

START_TEST(test_members_mentions)
{
	static const char text[] =
		"struct e { int a; struct { int x; }; long bb; };\nenum f { F1, F2 };\n";
	struct ud_api_header h;
	size_t i;

	ud_api_parse("linux/t.h", text, sizeof(text) - 1, &h);
	for (i = 0; i < h.n; i++) {
		char *m = ud_apisym_members(&h.v[i]);

		if (strcmp(h.v[i].name, "struct e") == 0)
			ck_assert_str_eq(m, "a bb");
		else if (strcmp(h.v[i].name, "enum f") == 0)
			ck_assert_str_eq(m, "F1 F2");
		else
			ck_assert_str_eq(m, "");
		free(m);
	}
	ud_api_header_free(&h);
	ck_assert(ud_apisym_mentions("member data removed", "data"));
	ck_assert(ud_apisym_mentions("data", "data"));
	ck_assert(!ud_apisym_mentions("member data2 removed", "data"));
	ck_assert(!ud_apisym_mentions("member my_data removed", "data"));
	ck_assert(ud_apisym_mentions("x my_data data", "data"));
	ck_assert(!ud_apisym_mentions("anything", ""));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("apisym");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_describe_values);
	tcase_add_test(tc, test_describe_ioctls);
	tcase_add_test(tc, test_describe_records);
	tcase_add_test(tc, test_describe_enums_typedefs);
	tcase_add_test(tc, test_members_mentions);
	suite_add_tcase(s, tc);
	return test_run(s);
}
