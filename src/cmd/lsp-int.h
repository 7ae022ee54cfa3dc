/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LSP bridge's state, shared by its files: lsp.c (the loop, framing,
 * documents, publishing, requests) and lsp-baseline.c (what a uapi
 * header's buffer is compared with).  Private to src/cmd.
 */
#ifndef UAPID_LSP_INT_H
#define UAPID_LSP_INT_H

#include <jansson.h>
#include <stdbool.h>

#include "ctl.h"
#include "uapid/client/rpcclient.h"
#include "uapid/util/buf.h"

/*
 * The LSP bridge's baseline (lsp-baseline.c): what a uapi header's buffer
 * is compared with.  rev: a git revision of the tree's repository (default
 * "HEAD"), NULL for the installed version (the last save); accept: an
 * accept file (accept.h), relative to the tree or absolute, or NULL.
 */
struct lsp_baseline {
	char *rev;
	char *accept;
};
void lsp_baseline_init(struct lsp_baseline *b);
void lsp_baseline_free(struct lsp_baseline *b);
/* REV, or "installed" (rev NULL); false with *why (malloc'd) for what is no revision. */
bool lsp_baseline_set_rev(struct lsp_baseline *b, const char *rev, char **why);
/* FILE, or "" for none. */
void lsp_baseline_set_accept(struct lsp_baseline *b, const char *file);
/*
 * From the editor's settings: {"baseline": REV, "accept": FILE}, or the
 * same under "uapid" (workspace/didChangeConfiguration); what is absent
 * stays.  False with *why for a setting of the wrong type.
 */
bool lsp_baseline_configure(struct lsp_baseline *b, json_t *settings, char **why);
/* The accept file's path for a tree's buffers (malloc'd), or NULL when none is set. */
char *lsp_baseline_accept_path(const struct lsp_baseline *b, const char *tree);
/*
 * The accept file's text for a tree's buffers: 1 with text (and its
 * modification time, to notice an edit), 0 when none is set, -1 with *why
 * when it cannot be read.
 */
int lsp_baseline_accept_text(const struct lsp_baseline *b, const char *tree, struct ud_buf *text,
			     long long *mtime_ns, char **why);

#define BASELINE_POLL_MS 2000 /* how often a baseline's commit (HEAD moving) is looked at */

struct doc {
	char *uri;
	char *path; /* absolute */
	struct ud_buf text;
	long long version;
	long long published_version; /* the last version published (when published) */
	long long due_ms;	     /* classify at this time (0: nothing pending) */
	char *socket;		     /* the tree's daemon, or NULL */
	char *tree;		     /* its tree (the accept file's directory), or NULL */
	char commit[41];	     /* the baseline's commit the last API diagnostics had, or "" */
	bool no_rev;		   /* the baseline cannot be read: the installed version instead */
	long long accept_mtime_ns; /* the accept file's, when last read */
	long long discovered_ms;   /* when the socket was last looked for */
	json_t *blocks;		   /* the last classify's blocks, or NULL */
	bool published;		   /* diagnostics were sent (so they must be cleared) */
	bool told_too_big;	   /* the editor was told the buffer is over the daemon's bound */
};

struct peer {
	char *socket;
	struct ud_rpc_conn conn;
	bool up;
	long long retry_ms; /* after a failure, no new attempt before this */
};

struct lsp {
	struct ud_buf in;
	struct doc *docs;
	size_t ndocs, adocs;
	struct peer *peers;
	size_t npeers, apeers;
	bool initialized, shutdown, inactive_regions;
	char *refused; /* why the last daemon call was not sent (over the bound), or NULL */
	char *said;    /* the last warning logged (log_once) */
	struct lsp_baseline base; /* what a uapi header's buffer is compared with */
	long long poll_ms;	  /* when the baselines are looked at next (0: not yet due) */
};

/* lsp.c */
/* A notification to the editor (params taken). */
void lsp_notify(const char *method, json_t *params);
/* The editor's log (window/logMessage): type 1 error, 2 warning, 3 info. */
void lsp_log(int type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Calls the daemon at socket: 0 with *result, 1 with the daemon's error
 * object, -1 when it is not reachable or the request is over its bound.
 */
int lsp_daemon_call(struct lsp *s, const char *socket, const char *method, json_t *params,
		    json_t **result);
/* A member of o as a string ("" when absent) and as a number (0). */
const char *lsp_jstr(json_t *o, const char *key);
long long lsp_jnum(json_t *o, const char *key);

/* lsp-baseline.c */
bool lsp_is_uapi_doc(const struct doc *d);
/* d's buffer against the baseline (api.changes), or NULL when the daemon does not answer. */
json_t *lsp_fetch_api(struct lsp *s, struct doc *d, const char *sock);
/* The editor's settings ({"baseline", "accept"}); the open uapi headers compared again. */
void lsp_configure(struct lsp *s, json_t *settings);
/* Has a baseline moved, or the accept file changed?  Those headers are made due. */
void lsp_poll_baselines(struct lsp *s);
/* When the baselines are looked at next, or -1 when nothing is to be looked at. */
long long lsp_baseline_due(struct lsp *s, long long now);
/* uapictl lsp's options: CTL_OK, or a usage error's exit code. */
int lsp_options(struct lsp *s, int argc, char **argv);

#endif /* UAPID_LSP_INT_H */
