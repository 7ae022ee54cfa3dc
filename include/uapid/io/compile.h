/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compile tests: run the C compiler on many inputs at once, N in parallel,
 * and collect what each printed.  The io side of `uapid check`.
 */
#ifndef UAPID_COMPILE_H
#define UAPID_COMPILE_H

#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/io/progress.h"

struct ud_compile_job {
	char **argv;	      /* NULL-terminated; argv[0] is looked up in PATH */
	int status;	      /* exit status, or -1 if it could not run */
	struct ud_buf output; /* what it printed on stdout and stderr */
};

/*
 * Runs every job, at most 'parallel' at a time; scratch is a private
 * directory for the jobs' output files.  progress (may be NULL) hears
 * how many jobs have ended, of njobs.  Returns 0, or a negative errno
 * with *cause when jobs could not be started at all.
 */
int ud_compile_run(struct ud_compile_job *jobs, size_t njobs, unsigned parallel,
		   const char *scratch, const struct ud_progress_cb *progress, char **cause);

#endif /* UAPID_COMPILE_H */
