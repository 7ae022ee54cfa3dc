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

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "uapid/discover.h"
#include "uapid/rpcclient.h"
#include "uapid/xmalloc.h"

static const char ctl_usage[] =
	"usage: uapictl [--socket PATH | --tree DIR] [--json] [--timeout SECONDS] COMMAND [ARGS]\n"
	"\n"
	"commands:\n"
	"  status                          the daemon's tree, clock, counts and health\n"
	"  headers [--prefix P] [--outcome O] [--exported | --unexported]\n"
	"                                  headers with their outcome and export state\n"
	"  classify [--stdin] FILE         each line's class and the split's diagnostics\n"
	"  preview [--stdin] [--kernel | --uapi | --installed] FILE\n"
	"                                  the texts the split gives\n"
	"  changes [--since CLOCK]         files whose outcome or outputs changed\n"
	"  marker list [FILE]              coaching markers in the daemon's store\n"
	"  marker add FILE ACTION [SELECTOR] [--occurrence N] [--why TEXT]\n"
	"  marker rm ID...\n"
	"  resplit [PATH...]               split again (all headers without PATH)\n"
	"  api [--since CLOCK | --rev REV]  userspace API changes, symbol by symbol, with verdicts\n"
	"  api --log [--since REV] [--until REV] [--tags GLOB] SYMBOL...\n"
	"                                  since which release a symbol exists, what changed when\n"
	"  watch                           print change notifications as they come\n"
	"  sockname [PATH]                 the socket of the daemon for PATH's tree\n"
	"  lsp                             a Language Server on stdin/stdout for editors\n"
	"  call METHOD [PARAMS-JSON]       any method, raw (also: METHOD PARAMS-JSON)\n"
	"\n"
	"exit status: 0 ok, 1 the daemon answered an error, 2 usage, 3 no daemon reachable\n";

const char *
ctl_sgr(const struct ctl *ctl, const char *code)
{
	return ctl->color ? code : "";
}

void
ctl_print_json(json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);

	if (s != NULL)
		puts(s);
	free(s);
}

char *
ctl_socket(const struct ctl *ctl, const char *hint)
{
	const char *where = hint != NULL ? hint : ctl->tree_opt != NULL ? ctl->tree_opt : ".";
	char *sock, *tree, real[PATH_MAX];
	int rc;

	if (ctl->socket_opt != NULL)
		return ud_xstrdup(ctl->socket_opt);
	/* --tree names the tree: a FILE argument outside it does not move the search */
	if (ctl->tree_opt != NULL)
		where = ctl->tree_opt;
	rc = ud_discover_socket(where, &sock, &tree);
	free(tree);
	if (rc == 0)
		return sock;
	if (rc == -ENOENT && access(where, F_OK) != 0) {
		fprintf(stderr, "uapictl: %s: %s\n", where, strerror(-rc));
		return NULL;
	}
	if (realpath(where, real) != NULL)
		where = real;
	fprintf(stderr,
		"uapictl: no uapid daemon found for %s\n"
		"hint: start one with `uapid watch TREE` (or `systemctl start "
		"uapid@$(systemd-escape --path TREE)`), or name its socket with --socket\n",
		where);
	return NULL;
}

int
ctl_call(const struct ctl *ctl, const char *hint, const char *method, json_t *params,
	 json_t **result)
{
	struct ud_rpc_conn c;
	char *sock = ctl_socket(ctl, hint), *cause = NULL;
	int rc;

	*result = NULL;
	if (sock == NULL) {
		json_decref(params);
		return CTL_UNREACHABLE;
	}
	rc = ud_rpc_connect(&c, sock, ctl->timeout_ms, &cause);
	if (rc < 0) {
		fprintf(stderr, "uapictl: %s\n", cause);
		if (rc != -ENAMETOOLONG)
			fprintf(stderr,
				"hint: is uapid running? start it with `uapid watch TREE`\n");
		free(cause);
		free(sock);
		json_decref(params);
		return CTL_UNREACHABLE;
	}
	rc = ud_rpc_call(&c, method, params, result, &cause);
	ud_rpc_disconnect(&c);
	free(sock);
	if (rc < 0) {
		fprintf(stderr, "uapictl: %s\n", cause);
		free(cause);
		return CTL_UNREACHABLE;
	}
	if (rc == 1) {
		json_t *msg = json_object_get(*result, "message");

		fprintf(stderr, "uapictl: %s: error %" JSON_INTEGER_FORMAT ": %s\n", method,
			json_integer_value(json_object_get(*result, "code")),
			json_is_string(msg) ? json_string_value(msg) : "(no message)");
		json_decref(*result);
		*result = NULL;
		return CTL_DAEMON_ERROR;
	}
	return CTL_OK;
}

static const struct {
	const char *name;
	int (*fn)(struct ctl *, int, char **);
} commands[] = {
	{"status", ctl_status},	  {"headers", ctl_headers}, {"classify", ctl_classify},
	{"preview", ctl_preview}, {"changes", ctl_changes}, {"marker", ctl_marker},
	{"resplit", ctl_resplit}, {"watch", ctl_watch},	    {"sockname", ctl_sockname},
	{"lsp", ctl_lsp},	  {"call", ctl_raw},	    {"api", ctl_api},
};

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
			fputs(ctl_usage, stdout);
			return CTL_OK;
		default:
			fputs(ctl_usage, stderr);
			return CTL_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(ctl_usage, stderr);
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
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[0], commands[i].name) == 0) {
			optind = 0; /* each command parses its own options */
			return commands[i].fn(&ctl, argc, argv);
		}
	/* an unknown name is a method, sent as is: the daemon says whether it knows it */
	return ctl_raw(&ctl, argc, argv);
}
