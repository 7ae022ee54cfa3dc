// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark: classify every .h under include/ and arch/ANY/include/ of a
 * kernel tree.  Reads all files first (so the figure is the classifier's,
 * not the disk's), then classifies them all, and prints one table:
 * files, MB, seconds, MB/s, plus the read time for comparison.
 *
 * usage: bench_classify TREE [ROUNDS]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uapid/buf.h"
#include "uapid/classify.h"
#include "uapid/fsutil.h"
#include "uapid/tree.h"
#include "uapid/xmalloc.h"

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

/* Adds every .h below dir to the file list. */
static void
walk(const char *dir)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	size_t i;

	ud_dir_headers(dir, &found);
	for (i = 0; i < found.n; i++) {
		files = ud_xgrow(files, &afiles, nfiles + 1, sizeof(*files));
		files[nfiles].path = ud_xasprintf("%s/%s", dir, found.v[i]);
		ud_buf_init(&files[nfiles].text);
		nfiles++;
	}
	ud_strlist_free(&found);
}

int
main(int argc, char **argv)
{
	double t0, t_read, best = 1e9;
	size_t i, bytes = 0, errors = 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 5, r;
	char *inc, *arch;
	DIR *d;
	struct dirent *de;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_classify TREE [ROUNDS]\n");
		return 2;
	}
	inc = ud_xasprintf("%s/include", argv[1]);
	walk(inc);
	arch = ud_xasprintf("%s/arch", argv[1]);
	if ((d = opendir(arch)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *p = ud_xasprintf("%s/%s/include", arch, de->d_name);

			if (de->d_name[0] != '.')
				walk(p);
			free(p);
		}
		closedir(d);
	}
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
	free(inc);
	free(arch);
	return 0;
}
