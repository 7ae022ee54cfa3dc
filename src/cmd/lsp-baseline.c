// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LSP bridge's baseline (ctl.h): what the buffer of a uapi header is
 * compared with for its API diagnostics.  A maintainer editing a uapi
 * header wants every break since a fixed point flagged until it is
 * reverted or accepted, not only what the buffer changes against the last
 * save: so the default is HEAD of the tree's repository, a tag or any
 * revision by configuration (`uapictl lsp --baseline REV`, the
 * initializationOptions or workspace/didChangeConfiguration's
 * {"baseline": REV}; "installed" for the last saved version), and an
 * accept file (accept.h) keeps decided breaks quiet.  Here: the settings,
 * the api.changes call that carries them, and the poll that notices a
 * baseline moving (lsp-int.h); lsp.c publishes what comes back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctl.h"
#include "lsp-int.h"
#include "uapid/proto/protocol.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/xmalloc.h"

void
lsp_baseline_init(struct lsp_baseline *b)
{
	b->rev = ud_xstrdup("HEAD");
	b->accept = NULL;
}

void
lsp_baseline_free(struct lsp_baseline *b)
{
	free(b->rev);
	free(b->accept);
	b->rev = b->accept = NULL;
}

bool
lsp_baseline_set_rev(struct lsp_baseline *b, const char *rev, char **why)
{
	if (rev[0] == '\0' || rev[0] == '-') {
		*why = ud_xasprintf("baseline '%s' is not a revision (HEAD, a tag, a commit; "
				    "\"installed\" for the last saved version)",
				    rev);
		return false;
	}
	free(b->rev);
	b->rev = strcmp(rev, "installed") == 0 ? NULL : ud_xstrdup(rev);
	return true;
}

void
lsp_baseline_set_accept(struct lsp_baseline *b, const char *file)
{
	free(b->accept);
	b->accept = file[0] != '\0' ? ud_xstrdup(file) : NULL;
}

bool
lsp_baseline_configure(struct lsp_baseline *b, json_t *settings, char **why)
{
	json_t *own = json_object_get(settings, "uapid"), *rev, *accept;

	if (json_is_object(own)) /* {"uapid": {...}}, as didChangeConfiguration sends settings */
		settings = own;
	if (!json_is_object(settings))
		return true; /* no settings of ours */
	rev = json_object_get(settings, "baseline");
	accept = json_object_get(settings, "accept");
	if ((rev != NULL && !json_is_string(rev)) || (accept != NULL && !json_is_string(accept))) {
		*why = ud_xstrdup("\"baseline\" and \"accept\" must be strings");
		return false;
	}
	if (rev != NULL && !lsp_baseline_set_rev(b, json_string_value(rev), why))
		return false;
	if (accept != NULL)
		lsp_baseline_set_accept(b, json_string_value(accept));
	return true;
}

char *
lsp_baseline_accept_path(const struct lsp_baseline *b, const char *tree)
{
	if (b->accept == NULL)
		return NULL;
	if (b->accept[0] == '/' || tree == NULL)
		return ud_xstrdup(b->accept);
	return ud_xasprintf("%s/%s", tree, b->accept);
}

/* The accept file's modification time for a tree's buffers, 0 when none is set or it is gone. */
static long long
accept_mtime(const struct lsp_baseline *b, const char *tree)
{
	char *path = lsp_baseline_accept_path(b, tree);
	struct stat st;
	long long ns = 0;

	if (path != NULL && stat(path, &st) == 0)
		ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	free(path);
	return ns;
}

int
lsp_baseline_accept_text(const struct lsp_baseline *b, const char *tree, struct ud_buf *text,
			 long long *mtime_ns, char **why)
{
	char *path = lsp_baseline_accept_path(b, tree);
	int rc;

	*mtime_ns = accept_mtime(b, tree);
	if (path == NULL)
		return 0;
	rc = ud_read_file(path, text, why);
	if (rc < 0) {
		free(path);
		return -1;
	}
	free(path);
	return 1;
}

