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
	"exit status: 0 ok, 1 the daemon answered an error, 2 usage, 3 no daemon reachable\n";

/* The commands, in the order --help lists them. */
static const struct ctl_command commands[] = {
	{"status",
	 "  status                          the daemon's tree, clock, counts and health\n",
	 ctl_status},
	{"headers",
	 "  headers [--prefix P] [--outcome O] [--exported | --unexported]\n"
	 "                                  headers with their outcome and export state\n",
	 ctl_headers},
	{"classify",
	 "  classify [--stdin] FILE         each line's class and the split's diagnostics\n",
	 ctl_classify},
	{"preview",
	 "  preview [--stdin] [--kernel | --uapi | --installed] FILE\n"
	 "                                  the texts the split gives\n",
	 ctl_preview},
	{"changes", "  changes [--since CLOCK]         files whose outcome or outputs changed\n",
	 ctl_changes},
	{"marker",
	 "  marker list [FILE]              coaching markers in the daemon's store\n"
	 "  marker add FILE ACTION [SELECTOR] [--occurrence N] [--why TEXT]\n"
	 "  marker rm ID...\n",
	 ctl_marker},
	{"resplit", "  resplit [PATH...]               split again (all headers without PATH)\n",
	 ctl_resplit},
	{"api",
	 "  api [--since CLOCK | --rev REV]  userspace API changes, symbol by symbol, with verdicts\n"
	 "  api --log [--since REV] [--until REV] [--tags GLOB] SYMBOL...\n"
	 "                                  since which release a symbol exists, what changed when\n",
	 ctl_api},
	{"watch", "  watch                           print change notifications as they come\n",
	 ctl_watch},
	{"sockname", "  sockname [PATH]                 the socket of the daemon for PATH's tree\n",
	 ctl_sockname},
	{"lsp", "  lsp                             a Language Server on stdin/stdout for editors\n",
	 ctl_lsp},
	{"call", "  call METHOD [PARAMS-JSON]       any method, raw (also: METHOD PARAMS-JSON)\n",
	 ctl_raw},
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
			optind = 0; /* each command parses its own options */
			return commands[i].run(&ctl, argc, argv);
		}
	/* an unknown name is a method, sent as is: the daemon says whether it knows it */
	return ctl_raw(&ctl, argc, argv);
}
