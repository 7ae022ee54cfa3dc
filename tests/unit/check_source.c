// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Directory source tests on a small real tree: stat, read, list, type and
 * the sorted walk with suffix and prune.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/io/source.h"

/*
 * The test tree:
 *   a.h  sub/b.h  sub/c.txt  sub/deeper/d.h  skip/e.h  empty/
 *   link.h -> a.h  linkdir -> sub  fifo.h (a FIFO)
 */
static char *
make_tree(const char *name)
{
	char *d = test_dir(name), *p;

	put(d, "a.h", "A\n");
	put(d, "sub/b.h", "B\n");
	put(d, "sub/c.txt", "C\n");
	put(d, "sub/deeper/d.h", "D\n");
	put(d, "skip/e.h", "E\n");
	p = ud_xasprintf("%s/empty", d);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
	put_link(d, "link.h", "a.h");
	put_link(d, "linkdir", "sub");
	put_link(d, "escape", "/");
	p = ud_xasprintf("%s/fifo.h", d);
	ck_assert_int_eq(mkfifo(p, 0644), 0);
	free(p);
	return d;
}

START_TEST(test_open)
{
	char *d = test_dir("open"), *missing = ud_xasprintf("%s/missing", d);
	char *file = ud_xasprintf("%s/file", d), *cause = NULL;
	struct ud_source s, zero;

	ck_assert_int_eq(ud_source_open_dir(&s, missing, &cause), -ENOENT);
	assert_cause(&cause, missing, "No such file");
	ck_assert_ptr_null(s.ops);
	put(d, "file", "");
	ck_assert_int_eq(ud_source_open_dir(&s, file, &cause), -ENOTDIR);
	assert_cause(&cause, file, "Not a directory");
	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_str_eq(s.label, d);
	ud_source_close(&s);
	ck_assert_ptr_null(s.ops);
	ud_source_close(&s); /* twice, and a zeroed source, are fine */
	memset(&zero, 0, sizeof(zero));
	ud_source_close(&zero);
	ud_source_close(NULL);
	free(missing);
	free(file);
	free(d);
}
END_TEST

