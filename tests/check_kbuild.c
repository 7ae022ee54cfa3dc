// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kbuild export list tests: parsing and the edits a split makes.
 */
#include "testutil.h"
#include "uapid/kbuild.h"

START_TEST(test_parse)
{
	static const char text[] = "# comment header-y += not.h\n"
				   "header-y += a.h\n"
				   "header-y   +=   b.h c.h # trailing\n"
				   "opt-header := d.h\n"
				   "asm-headers = e.h\n"
				   "header-y += sub/\n"
				   "header-y += f.h \\\n"
				   "\tg.h\n"
				   "include include/asm-generic/Kbuild.asm\n"
				   "ifneq ($(wildcard x),)\n"
				   "header-y += h.h\n"
				   "endif\n"
				   "genhdr-y += version.h\n";
	struct ud_kbuild kb = UD_KBUILD_INIT;

	ud_kbuild_parse(text, sizeof(text) - 1, &kb);
	ck_assert_uint_eq(kb.n, 8);
	ck_assert_str_eq(kb.v[0].name, "a.h");
	ck_assert_uint_eq(kb.v[0].line, 2);
	ck_assert_str_eq(kb.v[2].name, "c.h");
	ck_assert_str_eq(kb.v[3].name, "d.h");
	ck_assert_str_eq(kb.v[4].name, "e.h");
	ck_assert_str_eq(kb.v[6].name, "g.h");
	ck_assert_uint_eq(kb.v[6].line, 7);
	ck_assert_str_eq(kb.v[7].name, "h.h");
	ck_assert_uint_eq(kb.v[7].cond_line, 10);
	ck_assert_uint_eq(kb.v[0].cond_line, 0);
	ck_assert_int_eq(ud_kbuild_find(&kb, "sub/"), -1);
	ck_assert_int_eq(ud_kbuild_find(&kb, "not.h"), -1);
	ck_assert_int_eq(ud_kbuild_find(&kb, "version.h"), -1);
	ck_assert_uint_eq(kb.nincludes, 1);
	ck_assert_str_eq(kb.includes[0], "include/asm-generic/Kbuild.asm");
	ud_kbuild_free(&kb);
}
END_TEST

START_TEST(test_remove_simple)
{
	static const char text[] = "header-y += a.h\nheader-y += b.h\nheader-y += c.h\n";
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "b.h", &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += a.h\nheader-y += c.h\n");
	ck_assert_str_eq(ud_buf_str(&moved), "header-y += b.h\n");
	ud_buf_reset(&moved);
	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "x.h", &out, &moved), 0);
	ck_assert_str_eq(ud_buf_str(&out), text);
	ck_assert_uint_eq(moved.len, 0);
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

START_TEST(test_remove_from_list)
{
	static const char text[] = "header-y += a.h b.h c.h\n";
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "b.h", &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += a.h c.h\n");
	ud_buf_reset(&moved);
	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "a.h", &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += b.h c.h\n");
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

START_TEST(test_remove_stanza)
{
	static const char text[] =
		"header-y += a.h\n"
		"\n"
		"ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
		"header-y += kvm.h\n"
		"endif\n"
		"header-y += z.h\n";
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT, uapi = UD_BUF_INIT;
	struct ud_kbuild kb = UD_KBUILD_INIT;

	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "kvm.h", &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += a.h\nheader-y += z.h\n");
	ck_assert_str_eq(ud_buf_str(&moved),
			 "ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
			 "header-y += kvm.h\n"
			 "endif\n");
	ud_buf_addstr(&uapi, UD_KBUILD_UAPI_HEADER);
	ud_kbuild_append(&uapi, ud_buf_str(&moved));
	ud_kbuild_parse(uapi.data, uapi.len, &kb);
	ck_assert_uint_eq(kb.n, 1);
	ck_assert_uint_eq(kb.v[0].cond_line, 3);
	ud_kbuild_free(&kb);
	ud_buf_free(&out);
	ud_buf_free(&moved);
	ud_buf_free(&uapi);
}
END_TEST

START_TEST(test_remove_from_shared_stanza)
{
	static const char text[] = "ifdef CONFIG_X\nheader-y += a.h\nheader-y += b.h\nendif\n";
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_int_eq(ud_kbuild_remove(text, sizeof(text) - 1, "a.h", &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "ifdef CONFIG_X\nheader-y += b.h\nendif\n");
	ck_assert_str_eq(ud_buf_str(&moved), "ifdef CONFIG_X\nheader-y += a.h\nendif\n");
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

static bool
only_arc(const char *line, void *ctx)
{
	(void)ctx;
	return strcmp(line, "ifeq ($(SRCARCH),arc)") == 0;
}

START_TEST(test_var)
{
	static const char text[] = "no-header-test += a.h \\\n"
				   "\tb.h # two on a continued line\n"
				   "ifeq ($(SRCARCH),arc)\n"
				   "no-header-test += arc.h\n"
				   "else\n"
				   "no-header-test += not-arc.h\n"
				   "endif\n"
				   "ifeq ($(SRCARCH),x86)\n"
				   "no-header-test += x86.h\n"
				   "endif\n"
				   "no-header-test += asm-generic/%\n"
				   "other-y += c.h\n";
	struct ud_kbuild kb = UD_KBUILD_INIT;

	ud_kbuild_var(text, sizeof(text) - 1, "no-header-test", only_arc, NULL, &kb);
	ck_assert_uint_eq(kb.n, 4);
	ck_assert_str_eq(kb.v[0].name, "a.h");
	ck_assert_str_eq(kb.v[1].name, "b.h");
	ck_assert_str_eq(kb.v[2].name, "arc.h");
	ck_assert_str_eq(kb.v[3].name, "asm-generic/%");
	ud_kbuild_free(&kb);
	/* no condition callback: every section counts */
	ud_kbuild_var(text, sizeof(text) - 1, "no-header-test", NULL, NULL, &kb);
	ck_assert_uint_eq(kb.n, 5); /* not-arc.h is an else branch: flipped off */
	ck_assert_str_eq(kb.v[3].name, "x86.h");
	ud_kbuild_free(&kb);
}
END_TEST

START_TEST(test_append)
{
	struct ud_buf b = UD_BUF_INIT;

	ud_buf_addstr(&b, "# UAPI Header export list\nheader-y += a.h");
	ud_kbuild_append(&b, "header-y += b.h\n");
	ck_assert_str_eq(ud_buf_str(&b),
			 "# UAPI Header export list\nheader-y += a.h\nheader-y += b.h\n");
	ud_buf_free(&b);
}
END_TEST

/* Removing the last entry leaves an empty, NUL-terminated text. */
START_TEST(test_remove_keeps_nul)
{
	static const char in[] = "header-y += b.h\n";
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_int_eq(ud_kbuild_remove(in, sizeof(in) - 1, "b.h", &out, &moved), 1);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_str_eq(ud_buf_str(&out), "");
	ck_assert_str_eq(ud_buf_str(&moved), "header-y += b.h\n");
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kbuild");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_remove_simple);
	tcase_add_test(tc, test_remove_from_list);
	tcase_add_test(tc, test_remove_stanza);
	tcase_add_test(tc, test_remove_from_shared_stanza);
	tcase_add_test(tc, test_var);
	tcase_add_test(tc, test_append);
	tcase_add_test(tc, test_remove_keeps_nul);
	suite_add_tcase(s, tc);
	return test_run(s);
}
