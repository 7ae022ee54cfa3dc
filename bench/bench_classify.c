// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark: classify every .h under include/ and arch/ANY/include/ of a
 * kernel tree.  Reads all files first (so the figure is the classifier's,
 * not the disk's), then classifies them all, and prints one table:
 * files, MB, seconds, MB/s, plus the read time for comparison.
 *
 * usage: bench_classify TREE [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uapid/util/buf.h"
#include "uapid/core/classify.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/source.h"
#include "uapid/util/strlist.h"
#include "uapid/util/xmalloc.h"

struct file {
	char *path;
	struct ud_buf text;
};

static struct file *files;
static size_t nfiles, afiles;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Adds every .h below rel (tree-relative; a missing rel adds nothing) to
 * the file list, with the walk every command uses.  A directory that
 * cannot be read stops the bench: its figures would silently be for fewer
 * files.
 */
static int
walk(struct ud_source *src, const char *tree, const char *rel)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	char *cause = NULL;
	size_t i;
	int rc;

	if ((rc = ud_source_walk(src, rel, ".h", NULL, &found, &cause)) < 0) {
		fprintf(stderr, "bench_classify: %s\n", cause ? cause : rel);
		free(cause);
		ud_strlist_free(&found);
		return rc;
	}
	for (i = 0; i < found.n; i++) {
		files = ud_xgrow(files, &afiles, nfiles + 1, sizeof(*files));
		files[nfiles].path = ud_xasprintf("%s/%s/%s", tree, rel, found.v[i]);
		ud_buf_init(&files[nfiles].text);
		nfiles++;
	}
	ud_strlist_free(&found);
	return 0;
}

/* include/ and every arch/NAME/include/ of the tree, as the commands see them. */
static int
collect(const char *tree)
{
	struct ud_source src = {0};
	struct ud_strlist arches = UD_STRLIST_INIT;
	char *cause = NULL;
	size_t i;
	int rc;

	if ((rc = ud_source_open_dir(&src, tree, &cause)) < 0) {
		fprintf(stderr, "bench_classify: %s\n", cause ? cause : tree);
		free(cause);
		return rc;
	}
	rc = walk(&src, tree, "include");
	if (rc == 0 && ud_source_type(&src, "arch") == UD_FT_DIR &&
	    (rc = ud_source_list(&src, "arch", &arches, &cause)) < 0) {
		fprintf(stderr, "bench_classify: %s\n", cause ? cause : "arch");
		free(cause);
	}
	ud_strlist_sort(&arches);
	for (i = 0; rc == 0 && i < arches.n; i++) {
		size_t len = strlen(arches.v[i]);
		char *rel;

		if (len < 2 || arches.v[i][len - 1] != '/')
			continue; /* a file, not an architecture's directory */
		rel = ud_xasprintf("arch/%sinclude", arches.v[i]);
		rc = walk(&src, tree, rel);
		free(rel);
	}
	ud_strlist_free(&arches);
	ud_source_close(&src);
	return rc;
}

int
main(int argc, char **argv)
{
	double t0, t_read, best = 1e9;
	size_t i, bytes = 0, errors = 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 5, r;

	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: bench_classify TREE [ROUNDS]\n");
		return 2;
	}
	if (collect(argv[1]) < 0)
		return 1;
	t0 = now();
	for (i = 0; i < nfiles; i++) {
		if (ud_read_file(files[i].path, &files[i].text, NULL) < 0)
			errors++;
		bytes += files[i].text.len;
	}
	t_read = now() - t0;
	for (r = 0; r < rounds; r++) {
		double t = now(), el;

		for (i = 0; i < nfiles; i++) {
			struct ud_classified c;

			ud_classify(files[i].text.data, files[i].text.len, NULL, 0, &c);
			ud_classified_free(&c);
		}
		el = now() - t;
		if (el < best)
			best = el;
	}
	printf("%-28s %10s\n", "tree", argv[1]);
	printf("%-28s %10zu\n", "files", nfiles);
	printf("%-28s %10.1f\n", "MB", (double)bytes / 1e6);
	printf("%-28s %10.3f\n", "read seconds (one pass)", t_read);
	printf("%-28s %10.3f\n", "classify seconds (best of)", best);
	printf("%-28s %10.0f\n", "classify MB/s", (double)bytes / 1e6 / best);
	printf("%-28s %10d\n", "rounds", rounds);
	if (errors > 0)
		printf("%-28s %10zu\n", "unreadable files", errors);
	for (i = 0; i < nfiles; i++) {
		free(files[i].path);
		ud_buf_free(&files[i].text);
	}
	free(files);
	return 0;
}
