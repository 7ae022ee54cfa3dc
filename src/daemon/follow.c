// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's branch follower (follow.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uapid/util/hash.h"
#include "uapid/history/branch.h"
#include "uapid/util/buf.h"
#include "uapid/daemon/follow.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/gittree.h"
#include "uapid/io/log.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"
#include "follow-int.h"

#define DEBOUNCE_MS 150	  /* after the last ref event: a commit writes several files */
#define LOCK_RETRY_MS 200 /* while git holds its index lock */

struct ud_follow {
	uv_loop_t *loop;
	char *arch, *split, *headers;
	char *gitdir;	      /* the repository's own directory (HEAD) */
	char *commondir;      /* where refs and packed-refs are */
	char *ref_dir;	      /* the directory of the source branch's loose ref, watched */
	git_repository *repo; /* used by the worker only */
	struct ud_store *st;  /* ditto */
	uv_fs_event_t ev_git, ev_common, ev_ref;
	bool ev_common_on, ev_ref_on;
	uv_timer_t debounce;
	uv_work_t work;
	bool running, pending, closing;
	bool told_stale; /* a stale index lock was logged (once, until it goes) */
	int open_handles;
	/* the markers the next update uses, and the worker's copy */
	struct ud_markers markers, work_markers;
	char *markers_hash, *work_hash;
	/* what the worker did */
	struct ud_branch_result res;
	int rc;
	char *cause;
	double ms;
	struct ud_follow_apilog log; /* the api-log index, brought up to date after the branches */
	/* the status, kept between updates */
	json_t *status;
	uint64_t updates;
	ud_follow_cb cb;
	void *ctx;
};

static void
copy_markers(struct ud_markers *to, const struct ud_markers *from)
{
	size_t i;

	ud_markers_free(to);
	for (i = 0; from != NULL && i < from->n; i++) {
		const struct ud_marker *m = &from->v[i];

		/* the selector is normalised already: copied as it is */
		ud_markers_add(to, m->path, m->action, NULL, m->occurrence, m->why);
		to->v[to->n - 1].selector = m->selector != NULL ? ud_xstrdup(m->selector) : NULL;
		to->v[to->n - 1].line = m->line;
	}
}

/* What identifies a set of markers in cache keys ("-": none). */
static char *
markers_hash(const struct ud_markers *set)
{
	struct ud_buf b = UD_BUF_INIT;
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	if (set->n == 0)
		return ud_xstrdup("-");
	for (i = 0; i < set->n; i++)
		ud_buf_addf(&b, "%s %s '%s'#%u\n", set->v[i].path,
			    ud_marker_action_name(set->v[i].action),
			    set->v[i].selector != NULL ? set->v[i].selector : "",
			    set->v[i].occurrence);
	git_odb_hash(&id, b.data, b.len, GIT_OBJECT_BLOB);
	ud_buf_free(&b);
	git_oid_tostr(hex, sizeof(hex), &id);
	return ud_xstrdup(hex);
}

/* ---- the worker ---- */

static void
work_cb(uv_work_t *w)
{
	struct ud_follow *f = w->data;
	struct ud_branch_opts o;
	int64_t t0 = ud_now_ms();

	memset(&o, 0, sizeof(o));
	o.split = f->split;
	o.headers = f->headers;
	o.arch = f->arch;
	o.markers = &f->work_markers;
	o.markers_hash = f->work_hash;
	free(f->cause);
	f->cause = NULL;
	ud_branch_result_free(&f->res);
	f->rc = ud_branch_update(f->repo, f->st, &o, &f->res, &f->cause);
	/* the api-log index follows the headers branch (api.log answers from it) */
	ud_follow_apilog_update(&f->log, f->repo, f->st, f->rc == 0 ? f->res.headers : "");
	f->ms = (double)(ud_now_ms() - t0);
}

static void start(struct ud_follow *f);
static void maybe_free(struct ud_follow *f);
static void follow_free(struct ud_follow *f);
static void on_debounce(uv_timer_t *t);
static void arm(struct ud_follow *f, uint64_t ms);

