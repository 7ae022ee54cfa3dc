// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon (daemon.h): one libuv loop holding the watcher, the
 * scheduler, the engine's batches, the socket, the signals and the
 * systemd watchdog.
 *
 * Start-up, in order: the tree and the state directory are checked and
 * the state directory locked (one daemon per state directory); the store
 * is opened; the socket is bound (or taken from systemd); the watches are
 * set, so that nothing changed during the first scan is missed; the first
 * scan runs, with a progress line on a terminal and STATUS= under
 * systemd; READY=1 follows it.  Every failure before the loop runs is a
 * one-line error and exit status 2.
 *
 * The socket answers JSON-RPC 2.0, one object per line (rpc.h; the methods
 * are here, doc/protocol.md describes them).  With --branches the
 * repository's uapi branches follow its commits (follow.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <jansson.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>
#include <uv.h>

#include "uapid/buf.h"
#include "uapid/daemon.h"
#include "uapid/apiquery.h"
#include "uapid/apilog.h"
#include "uapid/discover.h"
#include "uapid/follow.h"
#include "uapid/split.h"
#include "uapid/engine.h"
#include "uapid/fsutil.h"
#include "uapid/log.h"
#include "uapid/rpc.h"
#include "uapid/sched.h"
#include "uapid/tree.h"
#include "uapid/watch.h"
#include "uapid/xmalloc.h"

/*
 * Without enough watches, how often the tree is looked at
 * (UAPID_RESCAN_MS changes it, for tests and for big trees).
 */
#define PERIODIC_RESCAN_MS 10000

struct daemon {
	uv_loop_t loop;
	const struct ud_daemon_opts *o;
	char *root, *state_dir, *socket_path;
	int lock_fd;
	struct ud_engine *engine;
	struct ud_watch *watch;
	struct ud_sched *sched;
	struct ud_rpc *rpc;
	struct ud_follow *follow; /* --branches: the uapi branches kept current, or NULL */
	char *published; /* the discovery symlink made (publish_socket), removed at the end */
	uv_signal_t sigterm, sigint, sighup;
	uv_timer_t watchdog, rescan, status_timer;
	uint64_t last_status_ns; /* STATUS= goes out at most once a second */
	bool watchdog_on, rescan_on;
	bool systemd; /* NOTIFY_SOCKET is set */
	bool ready;   /* the first scan is recorded */
	bool stopping;
	int status;
	uint64_t scan_t0;
	uint64_t batches;
	uint64_t last_batch_ns, last_batch_at;
};

/* --- paths ---------------------------------------------------------------- */

char *
ud_daemon_tree_id(const char *root)
{
	return ud_tree_id(root);
}

static const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' ? v : NULL;
}

char *
ud_daemon_default_state_dir(const char *root)
{
	const char *s = env("STATE_DIRECTORY"), *x = env("XDG_STATE_HOME"), *home = env("HOME");
	char *id, *dir;

	if (s != NULL) /* systemd: the first of StateDirectory='s paths */
		return ud_xstrndup(s, strcspn(s, ":"));
	id = ud_daemon_tree_id(root);
	if (x != NULL)
		dir = ud_xasprintf("%s/uapid/%s", x, id);
	else
		dir = ud_xasprintf("%s/.local/state/uapid/%s", home != NULL ? home : "/tmp", id);
	free(id);
	return dir;
}

char *
ud_daemon_default_socket(const char *root)
{
	const char *r = env("RUNTIME_DIRECTORY");

	if (r != NULL)
		return ud_xasprintf("%.*s/uapid.sock", (int)strcspn(r, ":"), r);
	return ud_user_socket(root);
}

/* --- the state directory --------------------------------------------------- */

static int
lock_state_dir(struct daemon *d)
{
	char *path = ud_xasprintf("%s/lock", d->state_dir), *cause = NULL;
	char pid[32];
	int fd, n;

	if (ud_mkdir_p(d->state_dir, &cause) < 0) {
		ud_log(LOG_ERR, "state directory: %s", cause);
		free(cause);
		free(path);
		return -1;
	}
	if (access(d->state_dir, W_OK) < 0) {
		ud_log(LOG_ERR, "state directory %s: not writable: %s", d->state_dir,
		       strerror(errno));
		free(path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ud_log(LOG_ERR, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char other[32] = "";
		ssize_t r = read(fd, other, sizeof(other) - 1);

		other[r > 0 ? r : 0] = '\0';
		other[strcspn(other, "\n")] = '\0';
		ud_log(LOG_ERR, "%s: another uapid watch uses this state directory%s%s%s",
		       d->state_dir, other[0] ? " (pid " : "", other, other[0] ? ")" : "");
		close(fd);
		free(path);
		return -1;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)n) != n)
		ud_log(LOG_WARNING, "%s: cannot record the pid: %s", path, strerror(errno));
	d->lock_fd = fd;
	free(path);
	return 0;
}

/* --- systemd ---------------------------------------------------------------- */

