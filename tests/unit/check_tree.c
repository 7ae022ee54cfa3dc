// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel tree tests: opening a tree, resolving user paths inside it.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/io/tree.h"

/*
 * SCRATCH/name (canonical, malloc'd) holding a tree:
 *   tree/include/linux/a.h  tree/in -> include/linux  tree/out -> ../outside
 *   tree2/x.h  outside/o.h  file
 */
static char *
make_dirs(const char *name)
{
	char *d = test_dir(name), *r;
	static const char *const files[] = {"tree/include/linux/a.h", "tree2/x.h", "outside/o.h",
					    "file"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++)
		put(d, files[i], "");
	put_link(d, "tree/in", "include/linux");
	put_link(d, "tree/out", "../outside");
	r = realpath(d, NULL);
	ck_assert_ptr_nonnull(r);
	free(d);
	return r;
}

START_TEST(test_open)
{
	char *d = make_dirs("open"), *p, *want, *cause = NULL;
	struct ud_tree t;

	p = ud_xasprintf("%s/file", d);
	ck_assert_int_eq(ud_tree_open(&t, p, &cause), -ENOTDIR);
	assert_cause(&cause, p, "not a directory");
	ck_assert_ptr_null(t.root);
	free(p);
	p = ud_xasprintf("%s/missing", d);
	ck_assert_int_eq(ud_tree_open(&t, p, &cause), -ENOENT);
	assert_cause(&cause, p, "No such file");
	ck_assert_int_eq(ud_tree_open(&t, p, NULL), -ENOENT);
	free(p);
	/* the root is canonical */
	p = ud_xasprintf("%s/tree/./include/..//", d);
	ck_assert_int_eq(ud_tree_open(&t, p, &cause), 0);
	want = ud_xasprintf("%s/tree", d);
	ck_assert_str_eq(t.root, want);
	ud_tree_close(&t);
	ck_assert_ptr_null(t.root);
	ud_tree_close(&t);
	ud_tree_close(NULL);
	free(p);
	/* through a symlink */
	p = ud_xasprintf("%s/tree/in", d);
	ck_assert_int_eq(ud_tree_open(&t, p, &cause), 0);
	free(want);
	want = ud_xasprintf("%s/tree/include/linux", d);
	ck_assert_str_eq(t.root, want);
	ud_tree_close(&t);
	free(p);
	free(want);
	free(d);
}
END_TEST

START_TEST(test_relpath)
{
	char *d = make_dirs("relpath"), *root = ud_xasprintf("%s/tree", d), *rel, *p;
	char *cause = NULL;
	struct ud_tree t;

	ck_assert_int_eq(ud_tree_open(&t, root, &cause), 0);
	ck_assert_int_eq(ud_tree_relpath(&t, "include/linux/a.h", &rel, &cause), 0);
	ck_assert_str_eq(rel, "include/linux/a.h");
	free(rel);
	ck_assert_int_eq(ud_tree_relpath(&t, "include//linux/../linux/./a.h", &rel, &cause), 0);
	ck_assert_str_eq(rel, "include/linux/a.h");
	free(rel);
	ck_assert_int_eq(ud_tree_relpath(&t, "include", &rel, &cause), 0);
	ck_assert_str_eq(rel, "include");
	free(rel);
	/* the root itself is "" */
	ck_assert_int_eq(ud_tree_relpath(&t, "", &rel, &cause), 0);
	ck_assert_str_eq(rel, "");
	free(rel);
	ck_assert_int_eq(ud_tree_relpath(&t, ".", &rel, &cause), 0);
	ck_assert_str_eq(rel, "");
	free(rel);
	ck_assert_int_eq(ud_tree_relpath(&t, "include/..", &rel, &cause), 0);
	ck_assert_str_eq(rel, "");
	free(rel);
	ck_assert_int_eq(ud_tree_relpath(&t, root, &rel, &cause), 0);
	ck_assert_str_eq(rel, "");
	free(rel);
	/* an absolute path inside */
	p = ud_xasprintf("%s/include/linux/a.h", root);
	ck_assert_int_eq(ud_tree_relpath(&t, p, &rel, &cause), 0);
	ck_assert_str_eq(rel, "include/linux/a.h");
	free(rel);
	free(p);
	/* a symlink inside the tree resolves to its target */
	ck_assert_int_eq(ud_tree_relpath(&t, "in/a.h", &rel, &cause), 0);
	ck_assert_str_eq(rel, "include/linux/a.h");
	free(rel);
	ck_assert_ptr_null(cause);
	ud_tree_close(&t);
	free(root);
	free(d);
}
END_TEST

START_TEST(test_relpath_outside)
{
	char *d = make_dirs("outside"), *root = ud_xasprintf("%s/tree", d), *rel = NULL, *p;
	char *cause = NULL;
	struct ud_tree t;

	ck_assert_int_eq(ud_tree_open(&t, root, &cause), 0);
	ck_assert_int_eq(ud_tree_relpath(&t, "..", &rel, &cause), -EXDEV);
	ck_assert_ptr_null(rel);
	assert_cause(&cause, "..: outside the tree", d);
	ck_assert_int_eq(ud_tree_relpath(&t, "include/../../outside/o.h", &rel, &cause), -EXDEV);
	assert_cause(&cause, "outside the tree", "outside/o.h");
	/* a symlink that escapes */
	ck_assert_int_eq(ud_tree_relpath(&t, "out/o.h", &rel, &cause), -EXDEV);
	assert_cause(&cause, "out/o.h", "outside the tree");
	ck_assert_int_eq(ud_tree_relpath(&t, "out", &rel, &cause), -EXDEV);
	assert_cause(&cause, "out", "outside the tree");
	/* a sibling whose name starts with the root's is outside too */
	p = ud_xasprintf("%s/tree2/x.h", d);
	ck_assert_int_eq(ud_tree_relpath(&t, p, &rel, &cause), -EXDEV);
	assert_cause(&cause, p, "outside the tree");
	free(p);
	ck_assert_int_eq(ud_tree_relpath(&t, "/", &rel, NULL), -EXDEV);
	/* what does not exist */
	ck_assert_int_eq(ud_tree_relpath(&t, "include/missing.h", &rel, &cause), -ENOENT);
	assert_cause(&cause, "include/missing.h", "No such file");
	ck_assert_ptr_null(rel);
	ud_tree_close(&t);
	free(root);
	free(d);
}
END_TEST

START_TEST(test_path)
{
	char *d = make_dirs("path"), *root = ud_xasprintf("%s/tree", d), *p, *want;
	struct ud_tree t;

	ck_assert_int_eq(ud_tree_open(&t, root, NULL), 0);
	p = ud_tree_path(&t, "include/linux/a.h");
	want = ud_xasprintf("%s/include/linux/a.h", root);
	ck_assert_str_eq(p, want);
	ck_assert(ud_is_file(p));
	free(p);
	free(want);
	ud_tree_close(&t);
	free(root);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_relpath);
	tcase_add_test(tc, test_relpath_outside);
	tcase_add_test(tc, test_path);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "tree");
}
