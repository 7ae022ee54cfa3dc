/*
 * Directory source tests on a small real tree: stat, read, list, type and
 * the sorted walk with suffix and prune.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "uapid/source.h"

/* The suite's scratch directory: made by main, removed after the run. */
static char *scratch;

/*
 * Removes name below the directory dirfd, whatever it holds; by
 * descriptor, so a tree deeper than PATH_MAX goes too.
 */
static void
rm_at(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		unlinkat(parent, name, 0);
		return;
	}
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rm_at(dirfd(d), de->d_name);
	closedir(d);
	unlinkat(parent, name, AT_REMOVEDIR);
}

static void
rm_rf(const char *path)
{
	rm_at(AT_FDCWD, path);
}

/* A fresh directory for one test, SCRATCH/name (malloc'd). */
static char *
test_dir(const char *name)
{
	char *d = ud_xasprintf("%s/%s", scratch, name);

	rm_rf(d);
	ck_assert_int_eq(mkdir(d, 0755), 0);
	return d;
}

/* Writes root/rel, making its parents. */
static void
put(const char *root, const char *rel, const char *text)
{
	char *p = ud_xasprintf("%s/%s", root, rel);

	ck_assert_int_eq(ud_write_file(p, text, strlen(text), UD_WRITE_MKDIR, NULL), 0);
	free(p);
}

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
	p = ud_xasprintf("%s/link.h", d);
	ck_assert_int_eq(symlink("a.h", p), 0);
	free(p);
	p = ud_xasprintf("%s/linkdir", d);
	ck_assert_int_eq(symlink("sub", p), 0);
	free(p);
	p = ud_xasprintf("%s/escape", d);
	ck_assert_int_eq(symlink("/", p), 0);
	free(p);
	p = ud_xasprintf("%s/fifo.h", d);
	ck_assert_int_eq(mkfifo(p, 0644), 0);
	free(p);
	return d;
}

/* The list's entries joined by blanks (malloc'd). */
static char *
joined(const struct ud_strlist *l)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < l->n; i++)
		ud_buf_addf(&b, "%s%s", i ? " " : "", l->v[i]);
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

static void
assert_list(const struct ud_strlist *l, const char *want)
{
	char *got = joined(l);

	ck_assert_str_eq(got, want);
	free(got);
}

static void
assert_cause(char **cause, const char *a, const char *b)
{
	ck_assert_ptr_nonnull(*cause);
	ck_assert_msg(strstr(*cause, a) != NULL, "'%s' not in '%s'", a, *cause);
	ck_assert_msg(strstr(*cause, b) != NULL, "'%s' not in '%s'", b, *cause);
	free(*cause);
	*cause = NULL;
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
	ck_assert_int_eq(ud_source_stat(&s, "link.h", &st, &cause), 0); /* not followed */
	ck_assert_int_eq(st.type, UD_FT_OTHER);
	ck_assert_int_eq(ud_source_stat(&s, "linkdir", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_OTHER);
	ck_assert_int_eq(ud_source_stat(&s, "fifo.h", &st, &cause), 0);
	ck_assert_int_eq(st.type, UD_FT_OTHER);
	ck_assert_ptr_null(cause);

	ck_assert_int_eq(ud_source_type(&s, "a.h"), UD_FT_FILE);
	ck_assert_int_eq(ud_source_type(&s, "sub/deeper"), UD_FT_DIR);
	ck_assert_int_eq(ud_source_type(&s, ""), UD_FT_DIR);
	ck_assert_int_eq(ud_source_type(&s, "sub/nothing"), UD_FT_NONE);
	ck_assert_int_eq(ud_source_type(&s, "link.h"), UD_FT_OTHER);
	ck_assert_int_eq(ud_source_type(&s, "fifo.h"), UD_FT_OTHER);
	ud_source_close(&s);
	free(a);
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
	/* a symlink is never read, even to a file inside the tree */
	ck_assert_int_eq(ud_source_read(&s, "link.h", &b, &cause), -EINVAL);
	want = ud_xasprintf("%s/link.h", d);
	assert_cause(&cause, want, "behind a symlink, not read");
	free(want);
	ck_assert_uint_eq(b.len, 0);
	/* nor one in the middle of a path: linkdir -> sub, escape -> / */
	ck_assert_int_eq(ud_source_read(&s, "linkdir/b.h", &b, &cause), -EINVAL);
	assert_cause(&cause, "linkdir/b.h", "behind a symlink, not read");
	ck_assert_int_eq(ud_source_read(&s, "escape/etc/hostname", &b, &cause), -EINVAL);
	assert_cause(&cause, "escape/etc/hostname", "behind a symlink, not read");
	ck_assert_int_eq(ud_source_type(&s, "escape/etc/hostname"), UD_FT_OTHER);
	ck_assert_int_eq(ud_source_type(&s, "linkdir/b.h"), UD_FT_OTHER);
	ck_assert_int_eq(ud_source_read(&s, "sub/../a.h", &b, &cause), -EINVAL);
	assert_cause(&cause, "sub/../a.h", "a path with '..', not read");
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
	ck_assert_int_lt(ud_source_list(&s, "linkdir", &names, &cause), 0); /* not followed */
	assert_cause(&cause, "linkdir", "cannot read directory");
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
	/* nothing to walk: a missing directory, a file, a symlink to a directory */
	ck_assert_int_eq(ud_source_walk(&s, "missing", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "a.h", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "linkdir", NULL, NULL, &out, &cause), 0);
	ck_assert_int_eq(ud_source_walk(&s, "empty", NULL, NULL, &out, &cause), 0);
	ck_assert_uint_eq(out.n, 0);
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

int
main(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("io");
	char tmpl[] = "/tmp/uapid-check-source-XXXXXX";
	int rc;

	scratch = mkdtemp(tmpl);
	if (scratch == NULL)
		return EXIT_FAILURE;
	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_stat);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_walk_unreadable);
	suite_add_tcase(s, tc);
	rc = test_run(s);
	rm_rf(scratch);
	return rc;
}