/* The loose ref HEAD points at ("refs/heads/master"), or NULL when detached. */
static char *
head_ref(const struct ud_follow *f)
{
	char *path = ud_xasprintf("%sHEAD", f->gitdir), *ref = NULL;
	struct ud_buf b = UD_BUF_INIT;

	if (ud_read_file(path, &b, NULL) == 0 && b.len > 5 && strncmp(b.data, "ref: ", 5) == 0) {
		size_t n = b.len - 5;

		while (n > 0 && (b.data[5 + n - 1] == '\n' || b.data[5 + n - 1] == '\r'))
			n--;
		ref = ud_xstrndup(b.data + 5, n);
	}
	ud_buf_free(&b);
	free(path);
	return ref;
}

static void on_ref_event(uv_fs_event_t *h, const char *name, int events, int status);

static void
on_handle_closed(uv_handle_t *h)
{
	struct ud_follow *f = h->data;

	f->open_handles--;
	maybe_free(f);
}

/* Watches the directory of the branch HEAD points at (it changes with a checkout). */
static void
arm_ref_watch(struct ud_follow *f)
{
	char *ref = head_ref(f), *dir = NULL;
	const char *slash = ref != NULL ? strrchr(ref, '/') : NULL;

	if (slash != NULL)
		dir = ud_xasprintf("%s%.*s", f->commondir, (int)(slash - ref), ref);
	free(ref);
	if (dir != NULL && f->ref_dir != NULL && strcmp(dir, f->ref_dir) == 0) {
		free(dir);
		return;
	}
	if (f->ev_ref_on) {
		(void)uv_fs_event_stop(&f->ev_ref); /* cannot fail: it only drops the watch */
		f->ev_ref_on = false;
	}
	free(f->ref_dir);
	f->ref_dir = dir;
	if (dir != NULL && uv_fs_event_start(&f->ev_ref, on_ref_event, dir, 0) == 0)
		f->ev_ref_on = true;
}

static json_t *
status_json(struct ud_follow *f)
{
	json_t *j = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:I, s:b}", "arch", f->arch,
			      "split", f->split, "headers", f->headers, "source",
			      f->res.source[0] ? f->res.source : NULL, "split_commit",
			      f->res.split[0] ? f->res.split : NULL, "headers_commit",
			      f->res.headers[0] ? f->res.headers : NULL, "updates",
			      (json_int_t)f->updates, "busy", f->running || f->pending);
	json_t *refused = json_array();

	if (f->res.split_refused != NULL)
		json_array_append_new(refused, json_string(f->res.split_refused));
	if (f->res.headers_refused != NULL)
		json_array_append_new(refused, json_string(f->res.headers_refused));
	if (f->res.headers_skipped > 0)
		json_object_set_new(j, "skipped",
				    json_pack("{s:i, s:s}", "commits", (int)f->res.headers_skipped,
					      "why", f->res.headers_skipped_why));
	json_object_set_new(j, "refused", refused);
	json_object_set_new(j, "error",
			    f->rc < 0 && f->cause != NULL ? json_string(f->cause) : json_null());
	ud_follow_apilog_status(&f->log, j);
	json_object_set_new(
		j, "last_update",
		json_pack("{s:I, s:f, s:i, s:b, s:i, s:i, s:i}", "at", (json_int_t)time(NULL), "ms",
			  f->ms, "split_commits", (int)f->res.split_commits, "split_changed",
			  f->res.split_changed, "headers_added", (int)f->res.headers_added,
			  "cache_hits", (int)f->res.cache_hits, "cache_misses",
			  (int)f->res.cache_misses));
	return j;
}

static void
after_work(uv_work_t *w, int status)
{
	struct ud_follow *f = w->data;

	(void)status;
	f->running = false;
	if (f->closing) {
		maybe_free(f);
		return;
	}
	f->updates++;
	if (f->rc < 0)
		ud_log(LOG_ERR, "branches: %s", f->cause);
	else if (f->res.split_changed || f->res.headers_added > 0)
		ud_log(LOG_INFO,
		       "branches: %s at %.12s (%u commit%s), %s +%u commit%s, for %.12s, in %.0f ms",
		       f->split != NULL ? f->split : "-", f->res.split, f->res.split_commits,
		       f->res.split_commits == 1 ? "" : "s", f->headers != NULL ? f->headers : "-",
		       f->res.headers_added, f->res.headers_added == 1 ? "" : "s", f->res.source,
		       f->ms);
	ud_follow_apilog_log(&f->log);
	json_decref(f->status);
	f->status = status_json(f);
	arm_ref_watch(f); /* HEAD may name another branch now */
	if (f->cb != NULL)
		f->cb(f->ctx, f->status);
	if (f->pending)
		arm(f, 0);
}

