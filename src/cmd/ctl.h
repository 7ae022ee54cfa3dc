/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uapictl's pieces: the command table and options (uapictl.c), one file a
 * command (ctl-*.c), the LSP bridge (lsp.c), and what they share
 * (ctl-client.c).
 */
#ifndef UAPID_CTL_H
#define UAPID_CTL_H

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/core/lex.h"

/* Exit codes, a contract for scripts. */
enum {
	CTL_OK = 0,
	CTL_DAEMON_ERROR = 1, /* the daemon answered with an error */
	/*
	 * The input needs attention, as uapid says it with the same status:
	 * a breaking change (api), an error diagnostic (classify), a header
	 * that needs coaching (preview).
	 */
	CTL_FINDINGS = 1,
	CTL_USAGE = 2,
	CTL_UNREACHABLE = 3, /* no daemon reachable (or it broke the protocol) */
};

struct ctl {
	const char *socket_opt; /* --socket */
	const char *tree_opt;	/* --tree */
	bool json;		/* --json: print results as they come */
	bool color;		/* stdout is a terminal that takes colour */
	int timeout_ms;
};

/* SGR colours, for ctl_sgr. */
#define SGR_RED "\033[31m"
#define SGR_GREEN "\033[32m"
#define SGR_YELLOW "\033[33m"
#define SGR_CYAN "\033[36m"
#define SGR_BOLD "\033[1m"
#define SGR_DIM "\033[2m"
#define SGR_RESET "\033[0m"

/* An SGR colour for human output ("" without colour). */
const char *ctl_sgr(const struct ctl *ctl, const char *code);
/*
 * The socket for a request about hint (a path in the tree; NULL: --tree or
 * the working directory): --socket, $UAPID_SOCKET, then discovery.  NULL
 * after printing why and how to start a daemon.
 */
char *ctl_socket(const struct ctl *ctl, const char *hint);
/*
 * Calls method on the daemon for hint's tree with params (stolen).  Returns
 * CTL_OK with *result, or an exit code after printing the error.
 */
int ctl_call(const struct ctl *ctl, const char *hint, const char *method, json_t *params,
	     json_t **result);
/* Prints v as indented JSON on stdout. */
void ctl_print_json(json_t *v);

/* A command's own options (--json is accepted after the command too): getopt_long's answer. */
int ctl_next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts);
/* Prints "uapictl: MESSAGE" and where the commands are listed; returns CTL_USAGE. */
int ctl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A command that takes no arguments and no option but --json: CTL_OK, or a usage error. */
int ctl_no_args(const char *cmd, int argc, char **argv, struct ctl *ctl);
/*
 * A FILE argument as the daemon takes it: absolute (the daemon makes it
 * tree-relative), with the directory's symlinks resolved so that it
 * matches the daemon's canonical root.
 */
char *ctl_absolute_path(const char *file);
/* Reads all of stdin (an editor's unsaved buffer): 0, or -1 after saying why. */
int ctl_read_stdin(struct ud_buf *b);
/* FILE [--stdin]: the params {path[,text]} for classify and preview (NULL after an error). */
json_t *ctl_path_params(const char *file, bool from_stdin);
/* The string (or "") and the integer (or 0) at key of an answer. */
const char *ctl_str(json_t *o, const char *key);
long long ctl_num(json_t *o, const char *key);
/* Does a diagnostics array of an answer hold an error? */
bool ctl_has_error(json_t *diags);
/* The colour a header's outcome is shown in. */
const char *ctl_outcome_color(const struct ctl *ctl, const char *outcome);
/* "path:line: severity: message" for each diagnostic, as compilers print them. */
void ctl_print_diags(const struct ctl *ctl, const char *path, json_t *diags);
/* The branch follower's state (uapid watch --branches), on one line after prefix. */
void ctl_print_branches(const struct ctl *ctl, json_t *b, const char *prefix);

/*
 * A command of the table in uapictl.c: its lines of `uapictl --help`
 * (usage and summary) beside what runs it, so the two cannot drift.
 */
struct ctl_command {
	const char *name;
	const char *help;
	/* uapictl COMMAND --help: its usage lines (each as uapictl(1) heads it), a paragraph, an
	 * example */
	const char *usage;
	const char *about;
	const char *example;
	int (*run)(struct ctl *ctl, int argc, char **argv);
};

/* The commands: argv[0] is the command's name.  Each returns an exit code. */
int ctl_status(struct ctl *ctl, int argc, char **argv);
int ctl_headers(struct ctl *ctl, int argc, char **argv);
int ctl_classify(struct ctl *ctl, int argc, char **argv);
int ctl_preview(struct ctl *ctl, int argc, char **argv);
int ctl_changes(struct ctl *ctl, int argc, char **argv);
int ctl_marker(struct ctl *ctl, int argc, char **argv);
int ctl_resplit(struct ctl *ctl, int argc, char **argv);
int ctl_watch(struct ctl *ctl, int argc, char **argv);
int ctl_sockname(struct ctl *ctl, int argc, char **argv);
int ctl_raw(struct ctl *ctl, int argc, char **argv);
int ctl_lsp(struct ctl *ctl, int argc, char **argv);
int ctl_api(struct ctl *ctl, int argc, char **argv);
/* api --log (ctl-apilog.c): what ctl_api hands over when it sees --log. */
int ctl_api_log(struct ctl *ctl, int argc, char **argv);

/*
 * For the LSP bridge's hover (lsp-apilog.c): the symbol at 0-based line and
 * character (UTF-16 units) of text ("NAME", "struct NAME"), or NULL; and
 * the line its api.log answer gives ("since v5.4 (commit 1234abcd); last
 * changed in v6.2"), or NULL when the history does not hold it.  Both
 * malloc'd.
 */
char *lsp_symbol_at(const char *text, size_t len, long long line, long long character);
char *lsp_history_text(json_t *answer);

/*
 * For the LSP bridge's regions (lsp-regions.c): what a person reads region
 * i of blocks (the classification of the text lexed into lx) as: "kernel
 * only", "userspace only", "retained", or "" for none (a kernel-only
 * region, dimmed; a directive the split rewrites, such as an #else or
 * #endif).  *directive: the region holds conditional directives only.
 */
const char *lsp_region_label(const struct ud_lexed *lx, json_t *blocks, size_t i, bool *directive);

#endif /* UAPID_CTL_H */
