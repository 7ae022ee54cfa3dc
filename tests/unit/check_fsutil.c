// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File helper tests on real files in a scratch directory: whole-file
 * reads and their refusals, atomic writes, removal, directory creation.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "uapid/core/lex.h"

/* dir/rel (malloc'd). */
static char *
at(const char *dir, const char *rel)
{
	return ud_xasprintf("%s/%s", dir, rel);
}

/* The names in a directory, sorted, blank-separated (malloc'd). */
static char *
ls(const char *dir)
{
	struct dirent **v;
	struct ud_buf b = UD_BUF_INIT;
	int n = scandir(dir, &v, NULL, alphasort), i;

	ck_assert_int_ge(n, 0);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") != 0 && strcmp(v[i]->d_name, "..") != 0)
			ud_buf_addf(&b, "%s%s", b.len ? " " : "", v[i]->d_name);
		free(v[i]);
	}
	free(v);
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

START_TEST(test_read)
{
	char *d = test_dir("read"), *f = at(d, "a.h"), *e = at(d, "empty.h"), *cause = NULL;
	struct ud_buf b = UD_BUF_INIT;

	put(d, "a.h", "hello\n");
	put(d, "empty.h", "");
	ud_buf_addstr(&b, "old contents, replaced");
	ck_assert_int_eq(ud_read_file(f, &b, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(b.len, 6);
	ck_assert_str_eq(b.data, "hello\n");
	ck_assert_int_eq(ud_read_file(e, &b, &cause), 0);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(ud_buf_str(&b), "");
	ud_buf_free(&b);
	free(f);
	free(e);
	free(d);
}
END_TEST

START_TEST(test_read_refused)
{
	char *d = test_dir("refused"), *missing = at(d, "missing.h"), *fifo = at(d, "fifo.h");
	char *cause = NULL;
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_read_file(missing, &b, &cause), -ENOENT);
	assert_cause(&cause, missing, "cannot open");
	ck_assert_int_eq(ud_read_file(missing, &b, NULL), -ENOENT); /* no cause wanted */
	ck_assert_int_eq(ud_read_file(d, &b, &cause), -EINVAL);
	assert_cause(&cause, d, "not a regular file");
	/* a FIFO without a writer: refused at once, not waited on */
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	ck_assert_int_eq(ud_read_file(fifo, &b, &cause), -EINVAL);
	assert_cause(&cause, fifo, "not a regular file");
	ck_assert_uint_eq(b.len, 0);
	ud_buf_free(&b);
	free(missing);
	free(fifo);
	free(d);
}
END_TEST

START_TEST(test_read_size_limit)
{
	char *d = test_dir("size"), *big = at(d, "big.h"), *max = at(d, "max.h"), *cause = NULL;
	struct ud_buf b = UD_BUF_INIT;
	int fd;

	/* sparse files: no 16 MiB of disk writes */
	fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)UD_LEX_MAX_SIZE + 1), 0);
	close(fd);
	fd = open(max, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)UD_LEX_MAX_SIZE), 0);
	close(fd);
	ck_assert_int_eq(ud_read_file(big, &b, &cause), -EFBIG);
	assert_cause(&cause, big, "16 MiB");
	ck_assert_int_eq(ud_read_file(max, &b, &cause), 0); /* the limit itself is fine */
	ck_assert_uint_eq(b.len, UD_LEX_MAX_SIZE);
	ck_assert_int_eq(b.data[UD_LEX_MAX_SIZE - 1], 0);
	ud_buf_free(&b);
	free(big);
	free(max);
	free(d);
}
END_TEST