static void notify_status(struct daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
notify_status(struct daemon *d, const char *fmt, ...)
{
	struct ud_buf b = UD_BUF_INIT;
	va_list ap;

	if (!d->systemd)
		return;
	ud_buf_addstr(&b, "STATUS=");
	va_start(ap, fmt);
	ud_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	sd_notify(0, ud_buf_str(&b));
	ud_buf_free(&b);
}

static void status_line(struct daemon *d, struct ud_buf *out);

static void
send_status(struct daemon *d)
{
	struct ud_buf line = UD_BUF_INIT;

	status_line(d, &line);
	notify_status(d, "%s", ud_buf_str(&line));
	ud_buf_free(&line);
	d->last_status_ns = uv_hrtime();
}

static void
on_status_timer(uv_timer_t *t)
{
	send_status(t->data);
}

/*
 * The service's STATUS= after a batch, at most once a second (a burst
 * takes many batches; sd_notify blocks when the manager reads slowly).
 */
static void
update_status(struct daemon *d)
{
	uint64_t since = uv_hrtime() - d->last_status_ns;

	if (!d->systemd || d->stopping)
		return;
	if (since >= 1000000000ULL)
		send_status(d);
	else if (!uv_is_active((uv_handle_t *)&d->status_timer))
		uv_timer_start(&d->status_timer, on_status_timer,
			       (1000000000ULL - since) / 1000000 + 1, 0);
}

static void
on_watchdog(uv_timer_t *t)
{
	(void)t;
	sd_notify(0, "WATCHDOG=1");
}

static void
status_line(struct daemon *d, struct ud_buf *out)
{
	struct ud_engine_counts c;

	ud_engine_counts(d->engine, &c);
	ud_buf_addf(out,
		    "%zu headers (%zu exported: %zu split, %zu moved, %zu need coaching), %zu "
		    "installed",
		    c.headers, c.exported, c.split, c.moved, c.needs_coaching,
		    c.installed - c.install_failed);
	if (c.install_failed > 0)
		ud_buf_addf(out, " (%zu failed)", c.install_failed);
	if (ud_watch_degraded(d->watch))
		ud_buf_addstr(out, "; rescanning periodically (watch limit)");
}

/* --- the socket's methods (doc/protocol.md) ------------------------------------------- */

static int
add_problem(const char *what, const char *reason, void *ctx)
{
	json_array_append_new(ctx, json_pack("{s:s, s:s}", "what", what, "reason", reason));
	return 0;
}

static json_t *
m_status(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	struct ud_engine_counts n;
	json_t *problems = json_array(), *r;
	struct ud_buf line = UD_BUF_INIT;

	(void)c, (void)params, (void)code, (void)message;
	ud_engine_counts(d->engine, &n);
	ud_store_each_problem(ud_engine_store(d->engine), add_problem, problems, NULL);
	status_line(d, &line);
	r = json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:b, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
		      "s:I, s:I, s:I}, s:{s:I, s:f, s:I}, s:{s:I, s:b, s:b}, s:{s:I, s:I}, s:o, "
		      "s:s}",
		      "tree", d->root, "state_dir", d->state_dir, "socket", d->socket_path, "arch",
		      d->o->arch, "clock", (json_int_t)ud_store_clock(ud_engine_store(d->engine)),
		      "ready", d->ready, "busy",
		      !d->ready || ud_engine_busy(d->engine) || ud_sched_busy(d->sched), "counts",
		      "headers", (json_int_t)n.headers, "exported", (json_int_t)n.exported, "split",
		      (json_int_t)n.split, "moved", (json_int_t)n.moved, "needs_coaching",
		      (json_int_t)n.needs_coaching, "skipped", (json_int_t)n.skipped, "unreadable",
		      (json_int_t)n.unreadable, "installed", (json_int_t)n.installed,
		      "install_failed", (json_int_t)n.install_failed, "outputs",
		      (json_int_t)n.outputs, "last_batch", "count", (json_int_t)d->batches, "ms",
		      (double)d->last_batch_ns / 1e6, "at", (json_int_t)d->last_batch_at, "watch",
		      "directories", (json_int_t)ud_watch_count(d->watch), "degraded",
		      ud_watch_degraded(d->watch), "waiting_for_git",
		      ud_sched_waiting_for_git(d->sched), "clients", "connected",
		      (json_int_t)ud_rpc_clients(d->rpc), "subscribed",
		      (json_int_t)ud_rpc_subscribers(d->rpc), "problems", problems, "summary",
		      ud_buf_str(&line));
	ud_buf_free(&line);
	json_object_set_new(r, "branches",
			    d->follow != NULL ? ud_follow_status(d->follow) : json_null());
	return r;
}

/* An optional string parameter; false (with the error set) when it is there and not a string. */
static bool
opt_string(json_t *params, const char *field, const char **out, int *code, char **message)
{
	json_t *v = json_object_get(params, field);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return true;
	if (!json_is_string(v)) {
		ud_rpc_bad_param(code, message, field, "must be a string");
		return false;
	}
	*out = json_string_value(v);
	return true;
}

/*
 * The "path" parameter as a tree-relative header path: relative to the
 * tree, or absolute inside it; "." and ".." and escapes refused.
 */
static char *
param_path(struct daemon *d, json_t *params, int *code, char **message)
{
	const char *p;
	size_t rl = strlen(d->root);

	if (!opt_string(params, "path", &p, code, message))
		return NULL;
	if (p == NULL) {
		ud_rpc_bad_param(code, message, "path", "is required");
		return NULL;
	}
	if (p[0] == '/') {
		if (strncmp(p, d->root, rl) != 0 || p[rl] != '/') {
			ud_rpc_bad_param(code, message, "path", "is not inside the watched tree");
			return NULL;
		}
		p += rl + 1;
	}
	if (p[0] == '\0' || strstr(p, "..") != NULL || strstr(p, "//") != NULL ||
	    strncmp(p, "./", 2) == 0) {
		ud_rpc_bad_param(code, message, "path", "must be a plain path inside the tree");
		return NULL;
	}
	return ud_xstrdup(p);
}

struct headers_walk {
	json_t *list;
	const char *outcome;
	json_t *exported; /* filter, or NULL */
};

static int
add_header(const struct ud_engine_header *h, void *ctx)
{
	struct headers_walk *w = ctx;

	if (w->outcome != NULL && strcmp(w->outcome, h->outcome) != 0)
		return 0;
	if (w->exported != NULL && json_is_true(w->exported) != h->exported)
		return 0;
	json_array_append_new(w->list,
			      json_pack("{s:s, s:b, s:s, s:s}", "path", h->path, "exported",
					h->exported, "outcome", h->outcome, "blob", h->blob));
	return 0;
}

