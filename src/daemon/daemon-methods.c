// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The socket's methods (daemon-int.h; doc/protocol.md describes them):
 * JSON-RPC 2.0 params checked, the engine, the store or the follower
 * asked, the answer made as JSON here (the engine's queries give plain
 * results).  Each method runs on the loop thread and returns the result,
 * or NULL with *code and *message.
 */
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon-int.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/history/apilog.h"
#include "uapid/history/apiquery.h"
#include "uapid/proto/accept.h"
#include "uapid/proto/json.h"
#include "uapid/io/log.h"
#include "uapid/core/split.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

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
	struct ud_rpc_loop_stats holds;
	char *stale;

	(void)c, (void)params, (void)code, (void)message;
	ud_engine_counts(d->engine, &n);
	ud_store_each_problem(ud_engine_store(d->engine), add_problem, problems, NULL);
	if ((stale = ud_daemon_git_lock_problem(d)) != NULL) {
		add_problem("git", stale, problems);
		free(stale);
	}
	if (ud_rpc_check_path(d->rpc) != NULL)
		add_problem("socket", ud_rpc_check_path(d->rpc), problems);
	if (d->fault != NULL) {
		/* kept in memory: the store may be what cannot be written */
		char *why = ud_xasprintf("%s: not recorded; tried again with back-off (%u tr%s in "
					 "%.1f s)",
					 d->fault, d->retries, d->retries == 1 ? "y" : "ies",
					 (double)(uv_hrtime() - d->fault_since) / 1e9);

		add_problem("state", why, problems);
		free(why);
	}
	ud_daemon_status_line(d, &line);
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
	ud_rpc_loop_stats(d->rpc, &holds);
	json_object_set_new(r, "loop",
			    json_pack("{s:I, s:f, s:f, s:I, s:I}", "turns", (json_int_t)holds.turns,
				      "max_cpu_ms", (double)holds.max_cpu_ns / 1e6, "max_busy_ms",
				      (double)holds.max_busy_ns / 1e6, "held_cpu",
				      (json_int_t)holds.held_cpu, "held_busy",
				      (json_int_t)holds.held_busy));
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

/* The "text" parameter: absent (NULL, the file is read) or a string. */
static bool
opt_text(json_t *params, const char **text, size_t *len, int *code, char **message)
{
	json_t *t = json_object_get(params, "text");

	*text = NULL;
	*len = 0;
	if (t == NULL)
		return true;
	if (!json_is_string(t)) {
		ud_rpc_bad_param(code, message, "text", "must be a string");
		return false;
	}
	*text = json_string_value(t);
	*len = json_string_length(t);
	return true;
}

/* classify's result for path (text: the buffer, NULL to read the file), on a query. */
static json_t *
classify_result(const struct ud_engine_query *q, const char *path, const char *text, size_t len,
		int *code, char **message)
{
	struct ud_buf bytes = UD_BUF_INIT;
	struct ud_classified cl;
	char *cause = NULL;
	json_t *r = NULL;

	if (ud_engine_query_classify(q, path, text, len, &bytes, &cl, &cause) < 0) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause;
	} else {
		r = json_pack("{s:s, s:o, s:o}", "path", path, "blocks", ud_json_blocks(&cl),
			      "diagnostics", ud_json_diags(&cl.diags));
		ud_classified_free(&cl);
	}
	ud_buf_free(&bytes);
	return r;
}

/* The installed part of a preview: {"path", "text", "diagnostics"}, or null. */
static json_t *
preview_installed(const struct ud_engine_preview *p)
{
	if (!p->has_installed)
		return json_null();
	return json_pack("{s:s, s:s?, s:o}", "path", p->installed_path, "text",
			 p->installed.ok ? ud_buf_str(&p->installed.text) : NULL, "diagnostics",
			 ud_json_diags(&p->installed.diags));
}

