// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl: the client of the uapid daemon's socket, for people (aligned
 * human output), scripts (--json, exit codes) and editors (uapictl lsp).
 *
 * The socket comes from --socket, else $UAPID_SOCKET, else the discovery
 * rule (discover.h) applied to the file the command is about, --tree or
 * the working directory.
 */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uapid/util/hash.h"

#include "ctl.h"

static const char ctl_usage_head[] =
	"usage: uapictl [--socket PATH | --tree DIR] [--json] [--timeout SECONDS] COMMAND [ARGS]\n"
	"\n"
	"commands:\n";
static const char ctl_usage_tail[] =
	"\n"
	"\n"
	"uapictl COMMAND --help says what a command does, with an example.\n"
	"exit status: 0 ok, 1 the input needs attention (a breaking change, an error\n"
	"diagnostic, a header that needs coaching) or the daemon answered an error, 2 usage,\n"
	"3 no daemon reachable\n";

/* The commands, in the order --help lists them. */
static const struct ctl_command commands[] = {
	{"status",
	 "  status                          the daemon's tree, clock, counts and health\n",
	 "status",
	 "The daemon's tree, state directory, socket and architecture, its clock, whether it is\n"
	 "scanning, busy or idle, the headers by outcome, the last batch, the watch's health,\n"
	 "the clients, the branches (--branches) and its problems.",
	 "uapictl status", ctl_status},
	{"headers",
	 "  headers [--prefix P] [--outcome O] [--exported | --unexported]\n"
	 "                                  headers with their outcome and export state\n",
	 "headers [--prefix P] [--outcome O] [--exported | --unexported]",
	 "The headers the daemon knows, with their outcome (split, moved, needs-coaching,\n"
	 "skipped, unreadable, unexported, uapi) and export state, those under the path prefix\n"
	 "P or of outcome O only.",
	 "uapictl headers --outcome needs-coaching", ctl_headers},
	{"classify",
	 "  classify [--stdin] FILE         each line's class and the split's diagnostics\n",
	 "classify [--stdin] FILE",
	 "Each line range of FILE with its class (kernel, user-only, retained...) and reason,\n"
	 "then the split's diagnostics, with the markers the daemon holds; --stdin classifies\n"
	 "an editor's unsaved buffer.  Exit 1 when a diagnostic is an error, as uapid classify.",
	 "uapictl classify include/linux/kd.h", ctl_classify},
	{"preview",
	 "  preview [--stdin] [--kernel | --uapi | --installed] FILE\n"
	 "                                  the texts the split gives\n",
	 "preview [--stdin] [--kernel | --uapi | --installed] FILE",
	 "What the split gives for FILE: its outcome and diagnostics, the kernel header, the\n"
	 "uapi header and the uapi header as installed (or only one of them).  Nothing is\n"
	 "written.  Exit 1 when FILE needs coaching (said, with why: there is no text to show).",
	 "uapictl preview --uapi include/linux/kd.h", ctl_preview},
	{"changes", "  changes [--since CLOCK]         files whose outcome or outputs changed\n",
	 "changes [--since CLOCK]",
	 "The files whose outcome or outputs changed after CLOCK (from status, changes or api),\n"
	 "with the kinds of their events and the clock to pass next time.",
	 "uapictl changes --since 42", ctl_changes},
	{"marker",
	 "  marker list [FILE]              coaching markers in the daemon's store\n"
	 "  marker add FILE ACTION [SELECTOR] [--occurrence N] [--why TEXT]\n"
	 "  marker rm ID...\n",
	 "marker list [FILE]\n"
	 "marker add FILE ACTION [SELECTOR] [--occurrence N] [--why TEXT]\n"
	 "marker rm ID...",
	 "Lists, adds and removes the coaching markers of the daemon's store; a marker added\n"
	 "splits its FILE again at once.  ACTION is retain, kernel, uapi, include-here, skip or\n"
	 "split-compound; SELECTOR the directive by its text.  FILE must exist.",
	 "uapictl marker add include/linux/soundcard.h retain '#ifdef __KERNEL__' --why OSS",
	 ctl_marker},
	{"resplit", "  resplit [PATH...]               split again (all headers without PATH)\n",
	 "resplit [PATH...]",
	 "Splits (and installs) again the headers named, or all of them, whatever the stat and\n"
	 "content hashes say; the results follow as change notifications.",
	 "uapictl resplit include/linux/kd.h", ctl_resplit},
	{"api",
	 "  api [--since CLOCK|REV | --rev REV] [--accept FILE]\n"
	 "                                  userspace API changes, symbol by symbol, with verdicts\n"
	 "  api --log [--since REV] [--until REV] [--tags GLOB] SYMBOL...\n"
	 "                                  since which release a symbol exists, what changed when\n",
	 "api [--since CLOCK|REV | --rev REV] [--accept FILE]\n"
	 "api --log [--since REV] [--until REV] [--tags GLOB] SYMBOL...",
	 "The userspace API changes of the installed headers, symbol by symbol, with verdicts:\n"
	 "against HEAD of the tree's repository (no option), a revision (--rev REV, or --since\n"
	 "REV), or since a clock (--since CLOCK, a number).  Exit 1 when a change is breaking,\n"
	 "as uapid api-diff; --accept FILE's lines accept breaks as there.  --log: the history of each SYMBOL, as uapid api-log.",
	 "uapictl api --since v6.1", ctl_api},
	{"watch", "  watch                           print change notifications as they come\n",
	 "watch",
	 "Subscribes and prints each change notification as it comes (with --json, one JSON\n"
	 "line each), until interrupted.",
	 "uapictl watch", ctl_watch},
	{"sockname", "  sockname [PATH]                 the socket of the daemon for PATH's tree\n",
	 "sockname [PATH]",
	 "The socket of the daemon for PATH's tree (default: the working directory), found as\n"
	 "every command finds it.",
	 "uapictl sockname ~/linux/include/linux/kd.h", ctl_sockname},
	{"lsp",
	 "  lsp [--baseline REV|installed] [--accept FILE]\n"
	 "                                  a Language Server on stdin/stdout for editors\n",
	 "lsp [--baseline REV|installed] [--accept FILE]",
	 "A Language Server on standard input and output for editors: diagnostics, regions,\n"
	 "hover and code actions for the headers of any tree a daemon watches.  A uapi\n"
	 "header's API changes are against --baseline (default HEAD, followed as it moves),\n"
	 "less those the accept FILE accepts.",
	 "nvim --cmd 'lua vim.lsp.start({cmd = {\"uapictl\", \"lsp\"}})' include/linux/kd.h",
	 ctl_lsp},
	{"call", "  call METHOD [PARAMS-JSON]       any method, raw (also: METHOD PARAMS-JSON)\n",
	 "call METHOD [PARAMS-JSON]",
	 "Sends any method of the daemon's protocol (uapid-protocol(7)) with its params as they\n"
	 "are, and prints the result as JSON.  METHOD PARAMS-JSON, and a METHOD with a dot\n"
	 "(markers.list), are sent the same way; any other unknown command is a usage error.",
	 "uapictl call headers '{\"outcome\":\"moved\"}'", ctl_raw},
};