static json_t *
m_headers(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	struct headers_walk w;
	const char *prefix;

	(void)c;
	memset(&w, 0, sizeof(w));
	if (!opt_string(params, "prefix", &prefix, code, message) ||
	    !opt_string(params, "outcome", &w.outcome, code, message))
		return NULL;
	if (w.outcome != NULL) {
		bool known = strcmp(w.outcome, "unreadable") == 0 ||
			     strcmp(w.outcome, "unexported") == 0 || strcmp(w.outcome, "uapi") == 0;

		for (int o = 0; o < UD_SPLIT__COUNT; o++)
			known |= strcmp(w.outcome,
					ud_split_outcome_name((enum ud_split_outcome)o)) == 0;
		if (!known)
			return ud_rpc_bad_param(code, message, "outcome",
						"must be split, moved, needs-coaching, skipped, "
						"unreadable, unexported or uapi");
	}
	w.exported = json_object_get(params, "exported");
	if (w.exported != NULL && !json_is_boolean(w.exported))
		return ud_rpc_bad_param(code, message, "exported", "must be true or false");
	w.list = json_array();
	ud_engine_each_header(d->engine, prefix, add_header, &w);
	return json_pack("{s:I, s:o}", "clock",
			 (json_int_t)ud_store_clock(ud_engine_store(d->engine)), "headers", w.list);
}

/* classify and preview: {"path"} or {"path", "text"}. */
static json_t *
path_text_method(struct daemon *d, json_t *params, int *code, char **message, bool preview)
{
	char *path = param_path(d, params, code, message), *cause = NULL;
	json_t *text, *r;

	if (path == NULL)
		return NULL;
	text = json_object_get(params, "text");
	if (text != NULL && !json_is_string(text)) {
		free(path);
		return ud_rpc_bad_param(code, message, "text", "must be a string");
	}
	r = preview ? ud_engine_preview(d->engine, path, text ? json_string_value(text) : NULL,
					text ? json_string_length(text) : 0, &cause)
		    : ud_engine_classify(d->engine, path, text ? json_string_value(text) : NULL,
					 text ? json_string_length(text) : 0, &cause);
	if (r == NULL) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause;
	}
	free(path);
	return r;
}

static json_t *
m_classify(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)c;
	return path_text_method(ctx, params, code, message, false);
}

static json_t *
m_preview(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)c;
	return path_text_method(ctx, params, code, message, true);
}

struct changes_walk {
	json_t *by_path; /* path -> {"path", "kinds", "clock"} */
	json_t *order;
};

static int
add_change(int64_t clock, const char *path, const char *kind, const char *detail, void *ctx)
{
	struct changes_walk *w = ctx;
	json_t *f = json_object_get(w->by_path, path), *kinds;
	size_t i;

	(void)detail;
	if (f == NULL) {
		f = json_pack("{s:s, s:[], s:I}", "path", path, "kinds", "clock",
			      (json_int_t)clock);
		json_object_set_new(w->by_path, path, f);
		json_array_append_new(w->order, json_string(path));
	}
	json_object_set_new(f, "clock", json_integer(clock));
	kinds = json_object_get(f, "kinds");
	for (i = 0; i < json_array_size(kinds); i++)
		if (strcmp(json_string_value(json_array_get(kinds, i)), kind) == 0)
			return 0;
	json_array_append_new(kinds, json_string(kind));
	return 0;
}

static int
add_every_header(const struct ud_engine_header *h, void *ctx)
{
	json_array_append_new(ctx, json_pack("{s:s, s:[s]}", "path", h->path, "kinds", "exists"));
	return 0;
}

static json_t *
m_changes(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	struct ud_store *st = ud_engine_store(d->engine);
	json_t *since = json_object_get(params, "since"), *files;
	int64_t now = ud_store_clock(st), first = ud_store_first_clock(st), from;
	struct changes_walk w;
	size_t i;

	(void)c;
	if (since != NULL && !json_is_integer(since))
		return ud_rpc_bad_param(code, message, "since", "must be an integer clock");
	from = since != NULL ? json_integer_value(since) : 0;
	if (since == NULL || from < first - 1 || from > now || from < 0) {
		/* before this history (or from another one): everything, as watchman does */
		files = json_array();
		ud_engine_each_header(d->engine, NULL, add_every_header, files);
		return json_pack("{s:I, s:b, s:o}", "clock", (json_int_t)now, "fresh_instance", 1,
				 "files", files);
	}
	w.by_path = json_object();
	w.order = json_array();
	ud_store_each_event(st, from, add_change, &w, NULL);
	files = json_array();
	for (i = 0; i < json_array_size(w.order); i++)
		json_array_append(
			files,
			json_object_get(w.by_path, json_string_value(json_array_get(w.order, i))));
	json_decref(w.by_path);
	json_decref(w.order);
	return json_pack("{s:I, s:b, s:o}", "clock", (json_int_t)now, "fresh_instance", 0, "files",
			 files);
}

/* Every marker in the store, with its origin: "file" (--markers), "source" (in-source
 * comments) or "socket" (markers.add). */
static json_t *
markers_json(struct daemon *d)
{
	static const char *const origins[] = {"file", "source", "socket"};
	json_t *list = json_array();
	size_t i, o;

	for (o = 0; o < sizeof(origins) / sizeof(origins[0]); o++) {
		struct ud_markers set = UD_MARKERS_INIT;
		int64_t *ids = NULL;

		ud_store_markers(ud_engine_store(d->engine), origins[o], &set, &ids, NULL);
		for (i = 0; i < set.n; i++) {
			json_t *m = json_pack("{s:I, s:s, s:s, s:s, s:s?, s:i, s:s?}", "id",
					      (json_int_t)ids[i], "origin", origins[o], "path",
					      set.v[i].path, "action",
					      ud_marker_action_name(set.v[i].action), "selector",
					      set.v[i].selector, "occurrence",
					      (int)set.v[i].occurrence, "why", set.v[i].why);

			/* a line in the markers file, or in the header for in-source ones */
			if (strcmp(origins[o], "socket") != 0 && set.v[i].line > 0)
				json_object_set_new(m, "line", json_integer(set.v[i].line));
			json_array_append_new(list, m);
		}
		free(ids);
		ud_markers_free(&set);
	}
	return list;
}

static json_t *
m_markers_list(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;

	(void)c, (void)params, (void)code, (void)message;
	return json_pack("{s:o}", "markers", markers_json(ctx));
	(void)d;
}