/* preview's result: the split's texts and the installed one. */
static json_t *
preview_result(const struct ud_engine_query *q, const char *path, const char *text, size_t len,
	       int *code, char **message)
{
	struct ud_engine_preview p;
	char *cause = NULL;
	json_t *r = NULL;

	if (ud_engine_query_preview(q, path, text, len, &p, &cause) < 0) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause;
	} else if (p.uapi) {
		/* a uapi header: nothing to split; installed as it is */
		r = json_pack("{s:s, s:s, s:n, s:s, s:s, s:o, s:o}", "path", path, "outcome",
			      p.outcome, "kernel", "uapi_path", p.uapi_path, "uapi", p.uapi_text,
			      "installed", preview_installed(&p), "diagnostics", json_array());
	} else {
		r = json_pack("{s:s, s:s, s:b, s:s?, s:s?, s:s?, s:o, s:o}", "path", path,
			      "outcome", p.outcome, "exported", p.exported, "kernel", p.kernel,
			      "uapi_path", p.uapi_path, "uapi", p.uapi_text, "installed",
			      preview_installed(&p), "diagnostics", ud_json_diags(p.diags));
	}
	ud_engine_preview_free(&p);
	return r;
}

typedef json_t *(*query_fn)(const struct ud_engine_query *q, const char *path, const char *text,
			    size_t len, int *code, char **message);

/* classify or preview at once, on the loop thread (a call in a batch, a notification). */
static json_t *
query_now(struct daemon *d, json_t *params, query_fn fn, int *code, char **message)
{
	char *path = param_path(d, params, code, message);
	struct ud_engine_query *q;
	const char *text;
	size_t len;
	json_t *r;

	if (path == NULL)
		return NULL;
	if (!opt_text(params, &text, &len, code, message)) {
		free(path);
		return NULL;
	}
	q = ud_engine_query_take(d->engine, path);
	r = fn(q, path, text, len, code, message);
	ud_engine_query_free(q);
	free(path);
	return r;
}

/* classify: {"path"} or {"path", "text"}: {"path", "blocks", "diagnostics"}, as uapid classify
 * --json. */
static json_t *
m_classify(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)c;
	return query_now(ctx, params, classify_result, code, message);
}

/* preview: {"path"} or {"path", "text"}: the split's texts and the installed one. */
static json_t *
m_preview(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)c;
	return query_now(ctx, params, preview_result, code, message);
}

/*
 * classify or preview on the thread pool: the work, and the reply's JSON,
 * grow with the buffer (3.5 s for 6.9 MB), and the loop answers the other
 * clients meanwhile.  The job reads only what it holds: the query (its
 * snapshot of the markers and plan), its path, and the text of the
 * request's params (held by a reference taken and dropped on the loop).
 */
#define QUERY_TRIM_AFTER (1u << 20)

struct query_job {
	uv_work_t req;
	struct ud_rpc_client *c;
	query_fn fn;
	json_t *id;	/* the request's, copied: the job's own */
	json_t *params; /* held for text */
	char *path;
	const char *text;
	size_t len;
	struct ud_engine_query *q;
	char *line; /* the reply line, made on the pool */
};

static void
query_work_cb(uv_work_t *req)
{
	struct query_job *j = req->data;
	char *message = NULL;
	int code = 0;
	json_t *r = j->fn(j->q, j->path, j->text, j->len, &code, &message);

	j->line = ud_rpc_reply_line(j->id, r, code, message);
	free(message);
#ifdef HAVE_MALLOC_TRIM
	/*
	 * What the work on a large buffer took goes back, here: malloc_trim
	 * walks the whole heap (milliseconds), which the loop must not wait for.
	 */
	if (j->len >= QUERY_TRIM_AFTER)
		malloc_trim(0);
#endif
}

static void
query_after_cb(uv_work_t *req, int status)
{
	struct query_job *j = req->data;

	(void)status; /* not cancelled: nothing calls uv_cancel */
	ud_rpc_answer(j->c, j->line);
	ud_engine_query_free(j->q);
	json_decref(j->params);
	json_decref(j->id);
	free(j->path);
	free(j);
}