bool
lsp_is_uapi_doc(const struct doc *d)
{
	return strstr(d->path, "/include/uapi/") != NULL;
}

/* Logs text unless it is what was logged last (a warning every refresh would flood the log). */
static void
log_once(struct lsp *s, int type, char *text)
{
	if (s->said == NULL || strcmp(s->said, text) != 0)
		lsp_log(type, "%s", text);
	free(s->said);
	s->said = text;
}

/*
 * What the buffer of a uapi header changes in the userspace API against
 * the baseline, with the accept file's decisions; NULL when the daemon
 * does not answer.  A baseline the daemon cannot read (the tree is no git
 * repository, no such revision) is said once, and the installed version
 * taken instead until the revision can be read (poll_baselines).
 */
json_t *
lsp_fetch_api(struct lsp *s, struct doc *d, const char *sock)
{
	json_t *params, *r = NULL, *commit;
	struct ud_buf acc = UD_BUF_INIT;
	bool with_rev = s->base.rev != NULL && !d->no_rev;
	char *why = NULL;
	int rc;

	params = json_pack("{s:s, s:s%}", "path", d->path, "text", ud_buf_str(&d->text),
			   d->text.len);
	rc = lsp_baseline_accept_text(&s->base, d->tree, &acc, &d->accept_mtime_ns, &why);
	if (rc > 0) {
		json_object_set_new(params, "accept", json_stringn(ud_buf_str(&acc), acc.len));
		json_object_set_new(params, "accept_name", json_string(s->base.accept));
	} else if (rc < 0) {
		log_once(s, 2, ud_xasprintf("uapid: %s: no change is taken as accepted", why));
	}
	free(why);
	ud_buf_free(&acc);
	if (with_rev)
		json_object_set_new(params, "rev", json_string(s->base.rev));
	rc = lsp_daemon_call(s, sock, "api.changes", json_deep_copy(params), &r);
	if (rc == 1 && json_object_get(params, "accept") != NULL &&
	    lsp_jnum(r, "code") == UD_RPC_INVALID_PARAMS) {
		/* refused: the accept file (a line without a reason) if it goes without it */
		char *refusal = ud_xstrdup(lsp_jstr(r, "message"));

		json_decref(r);
		json_object_del(params, "accept");
		json_object_del(params, "accept_name");
		rc = lsp_daemon_call(s, sock, "api.changes", json_deep_copy(params), &r);
		if (rc != 1 || lsp_jnum(r, "code") != UD_RPC_INVALID_PARAMS)
			log_once(
				s, 2,
				ud_xasprintf("uapid: %s: no change is taken as accepted", refusal));
		free(refusal);
	}
	if (rc == 1 && with_rev && lsp_jnum(r, "code") == UD_RPC_SERVER_ERROR) {
		log_once(s, 2,
			 ud_xasprintf("uapid: baseline %s cannot be read (%s): API changes are "
				      "shown against the installed header",
				      s->base.rev, lsp_jstr(r, "message")));
		d->no_rev = true;
		json_decref(r);
		json_object_del(params, "rev");
		rc = lsp_daemon_call(s, sock, "api.changes", json_incref(params), &r);
	}
	json_decref(params);
	if (rc != 0) {
		json_decref(r);
		return NULL;
	}
	commit = json_object_get(json_object_get(r, "baseline"), "commit");
	snprintf(d->commit, sizeof(d->commit), "%s",
		 json_is_string(commit) ? json_string_value(commit) : "");
	return r;
}

/*
 * The editor's settings of the baseline (lsp_baseline_configure); every
 * open uapi header is compared again with what they name now.
 */
