// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid watch [--state-dir DIR] [--socket PATH] [--arch ARCH] [--settle MS]
 *             [--markers FILE] [--keep-events N] [--keep-days DAYS] [--verbose]
 *             [--quiet] TREE
 * The daemon, in the foreground (see src/daemon/daemon.c).
 */
#include <getopt.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cmd.h"
#include "uapid/daemon/daemon.h"
#include "uapid/io/tree.h"

static const char watch_usage[] =
	"usage: uapid watch [--state-dir DIR] [--socket PATH] [--arch ARCH] [--settle MS]\n"
	"                   [--markers FILE] [--socket-group GROUP] [--verbose] [--quiet]\n"
	"                   [--print-paths] [--keep-events N] [--keep-days DAYS]\n"
	"                   [--branches [--split-branch NAME|-] [--headers-branch NAME|-]]\n"
	"                   TREE\n";

/*
 * The soft limit on descriptors raised to the hard one: each client holds
 * one, the pool's workers one per header they read, the store three, and
 * at the soft 1024 a few hundred editors' connections would leave a save
 * unreadable.  libuv polls with epoll, never select(): no FD_SETSIZE to
 * respect.  (Under the unit, setrlimit is filtered: its LimitNOFILE is
 * what counts.)
 */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* --print-paths: where the daemon for TREE keeps its state and listens, then exit. */
static int
print_paths(const struct ud_daemon_opts *o)
{
	struct ud_tree tree;
	char *cause = NULL, *state, *sock;

	if (ud_tree_open(&tree, o->tree, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	state = o->state_dir != NULL ? strdup(o->state_dir)
				     : ud_daemon_default_state_dir(tree.root);
	sock = o->socket != NULL ? strdup(o->socket) : ud_daemon_default_socket(tree.root);
	printf("tree=%s\nstate_dir=%s\nsocket=%s\n", tree.root, state, sock);
	free(state);
	free(sock);
	ud_tree_close(&tree);
	return EXIT_OK;
}

int
cmd_watch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"state-dir", required_argument, NULL, 'd'},
		{"socket", required_argument, NULL, 's'},
		{"arch", required_argument, NULL, 'a'},
		{"settle", required_argument, NULL, 't'},
		{"markers", required_argument, NULL, 'm'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"print-paths", no_argument, NULL, 'p'},
		{"socket-group", required_argument, NULL, 'g'},
		{"branches", no_argument, NULL, 'B'},
		{"split-branch", required_argument, NULL, 'S'},
		{"headers-branch", required_argument, NULL, 'H'},
		{"keep-events", required_argument, NULL, 'E'},
		{"keep-days", required_argument, NULL, 'D'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ud_daemon_opts o;
	bool paths = false;
	char *end;
	long v;
	int opt;

	memset(&o, 0, sizeof(o));
	o.settle_ms = 100;
	o.keep_days = -1;
	o.socket_group = (gid_t)-1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:s:a:t:m:vqpg:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			o.state_dir = optarg;
			break;
		case 's':
			o.socket = optarg;
			break;
		case 'a':
			o.arch = optarg;
			break;
		case 't':
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || v < 0 || v > 60000) {
				report_error(
					"--settle: '%s' is not a time in milliseconds (0 to 60000)",
					optarg);
				return EXIT_USAGE;
			}
			o.settle_ms = (unsigned)v;
			break;
		case 'm':
			o.markers = optarg;
			break;
		case 'q':
			o.quiet = true; /* no progress line: the log stays */
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'p':
			paths = true;
			break;
		case 'B':
			o.branches = true;
			break;
		case 'S':
			o.split_branch = optarg;
			o.branches = true;
			break;
		case 'H':
			o.headers_branch = optarg;
			o.branches = true;
			break;
		case 'E':
		case 'D':
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || v < (opt == 'E' ? 1 : 0) ||
			    v > (opt == 'E' ? 1000000000L : 36500L)) {
				report_error("--%s: '%s' is not a count (%s)",
					     opt == 'E' ? "keep-events" : "keep-days", optarg,
					     opt == 'E' ? "1 to 1000000000" : "0 to 36500");
				return EXIT_USAGE;
			}
			if (opt == 'E')
				o.keep_events = v;
			else
				o.keep_days = v;
			break;
		case 'g': {
			struct group *g = getgrnam(optarg);

			if (g == NULL) {
				report_error("--socket-group: no group '%s'", optarg);
				return EXIT_USAGE;
			}
			o.socket_group = g->gr_gid;
			break;
		}
		case 'h':
			fputs(watch_usage, stdout);
			return EXIT_OK;
		default:
			fputs(watch_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fputs(watch_usage, stderr);
		return EXIT_USAGE;
	}
	o.tree = argv[optind];
	if (paths)
		return print_paths(&o);
	if (o.arch == NULL || o.arch[0] == '\0') /* the unit's empty UAPID_ARCH too */
		o.arch = cmd_default_arch();
	raise_nofile();
	return ud_daemon_run(&o);
}
