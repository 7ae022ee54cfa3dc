/*
 * Parallel compile jobs (see compile.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uapid/compile.h"
#include "uapid/fsutil.h"
#include "uapid/xmalloc.h"

extern char **environ;

struct running {
	bool used; /* this slot holds a running job */
	pid_t pid;
	size_t job;
	char *out;
};

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
	       char **cause)
{
	struct running *run;
	size_t next = 0, active = 0, i;
	int result = 0;

	if (parallel == 0)
		parallel = 1;
	run = ud_xcalloc(parallel, sizeof(*run));
	while (next < njobs || active > 0) {
		int status;
		pid_t pid;

		while (active < parallel && next < njobs) {
			struct ud_compile_job *job = &jobs[next];
			char *out = ud_xasprintf("%s/job-%zu.out", scratch, next);
			int rc;

			ud_buf_init(&job->output);
			rc = start(job, out, &pid);
			if (rc < 0) {
				job->status = -1;
				ud_buf_addf(&job->output, "%s: %s\n", job->argv[0], strerror(-rc));
				free(out);
				if (rc == -ENOENT && next == 0) {
					/* no compiler at all: say so once, run nothing */
					*cause =
						ud_xasprintf("%s: %s", job->argv[0], strerror(-rc));
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
			run[i].job = next;
			run[i].out = out;
			active++;
			next++;
		}
		if (active == 0)
			break;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < parallel; i++)
			if (run[i].used && run[i].pid == pid) {
				struct ud_compile_job *job = &jobs[run[i].job];

				job->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
				ud_read_file(run[i].out, &job->output, NULL);
				unlink(run[i].out);
				free(run[i].out);
				run[i].used = false;
				active--;
				break;
			}
	}
	free(run);
	return result;
}