static void
usage(FILE *f)
{
	size_t i;

	fputs(ctl_usage_head, f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fputs(commands[i].help, f);
	fputs(ctl_usage_tail, f);
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

/* uapictl COMMAND --help: its usage lines (uapictl(1)'s), what it does, an example. */
static int
command_help(const struct ctl_command *c)
{
	const char *p = c->usage, *nl;
	const char *lead = "usage:";

	do {
		nl = strchr(p, '\n');
		printf("%s uapictl %.*s\n", lead, (int)(nl != NULL ? nl - p : (ptrdiff_t)strlen(p)),
		       p);
		lead = "      ";
		p = nl + 1;
	} while (nl != NULL);
	printf("\n%s\n\nExample:\n  %s\n\nGlobal options (before COMMAND): [--socket PATH | "
	       "--tree DIR] [--json] [--timeout SECONDS]\nExit status: 0, 1 when the input "
	       "needs attention or the daemon answered an error, 2 for usage, 3 when no daemon "
	       "is reachable.\n",
	       c->about, c->example);
	return CTL_OK;
}

/* "METHOD {...}" (today's raw form): a JSON argument after the name means raw. */
static bool
looks_raw(int argc, char **argv)
{
	return argc == 2 && (argv[1][0] == '{' || argv[1][0] == '[' || argv[1][0] == '"');
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"socket", required_argument, NULL, 's'},
		{"tree", required_argument, NULL, 'T'},
		{"json", no_argument, NULL, 'j'},
		{"timeout", required_argument, NULL, 't'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ctl ctl = {NULL, NULL, false, false, 30000};
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
	char *end;
	size_t i;
	int opt;

	while ((opt = getopt_long(argc, argv, "+s:T:jt:Vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			ctl.socket_opt = optarg;
			break;
		case 'T':
			ctl.tree_opt = optarg;
			break;
		case 'j':
			ctl.json = true;
			break;
		case 't': {
			double s = strtod(optarg, &end);

			if (*end != '\0' || end == optarg || s <= 0 || s > 86400) {
				fprintf(stderr,
					"uapictl: --timeout: '%s' is not a number of seconds\n",
					optarg);
				return CTL_USAGE;
			}
			ctl.timeout_ms = (int)(s * 1000);
			break;
		}
		case 'V':
			printf("uapictl %s\n", PACKAGE_VERSION);
			return CTL_OK;
		case 'h':
			usage(stdout);
			return CTL_OK;
		default:
			usage(stderr);
			return CTL_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return CTL_USAGE;
	}
	if (ctl.socket_opt != NULL && ctl.tree_opt != NULL) {
		fprintf(stderr, "uapictl: --socket and --tree name the daemon twice; give one\n");
		return CTL_USAGE;
	}
	ctl.color = isatty(STDOUT_FILENO) && (no_color == NULL || no_color[0] == '\0') &&
		    term != NULL && strcmp(term, "dumb") != 0;
	argc -= optind;
	argv += optind;
	if (looks_raw(argc, argv))
		return ctl_raw(&ctl, argc, argv);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[0], commands[i].name) == 0) {
			if (wants_help(argc, argv))
				return command_help(&commands[i]);
			optind = 0; /* each command parses its own options */
			return commands[i].run(&ctl, argc, argv);
		}
	/*
	 * A dotted name is a method of the protocol (markers.list), sent as
	 * is: the daemon says whether it knows it.  Any other unknown word
	 * is a mistyped command: a usage error, as uapid says it.
	 */
	if (strchr(argv[0], '.') != NULL)
		return ctl_raw(&ctl, argc, argv);
	fprintf(stderr,
		"uapictl: unknown command '%s' (see uapictl --help; `uapictl call METHOD` sends "
		"any method)\n",
		argv[0]);
	return CTL_USAGE;
}
