// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl's commands: each builds a request's params from its arguments
 * and prints the result, aligned for people or as JSON with --json.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "uapid/api.h"
#include "uapid/buf.h"
#include "uapid/rpcclient.h"
#include "uapid/xmalloc.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define CYAN "\033[36m"
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* Parses a command's own options: returns the option, -1 at the end, '?' on a bad one. */
static int
next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	/* --json is accepted after the command too */
	return getopt_long(argc, argv, shortopts, longopts, NULL);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("uapictl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(uapictl --help lists the commands)\n", stderr);
	return CTL_USAGE;
}

/*
 * A FILE argument as the daemon takes it: absolute (the daemon makes it
 * tree-relative), with the directory's symlinks resolved so that it
 * matches the daemon's canonical root.
 */
static char *
absolute_path(const char *file)
{
	char real[PATH_MAX];
	const char *slash = strrchr(file, '/');
	char *dir = slash == NULL ? ud_xstrdup(".") : ud_xstrndup(file, (size_t)(slash - file));
	char *r;

	if (dir[0] == '\0') {
		free(dir);
		dir = ud_xstrdup("/");
	}
	if (realpath(dir, real) == NULL) {
		free(dir);
		return ud_xstrdup(file);
	}
	free(dir);
	r = ud_xasprintf("%s/%s", strcmp(real, "/") == 0 ? "" : real,
			 slash == NULL ? file : slash + 1);
	return r;
}

static const char *
outcome_color(const struct ctl *ctl, const char *outcome)
{
	if (strcmp(outcome, "split") == 0)
		return ctl_sgr(ctl, GREEN);
	if (strcmp(outcome, "moved") == 0)
		return ctl_sgr(ctl, CYAN);
	if (strcmp(outcome, "needs-coaching") == 0 || strcmp(outcome, "unreadable") == 0)
		return ctl_sgr(ctl, RED);
	return ctl_sgr(ctl, DIM);
}

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

static long long
num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* "path:line: severity: message" for each diagnostic, as compilers print them. */
static void
print_diags(const struct ctl *ctl, const char *path, json_t *diags)
{
	size_t i;
	json_t *d;

	json_array_foreach(diags, i, d)
	{
		const char *sev = str(d, "severity");
		const char *col = strcmp(sev, "error") == 0	? ctl_sgr(ctl, RED)
				  : strcmp(sev, "warning") == 0 ? ctl_sgr(ctl, YELLOW)
								: "";

		printf("%s:%lld: %s%s%s: %s\n",
		       json_is_string(json_object_get(d, "file")) ? str(d, "file") : path,
		       num(d, "line"), col, sev, ctl_sgr(ctl, RESET), str(d, "message"));
	}
}

static int
no_args(const char *cmd, int argc, char **argv, struct ctl *ctl)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	int opt;

	while ((opt = next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j')
			return usage_error("%s takes no options but --json", cmd);
		ctl->json = true;
	}
	if (optind < argc)
		return usage_error("%s takes no arguments", cmd);
	return CTL_OK;
}