/* The markers in the store changed: the engine takes them in; path (NULL: all) is re-split. */
static void
markers_changed(struct daemon *d, const char *path)
{
	char *cause = NULL;

	if (ud_engine_reload_store_markers(d->engine, &cause) < 0) {
		ud_log(LOG_ERR, "markers: %s", cause);
		free(cause);
	}
	if (d->follow != NULL)
		ud_follow_set_markers(d->follow, ud_engine_markers(d->engine));
	if (path != NULL)
		ud_sched_note(d->sched, path, UD_SCHED_FORCE);
	else
		ud_sched_full(d->sched);
}

static json_t *
m_markers_add(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	const char *action, *selector, *why;
	char *path = param_path(d, params, code, message), *cause = NULL, *line;
	struct ud_markers parsed = UD_MARKERS_INIT;
	struct ud_diags diags = UD_DIAGS_INIT;
	json_t *occ;
	int64_t id;

	(void)c;
	if (path == NULL)
		return NULL;
	if (!opt_string(params, "action", &action, code, message) ||
	    !opt_string(params, "selector", &selector, code, message) ||
	    !opt_string(params, "why", &why, code, message)) {
		free(path);
		return NULL;
	}
	occ = json_object_get(params, "occurrence");
	if (action == NULL ||
	    (occ != NULL && (!json_is_integer(occ) || json_integer_value(occ) < 1))) {
		free(path);
		return ud_rpc_bad_param(code, message, action == NULL ? "action" : "occurrence",
					action == NULL ? "is required"
						       : "must be an integer of 1 or more");
	}
	/* the markers file's syntax decides what is valid: one parser for both */
	line = ud_xasprintf("%s %s%s%s%s%s", path, action, selector ? " '" : "",
			    selector ? selector : "", selector ? "'" : "", "");
	if (occ != NULL && selector != NULL) {
		char *l2 = ud_xasprintf("%s#%lld", line, (long long)json_integer_value(occ));

		free(line);
		line = l2;
	}
	if (ud_markers_parse(&parsed, line, strlen(line), &diags) < 0 || parsed.n != 1) {
		*code = UD_RPC_INVALID_PARAMS;
		*message = ud_xasprintf("invalid params: %s",
					diags.n > 0 ? diags.v[0].message : "not a marker");
		free(line);
		free(path);
		ud_diags_free(&diags);
		ud_markers_free(&parsed);
		return NULL;
	}
	free(line);
	if (why != NULL)
		parsed.v[0].why = ud_xstrdup(why);
	if (ud_store_add_marker(ud_engine_store(d->engine), "socket", &parsed.v[0], &id, &cause) <
	    0) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause;
		free(path);
		ud_markers_free(&parsed);
		return NULL;
	}
	ud_log(LOG_INFO, "marker %lld added over the socket: %s %s", (long long)id, path, action);
	markers_changed(d, path);
	free(path);
	ud_markers_free(&parsed);
	ud_diags_free(&diags);
	return json_pack("{s:I, s:o}", "id", (json_int_t)id, "markers", markers_json(d));
}

/* Was marker id added over the socket?  *origin says where it came from otherwise. */
static bool
socket_marker(struct daemon *d, int64_t id, const char **origin)
{
	static const char *const origins[] = {"socket", "file", "source"};
	size_t i, o;

	*origin = NULL;
	for (o = 0; o < sizeof(origins) / sizeof(origins[0]) && *origin == NULL; o++) {
		struct ud_markers set = UD_MARKERS_INIT;
		int64_t *ids = NULL;

		ud_store_markers(ud_engine_store(d->engine), origins[o], &set, &ids, NULL);
		for (i = 0; i < set.n; i++)
			if (ids[i] == id)
				*origin = origins[o];
		free(ids);
		ud_markers_free(&set);
	}
	return *origin != NULL && strcmp(*origin, "socket") == 0;
}

static json_t *
m_markers_remove(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	json_t *id = json_object_get(params, "id");
	const char *origin = NULL;
	char *cause = NULL;
	int rc;

	(void)c;
	if (!json_is_integer(id))
		return ud_rpc_bad_param(code, message, "id", "must be the integer id of a marker");
	/* only what the socket added: the file's and the headers' own come back with them */
	if (!socket_marker(d, json_integer_value(id), &origin)) {
		*code = UD_RPC_INVALID_PARAMS;
		*message =
			origin != NULL
				? ud_xasprintf(
					  "invalid params: \"id\" %lld is a marker from the %s: "
					  "change it there",
					  (long long)json_integer_value(id),
					  strcmp(origin, "file") == 0 ? "markers file (--markers)"
								      : "header's own comments")
				: ud_xasprintf("invalid params: \"id\" %lld names no marker",
					       (long long)json_integer_value(id));
		return NULL;
	}
	rc = ud_store_del_marker(ud_engine_store(d->engine), json_integer_value(id), &cause);
	if (rc == -ENOENT) {
		*code = UD_RPC_INVALID_PARAMS;
		*message = ud_xasprintf("invalid params: \"id\" %lld names no marker",
					(long long)json_integer_value(id));
		return NULL;
	}
	if (rc < 0) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause != NULL ? cause : ud_xstrdup("the store could not remove it");
		return NULL;
	}
	ud_log(LOG_INFO, "marker %lld removed over the socket", (long long)json_integer_value(id));
	markers_changed(d, NULL);
	return json_pack("{s:o}", "markers", markers_json(d));
}

