// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid: split Linux kernel headers into their kernel-only and userspace
 * API parts, and keep that split current.  This file only dispatches to
 * the command of the first argument.
 *
 * It is built twice (issue 25).  uapid-full (in $(pkglibexecdir)) runs
 * every command.  uapid (in $(bindir), built with UD_LIGHT) links neither
 * libgit2 nor libsystemd: the dynamic loader's work for them and the ~25
 * libraries they bring cost about 12 ms of CPU at every start, more than a
 * re-run of uapid install on an unchanged kernel tree takes.  It runs the
 * commands that need neither (install, check, classify, fix-includes: the
 * table says which, by name) and execv()s uapid-full with the same argv for
 * the others, so that the daemon keeps the pid it was started with
 * (systemd's Type=notify, a test's kill).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uapid/util/hash.h"

#include "cmd.h"

#ifdef UD_LIGHT
/* a command that needs libgit2 or libsystemd: uapid-full runs it */
#define FULL(run) NULL
#else
#define FULL(run) run
#endif

static const struct cmd_entry commands[] = {
	{"classify", "classify [--json] FILE...",
	 "say, line range by line range, what of each header is kernel-only", cmd_classify},
	{"split",
	 "split [--in-place | --output DIR] [--markers FILE] [--dry-run] [--diff] [--json] [--quiet] "
	 "TREE [PATH...]",
	 "split exported headers into kernel and uapi/ parts", FULL(cmd_split)},
	{"install", "install [--arch ARCH|all] [--quiet] TREE OUTDIR",
	 "write the installed userspace headers, as make headers_install does", cmd_install},
	{"check", "check [--arch ARCH] [--jobs N] [--json] [--quiet] TREE",
	 "the kernel's header checks and compile test, in one pass", cmd_check},
	{"watch",
	 "watch [--state-dir DIR] [--socket PATH] [--socket-group GROUP] [--arch ARCH] [--settle MS] "
	 "[--markers FILE] [--branches] [--verbose] [--quiet] [--print-paths] TREE",
	 "the daemon: keep the split and installed headers of TREE current as it changes",
	 FULL(cmd_watch)},
	{"branch",
	 "branch [--split NAME|--no-split] [--headers NAME|--no-headers] [--source REV] [--arch ARCH] "
	 "[--since REV] [--one-commit] [--identity ID] [--markers FILE] [--state-dir DIR] [--json] "
	 "[--quiet] REPO",
	 "keep the uapi/split and uapi/headers branches of a repository current", FULL(cmd_branch)},
	{"api-diff",
	 "api-diff [--json] [--arch ARCH] [--abi ABI] [--quiet] [--verdict V[,V]] [--header GLOB] "
	 "[--symbol GLOB] [--summary] [--accept FILE] [--html FILE] OLD NEW",
	 "which headers changed userspace API, symbol by symbol, with a verdict",
	 FULL(cmd_api_diff)},
	{"api-layout", "api-layout [--json] [--arch ARCH] [--abi ABI] SOURCE [HEADER...] | --abis",
	 "sizes, alignments and member offsets of the installed headers' types on an ABI",
	 FULL(cmd_api_layout)},
	{"api-log",
	 "api-log [--arch ARCH] [--json] [--since REV] [--until REV] [--tags GLOB] [--headers NAME] "
	 "[--state-dir DIR] [--html FILE] [--quiet] REPO SYMBOL...",
	 "since which release a userspace API symbol exists, and what changed in it when",
	 FULL(cmd_api_log)},
	{"check-uapi",
	 "check-uapi [-b BASE_REF] [-p PAST_REF] [-j N] [-l ERROR_LOG] [-i] [-q] [-v]",
	 "the kernel's scripts/check-uapi.sh, its options and exit codes, on uapid's API model",
	 FULL(cmd_check_uapi)},
	{"fix-includes", "fix-includes [--in-place | --dry-run] TREE [PATH...]",
	 "turn #include \"x.h\" into #include <dir/x.h> in tree headers", cmd_fix_includes},
};

#ifdef UD_LIGHT
/*
 * Replaces this process with uapid-full, argv unchanged: $UAPID_FULL when
 * set, else uapid-full beside this program's own file (the build tree),
 * else the one installed in UD_PKGLIBEXECDIR.  Returns only on failure,
 * having said why.
 */
static int
exec_full(char **argv)
{
	static const char name[] = "uapid-full";
	char self[PATH_MAX], beside[PATH_MAX + sizeof(name)];
	const char *env = getenv("UAPID_FULL"), *tried = UD_PKGLIBEXECDIR "/uapid-full";
	ssize_t n;
	char *slash;

	if (env != NULL && env[0] != '\0') {
		execv(env, argv);
		report_error("cannot run %s (UAPID_FULL) for uapid %s: %s", env, argv[1],
			     strerror(errno));
		return EXIT_USAGE;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			slash[1] = '\0';
			snprintf(beside, sizeof(beside), "%s%s", self, name);
			execv(beside, argv);
			if (errno != ENOENT) {
				tried = beside;
				goto failed;
			}
		}
	}
	execv(tried, argv);
failed:
	report_error("uapid %s is run by %s, which cannot be run: %s", argv[1], tried,
		     strerror(errno));
	return EXIT_USAGE;
}
#endif

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: uapid [--version | --help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  uapid %s\n      %s\n", commands[i].usage, commands[i].summary);
	fprintf(f,
		"\nExit status: 0 when all went well, 1 when an input needs attention\n"
		"(an error diagnostic, a header that needs coaching), 2 for usage or I/O errors.\n");
}

int
main(int argc, char **argv)
{
	size_t i;

	/*
	 * Children (the compile test) are waited for by pid; an ignored
	 * SIGCHLD inherited from our parent would have the kernel reap them
	 * and lose their exit status.
	 */
	signal(SIGCHLD, SIG_DFL);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("uapid %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
#ifdef UD_LIGHT
		if (commands[i].run == NULL)
			return exec_full(argv);
#endif
		return commands[i].run(argc - 1, argv + 1);
	}
	report_error("unknown command '%s' (see uapid --help)", argv[1]);
	return EXIT_USAGE;
}