/* A lock older than this is said once in the log (status names it: daemon.c). */
#define STALE_LOCK_S 60

static bool
git_busy(struct ud_follow *f)
{
	char *lock = ud_xasprintf("%sindex.lock", f->gitdir);
	struct stat st;
	bool busy = lstat(lock, &st) == 0;
	double age = busy ? difftime(time(NULL), st.st_mtime) : 0;

	if (busy && age >= STALE_LOCK_S && !f->told_stale)
		ud_log(LOG_WARNING,
		       "branches: %s is %.0f s old: not updated until it goes (a git command that "
		       "died leaves it behind: remove it if no git runs)",
		       lock, age);
	f->told_stale = busy && (f->told_stale || age >= STALE_LOCK_S);
	free(lock);
	return busy;
}

static void
on_debounce(uv_timer_t *t)
{
	start(t->data);
}

/* An update in ms; refused only for a timer being closed (the follower is going away). */
static void
arm(struct ud_follow *f, uint64_t ms)
{
	int rc = uv_timer_start(&f->debounce, on_debounce, ms, 0);

	if (rc < 0 && !f->closing)
		ud_log(LOG_ERR, "branches: cannot schedule the update: %s", uv_strerror(rc));
}

static void
start(struct ud_follow *f)
{
	if (f->closing)
		return;
	if (f->running) {
		f->pending = true;
		return;
	}
	if (git_busy(f)) {
		/* a commit or rebase is being written: its refs are not final yet */
		f->pending = true;
		arm(f, LOCK_RETRY_MS);
		return;
	}
	f->pending = false;
	f->running = true;
	copy_markers(&f->work_markers, &f->markers);
	free(f->work_hash);
	f->work_hash = ud_xstrdup(f->markers_hash);
	if (uv_queue_work(f->loop, &f->work, work_cb, after_work) < 0) {
		f->running = false;
		ud_log(LOG_ERR, "branches: cannot queue the update");
	}
}

void
ud_follow_poke(struct ud_follow *f)
{
	if (f->closing)
		return;
	f->pending = true;
	arm(f, DEBOUNCE_MS);
}

static void
on_ref_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct ud_follow *f = h->data;
	size_t n = name != NULL ? strlen(name) : 0;

	(void)events;
	if (status < 0)
		return;
	/* the index, logs and lock files come and go with every command: refs and HEAD count */
	if (name != NULL &&
	    (strcmp(name, "index") == 0 || strcmp(name, "index.lock") == 0 ||
	     (n > 5 && strcmp(name + n - 5, ".lock") == 0) || strcmp(name, "FETCH_HEAD") == 0 ||
	     strcmp(name, "ORIG_HEAD") == 0 || strncmp(name, "uapid", 5) == 0))
		return;
	ud_follow_poke(f);
}