static int
query_later(struct daemon *d, struct ud_rpc_client *c, json_t *id, json_t *params, query_fn fn)
{
	struct query_job *j;
	char *message = NULL, *path;
	const char *text;
	size_t len;
	int code;

	if ((path = param_path(d, params, &code, &message)) == NULL ||
	    !opt_text(params, &text, &len, &code, &message)) {
		free(message); /* the method at once says what is wrong */
		free(path);
		return 0;
	}
	j = ud_xcalloc(1, sizeof(*j));
	j->req.data = j;
	j->c = c;
	j->fn = fn;
	j->id = json_deep_copy(id);
	j->params = json_incref(params);
	j->path = path;
	j->text = text;
	j->len = len;
	j->q = ud_engine_query_take(d->engine, path);
	if (uv_queue_work(&d->loop, &j->req, query_work_cb, query_after_cb) < 0) {
		/* the pool will not take it: the method computes it here */
		ud_engine_query_free(j->q);
		json_decref(j->params);
		json_decref(j->id);
		free(j->path);
		free(j);
		return 0;
	}
	ud_rpc_hold(c); /* the callback runs on a later turn of the loop */
	return 1;
}

static int
l_classify(void *ctx, struct ud_rpc_client *c, json_t *id, json_t *params)
{
	return query_later(ctx, c, id, params, classify_result);
}

