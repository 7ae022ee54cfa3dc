// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Progress lines: their text, and what reaches the terminal (here a pipe
 * standing in for it) as work is reported, interrupted and ended.
 */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "uapid/io/progress.h"

static char *
fmt(const char *what, const char *unit, size_t done, size_t total, double seconds)
{
	static char out[128];

	ud_progress_format(out, sizeof(out), what, unit, done, total, seconds);
	return out;
}

START_TEST(test_format)
{
	ck_assert_str_eq(fmt("headers branch", "commits", 1840, 12000, 8.68),
			 "headers branch: 1,840/12,000 commits (212/s, ~48 s left)");
	/* nothing done yet: no rate, no estimate */
	ck_assert_str_eq(fmt("split", "headers", 0, 9881, 0.0), "split: 0/9,881 headers");
	/* a total not known yet */
	ck_assert_str_eq(fmt("api model", "headers", 1234567, 0, 2.0),
			 "api model: 1,234,567 headers (617284/s)");
	/* slow work: a decimal rate, minutes and hours left */
	ck_assert_str_eq(fmt("compile test", "headers", 3, 1000, 2.0),
			 "compile test: 3/1,000 headers (1.5/s, ~11 min left)");
	ck_assert_str_eq(fmt("headers branch", "commits", 100, 100000, 100.0),
			 "headers branch: 100/100,000 commits (1.0/s, ~27 h 45 min left)");
	/* done: the rate stays, no estimate */
	ck_assert_str_eq(fmt("install", "architectures", 22, 22, 1.1),
			 "install: 22/22 architectures (20/s)");
	/* under a second left reads as a second */
	ck_assert_str_eq(fmt("x", "y", 999, 1000, 1.0), "x: 999/1,000 y (999/s, ~1 s left)");
}
END_TEST

START_TEST(test_format_cut)
{
	char out[12];
	size_t n = ud_progress_format(out, sizeof(out), "headers branch", "commits", 1, 2, 1);

	ck_assert_uint_eq(n, sizeof(out) - 1);
	ck_assert_str_eq(out, "headers bra");
	ck_assert_uint_eq(ud_progress_format(out, 0, "a", "b", 1, 2, 1), 0);
}
END_TEST

/* A progress whose "terminal" is the write end of a pipe. */
static void
start_on_pipe(struct ud_progress *p, int fds[2], const char *what)
{
	ck_assert_int_eq(pipe2(fds, O_NONBLOCK), 0);
	setenv("UAPID_PROGRESS_DELAY", "0", 1);
	ud_progress_start(p, what, "things", false);
	ck_assert(!p->enabled); /* a pipe is no terminal */
	p->enabled = true;
	p->fd = fds[1];
}

static char drain_buf[4096];

/* What was written to the pipe since the last drain. */
static char *
drain(int fd)
{
	ssize_t n = read(fd, drain_buf, sizeof(drain_buf) - 1);

	drain_buf[n > 0 ? n : 0] = '\0';
	return drain_buf;
}

START_TEST(test_draw_clear)
{
	struct ud_progress p;
	int fds[2];

	start_on_pipe(&p, fds, "work");
	ud_progress_update(&p, 0, 10);
	ck_assert_str_eq(drain(fds[0]), "\rwork: 0/10 things\033[K");
	/* redraws come at most ten times a second (not asserted: time), but
	 * the last step is always drawn */
	ud_progress_update(&p, 1, 10);
	drain(fds[0]);
	ud_progress_update(&p, 10, 10);
	ck_assert_ptr_nonnull(strstr(drain(fds[0]), "\rwork: 10/10 things ("));
	/* a log line takes it off; the next update draws it again at once */
	ud_progress_interrupt();
	ck_assert_str_eq(drain(fds[0]), "\r\033[K");
	ud_progress_interrupt();
	ck_assert_str_eq(drain(fds[0]), "");
	ud_progress_update(&p, 10, 10);
	ck_assert_ptr_nonnull(strstr(drain(fds[0]), "\rwork: 10/10"));
	/* the end clears it, once, and nothing is drawn after */
	ud_progress_end(&p);
	ck_assert_str_eq(drain(fds[0]), "\r\033[K");
	ud_progress_update(&p, 10, 10);
	ud_progress_end(&p);
	ck_assert_str_eq(drain(fds[0]), "");
	close(fds[0]);
	close(fds[1]);
}
END_TEST

START_TEST(test_two_lines_one_terminal)
{
	struct ud_progress a, b;
	int fa[2], fb[2];

	start_on_pipe(&a, fa, "a");
	start_on_pipe(&b, fb, "b");
	ud_progress_update(&a, 1, 2);
	ck_assert_ptr_eq(strstr(drain(fa[0]), "\ra: 1/2 things"), drain_buf);
	/* b's line replaces a's: a's is taken off first */
	ud_progress_update(&b, 1, 2);
	ck_assert_str_eq(drain(fa[0]), "\r\033[K");
	ck_assert_ptr_eq(strstr(drain(fb[0]), "\rb: 1/2 things"), drain_buf);
	ud_progress_end(&a); /* not shown: nothing */
	ck_assert_str_eq(drain(fa[0]), "");
	ud_progress_end(&b);
	ck_assert_str_eq(drain(fb[0]), "\r\033[K");
	close(fa[0]);
	close(fa[1]);
	close(fb[0]);
	close(fb[1]);
}
END_TEST

START_TEST(test_delay_and_quiet)
{
	struct ud_progress p;
	int fds[2];

	start_on_pipe(&p, fds, "slow");
	p.delay_ns = 3600ull * 1000000000ull;
	ud_progress_update(&p, 5, 10);
	ud_progress_end(&p);
	ck_assert_str_eq(drain(fds[0]), ""); /* short work: never drawn */
	close(fds[0]);
	close(fds[1]);

	ud_progress_start(&p, "quiet", "things", true);
	ck_assert(!p.enabled);
	setenv("UAPID_PROGRESS_DELAY", "0.25", 1);
	ud_progress_start(&p, "x", "y", true);
	ck_assert_uint_eq(p.delay_ns, 250000000u);
	setenv("UAPID_PROGRESS_DELAY", "soon", 1);
	ud_progress_start(&p, "x", "y", true);
	ck_assert_uint_eq(p.delay_ns, 1000000000u); /* not a number: the default */
	unsetenv("UAPID_PROGRESS_DELAY");
	ud_progress_start(&p, "x", "y", true);
	ck_assert_uint_eq(p.delay_ns, 1000000000u);
}
END_TEST

/* The library side: a NULL callback, or one without a function, is no call. */
static void
count_cb(void *ctx, size_t done, size_t total)
{
	(void)done;
	(void)total;
	(*(int *)ctx)++;
}

START_TEST(test_report)
{
	int calls = 0;
	struct ud_progress_cb none = {NULL, &calls}, one = {count_cb, &calls};

	ud_progress_report(NULL, 1, 2);
	ud_progress_report(&none, 1, 2);
	ud_progress_report(&one, 1, 2);
	ck_assert_int_eq(calls, 1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_cut);
	tcase_add_test(tc, test_draw_clear);
	tcase_add_test(tc, test_two_lines_one_terminal);
	tcase_add_test(tc, test_delay_and_quiet);
	tcase_add_test(tc, test_report);
	suite_add_tcase(s, tc);
	return test_run(s);
}
