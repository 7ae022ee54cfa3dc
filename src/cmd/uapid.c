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
#include <stdbool.h>
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
	 "say, line range by line range, what of each header is kernel-only",
	 "Reads each FILE (a header, anywhere) and prints, range of lines by range of lines,\n"
	 "whether it is kernel-only, userspace API or retained, and why; then the split's\n"
	 "diagnostics as FILE:LINE: SEVERITY: MESSAGE.  Exit 1 when a diagnostic is an error.",
	 "uapid classify include/linux/kd.h", cmd_classify},
	{"split",
	 "split [--in-place | --output DIR] [--markers FILE] [--dry-run] [--diff] [--json] [--quiet] "
	 "TREE [PATH...]",
	 "split exported headers into kernel and uapi/ parts",
	 "Splits the exported headers of TREE (a kernel source tree from before the split, or\n"
	 "the headers of a split one that are still whole) into their kernel-only part and their\n"
	 "include/uapi/ part, as the 3.7 split did; the first line says what TREE is, and a tree\n"
	 "with nothing left to split is \"already split\".  Without --in-place or --output it\n"
	 "writes nothing.  Exit 1 when a header needs coaching (--markers decides it).",
	 "uapid split --dry-run --diff --markers markers ~/linux-3.6", FULL(cmd_split)},
	{"install", "install [--arch ARCH|all] [--quiet] TREE OUTDIR",
	 "write the installed userspace headers, as make headers_install does",
	 "Writes the userspace headers of TREE (a kernel source tree, split or from before the\n"
	 "split) for ARCH into OUTDIR/include, byte for byte as the tree's own make\n"
	 "headers_install would, and removes what an earlier run left there that no longer\n"
	 "belongs; --arch all installs every architecture into OUTDIR/ARCH.",
	 "uapid install --arch arm64 /usr/src/linux /tmp/hdr", cmd_install},
	{"check", "check [--arch ARCH] [--jobs N] [--json] [--quiet] TREE",
	 "the kernel's header checks and compile test, in one pass",
	 "Installs TREE's userspace headers in memory and runs the kernel's header checks on\n"
	 "them, then its compile test (each header alone, N at a time) where the tree has one\n"
	 "(usr/include/Makefile) and a compiler for ARCH.  Exit 1 when a check finds an error.",
	 "uapid check --arch x86 --jobs 8 /usr/src/linux", cmd_check},
	{"watch",
	 "watch [--state-dir DIR] [--socket PATH] [--socket-group GROUP] [--arch ARCH] [--settle MS] "
	 "[--markers FILE] [--branches] [--split-branch NAME] [--headers-branch NAME] [--verbose] "
	 "[--quiet] [--print-paths] TREE",
	 "the daemon: keep the split and installed headers of TREE current as it changes",
	 "Runs as a daemon on TREE: keeps its split and its installed headers current in the\n"
	 "state directory as files change, remembers what it decided in SQLite, and answers\n"
	 "uapictl (and editors, through uapictl lsp) on a Unix socket.  --branches also keeps\n"
	 "the uapi/split and uapi/headers branches of TREE's repository current.",
	 "uapid watch --markers ~/markers ~/linux", FULL(cmd_watch)},
	{"branch",
	 "branch [--split-branch NAME | --no-split-branch] [--headers-branch NAME | "
	 "--no-headers-branch] [--source REV] [--arch ARCH] [--since REV] [--one-commit] "
	 "[--identity ID] [--markers FILE] [--state-dir DIR] [--json] [--quiet] REPO",
	 "keep the uapi/split and uapi/headers branches of a repository current",
	 "Writes, in REPO, a branch of the split tree and a branch of the installed headers,\n"
	 "one commit for each commit of REV's history (first parents), and brings them up to\n"
	 "date on each run.  The refs move last, together, only when the whole update\n"
	 "succeeded.  Exit 1 when a branch is left alone or a header needs coaching (each is\n"
	 "named, also in the series' Needs-coaching: trailers), as uapid split.",
	 "uapid branch --no-split-branch --since v5.0 ~/linux", FULL(cmd_branch)},
	{"api-diff",
	 "api-diff [--json] [--arch ARCH|all] [--abi ABI] [--as tree|installed] [--quiet] [--verdict V[,V]] "
	 "[--header GLOB] [--symbol GLOB] [--summary] [--accept FILE] [--html FILE] OLD NEW",
	 "which headers changed userspace API, symbol by symbol, with a verdict",
	 "Compares the userspace API of OLD and NEW (each a kernel source tree, installed first,\n"
	 "also one from before the split; a directory of installed headers; or REPO:REV),\n"
	 "symbol by symbol, each change with its verdict: breaking, review or compatible.  The\n"
	 "first lines say what OLD and NEW are.  Exit 1 when a change is breaking.",
	 "uapid api-diff --arch x86 ~/linux:v6.1 ~/linux:v6.12", FULL(cmd_api_diff)},
	{"api-layout",
	 "api-layout [--json] [--values] [--arch ARCH] [--abi ABI|all] [--as tree|installed] SOURCE "
	 "[HEADER...] | --abis",
	 "sizes, alignments and member offsets of the installed headers' types on an ABI",
	 "Prints the size, alignment and member offsets of each struct and union of SOURCE's\n"
	 "installed headers (or of the HEADERs named, as installed: linux/types.h) on ABI;\n"
	 "--values: every integer constant with its value instead; --abi all: every ABI;\n"
	 "--abis lists the ABIs.  Exit 1 when a HEADER named is not installed.",
	 "uapid api-layout --abi i386 /usr/src/linux linux/input.h", FULL(cmd_api_layout)},
	{"api-log",
	 "api-log [--arch ARCH] [--json] [--since REV] [--until REV] [--tags GLOB] "
	 "[--headers-branch NAME] [--state-dir DIR] [--html FILE] [--quiet] REPO SYMBOL...",
	 "since which release a userspace API symbol exists, and what changed in it when",
	 "Says since which release (tag) each SYMBOL exists in the userspace API of REPO and\n"
	 "what changed in it when, with verdicts, from an index of the headers branch (made\n"
	 "and brought up to date as needed).  Exit 1 when a SYMBOL is not in the range.",
	 "uapid api-log ~/linux EPOLL_CLOEXEC 'struct epoll_event.data'", FULL(cmd_api_log)},
	{"check-uapi",
	 "check-uapi [-b BASE_REF] [-p PAST_REF] [-j N] [-l ERROR_LOG] [-i] [-q] [-v]",
	 "the kernel's scripts/check-uapi.sh, its options and exit codes, on uapid's API model",
	 "Checks, as the kernel's scripts/check-uapi.sh does with the same options, exit codes\n"
	 "and environment (ARCH), whether the userspace API of the tree's working copy (or\n"
	 "BASE_REF) broke since PAST_REF, from uapid's model: no compiler, no abidiff.",
	 "uapid check-uapi -p v6.1", FULL(cmd_check_uapi)},
	{"fix-includes", "fix-includes [--in-place | --dry-run] TREE [PATH...]",
	 "turn #include \"x.h\" into #include <dir/x.h> in tree headers",
	 "Rewrites the quoted includes of TREE's headers (or of the PATHs named) that name\n"
	 "another header of the tree as the angle-bracket includes the split needs; without\n"
	 "--in-place it only says what it would change.",
	 "uapid fix-includes --dry-run ~/linux-3.6 include/linux", cmd_fix_includes},
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

/* Does a command's argv ask for --help (or -h), before a "--"? */
static bool
wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	return false;
}

/* uapid COMMAND --help: its usage (the man page's synopsis), what it does, an example. */
static int
command_help(const struct cmd_entry *c)
{
	printf("usage: uapid %s\n\n%s\n\nExample:\n  %s\n\n"
	       "Exit status: 0, 1 when the input needs attention, 2 for usage or I/O errors.\n"
	       "Options: uapid(1), doc/options.md.\n",
	       c->usage, c->about, c->example);
	return EXIT_OK;
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
		if (wants_help(argc - 1, argv + 1))
			return command_help(&commands[i]);
#ifdef UD_LIGHT
		if (commands[i].run == NULL)
			return exec_full(argv);
#endif
		return commands[i].run(argc - 1, argv + 1);
	}
	report_error("unknown command '%s' (see uapid --help)", argv[1]);
	return EXIT_USAGE;
}
