/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uapictl's pieces: the commands (ctl-commands.c), the LSP bridge (lsp.c)
 * and what they share (uapictl.c).
 */
#ifndef UAPID_CTL_H
#define UAPID_CTL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "uapid/lex.h"

/* Exit codes, a contract for scripts. */
enum {
	CTL_OK = 0,
	CTL_DAEMON_ERROR = 1, /* the daemon answered with an error */
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
