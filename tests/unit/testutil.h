/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by the libcheck suites.
 */
#ifndef UAPID_TESTUTIL_H
#define UAPID_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/strlist.h"
#include "uapid/util/xmalloc.h"

/* The source tree's top directory (make check exports it). */
static inline const char *
test_srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s != NULL ? s : ".";
}

/*
 * How long a suite waits for something the event loop is due to do: ms,
 * times UD_TEST_TIME_SCALE when set (test.sh sets it under valgrind, where
 * everything runs tens of times slower).  A bound against a hang, never a
 * speed check.
 */
static inline unsigned
test_wait_ms(unsigned ms)
{
	const char *s = getenv("UD_TEST_TIME_SCALE");
	long scale = s != NULL ? strtol(s, NULL, 10) : 1;

	return scale > 1 ? ms * (unsigned)scale : ms;
}

/* Reads tests/data/<rel> into b; false if it does not exist. */
static inline bool
test_read_data(const char *rel, struct ud_buf *b)
{
	char *path = ud_xasprintf("%s/tests/data/%s", test_srcdir(), rel);
	bool ok = ud_read_file(path, b, NULL) == 0;

	free(path);
	return ok;
}

/* Runs one suite and returns the process exit status for automake. */
static inline int
test_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The suite's scratch directory: made by test_run_scratch, removed after the run. */
static char *test_scratch __attribute__((unused));

/* Removes name below the directory parent, whatever it holds, by descriptor (no PATH_MAX). */
static inline void
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

/* Removes path and everything below it; a missing path is fine. */
static inline void
rm_rf(const char *path)
{
	rm_at(AT_FDCWD, path);
}

/* Runs a suite in a fresh scratch directory /tmp/uapid-check-NAME-XXXXXX, then removes it. */
static inline int
test_run_scratch(Suite *s, const char *name)
{
	char *tmpl = ud_xasprintf("/tmp/uapid-check-%s-XXXXXX", name);
	int rc = EXIT_FAILURE;

	test_scratch = mkdtemp(tmpl);
	if (test_scratch != NULL) {
		rc = test_run(s);
		rm_rf(test_scratch);
	} else {
		srunner_free(srunner_create(s));
	}
	test_scratch = NULL;
	free(tmpl);
	return rc;
}

/* A fresh empty directory for one test, SCRATCH/name (malloc'd). */
static inline char *
test_dir(const char *name)
{
	char *d = ud_xasprintf("%s/%s", test_scratch, name);

	rm_rf(d);
	ck_assert_int_eq(mkdir(d, 0755), 0);
	return d;
}

/* Writes dir/rel, making its parents. */
static inline void
put(const char *dir, const char *rel, const char *text)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);

	ck_assert_int_eq(ud_write_file(p, text, strlen(text), UD_WRITE_MKDIR, NULL), 0);
	free(p);
}

/* Makes dir/rel a symlink to target. */
static inline void
put_link(const char *dir, const char *rel, const char *target)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);

	ck_assert_int_eq(symlink(target, p), 0);
	free(p);
}

/* Removes dir/rel, whatever it holds. */
static inline void
del(const char *dir, const char *rel)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);

	rm_rf(p);
	free(p);
}

/* The text of dir/rel (malloc'd), NULL when it cannot be read. */
static inline char *
slurp(const char *dir, const char *rel)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);
	struct ud_buf b = UD_BUF_INIT;
	int rc = ud_read_file(p, &b, NULL);

	free(p);
	if (rc < 0) {
		ud_buf_free(&b);
		return NULL;
	}
	return ud_buf_detach(&b, NULL);
}

/* Checks that dir/rel can be read and holds want. */
static inline void
assert_text(const char *dir, const char *rel, const char *want)
{
	char *got = slurp(dir, rel);

	ck_assert_msg(got != NULL, "%s/%s cannot be read", dir, rel);
	ck_assert_str_eq(got, want);
	free(got);
}

/* Whether dir/rel exists (a symlink is not followed). */
static inline bool
exists(const char *dir, const char *rel)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);
	struct stat st;
	bool yes = lstat(p, &st) == 0;

	free(p);
	return yes;
}

/* The stat of dir/rel, which must exist. */
static inline struct stat
stat_of(const char *dir, const char *rel)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);
	struct stat st;

	ck_assert_int_eq(stat(p, &st), 0);
	free(p);
	return st;
}

/* Sets dir/rel's mtime to a fixed time long ago (1000000000 s, 5 ns). */
static inline void
age(const char *dir, const char *rel)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);
	struct timespec t[2] = {{1000000000, 5}, {1000000000, 5}};

	ck_assert_int_eq(utimensat(AT_FDCWD, p, t, 0), 0);
	free(p);
}

/* Number of entries in a directory, . and .. left out. */
static inline int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Checks that *cause is set and names both a and b, then frees it and clears it. */
static inline void
assert_cause(char **cause, const char *a, const char *b)
{
	ck_assert_ptr_nonnull(*cause);
	ck_assert_msg(strstr(*cause, a) != NULL, "'%s' not in '%s'", a, *cause);
	ck_assert_msg(strstr(*cause, b) != NULL, "'%s' not in '%s'", b, *cause);
	free(*cause);
	*cause = NULL;
}

/* The list's entries joined by blanks (malloc'd). */
static inline char *
joined(const struct ud_strlist *l)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < l->n; i++)
		ud_buf_addf(&b, "%s%s", i ? " " : "", l->v[i]);
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

/* Checks the list's entries, joined by blanks, against want. */
static inline void
assert_list(const struct ud_strlist *l, const char *want)
{
	char *got = joined(l);

	ck_assert_str_eq(got, want);
	free(got);
}

/* Whether d holds a diagnostic of severity sev on line whose message contains text. */
static inline bool
has_diag(const struct ud_diags *d, enum ud_severity sev, unsigned line, const char *text)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == sev && d->v[i].line == line &&
		    strstr(d->v[i].message, text) != NULL)
			return true;
	return false;
}

#endif /* UAPID_TESTUTIL_H */