START_TEST(test_read_fd)
{
	char *d = test_dir("fd"), *f = at(d, "a.h"), *cause = NULL;
	struct ud_buf b = UD_BUF_INIT;
	int fd;

	put(d, "a.h", "text");
	fd = open(f, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ud_read_fd(fd, "NAME", &b, &cause), 0);
	ck_assert_str_eq(b.data, "text");
	errno = 0;
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1); /* closed */
	ck_assert_int_eq(errno, EBADF);
	/* on failure too, and the message uses the name given */
	fd = open(d, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ud_read_fd(fd, "NAME", &b, &cause), -EINVAL);
	assert_cause(&cause, "NAME: ", "not a regular file");
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
	ud_buf_free(&b);
	free(f);
	free(d);
}
END_TEST

START_TEST(test_write_new)
{
	char *d = test_dir("new"), *f = at(d, "new.h"), *g = at(d, "empty.h"), *cause = NULL, *s;
	mode_t old = umask(077);
	int rc;

	/* a new file is 0644 whatever the umask */
	rc = ud_write_file(f, "abc\n", 4, 0, &cause);
	umask(old);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(stat_of(d, "new.h").st_mode & 07777, 0644);
	assert_text(d, "new.h", "abc\n");
	ck_assert_int_eq(ud_write_file(g, "", 0, 0, &cause), 0);
	assert_text(d, "empty.h", "");
	s = ls(d); /* no temporary file left */
	ck_assert_str_eq(s, "empty.h new.h");
	free(s);
	free(f);
	free(g);
	free(d);
}
END_TEST

/*
 * UD_WRITE_STEADY_UMASK: a new file made under a umask that takes bits of
 * 0644 is still 0644 (the umask is read once a process: the first steady
 * write of this suite's process is this one, under 077).
 */
