// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Directory sink tests: atomic writes with parents, unchanged files kept,
 * removal, failures naming the file.
 */
#include <errno.h>
#include <sys/stat.h>

#include "testutil.h"
#include "uapid/io/sink.h"

START_TEST(test_open)
{
	char *d = test_dir("open"), *root = ud_xasprintf("%s/out/sub", d);
	char *file = ud_xasprintf("%s/file", d), *bad = ud_xasprintf("%s/file/out", d);
	char *cause = NULL;
	struct ud_sink s, zero;

	ck_assert_int_eq(ud_sink_open_dir(&s, root, UD_SINK_KEEP_SAME, &cause), 0);
	ck_assert(ud_is_dir(root)); /* created with its parents */
	ck_assert_str_eq(s.label, root);
	ck_assert_uint_eq(s.flags, UD_SINK_KEEP_SAME);
	ud_sink_close(&s);
	ck_assert_ptr_null(s.ops);
	ud_sink_close(&s);
	memset(&zero, 0, sizeof(zero));
	ud_sink_close(&zero);
	ud_sink_close(NULL);
	ck_assert_int_eq(ud_write_file(file, "", 0, 0, NULL), 0);
	ck_assert_int_eq(ud_sink_open_dir(&s, bad, 0, &cause), -ENOTDIR);
	assert_cause(&cause, file, "cannot create directory");
	ck_assert_ptr_null(s.ops);
	free(root);
	free(file);
	free(bad);
	free(d);
}
END_TEST

START_TEST(test_write)
{
	char *d = test_dir("write"), *cause = NULL, *inc = ud_xasprintf("%s/include", d);
	struct ud_sink s;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, 0, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "include/linux/a.h", "A\n", 2, &cause), 0);
	assert_text(d, "include/linux/a.h", "A\n");
	ck_assert_uint_eq(stat_of(d, "include/linux/a.h").st_mode & 07777, 0644);
	ck_assert_int_eq(ud_sink_write(&s, "include/linux/a.h", "AA\n", 3, &cause), 0);
	assert_text(d, "include/linux/a.h", "AA\n");
	ck_assert_int_eq(ud_sink_write(&s, "top.h", "", 0, &cause), 0);
	assert_text(d, "top.h", "");
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(count_entries(d), 2); /* include/ and top.h: no temporary files */
	ck_assert_int_eq(count_entries(inc), 1);
	ud_sink_close(&s);
	free(inc);
	free(d);
}
END_TEST

START_TEST(test_keep_same)
{
	char *d = test_dir("keep"), *cause = NULL;
	struct ud_sink s, plain;
	struct stat before, after;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, UD_SINK_KEEP_SAME, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "a/x.h", "same\n", 5, &cause), 0); /* new: written */
	age(d, "a/x.h");
	before = stat_of(d, "a/x.h");
	ck_assert_int_eq(ud_sink_write(&s, "a/x.h", "same\n", 5, &cause), 1);
	after = stat_of(d, "a/x.h");
	ck_assert_int_eq(after.st_mtim.tv_sec, 1000000000);
	ck_assert_int_eq(after.st_mtim.tv_nsec, 5);
	ck_assert_uint_eq(after.st_ino, before.st_ino);
	/* a prefix of it, or more, is different */
	ck_assert_int_eq(ud_sink_write(&s, "a/x.h", "same", 4, &cause), 0);
	assert_text(d, "a/x.h", "same");
	ck_assert_int_eq(ud_sink_write(&s, "a/x.h", "same\n\n", 6, &cause), 0);
	assert_text(d, "a/x.h", "same\n\n");
	ck_assert_int_ne(stat_of(d, "a/x.h").st_mtim.tv_sec, 1000000000);
	/* an empty file stays empty */
	ck_assert_int_eq(ud_sink_write(&s, "empty.h", "", 0, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "empty.h", "", 0, &cause), 1);

	/* without the flag the same content is written again */
	ck_assert_int_eq(ud_sink_open_dir(&plain, d, 0, &cause), 0);
	age(d, "a/x.h");
	before = stat_of(d, "a/x.h");
	ck_assert_int_eq(ud_sink_write(&plain, "a/x.h", "same\n\n", 6, &cause), 0);
	after = stat_of(d, "a/x.h");
	ck_assert_int_ne(after.st_mtim.tv_sec, 1000000000);
	ck_assert_uint_ne(after.st_ino, before.st_ino);
	ck_assert_ptr_null(cause);
	ud_sink_close(&plain);
	ud_sink_close(&s);
	free(d);
}
END_TEST