void
lsp_configure(struct lsp *s, json_t *settings)
{
	char *why = NULL, *before = ud_xstrdup(s->base.rev ? s->base.rev : "");

	if (!lsp_baseline_configure(&s->base, settings, &why)) {
		lsp_notify("window/showMessage", json_pack("{s:i, s:s+}", "type", 1, "message",
							   "uapid: settings: ", why));
		free(why);
	}
	for (size_t i = 0; i < s->ndocs; i++) {
		struct doc *d = &s->docs[i];

		if (strcmp(before, s->base.rev ? s->base.rev : "") != 0)
			d->no_rev = false; /* another revision: worth a try */
		if (lsp_is_uapi_doc(d))
			d->due_ms = ud_now_ms();
	}
	free(before);
}

/*
 * Every BASELINE_POLL_MS while uapi headers are open: has the baseline's
 * revision moved (a commit, a checkout: HEAD names another commit), has
 * a baseline that could not be read become readable, or has the accept
 * file changed?  Those headers are compared again.  One api.baseline
 * call per daemon and round, not a diff per header.
 */
void
lsp_poll_baselines(struct lsp *s)
{
	json_t *answers = json_object(); /* socket -> commit (or null) this round */

	s->poll_ms = 0;
	for (size_t i = 0; i < s->ndocs; i++) {
		struct doc *d = &s->docs[i];
		json_t *r = NULL, *commit;
		bool due = false;

		if (!lsp_is_uapi_doc(d) || d->socket == NULL || !d->published)
			continue;
		if (s->base.rev != NULL) {
			commit = json_object_get(answers, d->socket);
			if (commit == NULL) {
				commit = json_null();
				if (lsp_daemon_call(s, d->socket, "api.baseline",
						    json_pack("{s:s}", "rev", s->base.rev),
						    &r) == 0)
					commit = json_incref(json_object_get(r, "commit"));
				json_decref(r);
				json_object_set_new(answers, d->socket, commit);
			}
			if (json_is_string(commit))
				due = d->no_rev ||
				      strcmp(d->commit, json_string_value(commit)) != 0;
			if (due)
				d->no_rev = false;
		}
		/* written, replaced or removed (0: none, or unreadable): a stat, not a read */
		if (accept_mtime(&s->base, d->tree) != d->accept_mtime_ns)
			due = true;
		if (due && d->due_ms == 0)
			d->due_ms = ud_now_ms();
	}
	json_decref(answers);
}

/* When the baselines are looked at next (-1: no uapi header is open, nothing to look at). */
long long
lsp_baseline_due(struct lsp *s, long long now)
{
	bool any = false;

	for (size_t i = 0; i < s->ndocs && !any; i++)
		any = lsp_is_uapi_doc(&s->docs[i]) && s->docs[i].published;
	if (!any || (s->base.rev == NULL && s->base.accept == NULL))
		return -1;
	if (s->poll_ms == 0)
		s->poll_ms = now + BASELINE_POLL_MS;
	return s->poll_ms;
}

/* uapictl lsp [--baseline REV|installed] [--accept FILE] */
int
lsp_options(struct lsp *s, int argc, char **argv)
{
	static const struct option longopts[] = {{"baseline", required_argument, NULL, 'b'},
						 {"accept", required_argument, NULL, 'a'},
						 {NULL, 0, NULL, 0}};
	char *why = NULL;
	int opt;

	while ((opt = ctl_next_opt(argc, argv, "", longopts)) != -1) {
		if (opt == 'b' && !lsp_baseline_set_rev(&s->base, optarg, &why)) {
			opt = ctl_usage_error("lsp: %s", why);
			free(why);
			return opt;
		} else if (opt == 'a') {
			lsp_baseline_set_accept(&s->base, optarg);
		} else if (opt != 'b') {
			return ctl_usage_error("%s", "lsp: usage: uapictl lsp [--baseline REV] "
						     "[--accept FILE] (it speaks LSP on "
						     "stdin/stdout)");
		}
	}
	if (optind < argc)
		return ctl_usage_error("lsp: '%s': lsp takes no arguments but its options (it "
				       "speaks LSP on stdin/stdout)",
				       argv[optind]);
	return CTL_OK;
}
