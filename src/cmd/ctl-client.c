// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What uapictl's commands share (ctl.h): the daemon's socket and a call to
 * it, their arguments, and printing its answers.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "uapid/util/buf.h"
#include "uapid/io/discover.h"
#include "uapid/client/rpcclient.h"
#include "uapid/util/xmalloc.h"

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

/* Parses a command's own options: returns the option, -1 at the end, '?' on a bad one. */
int
ctl_next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	/* --json is accepted after the command too */
	return getopt_long(argc, argv, shortopts, longopts, NULL);
}

int
ctl_usage_error(const char *fmt, ...)
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
char *
ctl_absolute_path(const char *file)
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

const char *
ctl_outcome_color(const struct ctl *ctl, const char *outcome)
{
	if (strcmp(outcome, "split") == 0)
		return ctl_sgr(ctl, SGR_GREEN);
	if (strcmp(outcome, "moved") == 0)
		return ctl_sgr(ctl, SGR_CYAN);
	if (strcmp(outcome, "needs-coaching") == 0 || strcmp(outcome, "unreadable") == 0)
		return ctl_sgr(ctl, SGR_RED);
	return ctl_sgr(ctl, SGR_DIM);
}

const char *
ctl_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

long long
ctl_num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* "path:line: severity: message" for each diagnostic, as compilers print them. */
void
ctl_print_diags(const struct ctl *ctl, const char *path, json_t *diags)
{
	size_t i;
	json_t *d;

	json_array_foreach(diags, i, d)
	{
		const char *sev = ctl_str(d, "severity");
		const char *col = strcmp(sev, "error") == 0	? ctl_sgr(ctl, SGR_RED)
				  : strcmp(sev, "warning") == 0 ? ctl_sgr(ctl, SGR_YELLOW)
								: "";

		printf("%s:%lld: %s%s%s: %s\n",
		       json_is_string(json_object_get(d, "file")) ? ctl_str(d, "file") : path,
		       ctl_num(d, "line"), col, sev, ctl_sgr(ctl, SGR_RESET),
		       ctl_str(d, "message"));
	}
}

bool
ctl_has_error(json_t *diags)
{
	size_t i;
	json_t *d;

	json_array_foreach(diags, i, d)
	{
		if (strcmp(ctl_str(d, "severity"), "error") == 0)
			return true;
	}
	return false;
}

int
ctl_no_args(const char *cmd, int argc, char **argv, struct ctl *ctl)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	int opt;

	while ((opt = ctl_next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j')
			return ctl_usage_error("%s takes no options but --json", cmd);
		ctl->json = true;
	}
	if (optind < argc)
		return ctl_usage_error("%s takes no arguments", cmd);
	return CTL_OK;
}

/* The branch follower's state (uapid watch --branches), on one line after prefix. */
void
ctl_print_branches(const struct ctl *ctl, json_t *b, const char *prefix)
{
	json_t *last = json_object_get(b, "last_update"), *x;
	size_t i;

	printf("%sbranches:", prefix);
	if (json_is_string(json_object_get(b, "split")))
		printf(" %s %.12s", ctl_str(b, "split"), ctl_str(b, "split_commit"));
	if (json_is_string(json_object_get(b, "headers")))
		printf("%s %s %.12s", json_is_string(json_object_get(b, "split")) ? "," : "",
		       ctl_str(b, "headers"), ctl_str(b, "headers_commit"));
	if (json_is_object(last))
		printf(" (source %.12s, %lld headers commit%s added)", ctl_str(b, "source"),
		       ctl_num(last, "headers_added"),
		       ctl_num(last, "headers_added") == 1 ? "" : "s");
	json_array_foreach(json_object_get(b, "refused"), i, x)
	{
		printf("; %s%s%s", ctl_sgr(ctl, SGR_RED), json_string_value(x),
		       ctl_sgr(ctl, SGR_RESET));
	}
	if (json_is_string(json_object_get(b, "error")))
		printf("; %serror: %s%s", ctl_sgr(ctl, SGR_RED), ctl_str(b, "error"),
		       ctl_sgr(ctl, SGR_RESET));
	x = json_object_get(b, "api_log");
	if (json_is_object(x))
		printf("; api-log index: %lld step%s%s%s%s", ctl_num(x, "steps"),
		       ctl_num(x, "steps") == 1 ? "" : "s",
		       json_is_string(json_object_get(x, "error")) ? ctl_sgr(ctl, SGR_RED) : "",
		       json_is_string(json_object_get(x, "error")) ? ", error: " : "",
		       json_is_string(json_object_get(x, "error")) ? ctl_str(x, "error") : "");
	if (json_is_object(x) && json_is_string(json_object_get(x, "error")))
		printf("%s", ctl_sgr(ctl, SGR_RESET));
}

/* Reads all of stdin (an editor's unsaved buffer). */
int
ctl_read_stdin(struct ud_buf *b)
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
json_t *
ctl_path_params(const char *file, bool from_stdin)
{
	char *abs = ctl_absolute_path(file);
	json_t *params = json_pack("{s:s}", "path", abs);

	free(abs);
	if (from_stdin) {
		struct ud_buf b = UD_BUF_INIT;

		if (ctl_read_stdin(&b) < 0) {
			ud_buf_free(&b);
			json_decref(params);
			return NULL;
		}
		json_object_set_new(params, "text", json_stringn(ud_buf_str(&b), b.len));
		ud_buf_free(&b);
	}
	return params;
}
