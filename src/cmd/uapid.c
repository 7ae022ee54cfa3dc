// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid: split Linux kernel headers into their kernel-only and userspace
 * API parts, and keep that split current.  This file only dispatches to
 * the command of the first argument.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct cmd_entry commands[] = {
	{"classify", "classify [--json] FILE...",
	 "say, line range by line range, what of each header is kernel-only", cmd_classify},
	{"split",
	 "split [--in-place | --output DIR] [--markers FILE] [--dry-run] [--diff] [--json] [--quiet] "
	 "TREE [PATH...]",
	 "split exported headers into kernel and uapi/ parts", cmd_split},
	{"install", "install [--arch ARCH|all] [--quiet] TREE OUTDIR",
	 "write the installed userspace headers, as make headers_install does", cmd_install},
	{"check", "check [--arch ARCH] [--jobs N] [--json] [--quiet] TREE",
	 "the kernel's header checks and compile test, in one pass", cmd_check},
	{"watch",
	 "watch [--state-dir DIR] [--socket PATH] [--socket-group GROUP] [--arch ARCH] [--settle MS] "
	 "[--markers FILE] [--branches] [--verbose] [--quiet] [--print-paths] TREE",
	 "the daemon: keep the split and installed headers of TREE current as it changes",
	 cmd_watch},
	{"branch",
	 "branch [--split NAME|--no-split] [--headers NAME|--no-headers] [--source REV] [--arch ARCH] "
	 "[--since REV] [--one-commit] [--identity ID] [--markers FILE] [--state-dir DIR] [--json] "
	 "[--quiet] REPO",
	 "keep the uapi/split and uapi/headers branches of a repository current", cmd_branch},
	{"api-diff", "api-diff [--json] [--arch ARCH] [--abi ABI] [--quiet] OLD NEW",
	 "which headers changed userspace API, symbol by symbol, with a verdict", cmd_api_diff},
	{"api-layout", "api-layout [--json] [--arch ARCH] [--abi ABI] SOURCE [HEADER...] | --abis",
	 "sizes, alignments and member offsets of the installed headers' types on an ABI",
	 cmd_api_layout},
	{"api-log",
	 "api-log [--arch ARCH] [--json] [--since REV] [--until REV] [--tags GLOB] [--headers NAME] "
	 "[--state-dir DIR] [--quiet] REPO SYMBOL...",
	 "since which release a userspace API symbol exists, and what changed in it when",
	 cmd_api_log},
	{"fix-includes", "fix-includes [--in-place | --dry-run] TREE [PATH...]",
	 "turn #include \"x.h\" into #include <dir/x.h> in tree headers", cmd_fix_includes},
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: uapid [--version | --help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
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
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	report_error("unknown command '%s' (see uapid --help)", argv[1]);
	return EXIT_USAGE;
}