static json_t *
m_resplit(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	json_t *paths = json_object_get(params, "paths");
	char **list;
	size_t i;

	(void)c;
	if (paths == NULL) {
		ud_sched_force_all(d->sched);
		return json_pack("{s:s}", "queued", "all");
	}
	if (!json_is_array(paths))
		return ud_rpc_bad_param(code, message, "paths", "must be an array of paths");
	/* every path is checked before any is queued: a refused request does nothing */
	list = ud_xcalloc(json_array_size(paths) + 1, sizeof(*list));
	for (i = 0; i < json_array_size(paths); i++) {
		json_t *one = json_pack("{s:O}", "path", json_array_get(paths, i));

		list[i] = param_path(d, one, code, message);
		json_decref(one);
		if (list[i] == NULL) {
			free(*message);
			*message =
				ud_xasprintf("invalid params: \"paths\"[%zu] must be a plain path "
					     "inside the tree",
					     i);
			while (i-- > 0)
				free(list[i]);
			free(list);
			return NULL;
		}
	}
	for (i = 0; i < json_array_size(paths); i++) {
		ud_sched_note(d->sched, list[i], UD_SCHED_FORCE | UD_WATCH_CHANGED);
		free(list[i]);
	}
	free(list);
	return json_pack("{s:I}", "queued", (json_int_t)json_array_size(paths));
}

/*
 * api.changes: the symbol-level userspace API changes {"since": CLOCK} (from
 * the versions the store keeps), {"rev": REV} (that git revision against
 * the headers installed now), or {"path", "text"} (an editor's buffer of a
 * uapi header against its installed version, in the buffer's lines).
 */
static json_t *
m_api_changes(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	struct ud_store *st = ud_engine_store(d->engine);
	json_t *since = json_object_get(params, "since"), *text = json_object_get(params, "text");
	int64_t now = ud_store_clock(st), first = ud_store_first_clock(st), from;
	const char *rev;
	char *cause = NULL, *path, *inst;
	json_t *r;

	(void)c;
	if (!opt_string(params, "rev", &rev, code, message))
		return NULL;
	if (text != NULL) {
		if (!json_is_string(text))
			return ud_rpc_bad_param(code, message, "text", "must be a string");
		if ((path = param_path(d, params, code, message)) == NULL)
			return NULL;
		r = ud_engine_api_text(d->engine, path, json_string_value(text),
				       json_string_length(text), &cause);
		free(path);
	} else if (rev != NULL) {
		if (since != NULL)
			return ud_rpc_bad_param(code, message, "since", "and \"rev\": give one");
		inst = ud_xasprintf("%s/install", d->state_dir);
		r = ud_apiquery_rev(d->root, d->o->arch, inst, rev, &cause);
		free(inst);
	} else {
		if (since == NULL || !json_is_integer(since))
			return ud_rpc_bad_param(code, message, "since",
						"must be an integer clock (or give \"rev\")");
		from = json_integer_value(since);
		r = ud_apiquery_since(st, from, from < first - 1 || from > now || from < 0);
	}
	if (r == NULL) {
		*code = text != NULL ? UD_RPC_INVALID_PARAMS : UD_RPC_SERVER_ERROR;
		*message = cause;
		return NULL;
	}
	json_object_set_new(r, "clock", json_integer(now));
	return r;
}

/*
 * api.log: the history of userspace API symbols along the headers branch
 * (apilog.h reads its parameters), from the api-log index the branch
 * follower keeps (--branches): as `uapid api-log --json` prints it.
 */
static json_t *
m_api_log(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	struct ud_apilog_query q;
	json_t *symbols, *r;

	(void)c;
	if (ud_apilog_params(params, &q, &symbols, message) < 0) {
		*code = UD_RPC_INVALID_PARAMS;
		return NULL;
	}
	if (d->follow == NULL) {
		json_decref(symbols);
		*code = UD_RPC_SERVER_ERROR;
		*message = ud_xstrdup("api.log reads the headers branch: start the daemon with "
				      "--branches");
		return NULL;
	}
	r = ud_follow_api_log(d->follow, &q, symbols, message);
	json_decref(symbols);
	if (r == NULL)
		*code = UD_RPC_SERVER_ERROR;
	return r;
}

static json_t *
m_subscribe(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;

	(void)params, (void)code, (void)message;
	ud_rpc_subscribe(c, true);
	return json_pack("{s:I}", "clock", (json_int_t)ud_store_clock(ud_engine_store(d->engine)));
}

static json_t *
m_unsubscribe(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)ctx, (void)params, (void)code, (void)message;
	ud_rpc_subscribe(c, false);
	return json_pack("{}");
}

static const struct ud_rpc_method methods[] = {
	{"status", m_status},		{"headers", m_headers},
	{"classify", m_classify},	{"preview", m_preview},
	{"changes", m_changes},		{"markers.list", m_markers_list},
	{"markers.add", m_markers_add}, {"markers.remove", m_markers_remove},
	{"resplit", m_resplit},		{"api.changes", m_api_changes},
	{"api.log", m_api_log},		{"subscribe", m_subscribe},
	{"unsubscribe", m_unsubscribe},
};

/*
 * Discovery: uapictl and editors look for a tree's daemon at
 * $XDG_RUNTIME_DIR/uapid/<tree id>.sock (or /tmp/uapid-<uid>/...), which is
 * where it listens by default; when it listens elsewhere (--socket,
 * systemd) a symlink there points at the socket.  Removed at the end.
 */
static void
publish_socket(struct daemon *d)
{
	char *std, *dir, *cause = NULL;

	/* under systemd the instance's own paths are the rule (discover.h) */
	std = getenv("RUNTIME_DIRECTORY") == NULL ? ud_user_socket(d->root) : NULL;
	if (std == NULL || strcmp(std, d->socket_path) == 0) {
		free(std);
		return;
	}
	dir = ud_xstrndup(std, (size_t)(strrchr(std, '/') - std));
	if (ud_private_dir(dir, &cause) == 0) {
		char target[PATH_MAX];
		ssize_t n = readlink(std, target, sizeof(target) - 1);

		if (n > 0)
			target[n] = '\0';
		/* another daemon of this tree answers there: its socket stays, ours is not found */
		if ((n <= 0 || strcmp(target, d->socket_path) != 0) && ud_socket_answers(std)) {
			ud_log(LOG_WARNING,
			       "not published for discovery: %s answers for this tree already",
			       std);
		} else {
			unlink(std);
			if (symlink(d->socket_path, std) == 0)
				d->published = std, std = NULL;
		}
	} else {
		ud_log(LOG_WARNING, "not published for discovery: %s", cause);
	}
	free(cause);
	free(dir);
	free(std);
}