static void
print_time(const char *label, long long at)
{
	char when[64];
	time_t t = (time_t)at;
	struct tm tm;

	if (at <= 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(when, sizeof(when), "never");
	printf("%s%s", label, when);
}

/* The branch follower's state (uapid watch --branches), on one line after prefix. */
static void
print_branches(const struct ctl *ctl, json_t *b, const char *prefix)
{
	json_t *last = json_object_get(b, "last_update"), *x;
	size_t i;

	printf("%sbranches:", prefix);
	if (json_is_string(json_object_get(b, "split")))
		printf(" %s %.12s", str(b, "split"), str(b, "split_commit"));
	if (json_is_string(json_object_get(b, "headers")))
		printf("%s %s %.12s", json_is_string(json_object_get(b, "split")) ? "," : "",
		       str(b, "headers"), str(b, "headers_commit"));
	if (json_is_object(last))
		printf(" (source %.12s, %lld headers commit%s added)", str(b, "source"),
		       num(last, "headers_added"), num(last, "headers_added") == 1 ? "" : "s");
	json_array_foreach(json_object_get(b, "refused"), i, x)
	{
		printf("; %s%s%s", ctl_sgr(ctl, RED), json_string_value(x), ctl_sgr(ctl, RESET));
	}
	if (json_is_string(json_object_get(b, "error")))
		printf("; %serror: %s%s", ctl_sgr(ctl, RED), str(b, "error"), ctl_sgr(ctl, RESET));
	x = json_object_get(b, "api_log");
	if (json_is_object(x))
		printf("; api-log index: %lld step%s%s%s%s", num(x, "steps"),
		       num(x, "steps") == 1 ? "" : "s",
		       json_is_string(json_object_get(x, "error")) ? ctl_sgr(ctl, RED) : "",
		       json_is_string(json_object_get(x, "error")) ? ", error: " : "",
		       json_is_string(json_object_get(x, "error")) ? str(x, "error") : "");
	if (json_is_object(x) && json_is_string(json_object_get(x, "error")))
		printf("%s", ctl_sgr(ctl, RESET));
}

int
ctl_status(struct ctl *ctl, int argc, char **argv)
{
	json_t *r, *counts, *last, *watch, *problems, *clients, *p;
	int rc = no_args("status", argc, argv, ctl);
	size_t i;

	if (rc != CTL_OK)
		return rc;
	if ((rc = ctl_call(ctl, NULL, "status", NULL, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	counts = json_object_get(r, "counts");
	last = json_object_get(r, "last_batch");
	watch = json_object_get(r, "watch");
	problems = json_object_get(r, "problems");
	clients = json_object_get(r, "clients");
	printf("tree        %s%s%s\n", ctl_sgr(ctl, BOLD), str(r, "tree"), ctl_sgr(ctl, RESET));
	printf("arch        %s\n", str(r, "arch"));
	printf("socket      %s\n", str(r, "socket"));
	printf("state       %s\n", str(r, "state_dir"));
	printf("clock       %lld, %s%s%s\n", num(r, "clock"),
	       json_is_true(json_object_get(r, "busy")) ? ctl_sgr(ctl, YELLOW)
							: ctl_sgr(ctl, GREEN),
	       !json_is_true(json_object_get(r, "ready")) ? "scanning the tree"
	       : json_is_true(json_object_get(r, "busy")) ? "busy"
							  : "idle",
	       ctl_sgr(ctl, RESET));
	printf("headers     %lld (%lld exported): %s%lld split%s, %s%lld moved%s, %s%lld need "
	       "coaching%s, %lld skipped, %lld unreadable\n",
	       num(counts, "headers"), num(counts, "exported"), outcome_color(ctl, "split"),
	       num(counts, "split"), ctl_sgr(ctl, RESET), outcome_color(ctl, "moved"),
	       num(counts, "moved"), ctl_sgr(ctl, RESET),
	       num(counts, "needs_coaching") > 0 ? ctl_sgr(ctl, RED) : "",
	       num(counts, "needs_coaching"), ctl_sgr(ctl, RESET), num(counts, "skipped"),
	       num(counts, "unreadable"));
	printf("outputs     %lld files; %lld installed headers (%lld failed)\n",
	       num(counts, "outputs"), num(counts, "installed"), num(counts, "install_failed"));
	if (json_is_object(last)) {
		printf("batches     %lld, the last took %.1f ms, ", num(last, "count"),
		       json_number_value(json_object_get(last, "ms")));
		print_time("at ", num(last, "at"));
		putchar('\n');
	}
	if (json_is_object(watch))
		printf("watch       %lld directories, %s%s%s%s\n", num(watch, "directories"),
		       json_is_true(json_object_get(watch, "degraded")) ? ctl_sgr(ctl, RED)
									: ctl_sgr(ctl, GREEN),
		       json_is_true(json_object_get(watch, "degraded"))
			       ? "degraded (rescanning on a timer)"
			       : "healthy",
		       ctl_sgr(ctl, RESET),
		       json_is_true(json_object_get(watch, "waiting_for_git"))
			       ? ", waiting for git to finish"
			       : "");
	if (json_is_object(clients))
		printf("clients     %lld connected, %lld subscribed\n", num(clients, "connected"),
		       num(clients, "subscribed"));
	if (json_is_object(json_object_get(r, "branches"))) {
		print_branches(ctl, json_object_get(r, "branches"), "");
		putchar('\n');
	}
	if (json_array_size(problems) == 0) {
		printf("problems    none\n");
	} else {
		json_array_foreach(problems, i, p)
		{
			printf("%s%s%s: %s%s\n", i == 0 ? "problems    " : "            ",
			       ctl_sgr(ctl, RED), str(p, "what"), str(p, "reason"),
			       ctl_sgr(ctl, RESET));
		}
	}
	json_decref(r);
	return CTL_OK;
}

int
ctl_headers(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"prefix", required_argument, NULL, 'p'}, {"outcome", required_argument, NULL, 'o'},
		{"exported", no_argument, NULL, 'e'},	  {"unexported", no_argument, NULL, 'u'},
		{"json", no_argument, NULL, 'j'},	  {NULL, 0, NULL, 0},
	};
	json_t *params = json_object(), *r, *h;
	size_t i, width = 0;
	int opt, rc;

	while ((opt = next_opt(argc, argv, "p:o:euj", longopts)) != -1) {
		switch (opt) {
		case 'p':
			json_object_set_new(params, "prefix", json_string(optarg));
			break;
		case 'o':
			json_object_set_new(params, "outcome", json_string(optarg));
			break;
		case 'e':
		case 'u':
			json_object_set_new(params, "exported", json_boolean(opt == 'e'));
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			json_decref(params);
			return usage_error("%s: see uapictl --help", "headers");
		}
	}
	if (optind < argc) {
		json_decref(params);
		return usage_error("headers: unexpected argument '%s'", argv[optind]);
	}
	if ((rc = ctl_call(ctl, NULL, "headers", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	json_array_foreach(json_object_get(r, "headers"), i, h)
	{
		size_t w = strlen(str(h, "outcome"));

		if (w > width)
			width = w;
	}
	json_array_foreach(json_object_get(r, "headers"), i, h)
	{
		printf("%s%-*s%s  %-10s  %s\n", outcome_color(ctl, str(h, "outcome")), (int)width,
		       str(h, "outcome"), ctl_sgr(ctl, RESET),
		       json_is_true(json_object_get(h, "exported")) ? "exported" : "-",
		       str(h, "path"));
	}
	json_decref(r);
	return CTL_OK;
}

/* Reads all of stdin (an editor's unsaved buffer). */
static int
read_stdin(struct ud_buf *b)
{
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		ud_buf_add(b, chunk, n);
	if (ferror(stdin)) {
		fprintf(stderr, "uapictl: reading stdin: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* FILE [--stdin]: the params {path[,text]} for classify and preview. */
static json_t *
path_params(const char *file, bool from_stdin)
{
	char *abs = absolute_path(file);
	json_t *params = json_pack("{s:s}", "path", abs);

	free(abs);
	if (from_stdin) {
		struct ud_buf b = UD_BUF_INIT;

		if (read_stdin(&b) < 0) {
			ud_buf_free(&b);
			json_decref(params);
			return NULL;
		}
		json_object_set_new(params, "text", json_stringn(ud_buf_str(&b), b.len));
		ud_buf_free(&b);
	}
	return params;
}

int
ctl_classify(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"stdin", no_argument, NULL, 'i'},
						 {"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	bool from_stdin = false;
	json_t *params, *r, *b;
	size_t i;
	int opt, rc;

	while ((opt = next_opt(argc, argv, "ij", longopts)) != -1) {
		if (opt == 'i')
			from_stdin = true;
		else if (opt == 'j')
			ctl->json = true;
		else
			return usage_error("%s: usage: uapictl classify [--stdin] FILE",
					   "classify");
	}
	if (argc - optind != 1)
		return usage_error("%s: usage: uapictl classify [--stdin] FILE", "classify");
	if ((params = path_params(argv[optind], from_stdin)) == NULL)
		return CTL_USAGE;
	if ((rc = ctl_call(ctl, argv[optind], "classify", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	json_array_foreach(json_object_get(r, "blocks"), i, b)
	{
		char lines[48];
		const char *cls = str(b, "class");
		const char *col = strcmp(cls, "kernel") == 0	  ? ctl_sgr(ctl, DIM)
				  : strcmp(cls, "user-only") == 0 ? ctl_sgr(ctl, CYAN)
				  : strcmp(cls, "retained") == 0  ? ctl_sgr(ctl, YELLOW)
								  : "";

		if (num(b, "first") == num(b, "last"))
			snprintf(lines, sizeof(lines), "%lld", num(b, "first"));
		else
			snprintf(lines, sizeof(lines), "%lld-%lld", num(b, "first"),
				 num(b, "last"));
		printf("%11s  %s%-9s%s  %s\n", lines, col, cls, ctl_sgr(ctl, RESET),
		       str(b, "reason"));
	}
	print_diags(ctl, argv[optind], json_object_get(r, "diagnostics"));
	json_decref(r);
	return CTL_OK;
}

static void
print_text(const struct ctl *ctl, const char *what, const char *path, json_t *text, bool heading)
{
	const char *s = json_string_value(text);

	if (heading)
		printf("%s==> %s: %s <==%s\n", ctl_sgr(ctl, BOLD), what, path, ctl_sgr(ctl, RESET));
	if (s == NULL) {
		if (heading)
			printf("(none)\n");
		return;
	}
	fputs(s, stdout);
	if (heading && s[0] != '\0' && s[strlen(s) - 1] != '\n')
		putchar('\n');
}

int
ctl_preview(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"stdin", no_argument, NULL, 'i'}, {"kernel", no_argument, NULL, 'k'},
		{"uapi", no_argument, NULL, 'u'},  {"installed", no_argument, NULL, 'I'},
		{"json", no_argument, NULL, 'j'},  {NULL, 0, NULL, 0},
	};
	static const char usage[] =
		"preview: usage: uapictl preview [--stdin] [--kernel | --uapi | --installed] FILE";
	bool from_stdin = false;
	int only = 0, opt, rc;
	json_t *params, *r, *inst;

	while ((opt = next_opt(argc, argv, "ikuIj", longopts)) != -1) {
		switch (opt) {
		case 'i':
			from_stdin = true;
			break;
		case 'k':
		case 'u':
		case 'I':
			if (only != 0 && only != opt)
				return usage_error("%s", usage);
			only = opt;
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			return usage_error("%s", usage);
		}
	}
	if (argc - optind != 1)
		return usage_error("%s", usage);
	if ((params = path_params(argv[optind], from_stdin)) == NULL)
		return CTL_USAGE;
	if ((rc = ctl_call(ctl, argv[optind], "preview", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	inst = json_object_get(r, "installed");
	if (only == 'k') {
		print_text(ctl, "kernel", str(r, "path"), json_object_get(r, "kernel"), false);
	} else if (only == 'u') {
		print_text(ctl, "uapi", str(r, "uapi_path"), json_object_get(r, "uapi"), false);
	} else if (only == 'I') {
		print_text(ctl, "installed", str(inst, "path"), json_object_get(inst, "text"),
			   false);
	} else {
		printf("%s: %s%s%s\n", str(r, "path"), outcome_color(ctl, str(r, "outcome")),
		       str(r, "outcome"), ctl_sgr(ctl, RESET));
		print_diags(ctl, str(r, "path"), json_object_get(r, "diagnostics"));
		if (strcmp(str(r, "outcome"), "uapi") != 0)
			print_text(ctl, "kernel", str(r, "path"), json_object_get(r, "kernel"),
				   true);
		print_text(ctl, "uapi", str(r, "uapi_path"), json_object_get(r, "uapi"), true);
		if (json_is_object(inst)) {
			print_text(ctl, "installed", str(inst, "path"),
				   json_object_get(inst, "text"), true);
			print_diags(ctl, str(inst, "path"), json_object_get(inst, "diagnostics"));
		}
	}
	json_decref(r);
	return CTL_OK;
}

int
ctl_changes(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"since", required_argument, NULL, 's'},
						 {"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r, *f, *k;
	char *end;
	size_t i, j;
	int opt, rc;

	while ((opt = next_opt(argc, argv, "s:j", longopts)) != -1) {
		if (opt == 's') {
			long long since = strtoll(optarg, &end, 10);

			if (*end != '\0' || end == optarg || since < 0) {
				json_decref(params);
				return usage_error(
					"changes: --since '%s' is not a clock (an integer "
					"from status or an earlier changes)",
					optarg);
			}
			json_object_set_new(params, "since", json_integer(since));
		} else if (opt == 'j') {
			ctl->json = true;
		} else {
			json_decref(params);
			return usage_error("%s: usage: uapictl changes [--since CLOCK]", "changes");
		}
	}
	if (optind < argc) {
		json_decref(params);
		return usage_error("changes: unexpected argument '%s'", argv[optind]);
	}
	if (json_object_get(params, "since") == NULL)
		json_object_set_new(params, "since", json_integer(0));
	if ((rc = ctl_call(ctl, NULL, "changes", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	printf("clock %lld%s\n", num(r, "clock"),
	       json_is_true(json_object_get(r, "fresh_instance"))
		       ? " (fresh instance: the clock given is not in this daemon's history; every "
			 "file follows)"
		       : "");
	json_array_foreach(json_object_get(r, "files"), i, f)
	{
		struct ud_buf kinds = UD_BUF_INIT;

		json_array_foreach(json_object_get(f, "kinds"), j, k)
		{
			if (j > 0)
				ud_buf_addch(&kinds, ',');
			ud_buf_addstr(&kinds, json_string_value(k) ? json_string_value(k) : "?");
		}
		printf("%8lld  %-16s  %s\n", num(f, "clock"), ud_buf_str(&kinds), str(f, "path"));
		ud_buf_free(&kinds);
	}
	json_decref(r);
	return CTL_OK;
}

static void
print_markers(const struct ctl *ctl, json_t *markers, const char *only)
{
	json_t *m;
	size_t i;

	json_array_foreach(markers, i, m)
	{
		if (only != NULL && strcmp(only, str(m, "path")) != 0)
			continue;
		printf("%5lld  %-6s  %s %s", num(m, "id"), str(m, "origin"), str(m, "path"),
		       str(m, "action"));
		if (json_is_string(json_object_get(m, "selector"))) {
			printf(" '%s'", str(m, "selector"));
			if (num(m, "occurrence") > 1)
				printf("#%lld", num(m, "occurrence"));
		}
		if (json_is_string(json_object_get(m, "why")))
			printf("  %s# %s%s", ctl_sgr(ctl, DIM), str(m, "why"), ctl_sgr(ctl, RESET));
		putchar('\n');
	}
}

/* A FILE argument as the store names it: relative to the tree when inside it. */
static char *
marker_path(const struct ctl *ctl, const char *file)
{
	json_t *r;
	char *abs = absolute_path(file), *rel = NULL;
	const char *tree;
	size_t n;

	if (ctl_call(ctl, file, "status", NULL, &r) != CTL_OK) {
		free(abs);
		return ud_xstrdup(file);
	}
	tree = str(r, "tree");
	n = strlen(tree);
	if (n > 0 && strncmp(abs, tree, n) == 0 && abs[n] == '/')
		rel = ud_xstrdup(abs + n + 1);
	json_decref(r);
	free(abs);
	return rel != NULL ? rel : ud_xstrdup(file);
}

int
ctl_marker(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"occurrence", required_argument, NULL, 'n'},
		{"why", required_argument, NULL, 'w'},
		{"json", no_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	static const char usage[] =
		"marker: usage: uapictl marker list [FILE] | marker add FILE ACTION [SELECTOR] "
		"[--occurrence N] [--why TEXT] | marker rm ID...";
	const char *why = NULL, *sub;
	long occurrence = 0;
	json_t *r = NULL;
	char *end;
	int opt, rc = CTL_OK;

	while ((opt = next_opt(argc, argv, "n:w:j", longopts)) != -1) {
		switch (opt) {
		case 'n':
			occurrence = strtol(optarg, &end, 10);
			if (*end != '\0' || occurrence < 1)
				return usage_error("marker: --occurrence '%s' is not a number of 1 "
						   "or more",
						   optarg);
			break;
		case 'w':
			why = optarg;
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			return usage_error("%s", usage);
		}
	}
	if (optind >= argc)
		return usage_error("%s", usage);
	sub = argv[optind++];
	if (strcmp(sub, "list") == 0 || strcmp(sub, "ls") == 0) {
		char *only = NULL;

		if (argc - optind > 1)
			return usage_error("%s", usage);
		if (argc - optind == 1)
			only = marker_path(ctl, argv[optind]);
		rc = ctl_call(ctl, only != NULL ? argv[optind] : NULL, "markers.list", NULL, &r);
		if (rc == CTL_OK) {
			if (ctl->json)
				ctl_print_json(r);
			else
				print_markers(ctl, json_object_get(r, "markers"), only);
		}
		free(only);
	} else if (strcmp(sub, "add") == 0) {
		json_t *params;
		char *path;

		if (argc - optind < 2 || argc - optind > 3)
			return usage_error("%s", usage);
		path = marker_path(ctl, argv[optind]);
		params = json_pack("{s:s, s:s}", "path", path, "action", argv[optind + 1]);
		if (argc - optind == 3)
			json_object_set_new(params, "selector", json_string(argv[optind + 2]));
		if (occurrence > 0)
			json_object_set_new(params, "occurrence", json_integer(occurrence));
		if (why != NULL)
			json_object_set_new(params, "why", json_string(why));
		rc = ctl_call(ctl, argv[optind], "markers.add", params, &r);
		if (rc == CTL_OK) {
			if (ctl->json)
				ctl_print_json(r);
			else
				printf("marker %lld added; %s is split again\n", num(r, "id"),
				       path);
		}
		free(path);
	} else if (strcmp(sub, "rm") == 0 || strcmp(sub, "remove") == 0) {
		if (optind >= argc)
			return usage_error("%s", usage);
		for (; optind < argc && rc == CTL_OK; optind++) {
			long long id = strtoll(argv[optind], &end, 10);

			if (*end != '\0' || end == argv[optind])
				return usage_error(
					"marker rm: '%s' is not a marker id (see uapictl "
					"marker list)",
					argv[optind]);
			json_decref(r);
			rc = ctl_call(ctl, NULL, "markers.remove", json_pack("{s:I}", "id", id),
				      &r);
			if (rc == CTL_OK && !ctl->json)
				printf("marker %lld removed\n", id);
		}
		if (rc == CTL_OK && ctl->json)
			ctl_print_json(r);
	} else {
		return usage_error("marker: '%s' is not list, add or rm", sub);
	}
	json_decref(r);
	return rc;
}

int
ctl_resplit(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r;
	int opt, rc;

	while ((opt = next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j') {
			json_decref(params);
			return usage_error("%s: usage: uapictl resplit [PATH...]", "resplit");
		}
		ctl->json = true;
	}
	if (optind < argc) {
		json_t *paths = json_array();

		for (int i = optind; i < argc; i++) {
			char *abs = absolute_path(argv[i]);

			json_array_append_new(paths, json_string(abs));
			free(abs);
		}
		json_object_set_new(params, "paths", paths);
	}
	rc = ctl_call(ctl, optind < argc ? argv[optind] : NULL, "resplit", params, &r);
	if (rc != CTL_OK)
		return rc;
	if (ctl->json)
		ctl_print_json(r);
	else if (json_is_string(json_object_get(r, "queued")))
		printf("every header queued to be split again\n");
	else
		printf("%lld path%s queued to be split again\n", num(r, "queued"),
		       num(r, "queued") == 1 ? "" : "s");
	json_decref(r);
	return CTL_OK;
}

static volatile sig_atomic_t stop_watching;

static void
on_signal(int sig)
{
	(void)sig;
	stop_watching = 1;
}

int
ctl_watch(struct ctl *ctl, int argc, char **argv)
{
	struct ud_rpc_conn c;
	struct sigaction sa;
	char *sock, *cause = NULL;
	json_t *r, *note;
	int rc = no_args("watch", argc, argv, ctl);

	if (rc != CTL_OK)
		return rc;
	if ((sock = ctl_socket(ctl, NULL)) == NULL)
		return CTL_UNREACHABLE;
	if ((rc = ud_rpc_connect(&c, sock, ctl->timeout_ms, &cause)) < 0) {
		fprintf(stderr,
			"uapictl: %s\nhint: is uapid running? start it with `uapid watch "
			"TREE`\n",
			cause);
		free(cause);
		free(sock);
		return CTL_UNREACHABLE;
	}
	free(sock);
	rc = ud_rpc_call(&c, "subscribe", NULL, &r, &cause);
	if (rc != 0) {
		fprintf(stderr, "uapictl: subscribe: %s\n", rc < 0 ? cause : str(r, "message"));
		free(cause);
		json_decref(r);
		ud_rpc_disconnect(&c);
		return rc < 0 ? CTL_UNREACHABLE : CTL_DAEMON_ERROR;
	}
	if (!ctl->json)
		printf("watching from clock %lld (interrupt to stop)\n", num(r, "clock"));
	fflush(stdout);
	json_decref(r);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: poll returns, the loop ends */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop_watching) {
		json_t *params, *f;
		size_t i;

		rc = ud_rpc_next_notification(&c, 500, &note, &cause);
		if (rc == -ETIMEDOUT || rc == -EINTR)
			continue;
		if (rc < 0) {
			fprintf(stderr, "uapictl: %s\n", cause);
			free(cause);
			ud_rpc_disconnect(&c);
			return CTL_UNREACHABLE;
		}
		params = json_object_get(note, "params");
		if (ctl->json) {
			char *s = json_dumps(note, JSON_COMPACT | JSON_PRESERVE_ORDER);

			puts(s);
			free(s);
		} else {
			json_t *br = json_object_get(params, "branches");

			printf("%sclock %lld%s  %s:", ctl_sgr(ctl, BOLD), num(params, "clock"),
			       ctl_sgr(ctl, RESET), str(note, "method"));
			json_array_foreach(json_object_get(params, "files"), i, f)
			{
				printf(" %s",
				       json_is_string(f) ? json_string_value(f) : str(f, "path"));
			}
			if (json_is_object(br))
				print_branches(ctl, br, " ");
			putchar('\n');
		}
		fflush(stdout);
		json_decref(note);
	}
	ud_rpc_disconnect(&c);
	return CTL_OK;
}

int
ctl_sockname(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	char *sock;
	int opt;

	while ((opt = next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j')
			return usage_error("%s: usage: uapictl sockname [PATH]", "sockname");
		ctl->json = true;
	}
	if (argc - optind > 1)
		return usage_error("%s: usage: uapictl sockname [PATH]", "sockname");
	sock = ctl_socket(ctl, argc - optind == 1 ? argv[optind] : NULL);
	if (sock == NULL)
		return CTL_UNREACHABLE;
	if (ctl->json) {
		json_t *r = json_pack("{s:s}", "socket", sock), *st = NULL;

		/* the tree, from the daemon itself: editors root their client there */
		if (ctl_call(ctl, argc - optind == 1 ? argv[optind] : NULL, "status", NULL, &st) ==
		    CTL_OK)
			json_object_set(r, "tree", json_object_get(st, "tree"));
		json_decref(st);

		ctl_print_json(r);
		json_decref(r);
	} else {
		puts(sock);
	}
	free(sock);
	return CTL_OK;
}

int
ctl_raw(struct ctl *ctl, int argc, char **argv)
{
	json_t *params = NULL, *r;
	json_error_t jerr;
	int rc;

	if (strcmp(argv[0], "call") == 0) {
		argc--;
		argv++;
	}
	if (argc < 1 || argc > 2)
		return usage_error("%s: usage: uapictl call METHOD [PARAMS-JSON]", "call");
	if (argc == 2) {
		params = json_loads(argv[1], JSON_DECODE_ANY, &jerr);
		if (params == NULL || (!json_is_object(params) && !json_is_array(params))) {
			fprintf(stderr, "uapictl: PARAMS must be a JSON object or array: %s\n",
				params == NULL ? jerr.text : "got a scalar");
			json_decref(params);
			return CTL_USAGE;
		}
	}
	if ((rc = ctl_call(ctl, NULL, argv[0], params, &r)) != CTL_OK)
		return rc;
	ctl_print_json(r);
	json_decref(r);
	return CTL_OK;
}

int
ctl_api(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"since", required_argument, NULL, 's'},
						 {"rev", required_argument, NULL, 'r'},
						 {"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r, *c, *sum;
	char *end;
	size_t i;
	int opt, rc;

	for (i = 1; i < (size_t)argc; i++)
		if (strcmp(argv[i], "--log") == 0) {
			json_decref(params);
			return ctl_api_log(ctl, argc, argv); /* another question: ctl-apilog.c */
		}
	while ((opt = next_opt(argc, argv, "s:r:j", longopts)) != -1) {
		if (opt == 's') {
			long long since = strtoll(optarg, &end, 10);

			if (*end != '\0' || end == optarg || since < 0) {
				json_decref(params);
				return usage_error("api: --since '%s' is not a clock", optarg);
			}
			json_object_set_new(params, "since", json_integer(since));
		} else if (opt == 'r') {
			json_object_set_new(params, "rev", json_string(optarg));
		} else if (opt == 'j') {
			ctl->json = true;
		} else {
			json_decref(params);
			return usage_error("%s",
					   "api: usage: uapictl api [--since CLOCK | --rev REV]");
		}
	}
	if (optind < argc ||
	    (json_object_get(params, "since") != NULL && json_object_get(params, "rev") != NULL)) {
		json_decref(params);
		return usage_error("%s", "api: usage: uapictl api [--since CLOCK | --rev REV]");
	}
	if (json_object_get(params, "rev") == NULL && json_object_get(params, "since") == NULL)
		json_object_set_new(params, "since", json_integer(0));
	if ((rc = ctl_call(ctl, NULL, "api.changes", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	sum = json_object_get(r, "summary");
	printf("clock %lld: %lld header%s changed, %lld added, %lld removed: %s%lld breaking%s, "
	       "%lld review, %lld compatible\n",
	       num(r, "clock"), num(sum, "headers_changed"),
	       num(sum, "headers_changed") == 1 ? "" : "s", num(sum, "headers_added"),
	       num(sum, "headers_removed"), num(sum, "breaking") > 0 ? ctl_sgr(ctl, RED) : "",
	       num(sum, "breaking"), ctl_sgr(ctl, RESET), num(sum, "review"),
	       num(sum, "compatible"));
	json_array_foreach(json_object_get(r, "changes"), i, c)
	{
		const char *v = str(c, "verdict");
		const char *col = strcmp(v, "breaking") == 0 ? ctl_sgr(ctl, RED)
				  : strcmp(v, "review") == 0 ? ctl_sgr(ctl, YELLOW)
							     : "";

		bool named = json_is_string(json_object_get(c, "symbol"));
		const char *kind = named ? ud_api_kind_shown(str(c, "kind"), str(c, "symbol")) : "";

		printf("%s:%lld: %s%s%s: %s%s%s%s%s\n", str(c, "header"),
		       num(c, "new_line") ? num(c, "new_line") : num(c, "old_line"), col, v,
		       ctl_sgr(ctl, RESET), kind, kind[0] ? " " : "", str(c, "symbol"),
		       named ? ": " : "", str(c, "reason"));
	}
	json_decref(r);
	return CTL_OK;
}
