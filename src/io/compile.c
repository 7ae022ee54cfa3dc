// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parallel compile jobs (see compile.h).
 *
 * Children are waited for by pid, never with waitpid(-1): inside the
 * daemon, libuv reaps its own uv_spawn children and a wildcard wait would
 * steal their exit status.  A pidfd per running job lets one poll() wait
 * for whichever ends first; without pidfds (old kernels) the jobs are
 * polled by pid with WNOHANG.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uapid/io/compile.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/xmalloc.h"

/* environ: <unistd.h> declares it under _GNU_SOURCE (AM_CPPFLAGS). */

struct running {
	bool used; /* this slot holds a running job */
	pid_t pid;
	int pidfd; /* -1 when the kernel gave none */
	size_t job;
	char *out;
};

static int
open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * Waits until one of the running jobs ends; returns its slot with its
 * wait status in *status, or -1 when none is running.
 */
static long
wait_one(struct running *run, unsigned parallel, int *status)
{
	struct pollfd *fds = ud_xcalloc(parallel, sizeof(*fds));
	long found = -1;
	unsigned i, n;

	for (;;) {
		bool pollable = true;

		for (i = 0, n = 0; i < parallel; i++) {
			if (!run[i].used)
				continue;
			/* reap by pid whatever we learn from poll: a job may have ended already */
			pid_t w = waitpid(run[i].pid, status, WNOHANG);

			if (w == run[i].pid || (w < 0 && errno == ECHILD)) {
				/* ECHILD: SIGCHLD is ignored and the kernel reaped it for us */
				if (w < 0)
					*status = -1;
				found = (long)i;
				goto out;
			}
			if (run[i].pidfd < 0)
				pollable = false;
			fds[n].fd = run[i].pidfd;
			fds[n].events = POLLIN;
			n++;
		}
		if (n == 0)
			goto out;
		/*
		 * Without pidfds, or if poll fails (ENOMEM), look again in 2 ms:
		 * giving up would leave the jobs running and unreaped.
		 */
		if (!pollable || (poll(fds, n, -1) < 0 && errno != EINTR)) {
			struct timespec ts = {0, 2 * 1000 * 1000};

			nanosleep(&ts, NULL);
		}
	}
out:
	free(fds);
	return found;
}

static int
start(struct ud_compile_job *job, const char *out, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(pid, job->argv[0], &fa, NULL, job->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc == 0 ? 0 : -rc;
}

int
ud_compile_run(struct ud_compile_job *jobs, size_t njobs, unsigned parallel, const char *scratch,
	       const struct ud_progress_cb *progress, char **cause)
{
	struct running *run;
	size_t next = 0, active = 0, ended = 0, i;
	int result = 0;

	if (parallel == 0)
		parallel = 1;
	for (i = 0; i < njobs; i++) {
		ud_buf_init(&jobs[i].output);
		jobs[i].status = -1; /* until it ran */
	}
	run = ud_xcalloc(parallel, sizeof(*run));
	while (next < njobs || active > 0) {
		struct ud_compile_job *job;
		char *cause_out = NULL;
		int status;
		long slot;
		pid_t pid;

		while (active < parallel && next < njobs) {
			struct ud_compile_job *nj = &jobs[next];
			char *out = ud_xasprintf("%s/job-%zu.out", scratch, next);
			int rc;

			rc = start(nj, out, &pid);
			if (rc < 0) {
				nj->status = -1;
				ud_buf_addf(&nj->output, "%s: %s\n", nj->argv[0], strerror(-rc));
				free(out);
				if (rc == -ENOENT && next == 0) {
					/* no compiler at all: say so once, run nothing */
					if (cause != NULL)
						*cause = ud_xasprintf("%s: %s", nj->argv[0],
								      strerror(-rc));
					result = rc;
					next = njobs;
					break;
				}
				next++;
				continue;
			}
			for (i = 0; i < parallel && run[i].used; i++)
				;
			assert(i < parallel); /* active < parallel leaves a slot free */
			run[i].used = true;
			run[i].pid = pid;
			run[i].pidfd = open_pidfd(pid);
			run[i].job = next;
			run[i].out = out;
			active++;
			next++;
		}
		if (active == 0)
			break;
		slot = wait_one(run, parallel, &status);
		if (slot < 0)
			break;
		i = (size_t)slot;
		job = &jobs[run[i].job];
		job->status = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		if (ud_read_file(run[i].out, &job->output, &cause_out) < 0) {
			ud_buf_addf(&job->output, "%s\n", cause_out);
			free(cause_out);
			cause_out = NULL;
		}
		unlink(run[i].out);
		free(run[i].out);
		if (run[i].pidfd >= 0)
			close(run[i].pidfd);
		run[i].used = false;
		active--;
		ud_progress_report(progress, ++ended, njobs);
	}
	free(run);
	return result;
}