static int
open_socket(struct daemon *d)
{
	struct ud_rpc_opts ro;
	char *cause = NULL;
	int n = sd_listen_fds(1);

	memset(&ro, 0, sizeof(ro));
	ro.path = d->socket_path;
	ro.activated_fd = -1;
	ro.group = d->o->socket_group;
	if (n > 0) {
		if (n != 1 ||
		    sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1, NULL, 0) <= 0) {
			ud_log(LOG_ERR,
			       "socket activation: expected one listening Unix stream socket, "
			       "got %d file descriptors",
			       n);
			return -1;
		}
		ro.activated_fd = SD_LISTEN_FDS_START;
	}
	if (ud_rpc_open(&d->rpc, &d->loop, &ro, methods, sizeof(methods) / sizeof(methods[0]), d,
			&cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	if (n > 0) {
		free(d->socket_path);
		d->socket_path = ud_xstrdup(ud_rpc_path(d->rpc));
		ud_log(LOG_INFO, "socket from systemd (%s)", d->socket_path);
	}
	publish_socket(d);
	return 0;
}

/* --- watching and batches --------------------------------------------------------- */

/* " (now N)", or "" where /proc/sys cannot be read (ProcSubset=pid under the unit). */
static const char *
watch_limit_now(void)
{
	static char v[48];
	char n[32];
	FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "r");

	v[0] = '\0';
	if (f != NULL && fgets(n, sizeof(n), f) != NULL) {
		n[strcspn(n, "\n")] = '\0';
		snprintf(v, sizeof(v), " (now %s)", n);
	}
	if (f != NULL)
		fclose(f);
	return v;
}

static uint64_t
rescan_ms(void)
{
	const char *v = getenv("UAPID_RESCAN_MS");
	long ms = v != NULL ? strtol(v, NULL, 10) : 0;

	return ms > 0 ? (uint64_t)ms : PERIODIC_RESCAN_MS;
}

static void
on_watch_event(void *ctx, const char *rel, unsigned kinds)
{
	struct daemon *d = ctx;

	if (strcmp(rel, ".git") == 0 || strncmp(rel, ".git/", 5) == 0)
		return; /* git's own files: its index lock is looked at before each batch */
	if (kinds & UD_WATCH_LIMIT) {
		ud_log(LOG_WARNING,
		       "the inotify watch limit is reached (%s is not watched): raise it with "
		       "'sysctl fs.inotify.max_user_watches=N'%s; until then the tree is "
		       "looked at every %.1f s",
		       rel[0] ? rel : ".", watch_limit_now(), (double)rescan_ms() / 1000);
		return; /* the periodic rescans start after the batch in progress */
	}
	if (kinds & UD_WATCH_RESCAN) {
		if (rel[0] == '\0') {
			ud_log(LOG_NOTICE,
			       "inotify events were lost (queue overflow): looking at the "
			       "whole tree again");
			ud_sched_full(d->sched);
		} else {
			ud_log(LOG_NOTICE, "%s: its watch was lost: looking at it again", rel);
			ud_sched_note(d->sched, rel, kinds);
		}
		return;
	}
	ud_sched_note(d->sched, rel, kinds);
}

static enum ud_watch_mode
watch_filter(void *ctx, const char *rel)
{
	struct daemon *d = ctx;

	return (enum ud_watch_mode)ud_engine_dir_interest(d->engine, rel);
}

static void
on_rescan(uv_timer_t *t)
{
	struct daemon *d = t->data;

	ud_sched_full(d->sched);
}

static void shutdown_daemon(struct daemon *d);

/* Watches the directories the install plan read from, as they become known. */
static void
watch_plan_dirs(struct daemon *d)
{
	const struct ud_strlist *dirs = ud_engine_plan_dirs(d->engine);
	size_t i;

	for (i = 0; i < dirs->n; i++)
		if (!ud_watch_has(d->watch, dirs->v[i]))
			(void)ud_watch_add(d->watch, dirs->v[i], NULL);
}

static void
after_batch(struct daemon *d, const struct ud_engine_report *r)
{
	d->batches++;
	d->last_batch_ns = r->ns;
	if (r->error < 0) {
		ud_log(LOG_ERR, "batch not recorded: %s (it is tried again)", r->cause);
		ud_sched_full(d->sched);
		return;
	}
	watch_plan_dirs(d);
	d->last_batch_at = (uint64_t)time(NULL);
	if (r->changed.n > 0 && d->rpc != NULL && ud_rpc_subscribers(d->rpc) > 0) {
		json_t *files = json_array();
		size_t i;

		for (i = 0; i < r->changed.n; i++)
			json_array_append_new(files, json_string(r->changed.v[i]));
		json_t *params =
			json_pack("{s:I, s:o}", "clock", (json_int_t)r->clock, "files", files);

		/* installed headers whose userspace API changed, with the verdicts */
		if (r->napi > 0) {
			json_t *api = json_object();

			for (i = 0; i < r->napi; i++)
				json_object_set_new(api, r->api[i].path,
						    json_pack("{s:i, s:i, s:i}", "breaking",
							      (int)r->api[i].breaking, "review",
							      (int)r->api[i].review, "compatible",
							      (int)r->api[i].compatible));
			json_object_set_new(params, "api", api);
		}
		ud_rpc_notify_all(d->rpc, "changed", params);
		json_decref(params);
	}
	/*
	 * Degraded: the next rescan starts a period after the last one ended,
	 * not on a fixed rate, so that a tree whose scan takes longer than the
	 * period still leaves the daemon idle between scans.
	 */
	if (ud_watch_degraded(d->watch) && (!d->rescan_on || r->full)) {
		if (!d->rescan_on)
			ud_store_set_problem(ud_engine_store(d->engine), "watch",
					     "inotify watch limit reached: periodic rescans",
					     r->clock, NULL);
		uv_timer_start(&d->rescan, on_rescan, rescan_ms(), 0);
		d->rescan_on = true;
	}
	/* a periodic rescan that found nothing is not news */
	if (r->written + r->removed + r->failed > 0 ||
	    (r->full && !(d->rescan_on && r->paths == 0)))
		ud_log(r->failed > 0 ? LOG_WARNING : LOG_INFO,
		       "%s: %zu path%s, %zu header%s split again, %zu installed header%s made, %zu "
		       "written, %zu removed%s%s, %.1f ms (clock %" PRId64 ")",
		       r->full ? "scan" : "batch", r->paths, r->paths == 1 ? "" : "s", r->resplit,
		       r->resplit == 1 ? "" : "s", r->reinstalled, r->reinstalled == 1 ? "" : "s",
		       r->written, r->removed, r->failed > 0 ? ", failed: " : "",
		       r->failed > 0 ? "see above" : "", (double)r->ns / 1e6, r->clock);
	update_status(d);
}

