// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark: one api-log question from the index, in the process, as the
 * daemon's api.log asks it (a repository and a store reader already open):
 * ud_apilog_lookup ROUNDS times, and the wall and CPU time of each, so
 * that the figure is the question's, not the process start's nor a loaded
 * machine's.  Prints the median and the fastest.
 *
 * usage: bench_apilog REPO STORE HEADERS SYMBOL [ROUNDS]
 *   STORE: the branches.db the index is in; HEADERS: the headers branch
 */
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uapid/history/apilog.h"
#include "uapid/store/store.h"

static double
ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	git_repository *repo = NULL;
	struct ud_store *st = NULL;
	struct ud_apilog_query q;
	double *wall, *cpu;
	char *cause = NULL;
	int rounds = argc > 5 ? atoi(argv[5]) : 50, i;

	if (argc < 5 || rounds < 1) {
		fprintf(stderr, "usage: bench_apilog REPO STORE HEADERS SYMBOL [ROUNDS]\n");
		return 2;
	}
	git_libgit2_init();
	if (git_repository_open(&repo, argv[1]) < 0 ||
	    ud_store_open_reader(&st, argv[2], &cause) < 0) {
		fprintf(stderr, "bench_apilog: %s\n", cause != NULL ? cause : argv[1]);
		return 2;
	}
	memset(&q, 0, sizeof(q));
	q.headers = argv[3];
	wall = calloc((size_t)rounds, sizeof(*wall));
	cpu = calloc((size_t)rounds, sizeof(*cpu));
	for (i = 0; i < rounds; i++) {
		double w0 = ms(CLOCK_MONOTONIC), c0 = ms(CLOCK_PROCESS_CPUTIME_ID);
		json_t *a = NULL;

		if (ud_apilog_lookup(repo, st, &q, argv[4], &a, &cause) < 0) {
			fprintf(stderr, "bench_apilog: %s\n", cause);
			return 2;
		}
		wall[i] = ms(CLOCK_MONOTONIC) - w0;
		cpu[i] = ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
		json_decref(a);
	}
	qsort(wall, (size_t)rounds, sizeof(*wall), by_value);
	qsort(cpu, (size_t)rounds, sizeof(*cpu), by_value);
	printf("%.2f ms (CPU %.2f ms; fastest %.2f ms) over %d rounds\n", wall[rounds / 2],
	       cpu[rounds / 2], wall[0], rounds);
	free(wall);
	free(cpu);
	ud_store_close(st);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return 0;
}