static int
l_preview(void *ctx, struct ud_rpc_client *c, json_t *id, json_t *params)
{
	return query_later(ctx, c, id, params, preview_result);
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
add_every_row(const struct ud_hrow *h, void *ctx)
{
	json_array_append_new(ctx, json_pack("{s:s, s:[s]}", "path", h->path, "kinds", "exists"));
	return 0;
}

/*
 * The answer to changes since from (has: asked), from one view of st.  A
 * clock before what the log holds (its retention dropped the events
 * after it), after its end or from another store gets every header with
 * fresh_instance, as watchman does after a recrawl.
 */
static json_t *
changes_answer(struct ud_store *st, bool has, int64_t from)
{
	int64_t now = ud_store_clock(st), first = ud_store_first_clock(st);
	struct changes_walk w;
	json_t *files;
	size_t i;

	if (!has || from < first - 1 || from > now || from < 0) {
		files = json_array();
		ud_store_each_header_state(st, add_every_row, files, NULL);
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

static bool
changes_since(json_t *params, bool *has, int64_t *from, int *code, char **message)
{
	json_t *since = json_object_get(params, "since");

	if (since != NULL && !json_is_integer(since)) {
		ud_rpc_bad_param(code, message, "since", "must be an integer clock");
		return false;
	}
	*has = since != NULL;
	*from = since != NULL ? json_integer_value(since) : 0;
	return true;
}

/* changes in a batch (or with no client to answer later): on the loop, from the writer's view */
static json_t *
m_changes(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	int64_t from;
	bool has;

	(void)c;
	if (!changes_since(params, &has, &from, code, message))
		return NULL;
	return changes_answer(ud_engine_store(d->engine), has, from);
}

/*
 * changes on the thread pool: the answer grows with the history (135 ms
 * and 825 KB at 44k events), and status must not wait for it.  The job
 * reads only what it holds: the store's path, opened read-only on a
 * connection of its own whose one read transaction is a snapshot of the
 * last commit (WAL), so the clock it answers with and the events it lists
 * agree; the writer (the loop) never waits for it.
 */
struct changes_job {
	uv_work_t req;
	struct ud_rpc_client *c;
	json_t *id; /* the request's, copied: the job's own */
	char *db;
	bool has;
	int64_t from;
	char *line; /* the reply line, made on the pool */
};

static void
changes_work_cb(uv_work_t *req)
{
	struct changes_job *j = req->data;
	struct ud_store *st = NULL;
	char *cause = NULL;
	json_t *r = NULL;

	if (ud_store_open_reader(&st, j->db, &cause) == 0 && ud_store_read_begin(st, &cause) == 0) {
		r = changes_answer(st, j->has, j->from);
		ud_store_read_end(st);
	}
	ud_store_close(st);
	j->line = ud_rpc_reply_line(j->id, r, r != NULL ? 0 : UD_RPC_INTERNAL_ERROR,
				    r != NULL ? NULL : cause);
	free(cause);
#ifdef HAVE_MALLOC_TRIM
	if (j->line != NULL && strlen(j->line) >= QUERY_TRIM_AFTER)
		malloc_trim(0); /* a large answer's buffers go back, here, not on the loop */
#endif
}

static void
changes_after_cb(uv_work_t *req, int status)
{
	struct changes_job *j = req->data;

	(void)status; /* not cancelled: nothing calls uv_cancel */
	ud_rpc_answer(j->c, j->line);
	json_decref(j->id);
	free(j->db);
	free(j);
}

static int
l_changes(void *ctx, struct ud_rpc_client *c, json_t *id, json_t *params)
{
	struct daemon *d = ctx;
	struct changes_job *j;
	char *message = NULL;
	int64_t from;
	int code;
	bool has;

	if (!changes_since(params, &has, &from, &code, &message)) {
		free(message); /* the method at once says what is wrong */
		return 0;
	}
	j = ud_xcalloc(1, sizeof(*j));
	j->req.data = j;
	j->c = c;
	j->id = json_deep_copy(id);
	j->db = ud_xasprintf("%s/state.db", d->state_dir);
	j->has = has;
	j->from = from;
	if (uv_queue_work(&d->loop, &j->req, changes_work_cb, changes_after_cb) < 0) {
		json_decref(j->id); /* the pool will not take it: the method answers here */
		free(j->db);
		free(j);
		return 0;
	}
	ud_rpc_hold(c); /* the callback runs on a later turn of the loop */
	return 1;
}

/* Where a marker comes from: the store's origin column. */
enum marker_origin {
	ORIGIN_FILE,   /* the markers file (--markers) */
	ORIGIN_SOURCE, /* comments in the header itself */
	ORIGIN_SOCKET, /* markers.add over the socket */
	ORIGIN__COUNT,
};

static const char *const origin_names[] = {
	[ORIGIN_FILE] = "file",
	[ORIGIN_SOURCE] = "source",
	[ORIGIN_SOCKET] = "socket",
};
static_assert(ARRAY_SIZE(origin_names) == ORIGIN__COUNT, "a name for every origin");

/* A store error as the method's error: its cause said, never an empty answer. */
static json_t *
store_error(int *code, char **message, const char *what, char *cause)
{
	*code = UD_RPC_SERVER_ERROR;
	*message = ud_xasprintf("the store: %s: %s", what, cause != NULL ? cause : "failed");
	free(cause);
	return NULL;
}

/*
 * Every marker in the store, with its origin, into *out; 0, or a negative
 * errno with *cause (nothing in *out).
 */
static int
markers_json(struct daemon *d, json_t **out, char **cause)
{
	json_t *list = json_array();
	enum marker_origin o;
	size_t i;
	int rc = 0;

	for (o = 0; o < ORIGIN__COUNT && rc == 0; o++) {
		struct ud_markers set = UD_MARKERS_INIT;
		int64_t *ids = NULL;

		rc = ud_store_markers(ud_engine_store(d->engine), origin_names[o], &set, &ids,
				      cause);
		for (i = 0; i < set.n && rc == 0; i++) {
			json_t *m = json_pack("{s:I, s:s, s:s, s:s, s:s?, s:i, s:s?}", "id",
					      (json_int_t)ids[i], "origin", origin_names[o], "path",
					      set.v[i].path, "action",
					      ud_marker_action_name(set.v[i].action), "selector",
					      set.v[i].selector, "occurrence",
					      (int)set.v[i].occurrence, "why", set.v[i].why);

			/* a line in the markers file, or in the header for in-source ones */
			if (o != ORIGIN_SOCKET && set.v[i].line > 0)
				json_object_set_new(m, "line", json_integer(set.v[i].line));
			json_array_append_new(list, m);
		}
		free(ids);
		ud_markers_free(&set);
	}
	if (rc < 0) {
		json_decref(list);
		return rc;
	}
	*out = list;
	return 0;
}

/* The markers as a result ({"markers": [...]}, more fields in extra: taken), or the store's error.
 */
static json_t *
markers_result(struct daemon *d, json_t *extra, int *code, char **message)
{
	json_t *list;
	char *cause = NULL;

	if (markers_json(d, &list, &cause) < 0) {
		json_decref(extra);
		return store_error(code, message, "reading the markers", cause);
	}
	if (extra == NULL)
		extra = json_object();
	json_object_set_new(extra, "markers", list);
	return extra;
}

static json_t *
m_markers_list(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)c, (void)params;
	return markers_result(ctx, NULL, code, message);
}

static json_t *
m_markers_add(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	const char *action, *selector, *why, *bad;
	char *path = param_path(d, params, code, message), *cause = NULL;
	struct ud_markers parsed = UD_MARKERS_INIT;
	enum ud_marker_action act;
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
	/* each field checked for what it is, the marker built from them: never a line to parse */
	if (action == NULL || ud_marker_action_parse(action, &act) < 0) {
		free(path);
		return ud_rpc_bad_param(code, message, "action",
					action == NULL ? "is required"
						       : "must be retain, kernel, uapi, "
							 "include-here, skip or split-compound");
	}
	if (selector == NULL && act != UD_MARK_SKIP) {
		free(path);
		return ud_rpc_bad_param(code, message, "selector",
					"is required: the directive the marker is about, as "
					"'#ifdef __KERNEL__'");
	}
	if (selector != NULL && ud_selector_check(selector, &bad) < 0) {
		free(path);
		*code = UD_RPC_INVALID_PARAMS;
		*message = ud_xasprintf("invalid params: \"selector\" '%s': %s", selector, bad);
		return NULL;
	}
	if (occ != NULL && (!json_is_integer(occ) || json_integer_value(occ) < 1 ||
			    json_integer_value(occ) > 1000000)) {
		free(path);
		return ud_rpc_bad_param(code, message, "occurrence",
					"must be an integer from 1 to 1000000");
	}
	if ((selector != NULL && strpbrk(selector, "\n\r'") != NULL) ||
	    (why != NULL && strpbrk(why, "\n\r") != NULL)) {
		free(path);
		return ud_rpc_bad_param(code, message,
					selector != NULL && strpbrk(selector, "\n\r'") ? "selector"
										       : "why",
					"must be one line (and a selector holds no quote)");
	}
	ud_markers_add(&parsed, path, act, selector,
		       occ != NULL ? (unsigned)json_integer_value(occ) : 1, why);
	if (ud_store_add_marker(ud_engine_store(d->engine), origin_names[ORIGIN_SOCKET],
				&parsed.v[0], &id, &cause) < 0) {
		*code = UD_RPC_SERVER_ERROR;
		*message = cause;
		free(path);
		ud_markers_free(&parsed);
		return NULL;
	}
	ud_log(LOG_INFO, "marker %lld added over the socket: %s %s", (long long)id, path, action);
	ud_daemon_markers_changed(d, path);
	free(path);
	ud_markers_free(&parsed);
	return markers_result(d, json_pack("{s:I}", "id", (json_int_t)id), code, message);
}

/*
 * Where marker id comes from: 0 with *origin (ORIGIN__COUNT: no such
 * marker), or a negative errno with *cause.
 */
static int
marker_origin(struct daemon *d, int64_t id, enum marker_origin *origin, char **cause)
{
	enum marker_origin o;
	size_t i;
	int rc = 0;

	*origin = ORIGIN__COUNT;
	for (o = 0; o < ORIGIN__COUNT && *origin == ORIGIN__COUNT && rc == 0; o++) {
		struct ud_markers set = UD_MARKERS_INIT;
		int64_t *ids = NULL;

		rc = ud_store_markers(ud_engine_store(d->engine), origin_names[o], &set, &ids,
				      cause);
		for (i = 0; i < set.n && rc == 0; i++)
			if (ids[i] == id)
				*origin = o;
		free(ids);
		ud_markers_free(&set);
	}
	return rc;
}

static json_t *
m_markers_remove(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	json_t *id = json_object_get(params, "id");
	enum marker_origin origin;
	char *cause = NULL;
	int rc;

	(void)c;
	if (!json_is_integer(id))
		return ud_rpc_bad_param(code, message, "id", "must be the integer id of a marker");
	if (marker_origin(d, json_integer_value(id), &origin, &cause) < 0)
		return store_error(code, message, "reading the markers", cause);
	/* only what the socket added: the file's and the headers' own come back with them */
	if (origin != ORIGIN_SOCKET) {
		*code = UD_RPC_INVALID_PARAMS;
		*message = origin != ORIGIN__COUNT
				   ? ud_xasprintf(
					     "invalid params: \"id\" %lld is a marker from the %s: "
					     "change it there",
					     (long long)json_integer_value(id),
					     origin == ORIGIN_FILE ? "markers file (--markers)"
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
	ud_daemon_markers_changed(d, NULL);
	return markers_result(d, NULL, code, message);
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
 * An editor's buffer of a uapi header against its installed API, or with
 * rev against the header as that revision of the tree's repository has it
 * (NULL with *cause; *code says whose fault).
 */
static json_t *
api_text_json(struct daemon *d, const char *path, const char *text, size_t len, const char *rev,
	      int *code, char **cause)
{
	struct ud_engine_api_base base = {false, NULL, 0};
	struct ud_buf old = UD_BUF_INIT;
	struct ud_api_diff diff;
	char *installed = NULL, commit[41] = "";
	json_t *r = NULL;
	int found;

	*code = UD_RPC_INVALID_PARAMS;
	if (rev != NULL) {
		if ((found = ud_apiquery_file_at(d->root, rev, path, &old, commit, cause)) < 0) {
			*code = UD_RPC_SERVER_ERROR;
			goto out;
		}
		base = (struct ud_engine_api_base){true, found ? ud_buf_str(&old) : NULL, old.len};
	}
	if (ud_engine_api_text(d->engine, path, text, len, &base, &diff, &installed, cause) < 0)
		goto out;
	r = ud_json_api_diff(&diff);
	json_object_set_new(r, "installed", json_string(installed));
	if (rev != NULL)
		json_object_set_new(r, "baseline",
				    json_pack("{s:s, s:s, s:b}", "rev", rev, "commit", commit,
					      "present", found != 0));
	ud_api_diff_free(&diff);
	free(installed);
out:
	ud_buf_free(&old);
	return r;
}

/*
 * api.changes: the symbol-level userspace API changes {"since": CLOCK} (from
 * the versions the store keeps), {"rev": REV} (that git revision against
 * the headers installed now), or {"path", "text"} (an editor's buffer of a
 * uapi header against its installed version, in the buffer's lines; with
 * "rev", against the header as that revision has it: an editor's baseline);
 * "accept" (an accept file's text, accept.h) marks the accepted changes.
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
		r = api_text_json(d, path, json_string_value(text), json_string_length(text), rev,
				  code, &cause);
		free(path);
		if (r == NULL) {
			*message = cause;
			return NULL;
		}
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
	/* {"accept": TEXT}: an accept file's decisions (accept.h), as api-diff --accept */
	if (ud_accept_params(params, r, &cause) < 0) {
		json_decref(r);
		*code = UD_RPC_INVALID_PARAMS;
		*message = cause;
		return NULL;
	}
	json_object_set_new(r, "clock", json_integer(now));
	return r;
}

/*
 * api.baseline: the commit {"rev": REV} names in the tree's repository now
 * ({"rev", "commit"}): how an editor with a baseline learns that HEAD
 * (or the branch it follows) moved, without asking for a diff.
 */
static json_t *
m_api_baseline(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	struct daemon *d = ctx;
	char commit[41];
	const char *rev;

	(void)c;
	if (!opt_string(params, "rev", &rev, code, message))
		return NULL;
	if (rev == NULL)
		return ud_rpc_bad_param(code, message, "rev", "is required");
	if (ud_apiquery_resolve(d->root, rev, commit, message) < 0) {
		*code = UD_RPC_SERVER_ERROR;
		return NULL;
	}
	return json_pack("{s:s, s:s}", "rev", rev, "commit", commit);
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

const struct ud_rpc_method ud_daemon_methods[] = {
	{"status", m_status, NULL},
	{"headers", m_headers, NULL},
	{"classify", m_classify, l_classify},
	{"preview", m_preview, l_preview},
	{"changes", m_changes, l_changes},
	{"markers.list", m_markers_list, NULL},
	{"markers.add", m_markers_add, NULL},
	{"markers.remove", m_markers_remove, NULL},
	{"resplit", m_resplit, NULL},
	{"api.changes", m_api_changes, NULL},
	{"api.baseline", m_api_baseline, NULL},
	{"api.log", m_api_log, NULL},
	{"subscribe", m_subscribe, NULL},
	{"unsubscribe", m_unsubscribe, NULL},
};
const size_t ud_daemon_nmethods = ARRAY_SIZE(ud_daemon_methods);