static void
on_batch_done(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;

	after_batch(d, r);
	ud_sched_done(d->sched);
	if (d->stopping)
		shutdown_daemon(d);
}

static void
run_batch(void *ctx, struct ud_sched_batch *b)
{
	struct daemon *d = ctx;

	if (d->stopping) {
		ud_sched_batch_free(b);
		ud_sched_done(d->sched);
		return;
	}
	ud_engine_batch(d->engine, b, on_batch_done, d);
}

static void
on_progress(void *ctx, size_t done, size_t total)
{
	struct daemon *d = ctx;
	double s = (double)(uv_hrtime() - d->scan_t0) / 1e9;

	if (d->ready)
		return;
	ud_log_progress("scanning: %zu/%zu files (%.0f/s)", done, total, s > 0 ? done / s : 0.0);
	notify_status(d, "scanning: %zu/%zu files", done, total);
}

/* After each branch update: subscribers hear of it with the clock, as after a batch. */
static void
on_branches(void *ctx, json_t *status)
{
	struct daemon *d = ctx;
	json_t *params;

	if (d->rpc == NULL)
		return;
	params = json_pack("{s:I, s:[], s:O}", "clock",
			   (json_int_t)ud_store_clock(ud_engine_store(d->engine)), "files",
			   "branches", status);
	ud_rpc_notify_all(d->rpc, "changed", params);
	json_decref(params);
}

/* --branches: the follower starts once the tree is served (its first update runs at once). */
static void
start_follow(struct daemon *d)
{
	struct ud_follow_opts fo;
	char *cause = NULL;

	memset(&fo, 0, sizeof(fo));
	fo.tree = d->root;
	fo.arch = d->o->arch;
	fo.split = d->o->split_branch != NULL ? d->o->split_branch : "uapi/split";
	fo.headers = d->o->headers_branch != NULL ? d->o->headers_branch : "uapi/headers";
	if (strcmp(fo.split, "-") == 0)
		fo.split = NULL;
	if (strcmp(fo.headers, "-") == 0)
		fo.headers = NULL;
	if (ud_follow_open(&d->follow, &d->loop, &fo, on_branches, d, &cause) < 0) {
		ud_log(LOG_ERR, "--branches: %s", cause);
		free(cause);
		return;
	}
	ud_follow_set_markers(d->follow, ud_engine_markers(d->engine));
	ud_log(LOG_INFO, "branches: following the refs of %s (%s, %s)", d->root,
	       fo.split != NULL ? fo.split : "no split branch",
	       fo.headers != NULL ? fo.headers : "no headers branch");
}

static void
on_first_scan(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;
	struct ud_buf line = UD_BUF_INIT;

	after_batch(d, r);
	d->ready = true;
	status_line(d, &line);
	ud_log(LOG_INFO, "ready: %s; watching %zu directories", ud_buf_str(&line),
	       ud_watch_count(d->watch));
	ud_buf_free(&line);
	if (d->systemd)
		send_status(d); /* what it serves, before it says it is ready */
	sd_notify(0, "READY=1");
	ud_sched_done(d->sched);
	if (d->o->branches && !d->stopping)
		start_follow(d);
	if (d->stopping)
		shutdown_daemon(d);
}

/* --- signals and shutdown ---------------------------------------------------------- */

