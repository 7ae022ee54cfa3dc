/*
 * Small helpers shared by the libcheck suites.
 */
#ifndef UAPID_TESTUTIL_H
#define UAPID_TESTUTIL_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/buf.h"
#include "uapid/fsutil.h"
#include "uapid/xmalloc.h"

/* The source tree's top directory (make check exports it). */
static inline const char *
test_srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s != NULL ? s : ".";
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

#endif /* UAPID_TESTUTIL_H */