static void
unlink_in(const char *dir, const char *name)
{
	char *p = ud_xasprintf("%s/%s", dir, name);

	ck_assert_int_eq(unlink(p), 0);
	free(p);
}

/*
 * The sink remembers the directories it made: a file put in one by someone
 * else is still compared (KEEP_SAME), and one removed under it is made again.
 */
START_TEST(test_made_dirs)
{
	char *d = test_dir("made"), *cause = NULL, *sub = ud_xasprintf("%s/m", d);
	struct ud_sink s;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, UD_SINK_KEEP_SAME, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "m/a.h", "a\n", 2, &cause), 0);
	put(d, "m/b.h", "b\n"); /* there before the sink writes it */
	ck_assert_int_eq(ud_sink_write(&s, "m/b.h", "b\n", 2, &cause), 1);
	ck_assert_int_eq(ud_sink_write(&s, "m/c.h", "c\n", 2, &cause), 0);
	assert_text(d, "m/c.h", "c\n");
	unlink_in(sub, "a.h");
	unlink_in(sub, "b.h");
	unlink_in(sub, "c.h");
	ck_assert_int_eq(rmdir(sub), 0);
	ck_assert_int_eq(ud_sink_write(&s, "m/d.h", "d\n", 2, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_text(d, "m/d.h", "d\n");
	ud_sink_close(&s);
	free(sub);
	free(d);
}
END_TEST

START_TEST(test_durable)
{
	char *d = test_dir("durable"), *cause = NULL, *gone;
	struct ud_sink s;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, UD_SINK_DURABLE | UD_SINK_KEEP_SAME, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "x/y/z.h", "z\n", 2, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "x/y/z.h", "z\n", 2, &cause), 1);
	ck_assert_int_eq(ud_sink_write(&s, "x/y/z.h", "zz\n", 3, &cause), 0);
	assert_text(d, "x/y/z.h", "zz\n");
	ck_assert_int_eq(ud_sink_remove(&s, "x/y/z.h", &cause), 0);
	gone = slurp(d, "x/y/z.h");
	ck_assert_ptr_null(gone);
	ck_assert_ptr_null(cause);
	ud_sink_close(&s);
	free(d);
}
END_TEST

START_TEST(test_remove)
{
	char *d = test_dir("remove"), *cause = NULL, *gone;
	struct ud_sink s;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, 0, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "a/b.h", "b", 1, &cause), 0);
	ck_assert_int_eq(ud_sink_remove(&s, "a/b.h", &cause), 0);
	gone = slurp(d, "a/b.h");
	ck_assert_ptr_null(gone);
	ck_assert_int_eq(ud_sink_remove(&s, "a/b.h", &cause), 0);	/* missing */
	ck_assert_int_eq(ud_sink_remove(&s, "nowhere/c.h", &cause), 0); /* missing directory */
	ck_assert_ptr_null(cause);
	/* a directory is not removed */
	ck_assert_int_lt(ud_sink_remove(&s, "a", &cause), 0);
	assert_cause(&cause, "/a", "cannot remove");
	ud_sink_close(&s);
	free(d);
}
END_TEST

START_TEST(test_write_failure)
{
	char *d = test_dir("failure"), *cause = NULL, *want;
	struct ud_sink s;

	ck_assert_int_eq(ud_sink_open_dir(&s, d, UD_SINK_KEEP_SAME, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "file", "f", 1, &cause), 0);
	/* a parent that is a regular file */
	ck_assert_int_eq(ud_sink_write(&s, "file/x.h", "x", 1, &cause), -ENOTDIR);
	want = ud_xasprintf("%s/file", d);
	assert_cause(&cause, want, "Not a directory");
	free(want);
	/* a directory where the file should go */
	ck_assert_int_eq(ud_sink_write(&s, "dir/x.h", "x", 1, &cause), 0);
	ck_assert_int_eq(ud_sink_write(&s, "dir", "x", 1, &cause), -EISDIR);
	want = ud_xasprintf("%s/dir", d);
	assert_cause(&cause, want, "cannot write");
	free(want);
	ck_assert_int_eq(count_entries(d), 2); /* dir and file, nothing else */
	assert_text(d, "file", "f");
	ud_sink_close(&s);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sink");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_keep_same);
	tcase_add_test(tc, test_made_dirs);
	tcase_add_test(tc, test_durable);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_write_failure);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "sink");
}