static void
close_handle(uv_handle_t *h)
{
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static void
shutdown_daemon(struct daemon *d)
{
	d->stopping = true;
	if (ud_engine_busy(d->engine))
		return; /* the batch finishes and is recorded first */
	sd_notify(0, "STOPPING=1");
	ud_watch_close(d->watch);
	d->watch = NULL;
	ud_sched_close(d->sched);
	d->sched = NULL;
	ud_rpc_close(d->rpc);
	d->rpc = NULL;
	ud_follow_close(d->follow); /* an update in progress finishes first */
	d->follow = NULL;
	close_handle((uv_handle_t *)&d->sigterm);
	close_handle((uv_handle_t *)&d->sigint);
	close_handle((uv_handle_t *)&d->sighup);
	close_handle((uv_handle_t *)&d->watchdog);
	close_handle((uv_handle_t *)&d->rescan);
	close_handle((uv_handle_t *)&d->status_timer);
}

static void
on_stop_signal(uv_signal_t *s, int signum)
{
	struct daemon *d = s->data;

	if (d->stopping)
		return;
	ud_log(LOG_INFO, "%s: stopping%s", signum == SIGTERM ? "SIGTERM" : "SIGINT",
	       ud_engine_busy(d->engine) ? " once the batch in progress is recorded" : "");
	shutdown_daemon(d);
}

static void
on_hup(uv_signal_t *s, int signum)
{
	struct daemon *d = s->data;
	char *cause = NULL;

	(void)signum;
	if (d->stopping)
		return;
	sd_notify(0, "RELOADING=1");
	if (ud_engine_reload_markers(d->engine, &cause) < 0) {
		ud_log(LOG_ERR, "SIGHUP: markers not reloaded, the old ones stay: %s", cause);
		free(cause);
	} else {
		ud_log(LOG_INFO, "SIGHUP: markers reloaded; looking at the whole tree again");
		if (d->follow != NULL)
			ud_follow_set_markers(d->follow, ud_engine_markers(d->engine));
	}
	ud_sched_full(d->sched);
	sd_notify(0, "READY=1");
}

/* --- running ------------------------------------------------------------------------ */

static int
start(struct daemon *d)
{
	struct ud_engine_opts eo;
	struct ud_tree tree;
	char *cause = NULL;
	uint64_t wd_usec = 0;
	int rc;

	if (ud_tree_open(&tree, d->o->tree, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	d->root = ud_xstrdup(tree.root);
	ud_tree_close(&tree);
	{
		char *inc = ud_xasprintf("%s/include", d->root);
		bool ok = ud_is_dir(inc);

		free(inc);
		if (!ok) {
			ud_log(LOG_ERR, "%s: no include/ directory: not a kernel tree", d->root);
			return -1;
		}
	}
	d->state_dir = d->o->state_dir != NULL ? ud_xstrdup(d->o->state_dir)
					       : ud_daemon_default_state_dir(d->root);
	if (d->state_dir[0] != '/') {
		char cwd[PATH_MAX];
		char *abs =
			ud_xasprintf("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", d->state_dir);

		free(d->state_dir);
		d->state_dir = abs;
	}
	d->socket_path =
		d->o->socket != NULL ? ud_xstrdup(d->o->socket) : ud_daemon_default_socket(d->root);
	if (d->o->branches) {
		/* found now, not after the scan: a wrong tree is a start-up error like the others
		 */
		git_repository *repo = NULL;

		if (git_repository_open_ext(&repo, d->root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) <
		    0) {
			ud_log(LOG_ERR, "--branches: %s is not the top of a git repository",
			       d->root);
			return -1;
		}
		git_repository_free(repo);
	}
	if (d->o->socket == NULL && env("RUNTIME_DIRECTORY") == NULL) {
		/* the per-user runtime directory: ours alone, or not used */
		char *dir = ud_xstrndup(d->socket_path,
					(size_t)(strrchr(d->socket_path, '/') - d->socket_path));
		int private = ud_private_dir(dir, &cause);

		free(dir);
		if (private < 0) {
			ud_log(LOG_ERR, "socket: %s", cause);
			free(cause);
			return -1;
		}
	}
	if (lock_state_dir(d) < 0)
		return -1;
	memset(&eo, 0, sizeof(eo));
	eo.root = d->root;
	eo.state_dir = d->state_dir;
	eo.arch = d->o->arch;
	eo.markers = d->o->markers;
	if (ud_engine_open(&d->engine, &d->loop, &eo, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	ud_engine_set_progress(d->engine, on_progress, d);
	if (open_socket(d) < 0)
		return -1;
	d->sched = ud_sched_new(&d->loop, d->o->settle_ms, d->root, run_batch, d);
	if (ud_watch_open(&d->watch, &d->loop, d->root, on_watch_event, watch_filter, d, &cause) <
	    0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	if ((rc = ud_watch_add(d->watch, "", &cause)) < 0 && rc != -ENOSPC) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	uv_signal_init(&d->loop, &d->sigterm);
	uv_signal_init(&d->loop, &d->sigint);
	uv_signal_init(&d->loop, &d->sighup);
	d->sigterm.data = d->sigint.data = d->sighup.data = d;
	uv_signal_start(&d->sigterm, on_stop_signal, SIGTERM);
	uv_signal_start(&d->sigint, on_stop_signal, SIGINT);
	uv_signal_start(&d->sighup, on_hup, SIGHUP);
	uv_timer_init(&d->loop, &d->watchdog);
	uv_timer_init(&d->loop, &d->rescan);
	uv_timer_init(&d->loop, &d->status_timer);
	d->watchdog.data = d->rescan.data = d->status_timer.data = d;
	if (sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec > 0) {
		/* twice per period, as sd_watchdog_enabled(3) advises */
		uv_timer_start(&d->watchdog, on_watchdog, wd_usec / 2000, wd_usec / 2000);
		d->watchdog_on = true;
	}
	ud_log(LOG_INFO, "watching %s (arch %s): state in %s, socket %s", d->root, d->o->arch,
	       d->state_dir, d->socket_path);
	notify_status(d, "scanning %s", d->root);
	d->scan_t0 = uv_hrtime();
	/* the scheduler counts the first scan as its running batch */
	ud_sched_hold(d->sched);
	if (ud_engine_start(d->engine, on_first_scan, d, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

static void
walk_close(uv_handle_t *h, void *arg)
{
	(void)arg;
	close_handle(h);
}

int
ud_daemon_run(const struct ud_daemon_opts *o)
{
	struct daemon d;
	int status = 0;

	memset(&d, 0, sizeof(d));
	d.o = o;
	d.lock_fd = -1;
	d.systemd = getenv("NOTIFY_SOCKET") != NULL;
	ud_log_init();
	ud_log_set_level(o->verbose ? LOG_DEBUG : LOG_INFO);
	json_object_seed(0);
	git_libgit2_init();
	/*
	 * Two malloc arenas, not one per pool thread: the pool's buffers are
	 * short-lived and freed on the loop thread, and per-thread arenas
	 * would keep their pages (RSS) long after a scan.
	 */
	mallopt(M_ARENA_MAX, 2);
	uv_loop_init(&d.loop);
	if (start(&d) < 0) {
		status = 2;
		d.stopping = true;
		ud_watch_close(d.watch);
		ud_sched_close(d.sched);
		ud_rpc_close(d.rpc);
		uv_walk(&d.loop, walk_close, NULL);
	}
	uv_run(&d.loop, UV_RUN_DEFAULT);
	uv_walk(&d.loop, walk_close, NULL);
	uv_run(&d.loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&d.loop) != 0)
		ud_log(LOG_WARNING, "the loop closed with handles still open");
	ud_engine_close(d.engine);
	if (d.published != NULL) {
		unlink(d.published);
		free(d.published);
	}
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	if (status == 0)
		ud_log(LOG_INFO, "stopped");
	free(d.root);
	free(d.state_dir);
	free(d.socket_path);
	git_libgit2_shutdown();
	return status;
}