int
ud_follow_open(struct ud_follow **out, uv_loop_t *loop, const struct ud_follow_opts *o,
	       ud_follow_cb cb, void *ctx, char **cause)
{
	struct ud_follow *f = ud_xcalloc(1, sizeof(*f));
	char *dir = NULL, *db = NULL;
	int rc;

	f->loop = loop;
	f->arch = ud_xstrdup(o->arch);
	f->split = o->split != NULL ? ud_xstrdup(o->split) : NULL;
	f->headers = o->headers != NULL ? ud_xstrdup(o->headers) : NULL;
	f->cb = cb;
	f->ctx = ctx;
	f->markers_hash = ud_xstrdup("-");
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)4 << 20);
	if (git_repository_open_ext(&f->repo, o->tree, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		*cause = ud_git_error(o->tree);
		rc = -ENOENT;
		goto fail;
	}
	f->gitdir = ud_xstrdup(git_repository_path(f->repo));
	f->commondir = ud_xstrdup(git_repository_commondir(f->repo));
	/* the same cache and ref records as `uapid branch REPO` */
	dir = ud_xasprintf("%suapid", f->commondir);
	db = ud_xasprintf("%s/branches.db", dir);
	ud_follow_apilog_init(&f->log, f->headers, f->gitdir, db);
	if ((rc = ud_mkdir_p(dir, cause)) < 0 || (rc = ud_store_open(&f->st, db, cause)) < 0)
		goto fail;
	f->debounce.data = f->ev_git.data = f->ev_common.data = f->ev_ref.data = f;
	f->work.data = f;
	/* the handles, counted as they are made: ud_follow_close closes those, in this order */
	rc = uv_timer_init(loop, &f->debounce);
	if (rc == 0 && ++f->open_handles)
		rc = uv_fs_event_init(loop, &f->ev_git);
	if (rc == 0 && ++f->open_handles)
		rc = uv_fs_event_init(loop, &f->ev_common);
	if (rc == 0 && ++f->open_handles)
		rc = uv_fs_event_init(loop, &f->ev_ref);
	if (rc == 0 && ++f->open_handles)
		rc = uv_fs_event_start(&f->ev_git, on_ref_event, f->gitdir, 0);
	if (rc < 0) {
		*cause = ud_xasprintf("%s: cannot watch: %s", f->gitdir, uv_strerror(rc));
		ud_follow_close(f);
		free(dir);
		free(db);
		return rc;
	}
	/* a linked worktree keeps HEAD apart from the refs */
	if (strcmp(f->gitdir, f->commondir) != 0 &&
	    uv_fs_event_start(&f->ev_common, on_ref_event, f->commondir, 0) == 0)
		f->ev_common_on = true;
	arm_ref_watch(f);
	free(dir);
	free(db);
	*out = f;
	start(f);
	return 0;
fail:
	follow_free(f);
	free(dir);
	free(db);
	return rc;
}

void
ud_follow_set_markers(struct ud_follow *f, const struct ud_markers *set)
{
	char *h = markers_hash(set);

	if (strcmp(h, f->markers_hash) == 0) {
		free(h);
		return;
	}
	copy_markers(&f->markers, set);
	free(f->markers_hash);
	f->markers_hash = h;
	if (f->updates > 0 || f->running)
		ud_follow_poke(f); /* the split branch follows the new markers */
}

json_t *
ud_follow_status(const struct ud_follow *f)
{
	json_t *s;

	if (f->status == NULL)
		return json_pack("{s:s, s:s?, s:s?, s:I, s:b}", "arch", f->arch, "split", f->split,
				 "headers", f->headers, "updates", (json_int_t)0, "busy", 1);
	s = json_deep_copy(f->status);
	json_object_set_new(s, "busy", json_boolean(f->running || f->pending));
	return s;
}

json_t *
ud_follow_api_log(struct ud_follow *f, const struct ud_apilog_query *q, json_t *symbols,
		  char **cause)
{
	return ud_follow_apilog_answer(&f->log, q, symbols, cause);
}

int
ud_follow_busy(const struct ud_follow *f)
{
	return f->running || f->pending;
}

/* Everything the follower owns; fields never set are zero (calloc), which is fine. */
static void
follow_free(struct ud_follow *f)
{
	ud_branch_result_free(&f->res);
	free(f->cause);
	ud_follow_apilog_free(&f->log);
	json_decref(f->status);
	ud_markers_free(&f->markers);
	ud_markers_free(&f->work_markers);
	free(f->markers_hash);
	free(f->work_hash);
	if (f->st != NULL)
		ud_store_close(f->st);
	git_repository_free(f->repo);
	git_libgit2_shutdown();
	free(f->gitdir);
	free(f->commondir);
	free(f->ref_dir);
	free(f->arch);
	free(f->split);
	free(f->headers);
	free(f);
}

static void
maybe_free(struct ud_follow *f)
{
	if (!f->closing || f->running || f->open_handles > 0)
		return;
	follow_free(f);
}

void
ud_follow_close(struct ud_follow *f)
{
	uv_handle_t *handles[4];
	int i, n;

	if (f == NULL || f->closing)
		return;
	f->closing = true;
	handles[0] = (uv_handle_t *)&f->debounce;
	handles[1] = (uv_handle_t *)&f->ev_git;
	handles[2] = (uv_handle_t *)&f->ev_common;
	handles[3] = (uv_handle_t *)&f->ev_ref;
	n = f->open_handles; /* those made, in this order (ud_follow_open) */
	for (i = 0; i < n; i++)
		uv_close(handles[i], on_handle_closed);
	maybe_free(f); /* none made: nothing to wait for */
}