START_TEST(test_stat)
{
	char *d = make_tree("stat"), *cause = NULL;
	struct ud_source s;
	struct ud_fstat st;
	struct stat sb;
	char *a = ud_xasprintf("%s/a.h", d);

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_int_eq(ud_source_stat(&s, "a.h", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_FILE);
	ck_assert_uint_eq(st.size, 2);
	ck_assert_int_eq(stat(a, &sb), 0);
	ck_assert_uint_eq(st.ino, sb.st_ino);
	ck_assert_int_eq(st.mtime_ns, (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec);
	ck_assert_int_eq(ud_source_stat(&s, "sub", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_DIR);
	ck_assert_int_eq(ud_source_stat(&s, "", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_DIR);
	ck_assert_int_eq(ud_source_stat(&s, "missing.h", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_NONE);
	ck_assert_int_eq(ud_source_stat(&s, "a.h/below", &st, &cause), 0); /* ENOTDIR */
	ck_assert_int_eq(st.type, UD_FT_NONE);
	/* symlinks that stay in the tree are followed; one leading out is not */
	ck_assert_int_eq(ud_source_stat(&s, "link.h", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_FILE);
	ck_assert_uint_eq(st.size, 2);
	ck_assert(st.symlink); /* followed, and said to be one */
	ck_assert_int_eq(ud_source_stat(&s, "linkdir", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_DIR);
	ck_assert(st.symlink);
	ck_assert_int_eq(ud_source_stat(&s, "a.h", &st, &cause), 0);
	ck_assert(!st.symlink);
	ck_assert_int_eq(ud_source_stat(&s, "escape", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_OTHER);
	ck_assert_int_eq(ud_source_stat(&s, "fifo.h", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_OTHER);
	ck_assert_ptr_null(cause);

	ck_assert_int_eq(ud_source_type(&s, "a.h"), UD_FT_FILE);
	ck_assert_int_eq(ud_source_type(&s, "sub/deeper"), UD_FT_DIR);
	ck_assert_int_eq(ud_source_type(&s, ""), UD_FT_DIR);
	ck_assert_int_eq(ud_source_type(&s, "sub/nothing"), UD_FT_NONE);
	ck_assert_int_eq(ud_source_type(&s, "link.h"), UD_FT_FILE);
	ck_assert_int_eq(ud_source_type(&s, "escape/etc/hostname"), UD_FT_OTHER);
	ck_assert_int_eq(ud_source_type(&s, "fifo.h"), UD_FT_OTHER);
	ud_source_close(&s);
	free(a);
	free(d);
}
END_TEST

/* The cached stat answers what ud_source_stat answers, for every kind of path, twice over. */
START_TEST(test_stat_cached)
{
	static const char *const paths[] = {
		"a.h",	  "sub/b.h",	      "sub/deeper/d.h", "sub",
		"",	  "link.h",	      "linkdir/b.h",	"escape/etc",
		"fifo.h", "missing.h",	      "sub/missing.h",	"nodir/x.h",
		"sub/..", "sub/deeper/../b.h"};
	char *d = make_tree("stat-cached");
	struct ud_stat_cache *c = ud_stat_cache_new();
	struct ud_source s;
	size_t round, i;

	ck_assert_int_eq(ud_source_open_dir(&s, d, NULL), 0);
	for (round = 0; round < 2; round++)
		for (i = 0; i < ARRAY_SIZE(paths); i++) {
			struct ud_fstat want, got;

			ck_assert_int_eq(ud_source_stat(&s, paths[i], &want, NULL), 0);
			ck_assert_int_eq(ud_source_stat_cached(&s, c, paths[i], &got, NULL), 0);
			ck_assert_msg(want.type == got.type && want.size == got.size &&
					      want.mtime_ns == got.mtime_ns &&
					      want.ino == got.ino && want.symlink == got.symlink &&
					      (want.other == NULL) == (got.other == NULL),
				      "%s differs", paths[i]);
		}
	ud_stat_cache_free(c);
	ud_stat_cache_free(NULL);
	ud_source_close(&s);
	free(d);
}
END_TEST

START_TEST(test_read)
{
	char *d = make_tree("read"), *cause = NULL, *want;
	struct ud_source s;
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ud_buf_addstr(&b, "replaced");
	ck_assert_int_eq(ud_source_read(&s, "sub/deeper/d.h", &b, &cause), 0);
	ck_assert_str_eq(b.data, "D\n");
	ck_assert_uint_eq(b.len, 2);
	/* a symlink that stays in the tree is read, also in the middle of a path */
	ck_assert_int_eq(ud_source_read(&s, "link.h", &b, &cause), 0);
	ck_assert_str_eq(b.data, "A\n");
	ck_assert_int_eq(ud_source_read(&s, "linkdir/b.h", &b, &cause), 0);
	ck_assert_str_eq(b.data, "B\n");
	ck_assert_int_eq(ud_source_read(&s, "sub/../a.h", &b, &cause), 0);
	ck_assert_str_eq(b.data, "A\n");
	/* a path that leads out of the tree is not: escape -> /, or ".." past the top */
	ck_assert_int_eq(ud_source_read(&s, "escape/etc/hostname", &b, &cause), -EXDEV);
	want = ud_xasprintf("%s/escape/etc/hostname", d);
	assert_cause(&cause, want, "leads out of the tree, not read");
	free(want);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(ud_source_read(&s, "../read/a.h", &b, &cause), -EXDEV);
	assert_cause(&cause, "../read/a.h", "leads out of the tree");
	/* a FIFO: refused, not waited on */
	ck_assert_int_eq(ud_source_read(&s, "fifo.h", &b, &cause), -EINVAL);
	want = ud_xasprintf("%s/fifo.h", d);
	assert_cause(&cause, want, "not a regular file");
	free(want);
	ck_assert_int_eq(ud_source_read(&s, "sub", &b, &cause), -EINVAL);
	assert_cause(&cause, "sub", "not a regular file");
	ck_assert_int_eq(ud_source_read(&s, "sub/missing.h", &b, &cause), -ENOENT);
	want = ud_xasprintf("%s/sub/missing.h", d);
	assert_cause(&cause, want, "cannot open");
	free(want);
	ud_buf_free(&b);
	ud_source_close(&s);
	free(d);
}
END_TEST

/* ud_source_read_stat: the size and mtime ud_source_stat gives, from what was read */
START_TEST(test_read_stat)
{
	char *d = make_tree("read-stat"), *cause = NULL;
	struct ud_source s, rec;
	struct ud_strlist seen = UD_STRLIST_INIT;
	struct ud_buf b = UD_BUF_INIT;
	struct ud_fstat st, want;

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_int_eq(ud_source_stat(&s, "sub/deeper/d.h", &want, &cause), 0);
	ck_assert_int_eq(ud_source_read_stat(&s, "sub/deeper/d.h", &b, &st, &cause), 0);
	ck_assert_str_eq(b.data, "D\n");
	ck_assert_int_eq(st.type, UD_FT_FILE);
	ck_assert_uint_eq(st.size, want.size);
	ck_assert_int_eq(st.mtime_ns, want.mtime_ns);
	/* through a symlink: its target's */
	ck_assert_int_eq(ud_source_stat(&s, "link.h", &want, &cause), 0);
	ck_assert_int_eq(ud_source_read_stat(&s, "link.h", &b, &st, &cause), 0);
	ck_assert_uint_eq(st.size, want.size);
	ck_assert_int_eq(st.mtime_ns, want.mtime_ns);
	/* a failed read: the read's error, nothing known */
	ck_assert_int_eq(ud_source_read_stat(&s, "sub/missing.h", &b, &st, &cause), -ENOENT);
	free(cause);
	cause = NULL;
	ck_assert_int_eq(st.type, UD_FT_NONE);
	/* a recorder reads, and records a read only: no stat */
	ud_source_open_recorder(&rec, &s, &seen);
	ck_assert_int_eq(ud_source_read_stat(&rec, "sub/deeper/d.h", &b, &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_NONE);
	ck_assert_uint_eq(seen.n, 1);
	ud_source_close(&rec);
	ud_strlist_free(&seen);
	ud_buf_free(&b);
	ud_source_close(&s);
	free(d);
}
END_TEST

START_TEST(test_list)
{
	char *d = make_tree("list"), *cause = NULL;
	struct ud_source s;
	struct ud_strlist names = UD_STRLIST_INIT;

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_int_eq(ud_source_list(&s, "", &names, &cause), 0);
	ud_strlist_sort(&names);
	/* directories end in '/'; the symlinks and the FIFO are left out */
	assert_list(&names, "a.h empty/ skip/ sub/");
	ud_strlist_free(&names);
	ud_strlist_add(&names, "kept");
	ck_assert_int_eq(ud_source_list(&s, "sub", &names, &cause), 0); /* appends */
	ud_strlist_sort(&names);
	assert_list(&names, "b.h c.txt deeper/ kept");
	ud_strlist_free(&names);
	ck_assert_int_eq(ud_source_list(&s, "empty", &names, &cause), 0);
	ck_assert_uint_eq(names.n, 0);
	ck_assert_int_eq(ud_source_list(&s, "missing", &names, &cause), -ENOENT);
	assert_cause(&cause, "missing", "cannot read directory");
	ck_assert_int_eq(ud_source_list(&s, "a.h", &names, &cause), -ENOTDIR);
	assert_cause(&cause, "a.h", "cannot read directory");
	/* a link to a directory in the tree lists it; one leading out is refused */
	ck_assert_int_eq(ud_source_list(&s, "linkdir", &names, &cause), 0);
	ud_strlist_sort(&names);
	assert_list(&names, "b.h c.txt deeper/");
	ud_strlist_free(&names);
	ck_assert_int_lt(ud_source_list(&s, "escape", &names, &cause), 0);
	assert_cause(&cause, "escape", "cannot read directory");
	ck_assert_uint_eq(names.n, 0);
	ud_source_close(&s);
	free(d);
}
END_TEST

START_TEST(test_walk)
{
	static const char *const prune[] = {"skip", "nothing", NULL};
	char *d = make_tree("walk"), *cause = NULL;
	struct ud_source s;
	struct ud_strlist out = UD_STRLIST_INIT;

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "", ".h", prune, &out, &cause), 0);
	assert_list(&out, "a.h sub/b.h sub/deeper/d.h");
	ud_strlist_free(&out);
	ck_assert_int_eq(ud_source_walk(&s, "", NULL, NULL, &out, &cause), 0);
	assert_list(&out, "a.h skip/e.h sub/b.h sub/c.txt sub/deeper/d.h");
	ud_strlist_free(&out);
	/* below a directory, paths relative to it; entries already there stay first */
	ud_strlist_add(&out, "zz-first");
	ck_assert_int_eq(ud_source_walk(&s, "sub", NULL, NULL, &out, &cause), 0);
	assert_list(&out, "zz-first b.h c.txt deeper/d.h");
	ud_strlist_free(&out);
	ck_assert_int_eq(ud_source_walk(&s, "sub", ".txt", NULL, &out, &cause), 0);
	assert_list(&out, "c.txt");
	ud_strlist_free(&out);
	/* a pruned name is a directory name: a file of that name is not pruned */
	ck_assert_int_eq(
		ud_source_walk(&s, "sub", NULL, (const char *const[]){"c.txt", NULL}, &out, &cause),
		0);
	assert_list(&out, "b.h c.txt deeper/d.h");
	ud_strlist_free(&out);
	/* nothing to walk: a missing directory, a file, a link leading out */
	ck_assert_int_eq(ud_source_walk(&s, "missing", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "a.h", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "escape", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "empty", NULL, NULL, &out, &cause), 0);
	ck_assert_uint_eq(out.n, 0);
	/* links inside a walked directory are not entries: no cycles, no double files */
	ck_assert_int_eq(ud_source_walk(&s, "linkdir", ".h", NULL, &out, &cause), 0);
	assert_list(&out, "b.h deeper/d.h");
	ud_strlist_free(&out);
	ck_assert_ptr_null(cause);
	ud_source_close(&s);
	free(d);
}
END_TEST

/*
 * A directory that cannot be read, deterministically even as root: one
 * whose tree-relative path is longer than PATH_MAX (ENAMETOOLONG).  What
 * could be read is still listed.
 */
START_TEST(test_walk_unreadable)
{
	char *d = test_dir("unreadable"), *cause = NULL, name[201];
	struct ud_source s;
	struct ud_strlist out = UD_STRLIST_INIT;
	int fd, i;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	put(d, "deep/ok.h", "");
	fd = open(d, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < 25; i++) { /* deep/ + 25 * 201 bytes > 4096 */
		int sub;

		ck_assert_int_eq(mkdirat(fd, i == 0 ? "deep" : name, 0755), i == 0 ? -1 : 0);
		sub = openat(fd, i == 0 ? "deep" : name, O_RDONLY | O_DIRECTORY);
		ck_assert_int_ge(sub, 0);
		close(fd);
		fd = sub;
	}
	i = openat(fd, "x.h", O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(i, 0);
	close(i);
	close(fd);

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "deep", ".h", NULL, &out, &cause), -EIO);
	assert_cause(&cause, "cannot read directory", "too long");
	ck_assert_uint_eq(out.n, 1);
	ck_assert_str_eq(out.v[0], "ok.h");
	ud_strlist_free(&out);
	ck_assert_int_eq(ud_source_walk(&s, "deep", ".h", NULL, &out, NULL), -EIO); /* no cause */
	ud_strlist_free(&out);
	ud_source_close(&s);
	rm_rf(d);
	free(d);
}
END_TEST

/* The split recorder: files read in one list, paths stat'd or listed in the other. */
START_TEST(test_recorder_split)
{
	char *d = make_tree("recorder"), *cause = NULL;
	struct ud_source s, rec;
	struct ud_strlist read = UD_STRLIST_INIT, looked = UD_STRLIST_INIT, names = UD_STRLIST_INIT;
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_source_open_dir(&s, d, &cause), 0);
	ud_source_open_recorder_split(&rec, &s, &read, &looked);
	ck_assert_int_eq(ud_source_read(&rec, "a.h", &b, &cause), 0);
	ck_assert_int_eq(ud_source_read(&rec, "a.h", &b, &cause), 0); /* once each */
	ck_assert_int_eq(ud_source_type(&rec, "sub/b.h"), UD_FT_FILE);
	ck_assert_int_eq(ud_source_type(&rec, "missing.h"), UD_FT_NONE);
	ck_assert_int_eq(ud_source_list(&rec, "sub", &names, &cause), 0);
	ck_assert_uint_eq(read.n, 1);
	ck_assert_str_eq(read.v[0], "a.h");
	ck_assert_uint_eq(looked.n, 3);
	ck_assert_str_eq(looked.v[0], "sub/b.h");
	ck_assert_str_eq(looked.v[1], "missing.h");
	ck_assert_str_eq(looked.v[2], "sub");
	ud_source_close(&rec);
	ud_source_close(&s);
	ud_strlist_free(&read);
	ud_strlist_free(&looked);
	ud_strlist_free(&names);
	ud_buf_free(&b);
	rm_rf(d);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_stat);
	tcase_add_test(tc, test_stat_cached);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_read_stat);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_walk_unreadable);
	tcase_add_test(tc, test_recorder_split);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "source");
}
