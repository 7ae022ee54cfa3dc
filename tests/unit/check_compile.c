// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parallel job runner tests with /bin/sh jobs: statuses and outputs,
 * parallelism, a missing program, and that only the jobs' own children
 * are waited for.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/io/compile.h"

/* Jobs running "/bin/sh -c SCRIPT" (or argv[0] = prog when not NULL). */
static struct ud_compile_job *
make_jobs(const char *const *scripts, size_t n, const char *prog)
{
	struct ud_compile_job *jobs = ud_xcalloc(n, sizeof(*jobs));
	size_t i;

	for (i = 0; i < n; i++) {
		jobs[i].argv = ud_xcalloc(4, sizeof(char *));
		jobs[i].argv[0] = ud_xstrdup(scripts[i] == NULL && prog ? prog : "/bin/sh");
		if (scripts[i] != NULL) {
			jobs[i].argv[1] = ud_xstrdup("-c");
			jobs[i].argv[2] = ud_xstrdup(scripts[i]);
		}
		jobs[i].status = 99;
	}
	return jobs;
}

static void
free_jobs(struct ud_compile_job *jobs, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; jobs[i].argv[k] != NULL; k++)
			free(jobs[i].argv[k]);
		free(jobs[i].argv);
		ud_buf_free(&jobs[i].output);
	}
	free(jobs);
}

static const char *const mixed[] = {
	"sleep 0.05; echo out0",		 /* ends last */
	"echo err1 >&2; exit 3",		 /* stderr is captured too */
	"printf 'a\\nb\\n'; echo c >&2; exit 1", /* both, in order */
	"exit 42",				 /* no output */
	"kill -9 $$",				 /* killed by a signal */
	"echo '  spaced  '; exit 255",
};
#define NMIXED (ARRAY_SIZE(mixed))

static void
assert_mixed(const struct ud_compile_job *jobs)
{
	ck_assert_int_eq(jobs[0].status, 0);
	ck_assert_str_eq(ud_buf_str(&jobs[0].output), "out0\n");
	ck_assert_int_eq(jobs[1].status, 3);
	ck_assert_str_eq(ud_buf_str(&jobs[1].output), "err1\n");
	ck_assert_int_eq(jobs[2].status, 1);
	ck_assert_str_eq(ud_buf_str(&jobs[2].output), "a\nb\nc\n");
	ck_assert_int_eq(jobs[3].status, 42);
	ck_assert_uint_eq(jobs[3].output.len, 0);
	ck_assert_int_eq(jobs[4].status, 128);
	ck_assert_int_eq(jobs[5].status, 255);
	ck_assert_str_eq(ud_buf_str(&jobs[5].output), "  spaced  \n");
}

/* What a progress callback heard: every report, in order. */
struct heard {
	size_t calls, last_done, last_total;
	bool rising;
};

static void
hear(void *ctx, size_t done, size_t total)
{
	struct heard *h = ctx;

	h->rising = h->rising && done == h->last_done + 1;
	h->calls++;
	h->last_done = done;
	h->last_total = total;
}

START_TEST(test_run_jobs)
{
	static const unsigned parallel[] = {2, 1, 0, 3, 16};
	char *d = test_dir("run"), *cause = NULL;
	size_t i;

	/* the same results whatever the parallelism and the order jobs end in */
	for (i = 0; i < ARRAY_SIZE(parallel); i++) {
		struct ud_compile_job *jobs = make_jobs(mixed, NMIXED, NULL);
		struct heard h = {0, 0, 0, true};
		struct ud_progress_cb cb = {hear, &h};

		ck_assert_int_eq(ud_compile_run(jobs, NMIXED, parallel[i], d, &cb, &cause), 0);
		ck_assert_ptr_null(cause);
		assert_mixed(jobs);
		/* one report per job that ended, counting up to all of them */
		ck_assert_uint_eq(h.calls, NMIXED);
		ck_assert(h.rising);
		ck_assert_uint_eq(h.last_done, NMIXED);
		ck_assert_uint_eq(h.last_total, NMIXED);
		ck_assert_int_eq(count_entries(d), 0); /* output files cleaned up */
		free_jobs(jobs, NMIXED);
	}
	ck_assert_int_eq(ud_compile_run(NULL, 0, 2, d, NULL, &cause), 0); /* no jobs */
	free(d);
}
END_TEST

/* Two jobs that can only finish together: they run at the same time. */
START_TEST(test_parallel)
{
	char *d = test_dir("parallel"), *fifo = ud_xasprintf("%s/../fifo", d), *cause = NULL;
	char *reader = ud_xasprintf("read x < %s; echo got:$x", fifo);
	char *writer = ud_xasprintf("echo hello > %s", fifo);
	const char *const scripts[] = {reader, writer};
	struct ud_compile_job *jobs = make_jobs(scripts, 2, NULL);

	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(ud_compile_run(jobs, 2, 2, d, NULL, &cause), 0);
	ck_assert_int_eq(jobs[0].status, 0);
	ck_assert_str_eq(ud_buf_str(&jobs[0].output), "got:hello\n");
	ck_assert_int_eq(jobs[1].status, 0);
	free_jobs(jobs, 2);
	unlink(fifo);
	free(fifo);
	free(reader);
	free(writer);
	free(d);
}
END_TEST

