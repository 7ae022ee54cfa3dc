// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kbuild export list tests: parsing and the edits a split makes.
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/io/kbuild.h"

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

/*
 * Removes names one at a time from the text each removal leaves (what a
 * directory's edit did before the one-pass removal): out, and the moved
 * text of each name in moved[].
 */
static void
remove_one_by_one(const char *text, const char *const *names, size_t n, struct ud_buf *out,
		  struct ud_buf *moved)
{
	struct ud_buf cur = UD_BUF_INIT, next = UD_BUF_INIT;
	size_t k;

	ud_buf_addstr(&cur, text);
	for (k = 0; k < n; k++) {
		ud_buf_reset(&moved[k]);
		ud_kbuild_remove(ud_buf_str(&cur), cur.len, names[k], &next, &moved[k]);
		ud_buf_reset(&cur);
		ud_buf_add(&cur, ud_buf_str(&next), next.len);
	}
	ud_buf_reset(out);
	ud_buf_add(out, ud_buf_str(&cur), cur.len);
	ud_buf_free(&cur);
	ud_buf_free(&next);
}

/* The export list forms of the kernel's own lists: one pass equals one name at a time. */
START_TEST(test_remove_all_equals_one_by_one)
{
	static const char text[] =
		"# Kbuild of a directory\n"
		"header-y += a.h\n"
		"header-y   +=   b.h c.h d.h # three\n"
		"\n"
		"header-y += e.h \\\n"
		"\tf.h \\\n"
		"\tg.h\n"
		"ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
		"header-y += kvm.h\n"
		"header-y += kvm_para.h\n"
		"endif\n"
		"\n"
		"ifdef CONFIG_X\n"
		"header-y += x.h\n"
		"else\n"
		"header-y += y.h\n"
		"endif\n"
		"opt-header := h.h\n"
		"header-y += sub/\n"
		"header-y += z.h\n";
	/* every subset of these (sorted, as a batch hands them over) */
	static const char *const all[] = {"a.h",	"c.h",	  "d.h", "f.h", "kvm.h",
					  "kvm_para.h", "nope.h", "x.h", "y.h", "z.h"};
	const size_t nall = ARRAY_SIZE(all);
	unsigned mask;

	for (mask = 0; mask < 1u << nall; mask++) {
		const char *names[ARRAY_SIZE(all)];
		struct ud_buf want = UD_BUF_INIT, got = UD_BUF_INIT;
		struct ud_buf wmoved[ARRAY_SIZE(all)], gmoved[ARRAY_SIZE(all)];
		size_t n = 0, k, found;

		for (k = 0; k < nall; k++)
			if (mask & (1u << k))
				names[n++] = all[k];
		memset(wmoved, 0, sizeof(wmoved));
		memset(gmoved, 0, sizeof(gmoved));
		remove_one_by_one(text, names, n, &want, wmoved);
		found = ud_kbuild_remove_all(text, sizeof(text) - 1, names, n, &got, gmoved);
		ck_assert_msg(strcmp(ud_buf_str(&want), ud_buf_str(&got)) == 0,
			      "mask %#x: one pass gave\n%s\none by one\n%s", mask, ud_buf_str(&got),
			      ud_buf_str(&want));
		for (k = 0; k < n; k++) {
			ck_assert_str_eq(ud_buf_str(&gmoved[k]), ud_buf_str(&wmoved[k]));
			found -= gmoved[k].len > 0;
			ud_buf_free(&wmoved[k]);
			ud_buf_free(&gmoved[k]);
		}
		ck_assert_uint_eq(found, 0);
		ud_buf_free(&want);
		ud_buf_free(&got);
	}
}
END_TEST

/* The result itself, spelled out: lines, a continuation, a stanza, an else branch. */
START_TEST(test_remove_all_result)
{
	static const char text[] = "header-y += a.h b.h c.h\n"
				   "header-y += d.h \\\n"
				   "\te.h\n"
				   "\n"
				   "ifdef CONFIG_X\n"
				   "header-y += x.h\n"
				   "else\n"
				   "header-y += y.h\n"
				   "endif\n"
				   "header-y += z.h\n";
	static const char *const names[] = {"a.h", "c.h", "e.h", "nope.h", "x.h", "y.h", "c.h"};
	struct ud_buf out = UD_BUF_INIT, moved[7];

	memset(moved, 0, sizeof(moved));
	ck_assert_uint_eq(ud_kbuild_remove_all(text, sizeof(text) - 1, names, 7, &out, moved), 5);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += b.h\n"
					   "header-y += d.h \\\n"
					   "\n"
					   "header-y += z.h\n");
	ck_assert_str_eq(ud_buf_str(&moved[0]), "header-y += a.h\n");
	ck_assert_str_eq(ud_buf_str(&moved[1]), "header-y += c.h\n");
	ck_assert_str_eq(ud_buf_str(&moved[2]), "header-y += e.h\n");
	ck_assert_uint_eq(moved[3].len, 0); /* not listed */
	ck_assert_str_eq(ud_buf_str(&moved[4]), "ifdef CONFIG_X\nheader-y += x.h\nendif\n");
	ck_assert_str_eq(ud_buf_str(&moved[5]), "ifdef CONFIG_X\nelse\nheader-y += y.h\nendif\n");
	ck_assert_uint_eq(moved[6].len, 0); /* a repeated name counts once */
	for (size_t k = 0; k < 7; k++)
		ud_buf_free(&moved[k]);
	ud_buf_free(&out);
}
END_TEST

