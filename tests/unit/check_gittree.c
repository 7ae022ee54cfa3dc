// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ud_gittree_changed_paths on trees built in a scratch repository: contents
 * and mode edits, a file that becomes a symlink, directories added and
 * deleted whole, the same tree, and the empty tree on one side.
 */
#include <git2.h>

#include "testutil.h"
#include "uapid/io/gittree.h"

static git_repository *repo;

static void
blob(const char *text, git_oid *id)
{
	ck_assert_int_eq(git_blob_create_from_buffer(id, repo, text, strlen(text)), 0);
}

/* A tree of (path, text, mode) triples, ending in a NULL path. */
static git_tree *
tree_of(const char *const *spec)
{
	git_tree_update u[16];
	git_treebuilder *tb;
	git_tree *empty, *t;
	git_oid eid, id;
	size_t n = 0;

	for (; spec[0] != NULL; spec += 3) {
		memset(&u[n], 0, sizeof(u[n]));
		u[n].action = GIT_TREE_UPDATE_UPSERT;
		blob(spec[1], &u[n].id);
		u[n].filemode = (git_filemode_t)strtol(spec[2], NULL, 8);
		u[n].path = spec[0];
		n++;
	}
	ck_assert_int_eq(git_treebuilder_new(&tb, repo, NULL), 0);
	ck_assert_int_eq(git_treebuilder_write(&eid, tb), 0);
	git_treebuilder_free(tb);
	ck_assert_int_eq(git_tree_lookup(&empty, repo, &eid), 0);
	ck_assert_int_eq(git_tree_create_updated(&id, repo, empty, n, u), 0);
	ck_assert_int_eq(git_tree_lookup(&t, repo, &id), 0);
	git_tree_free(empty);
	return t;
}

static void
assert_paths(const struct ud_strlist *l, const char *const *want)
{
	size_t i;

	for (i = 0; want[i] != NULL; i++) {
		ck_assert_uint_gt(l->n, i);
		ck_assert_str_eq(l->v[i], want[i]);
	}
	ck_assert_uint_eq(l->n, i);
}

START_TEST(test_changed_paths)
{
	static const char *const a_spec[] = {
		"a.h",	  "A\n",  "100644", "sub/b.h", "B\n",	   "100644", "sub/c.h", "C\n",
		"100644", "link", "a.h",    "120000",  "gone/x.h", "X\n",    "100644",	NULL};
	static const char *const b_spec[] = {"a.h",	  "A2\n",    "100644",	"sub/b.h", "B\n",
					     "100644",	  "sub/c.h", "C\n",	"100755",  "link",
					     "L\n",	  "100644",  "new/y.h", "Y\n",	   "100644",
					     "new/z/w.h", "W\n",     "100644",	NULL};
	static const char *const want_mod[] = {"a.h", "sub/c.h", NULL};
	static const char *const want_other[] = {"gone",    "gone/x.h", "link",	     "new",
						 "new/y.h", "new/z",	"new/z/w.h", NULL};
	static const char *const want_all[] = {"a.h", "gone",	 "gone/x.h", "link",
					       "sub", "sub/b.h", "sub/c.h",  NULL};
	static const char *const none[] = {NULL};
	struct ud_strlist mod = UD_STRLIST_INIT, other = UD_STRLIST_INIT;
	git_tree *a, *b;
	char *cause = NULL;

	a = tree_of(a_spec);
	b = tree_of(b_spec);
	ck_assert_int_eq(ud_gittree_changed_paths(repo, a, b, &mod, &other, &cause), 0);
	assert_paths(&mod, want_mod);
	assert_paths(&other, want_other);
	ud_strlist_free(&mod);
	ud_strlist_free(&other);
	/* the same tree: nothing */
	ck_assert_int_eq(ud_gittree_changed_paths(repo, a, a, &mod, &other, &cause), 0);
	assert_paths(&mod, none);
	assert_paths(&other, none);
	/* from nothing: every path, directories too */
	ck_assert_int_eq(ud_gittree_changed_paths(repo, NULL, a, &mod, &other, &cause), 0);
	assert_paths(&mod, none);
	assert_paths(&other, want_all);
	ud_strlist_free(&other);
	git_tree_free(a);
	git_tree_free(b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("gittree");
	TCase *tc = tcase_create("io");
	char *dir;
	int rc;

	git_libgit2_init();
	dir = ud_xasprintf("/tmp/uapid-check-gittree-%d", (int)getpid());
	if (git_repository_init(&repo, dir, 1) < 0)
		return EXIT_FAILURE;
	tcase_add_test(tc, test_changed_paths);
	suite_add_tcase(s, tc);
	rc = test_run(s);
	git_repository_free(repo);
	rm_rf(dir);
	free(dir);
	git_libgit2_shutdown();
	return rc;
}