/*
 * Does posix_spawn report a failed exec?  Not under valgrind, whose vfork
 * is a fork: there the child exits with an error instead.
 */
static bool
spawn_reports_exec(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p == NULL || strstr(p, "/vgpreload_") == NULL;
}

START_TEST(test_missing_program)
{
	const char *const scripts[] = {NULL, "echo ran", "exit 5"};
	const char *const later[] = {"echo first", NULL, "exit 5"};
	char *d = test_dir("missing"), *cause = NULL;
	struct ud_compile_job *jobs = make_jobs(scripts, 3, "/nonexistent/uapid-cc");

	if (!spawn_reports_exec()) {
		ck_assert_int_eq(ud_compile_run(jobs, 3, 2, d, NULL, &cause), 0);
		ck_assert_int_ne(jobs[0].status, 0);
		ck_assert_int_eq(jobs[2].status, 5);
		free_jobs(jobs, 3);
		free(d);
		return;
	}
	/* the first job cannot start: nothing runs */
	ck_assert_int_eq(ud_compile_run(jobs, 3, 2, d, NULL, &cause), -ENOENT);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "/nonexistent/uapid-cc"));
	ck_assert_ptr_nonnull(strstr(cause, "No such file"));
	free(cause);
	cause = NULL;
	ck_assert_int_eq(jobs[0].status, -1);
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&jobs[0].output), "/nonexistent/uapid-cc"));
	/* the others never ran: -1, "could not run", with nothing printed */
	ck_assert_int_eq(jobs[1].status, -1);
	ck_assert_int_eq(jobs[2].status, -1);
	ck_assert_uint_eq(jobs[1].output.len, 0);
	free_jobs(jobs, 3);

	/* a later one: only it fails, looked up in PATH too */
	jobs = make_jobs(later, 3, "uapid-no-such-compiler");
	ck_assert_int_eq(ud_compile_run(jobs, 3, 2, d, NULL, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(jobs[0].status, 0);
	ck_assert_str_eq(ud_buf_str(&jobs[0].output), "first\n");
	ck_assert_int_eq(jobs[1].status, -1);
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&jobs[1].output), "uapid-no-such-compiler"));
	ck_assert_int_eq(jobs[2].status, 5);
	free_jobs(jobs, 3);
	free(d);
}
END_TEST

/*
 * A child of ours that is not a job ends (a zombie, not reaped) before the
 * jobs run: after them, its status is still ours to collect.  It execs a
 * shell rather than exiting, so a valgrind run does not check it.
 */
START_TEST(test_foreign_child)
{
	const char *const scripts[] = {"sleep 0.05; exit 1", "exit 2", "sleep 0.02"};
	char *d = test_dir("foreign"), *cause = NULL;
	struct ud_compile_job *jobs = make_jobs(scripts, 3, NULL);
	siginfo_t info;
	int status = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(1);
	}
	memset(&info, 0, sizeof(info));
	ck_assert_int_eq(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0); /* ended */
	ck_assert_int_eq(info.si_status, 7);
	ck_assert_int_eq(ud_compile_run(jobs, 3, 2, d, NULL, &cause), 0);
	ck_assert_int_eq(jobs[0].status, 1);
	ck_assert_int_eq(jobs[1].status, 2);
	ck_assert_int_eq(jobs[2].status, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 7);
	free_jobs(jobs, 3);
	free(d);
}
END_TEST

/* With SIGCHLD ignored the kernel reaps the jobs itself: the run still ends. */
START_TEST(test_sigchld_ignored)
{
	const char *const scripts[] = {"echo a", "exit 3"};
	char *d = test_dir("sigign");
	struct ud_compile_job *jobs = make_jobs(scripts, 2, "/bin/sh");
	void (*was)(int) = signal(SIGCHLD, SIG_IGN);

	ck_assert_int_eq(ud_compile_run(jobs, 2, 2, d, NULL, NULL), 0);
	signal(SIGCHLD, was);
	/* exit statuses are lost to the kernel; the jobs are known to have ended */
	ck_assert_int_eq(jobs[0].status, -1);
	ck_assert_int_eq(jobs[1].status, -1);
	free_jobs(jobs, 2);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("compile");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_run_jobs);
	tcase_add_test(tc, test_parallel);
	tcase_add_test(tc, test_missing_program);
	tcase_add_test(tc, test_foreign_child);
	tcase_add_test(tc, test_sigchld_ignored);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "compile");
}