/*
 * A stanza goes only when nothing exported is left in it: a name beside
 * the one that moves, on its line, keeps it (one at a time, the stanza and
 * b.h went with a.h).
 */
START_TEST(test_remove_all_keeps_shared_stanza)
{
	static const char text[] = "ifdef CONFIG_X\nheader-y += a.h b.h\nendif\n";
	static const char *const names[] = {"a.h"};
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_uint_eq(ud_kbuild_remove_all(text, sizeof(text) - 1, names, 1, &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "ifdef CONFIG_X\nheader-y += b.h\nendif\n");
	ck_assert_str_eq(ud_buf_str(&moved), "ifdef CONFIG_X\nheader-y += a.h\nendif\n");
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

/* A continued line whose next part starts at the margin: its first word goes too. */
START_TEST(test_remove_all_unindented_continuation)
{
	static const char text[] = "header-y += a.h \\\nb.h\nheader-y += c.h\n";
	static const char *const names[] = {"b.h"};
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	ck_assert_uint_eq(ud_kbuild_remove_all(text, sizeof(text) - 1, names, 1, &out, &moved), 1);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += a.h \\\n\nheader-y += c.h\n");
	ud_buf_free(&out);
	ud_buf_free(&moved);
}
END_TEST

/*
 * Nested stanzas: each entry moves with its innermost stanza; a stanza
 * emptied by the pass goes whole, and the one around it too when that
 * is left with nothing, whatever the order of the names.
 */
START_TEST(test_remove_all_nested)
{
	static const char text[] = "header-y += k.h\n"
				   "ifeq ($(A),y)\n"
				   "ifeq ($(B),y)\n"
				   "header-y += x.h\n"
				   "endif\n"
				   "header-y += y.h\n"
				   "endif\n";
	static const char *const names[] = {"y.h", "x.h"};
	struct ud_buf out = UD_BUF_INIT, moved[2];

	memset(moved, 0, sizeof(moved));
	ck_assert_uint_eq(ud_kbuild_remove_all(text, sizeof(text) - 1, names, 2, &out, moved), 2);
	ck_assert_str_eq(ud_buf_str(&out), "header-y += k.h\n");
	ck_assert_str_eq(ud_buf_str(&moved[0]), "ifeq ($(A),y)\nheader-y += y.h\nendif\n");
	ck_assert_str_eq(ud_buf_str(&moved[1]), "ifeq ($(B),y)\nheader-y += x.h\nendif\n");
	ud_buf_free(&moved[0]);
	ud_buf_free(&moved[1]);
	ud_buf_free(&out);
}
END_TEST

/* 20,000 exports, every one removed, a few from stanzas: the whole result checked. */
START_TEST(test_remove_all_large)
{
	enum { N = 20000 };
	struct ud_buf text = UD_BUF_INIT, out = UD_BUF_INIT, want = UD_BUF_INIT;
	struct ud_buf *moved = ud_xcalloc(N, sizeof(*moved));
	char **names = ud_xcalloc(N, sizeof(*names));
	size_t k;

	ud_buf_addstr(&text, "# many\n");
	for (k = 0; k < N; k++) {
		names[k] = ud_xasprintf("h%05zu.h", k);
		if (k % 1000 == 7)
			ud_buf_addf(&text, "ifdef CONFIG_%zu\nheader-y += %s\nendif\n", k,
				    names[k]);
		else
			ud_buf_addf(&text, "header-y += %s\n", names[k]);
	}
	ud_buf_addstr(&text, "header-y += stays.h\n");
	ck_assert_uint_eq(ud_kbuild_remove_all(text.data, text.len, (const char *const *)names, N,
					       &out, moved),
			  N);
	ck_assert_str_eq(ud_buf_str(&out), "# many\nheader-y += stays.h\n");
	for (k = 0; k < N; k++) {
		ud_buf_reset(&want);
		if (k % 1000 == 7)
			ud_buf_addf(&want, "ifdef CONFIG_%zu\nheader-y += %s\nendif\n", k,
				    names[k]);
		else
			ud_buf_addf(&want, "header-y += %s\n", names[k]);
		ck_assert_str_eq(ud_buf_str(&moved[k]), ud_buf_str(&want));
		ud_buf_free(&moved[k]);
		free(names[k]);
	}
	free(moved);
	free(names);
	ud_buf_free(&text);
	ud_buf_free(&out);
	ud_buf_free(&want);
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
	tcase_add_test(tc, test_remove_all_equals_one_by_one);
	tcase_add_test(tc, test_remove_all_result);
	tcase_add_test(tc, test_remove_all_keeps_shared_stanza);
	tcase_add_test(tc, test_remove_all_unindented_continuation);
	tcase_add_test(tc, test_remove_all_nested);
	tcase_add_test(tc, test_remove_all_large);
	suite_add_tcase(s, tc);
	return test_run(s);
}
