// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a TREE or DIR argument is: split and pre-split kernel trees,
 * installed headers, and what is refused (issue 39).
 */
#include <string.h>

#include "testutil.h"
#include "uapid/io/treekind.h"

static const char makefile[] = "# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 1\n"
			       "SUBLEVEL = 12\nEXTRAVERSION =\nNAME = Hurr durr\n";

/* detect SCRATCH/name/rel into ti; returns the full path (malloc'd) */
static char *
detect(const char *d, const char *rel, struct ud_treeinfo *ti)
{
	char *p = ud_xasprintf("%s/%s", d, rel);

	ud_treekind_detect(p, ti);
	return p;
}

START_TEST(test_trees)
{
	char *d = test_dir("trees"), *p, *s;
	struct ud_treeinfo ti;

	put(d, "split/Makefile", makefile);
	put(d, "split/include/uapi/linux/a.h", "");
	put(d, "split/include/linux/a.h", "");
	put(d, "split/scripts/headers_install.sh", "");
	p = detect(d, "split", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_SPLIT);
	ck_assert_str_eq(ti.root, p);
	ck_assert_str_eq(ti.version, "6.1.12");
	ck_assert_str_eq(ti.generation, "headers_install.sh");
	s = ud_treeinfo_describe(&ti, "x86");
	ck_assert_str_eq(s, "split source tree, Linux 6.1.12, headers_install.sh, arch x86");
	free(s);
	ud_treeinfo_free(&ti);
	free(p);

	put(d, "old/Makefile", "VERSION = 3\nPATCHLEVEL = 6\nSUBLEVEL = 0\n");
	put(d, "old/include/linux/Kbuild", "header-y += a.h\n");
	put(d, "old/include/linux/a.h", "");
	put(d, "old/scripts/headers_install.pl", "");
	p = detect(d, "old", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_PRESPLIT);
	ck_assert_str_eq(ti.version, "3.6.0");
	ck_assert_str_eq(ti.generation, "headers_install.pl");
	ck_assert(ud_treekind_is_tree(ti.kind));
	ud_treeinfo_free(&ti);
	free(p);

	/* no Makefile: the Kbuild lists say it (what `uapid split` is given in the tests) */
	put(d, "bare/include/linux/Kbuild", "header-y += a.h\n");
	put(d, "bare/include/linux/a.h", "");
	p = detect(d, "bare", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_PRESPLIT);
	ck_assert_ptr_null(ti.version);
	ud_treeinfo_free(&ti);
	free(p);
	free(d);
}
END_TEST

START_TEST(test_installed)
{
	char *d = test_dir("installed"), *p, *want;
	struct ud_treeinfo ti;

	put(d, "inst/include/linux/a.h", "");
	put(d, "inst/include/asm/b.h", "");
	p = detect(d, "inst", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_INSTALLED);
	want = ud_xasprintf("%s/include", p);
	ck_assert_str_eq(ti.root, want);
	ck_assert_ptr_null(ti.version);
	free(want);
	ud_treeinfo_free(&ti);
	free(p);
	/* its include/ named directly */
	p = detect(d, "inst/include", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_INSTALLED);
	ck_assert_str_eq(ti.root, p);
	ud_treeinfo_free(&ti);
	free(p);
	/* /usr/include: libc's headers beside the kernel's */
	put(d, "usr/include/stdio.h", "");
	put(d, "usr/include/linux/a.h", "");
	p = detect(d, "usr", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_INSTALLED);
	ud_treeinfo_free(&ti);
	free(p);
	free(d);
}
END_TEST

START_TEST(test_refused)
{
	char *d = test_dir("refused"), *p;
	struct ud_treeinfo ti;

	/* a subdirectory of an include directory */
	put(d, "inst/include/linux/a.h", "");
	put(d, "inst/include/linux/sub/b.h", "");
	p = detect(d, "inst/include/linux", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_NONE);
	ck_assert_ptr_null(ti.root);
	ck_assert_ptr_nonnull(strstr(ti.hint, "subdirectory of an include directory"));
	ud_treeinfo_free(&ti);
	free(p);
	/* empty, and no headers */
	put(d, "empty/.keep", "");
	p = detect(d, "empty", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_NONE);
	ck_assert_ptr_nonnull(strstr(ti.hint, "no headers"));
	ck_assert_str_eq(ud_treekind_name(ti.kind), "not a tree");
	ud_treeinfo_free(&ti);
	free(p);
	put(d, "text/a/readme.txt", "");
	p = detect(d, "text", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_NONE);
	ud_treeinfo_free(&ti);
	free(p);
	/* missing, and a file */
	p = detect(d, "missing", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_NONE);
	ck_assert_ptr_nonnull(strstr(ti.hint, "No such file"));
	ud_treeinfo_free(&ti);
	free(p);
	p = detect(d, "text/a/readme.txt", &ti);
	ck_assert_int_eq(ti.kind, UD_TREEKIND_NONE);
	ck_assert_ptr_nonnull(strstr(ti.hint, "not a directory"));
	ud_treeinfo_free(&ti);
	ud_treeinfo_free(&ti);
	ud_treeinfo_free(NULL);
	free(p);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("treekind");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_trees);
	tcase_add_test(tc, test_installed);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "treekind");
}