START_TEST(test_write_steady_umask)
{
	char *d = test_dir("steady"), *f = at(d, "a.h"), *g = at(d, "b.h"), *cause = NULL;
	mode_t old = umask(077);
	int rc1, rc2;

	rc1 = ud_write_file(f, "abc\n", 4, UD_WRITE_NEW | UD_WRITE_STEADY_UMASK, &cause);
	rc2 = ud_write_file(g, "xyz\n", 4, UD_WRITE_STEADY_UMASK | UD_WRITE_PRIVATE, &cause);
	umask(old);
	ck_assert_int_eq(rc1, 0);
	ck_assert_int_eq(rc2, 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(stat_of(d, "a.h").st_mode & 07777, 0644);
	ck_assert_uint_eq(stat_of(d, "b.h").st_mode & 07777, 0600);
	assert_text(d, "a.h", "abc\n");
	assert_text(d, "b.h", "xyz\n");
	free(f);
	free(g);
	free(d);
}
END_TEST

/* UD_WRITE_NEW links a new file in; an existing one is left alone with -EEXIST. */
START_TEST(test_write_new_flag)
{
	char *d = test_dir("new-flag"), *f = at(d, "a.h"), *cause = NULL, *s;

	ck_assert_int_eq(ud_write_file(f, "abc\n", 4, UD_WRITE_NEW, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(stat_of(d, "a.h").st_mode & 07777, 0644);
	assert_text(d, "a.h", "abc\n");
	ck_assert_int_eq(ud_write_file(f, "xyz\n", 4, UD_WRITE_NEW, &cause), -EEXIST);
	ck_assert_ptr_nonnull(cause);
	free(cause);
	assert_text(d, "a.h", "abc\n");
	s = ls(d); /* no temporary file left */
	ck_assert_str_eq(s, "a.h");
	free(s);
	free(f);
	free(d);
}
END_TEST

START_TEST(test_write_existing)
{
	char *d = test_dir("existing"), *f = at(d, "a.h"), *cause = NULL, *s;
	struct stat before, after;

	put(d, "a.h", "old text, longer than the new\n");
	ck_assert_int_eq(chmod(f, 0600), 0);
	ck_assert_int_eq(stat(f, &before), 0);
	ck_assert_int_eq(ud_write_file(f, "new\n", 4, 0, &cause), 0);
	ck_assert_int_eq(stat(f, &after), 0);
	ck_assert_uint_eq(after.st_mode & 07777, 0600); /* the mode stays */
	ck_assert_uint_ne(after.st_ino, before.st_ino); /* a new file renamed over it */
	assert_text(d, "a.h", "new\n");
	ck_assert_int_eq(chmod(f, 0755), 0);
	ck_assert_int_eq(ud_write_file(f, "x", 1, 0, &cause), 0);
	ck_assert_uint_eq(stat_of(d, "a.h").st_mode & 07777, 0755);
	s = ls(d);
	ck_assert_str_eq(s, "a.h");
	free(s);
	free(f);
	free(d);
}
END_TEST

START_TEST(test_write_mkdir)
{
	char *d = test_dir("mkdir"), *f = at(d, "a/b/c/x.h"), *a = at(d, "a"), *cause = NULL;

	ck_assert_int_eq(ud_write_file(f, "x", 1, 0, &cause), -ENOENT);
	assert_cause(&cause, f, "cannot");
	ck_assert(!ud_is_dir(a));
	ck_assert_int_eq(ud_write_file(f, "x", 1, UD_WRITE_MKDIR, &cause), 0);
	ck_assert(ud_is_dir(a));
	assert_text(d, "a/b/c/x.h", "x");
	/* the parents exist now: MKDIR is harmless */
	ck_assert_int_eq(ud_write_file(f, "y", 1, UD_WRITE_MKDIR, &cause), 0);
	assert_text(d, "a/b/c/x.h", "y");
	free(a);
	free(f);
	free(d);
}
END_TEST

/* UD_WRITE_PRIVATE: 0600 files and 0700 directories, whatever the umask; a wider file is narrowed.
 */
START_TEST(test_write_private)
{
	char *d = test_dir("private"), *f = at(d, "a/b/x.h"), *cause = NULL;
	mode_t old = umask(022);
	int rc;

	rc = ud_write_file(f, "x", 1, UD_WRITE_MKDIR | UD_WRITE_PRIVATE, &cause);
	umask(old);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(stat_of(d, "a/b/x.h").st_mode & 07777, 0600);
	ck_assert_uint_eq(stat_of(d, "a").st_mode & 07777, 0700);
	ck_assert_uint_eq(stat_of(d, "a/b").st_mode & 07777, 0700);
	ck_assert_int_eq(chmod(f, 0644), 0);
	ck_assert_int_eq(ud_write_file(f, "y", 1, UD_WRITE_PRIVATE, &cause), 0);
	ck_assert_uint_eq(stat_of(d, "a/b/x.h").st_mode & 07777, 0600);
	assert_text(d, "a/b/x.h", "y");
	free(f);
	free(d);
}
END_TEST

/* ud_make_private: the group's and others' bits off everything below, symlinks left alone. */
START_TEST(test_make_private)
{
	char *d = test_dir("mkprivate"), *top = at(d, "state"), *cause = NULL;
	char *sub = at(d, "state/sub"), *f = at(d, "state/sub/f.h"), *g = at(d, "state/g.h");
	char *link = at(d, "state/link"), *outside = at(d, "outside.h");
	size_t changed = 99;

	ck_assert_int_eq(ud_mkdir_p(sub, &cause), 0);
	put(d, "state/sub/f.h", "f");
	put(d, "state/g.h", "g");
	put(d, "outside.h", "o");
	ck_assert_int_eq(chmod(top, 0755), 0);
	ck_assert_int_eq(chmod(sub, 0750), 0);
	ck_assert_int_eq(chmod(f, 0644), 0);
	ck_assert_int_eq(chmod(g, 0600), 0);
	ck_assert_int_eq(chmod(outside, 0644), 0);
	ck_assert_int_eq(symlink(outside, link), 0);
	ck_assert_int_eq(ud_make_private(top, &changed, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(changed, 3); /* top, sub, f.h: g.h was private already */
	ck_assert_uint_eq(stat_of(d, "state").st_mode & 07777, 0700);
	ck_assert_uint_eq(stat_of(d, "state/sub").st_mode & 07777, 0700);
	ck_assert_uint_eq(stat_of(d, "state/sub/f.h").st_mode & 07777, 0600);
	ck_assert_uint_eq(stat_of(d, "state/g.h").st_mode & 07777, 0600);
	ck_assert_uint_eq(stat_of(d, "outside.h").st_mode & 07777, 0644); /* not followed */
	ck_assert_int_eq(ud_make_private(top, &changed, &cause), 0);
	ck_assert_uint_eq(changed, 0);
	ck_assert_int_lt(ud_make_private("/nonexistent/x", NULL, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	free(cause);
	free(top);
	free(sub);
	free(f);
	free(g);
	free(link);
	free(outside);
	free(d);
}
END_TEST

START_TEST(test_write_durable)
{
	char *d = test_dir("durable"), *f = at(d, "a.h"), *g = at(d, "sub/b.h"), *cause = NULL, *s;
	int cwd = open(".", O_RDONLY | O_DIRECTORY);

	ck_assert_int_eq(ud_write_file(f, "one", 3, UD_WRITE_DURABLE, &cause), 0);
	ck_assert_int_eq(ud_write_file(f, "two", 3, UD_WRITE_DURABLE, &cause), 0);
	ck_assert_int_eq(ud_write_file(g, "three", 5, UD_WRITE_DURABLE | UD_WRITE_MKDIR, &cause),
			 0);
	ck_assert_ptr_null(cause);
	assert_text(d, "a.h", "two");
	assert_text(d, "sub/b.h", "three");
	/* a name without a directory: the current one */
	ck_assert_int_ge(cwd, 0);
	ck_assert_int_eq(chdir(d), 0);
	ck_assert_int_eq(ud_write_file("c.h", "four", 4, UD_WRITE_DURABLE, &cause), 0);
	ck_assert_int_eq(ud_write_file("c.h", "five", 4, UD_WRITE_DURABLE, &cause), 0);
	ck_assert_int_eq(fchdir(cwd), 0);
	close(cwd);
	assert_text(d, "c.h", "five");
	s = ls(d);
	ck_assert_str_eq(s, "a.h c.h sub");
	free(s);
	free(f);
	free(g);
	free(d);
}
END_TEST

START_TEST(test_write_failure)
{
	char *d = test_dir("failure"), *file = at(d, "file"), *under = at(d, "file/x.h");
	char *deep = at(d, "file/sub/x.h"), *dir = at(d, "dir"), *cause = NULL, *s;

	/* root ignores permissions: fail through a parent that is a regular file */
	put(d, "file", "a file\n");
	ck_assert_int_eq(ud_write_file(under, "x", 1, 0, &cause), -ENOTDIR);
	assert_cause(&cause, under, "cannot");
	ck_assert_int_eq(ud_write_file(under, "x", 1, UD_WRITE_DURABLE, &cause), -ENOTDIR);
	assert_cause(&cause, under, "cannot");
	ck_assert_int_eq(ud_write_file(deep, "x", 1, UD_WRITE_MKDIR, &cause), -ENOTDIR);
	assert_cause(&cause, file, "cannot create directory");
	/* the temporary file is made, then cannot take the name of a directory */
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(ud_write_file(dir, "x", 1, 0, &cause), -EISDIR);
	assert_cause(&cause, dir, "cannot write");
	ck_assert(ud_is_dir(dir));
	s = ls(d); /* nothing left behind */
	ck_assert_str_eq(s, "dir file");
	free(s);
	assert_text(d, "file", "a file\n");
	free(file);
	free(under);
	free(deep);
	free(dir);
	free(d);
}
END_TEST

START_TEST(test_remove)
{
	char *d = test_dir("remove"), *f = at(d, "a.h"), *g = at(d, "b.h"), *sub = at(d, "sub");
	char *missing = at(d, "nowhere/x.h"), *cause = NULL, *s;

	put(d, "a.h", "a");
	put(d, "b.h", "b");
	ck_assert_int_eq(ud_remove_file(f, 0, &cause), 0);
	ck_assert(!ud_is_file(f));
	ck_assert_int_eq(ud_remove_file(f, 0, &cause), 0); /* missing is fine */
	ck_assert_int_eq(ud_remove_file(missing, UD_WRITE_DURABLE, &cause), 0);
	ck_assert_int_eq(ud_remove_file(g, UD_WRITE_DURABLE, &cause), 0);
	ck_assert(!ud_is_file(g));
	ck_assert_ptr_null(cause);
	/* a directory is not a file to remove */
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_lt(ud_remove_file(sub, 0, &cause), 0);
	assert_cause(&cause, sub, "cannot remove");
	ck_assert(ud_is_dir(sub));
	s = ls(d);
	ck_assert_str_eq(s, "sub");
	free(s);
	free(f);
	free(g);
	free(sub);
	free(missing);
	free(d);
}
END_TEST

START_TEST(test_mkdir_p)
{
	char *d = test_dir("mkdirp"), *abc = at(d, "a/b/c"), *xy = at(d, "x//y/"),
	     *y = at(d, "x/y");
	char *file = at(d, "file"), *through = at(d, "file/sub/dir"), *cause = NULL;

	ck_assert_int_eq(ud_mkdir_p(abc, &cause), 0);
	ck_assert(ud_is_dir(abc));
	ck_assert_int_eq(ud_mkdir_p(abc, &cause), 0); /* existing is fine */
	ck_assert_int_eq(ud_mkdir_p(d, &cause), 0);
	ck_assert_int_eq(ud_mkdir_p(xy, &cause), 0); /* doubled and trailing slashes */
	ck_assert(ud_is_dir(y));
	ck_assert_int_eq(ud_mkdir_p("/", &cause), 0);
	ck_assert_ptr_null(cause);
	put(d, "file", "");
	ck_assert_int_eq(ud_mkdir_p(through, &cause), -ENOTDIR);
	assert_cause(&cause, file, "cannot create directory");
	ck_assert_int_eq(ud_mkdir_p(file, &cause), -ENOTDIR);
	assert_cause(&cause, file, "cannot create directory");
	ck_assert(ud_is_file(file));
	free(abc);
	free(xy);
	free(y);
	free(file);
	free(through);
	free(d);
}
END_TEST

START_TEST(test_is_file_dir)
{
	char *d = test_dir("is"), *f = at(d, "f"), *p = at(d, "p"), *m = at(d, "m");

	put(d, "f", "");
	ck_assert_int_eq(mkfifo(p, 0644), 0);
	ck_assert(ud_is_file(f));
	ck_assert(!ud_is_dir(f));
	ck_assert(ud_is_dir(d));
	ck_assert(!ud_is_file(d));
	ck_assert(!ud_is_file(p));
	ck_assert(!ud_is_dir(p));
	ck_assert(!ud_is_file(m));
	ck_assert(!ud_is_dir(m));
	free(f);
	free(p);
	free(m);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("fsutil");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_read_refused);
	tcase_add_test(tc, test_read_size_limit);
	tcase_add_test(tc, test_read_fd);
	tcase_add_test(tc, test_write_new);
	tcase_add_test(tc, test_write_steady_umask);
	tcase_add_test(tc, test_write_new_flag);
	tcase_add_test(tc, test_write_existing);
	tcase_add_test(tc, test_write_mkdir);
	tcase_add_test(tc, test_write_private);
	tcase_add_test(tc, test_make_private);
	tcase_add_test(tc, test_write_durable);
	tcase_add_test(tc, test_write_failure);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_mkdir_p);
	tcase_add_test(tc, test_is_file_dir);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "fsutil");
}
