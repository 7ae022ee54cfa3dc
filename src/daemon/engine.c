// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine (engine.h): opening and closing it, what it remembers
 * between batches, the markers in effect, and the snapshots its batches
 * hand to the thread pool.  The batch itself is engine-batch.c; the other
 * parts are listed in engine-int.h.
 *
 * What it remembers, in memory and in the store alike: per header its
 * stat, blob, export state, outcome and output blobs; per installed header
 * its source blob and blob; per output file its blob and owner.  The tree
 * index and the install plan are rebuilt at start and updated from the
 * paths of each batch.
 *
 * THE THREAD-POOL CONTRACT.  Everything below follows it; a change that
 * cannot is a change of the contract, made here first.
 *
 *  1. A worker reads its own jobs and the batch's snapshot, nothing else.
 *     Its jobs (struct hjob, struct ijob) are made on the loop thread
 *     before their chunk goes out, with the tree index's answers for the
 *     path copied in (takes part, exported, in uapi/); the worker fills in
 *     their results; the loop thread reads them after the chunk is back.
 *     The snapshot (struct engine_snap) holds the markers, the install plan
 *     and the tree's source, taken when the batch starts and complete
 *     before its first chunk goes out; it is reference-counted (the batch
 *     and each chunk on the pool hold a reference), and what it points to
 *     is immutable: a new set of markers or a new plan is a new object,
 *     the old one freed when the last snapshot lets go of it.  The
 *     batch's end has one job of its own, the export-list edits (struct
 *     kbuild_job, engine-apply.c): each directory and its moving names
 *     copied in on the loop thread, the snapshot's source read; it is
 *     counted in chunks_out like a wave's chunk (rule 3).  An installed
 *     header's API history (struct api_job, engine-api.c) is the same: the
 *     version in effect is read from the store into the job on the loop
 *     thread as its wave goes out (for the headers no longer installed, as
 *     the batch's end job is made); the worker parses the models and
 *     compares, the loop thread records.
 *  2. What changes while chunks are out (markers over the socket, SIGHUP
 *     and a new markers file, a replanned install) changes the engine's
 *     current objects; the next batch takes them.
 *  3. Nothing a worker reads is written while chunks are out: the job
 *     arrays only grow, and jobs are only freed, between waves
 *     (ASSERT_NO_CHUNKS_OUT checks it in --enable-debug builds).
 *  4. Workers compute and nothing else: no log, no store, no sink, no
 *     map of the engine.  (ud_log is line-atomic all the same.)
 *  5. Every libuv call's result is checked: a chunk the pool will not take
 *     is computed on the loop thread.
 *  6. A batch's transaction stays open across its waves.  Store writes the
 *     loop thread makes meanwhile (markers over the socket, SIGHUP) join
 *     it and are committed with it; a batch that cannot commit takes them
 *     back, and the engine reloads what the store says, markers included.
 */
#include "config.h"

#include <errno.h>
#include <git2.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-int.h"
#include "uapid/util/hash.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/log.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/daemon/watch.h"
#include "uapid/util/xmalloc.h"

/* --- small helpers -------------------------------------------------------- */

void
ud_engine_blob(const void *data, size_t len, char out[BLOB_HEX])
{
	git_oid oid;

	if (git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB) != 0) {
		out[0] = '\0';
		return;
	}
	git_oid_tostr(out, BLOB_HEX, &oid);
}

/* The split key: the split rules' version and this header's markers. */
void
ud_engine_split_key(const struct ud_markers *set, const char *path, char out[32])
{
	const struct ud_marker **mk = NULL;
	size_t n = ud_markers_for(set, path, &mk), i;
	uint64_t h = UD_FNV64_BASIS;

	for (i = 0; i < n; i++) {
		const char *parts[3] = {ud_marker_action_name(mk[i]->action),
					mk[i]->selector != NULL ? mk[i]->selector : "", ""};
		char occ[16];
		size_t p;

		snprintf(occ, sizeof(occ), "%u", mk[i]->occurrence);
		parts[2] = occ;
		for (p = 0; p < 3; p++)
			h = ud_fnv64_sep(ud_fnv64_str(h, parts[p]));
	}
	free(mk);
	snprintf(out, 32, "%d:%016" PRIx64, UD_SPLIT_VERSION, n > 0 ? h : 0);
}

void
ud_engine_set_problem(struct ud_engine *e, char **slot, const char *what, const char *reason)
{
	char *cause = NULL;

	if ((*slot == NULL && reason == NULL) ||
	    (*slot != NULL && reason != NULL && strcmp(*slot, reason) == 0))
		return;
	free(*slot);
	*slot = reason != NULL ? ud_xstrdup(reason) : NULL;
	if (reason != NULL)
		ud_log(LOG_WARNING, "%s: %s", what, reason);
	else
		ud_log(LOG_NOTICE, "%s: served again", what);
	if (ud_store_set_problem(e->store, what, reason, e->clock, &cause) < 0)
		ud_engine_fault(e, -EIO, cause);
}

void
ud_engine_fault(struct ud_engine *e, int rc, char *cause)
{
	struct batch *b = e->batch;

	if (b != NULL && b->fault == 0) {
		/* the batch's report says it (the daemon's "batch not recorded") */
		ud_log(LOG_DEBUG, "%s: the batch is rolled back", cause);
		b->fault = rc < 0 ? rc : -EIO;
		b->fault_cause = cause;
		return;
	}
	if (b == NULL)
		ud_log(LOG_ERR, "%s", cause);
	free(cause); /* the batch's first fault is said: the rest follow from it */
}

bool
ud_engine_failed(const struct batch *b)
{
	return b->fault != 0 || ud_store_tx_error(b->e->store) != 0;
}

/* --- paths that could not be looked at ------------------------------------------- */

static void
failing_free(void *v)
{
	struct failing *f = v;

	if (f != NULL)
		free(f->cause);
	free(f);
}

void
ud_engine_fail_path(struct ud_engine *e, const char *path, char *cause, bool dir)
{
	struct failing *f = ud_map_get(&e->failing, path);

	if (f != NULL && strcmp(f->cause, cause) == 0) {
		e->failing_dirs += dir && !f->dir;
		f->dir |= dir;
		free(cause); /* said already: each retry is not news */
		return;
	}
	ud_log(LOG_WARNING, "%s: kept as it was, looked at again until it can be read", cause);
	if (f == NULL) {
		f = ud_xcalloc(1, sizeof(*f));
		ud_map_put(&e->failing, path, f);
	}
	free(f->cause);
	f->cause = cause;
	e->failing_dirs += dir && !f->dir;
	f->dir |= dir;
}

void
ud_engine_path_ok(struct ud_engine *e, const char *path, bool below)
{
	struct ud_strlist gone = UD_STRLIST_INIT;
	const char *k;
	void *v;
	size_t i = 0;

	if (e->failing.n == 0)
		return;
	if (!below) {
		struct failing *f = ud_map_get(&e->failing, path);

		/* a directory's failure is over when the directory is read, not one file of it */
		if (f != NULL && !f->dir) {
			failing_free(ud_map_del(&e->failing, path));
			ud_log(LOG_NOTICE, "%s: read again", path);
		}
		return;
	}
	/* the directories: their files' failures end when the files are read */
	while (ud_map_next(&e->failing, &i, &k, &v))
		if (((struct failing *)v)->dir && has_prefix_dir(k, path))
			ud_strlist_add(&gone, k);
	for (i = 0; i < gone.n; i++) {
		failing_free(ud_map_del(&e->failing, gone.v[i]));
		e->failing_dirs--;
		ud_log(LOG_NOTICE, "%s: read again", gone.v[i][0] ? gone.v[i] : ".");
	}
	ud_strlist_free(&gone);
}

bool
ud_engine_path_unsure(const struct ud_engine *e, const char *path)
{
	const char *k;
	void *v;
	size_t i = 0;

	if (e->failing_dirs == 0)
		return false; /* a full scan's every job asks: most often, no work at all */
	while (ud_map_next(&e->failing, &i, &k, &v))
		if (((struct failing *)v)->dir && has_prefix_dir(path, k))
			return true;
	return false;
}

void
ud_engine_failing_problem(struct ud_engine *e)
{
	struct ud_strlist paths = UD_STRLIST_INIT;
	struct ud_buf why = UD_BUF_INIT;
	const char *k;
	size_t i = 0;

	while (ud_map_next(&e->failing, &i, &k, NULL))
		ud_strlist_add(&paths, k);
	ud_strlist_sort(&paths);
	for (i = 0; i < paths.n && i < 3; i++)
		ud_buf_addf(&why, "%s%s", i > 0 ? "; " : "",
			    ((struct failing *)ud_map_get(&e->failing, paths.v[i]))->cause);
	if (paths.n > 3)
		ud_buf_addf(&why, "; and %zu more", paths.n - 3);
	if (paths.n > 0)
		ud_buf_addf(&why, " (kept as they were; looked at again with back-off)");
	ud_engine_set_problem(e, &e->problem_read, "read", paths.n > 0 ? ud_buf_str(&why) : NULL);
	ud_buf_free(&why);
	ud_strlist_free(&paths);
}

void
ud_engine_each_failing(const struct ud_engine *e, void (*fn)(void *ctx, const char *path, bool dir),
		       void *ctx)
{
	const char *k;
	void *v;
	size_t i = 0;

	while (ud_map_next(&e->failing, &i, &k, &v))
		fn(ctx, k, ((struct failing *)v)->dir);
}

static int
load_problem(const char *what, const char *reason, void *ctx)
{
	struct ud_engine *e = ctx;
	char **slot = strcmp(what, "install") == 0 ? &e->problem_install
		      : strcmp(what, "split") == 0 ? &e->problem_split
		      : strcmp(what, "read") == 0  ? &e->problem_read
						   : NULL;

	if (slot != NULL) {
		free(*slot);
		*slot = ud_xstrdup(reason);
	}
	return 0;
}

void
ud_engine_load_problems(struct ud_engine *e)
{
	free(e->problem_install);
	free(e->problem_split);
	free(e->problem_read);
	e->problem_install = e->problem_split = e->problem_read = NULL;
	e->problem_split_count = 0; /* counted again by the next batch */
	(void)ud_store_each_problem(e->store, load_problem, e, NULL);
}

const char *const ud_engine_outcome_names[] = {
	[OUT_NONE] = "",	   [OUT_SPLIT] = "split",
	[OUT_MOVED] = "moved",	   [OUT_NEEDS_COACHING] = "needs-coaching",
	[OUT_SKIPPED] = "skipped", [OUT_UNEXPORTED] = "unexported",
	[OUT_UAPI] = "uapi",	   [OUT_UNREADABLE] = "unreadable",
};
static_assert(ARRAY_SIZE(ud_engine_outcome_names) == OUT__COUNT,
	      "an outcome without a name, or a name without an outcome");

enum outcome
ud_engine_outcome(const char *name)
{
	enum outcome o;

	for (o = OUT_SPLIT; o < OUT__COUNT; o++)
		if (name != NULL && strcmp(name, ud_engine_outcome_names[o]) == 0)
			return o;
	return OUT_NONE;
}

/* Adds (sign 1) or takes away (-1) a header's part of the counts. */
void
ud_engine_count_header(struct ud_engine *e, const struct hstate *h, int sign)
{
	struct ud_engine_counts *c = &e->counts;
	size_t d = (size_t)(ptrdiff_t)sign;

	if (h == NULL)
		return;
	c->headers += d;
	if (h->exported)
		c->exported += d;
	switch (h->outcome) {
	case OUT_SPLIT:
		c->split += d;
		break;
	case OUT_MOVED:
		c->moved += d;
		break;
	case OUT_NEEDS_COACHING:
		c->needs_coaching += d;
		break;
	case OUT_SKIPPED:
		c->skipped += d;
		break;
	case OUT_UNREADABLE:
		c->unreadable += d;
		break;
	default:
		break;
	}
}

void
ud_engine_count_installed(struct ud_engine *e, const char *blob, int sign)
{
	size_t d = (size_t)(ptrdiff_t)sign;

	if (blob == NULL)
		return;
	e->counts.installed += d;
	if (blob[0] == '\0')
		e->counts.install_failed += d;
}

void
ud_engine_istate_free(void *v)
{
	struct istate *s = v;

	if (s != NULL)
		free(s->src);
	free(s);
}

/* --- what the store remembers ------------------------------------------------- */

static int
load_header(const struct ud_hrow *r, void *ctx)
{
	struct ud_engine *e = ctx;
	struct hstate *h = ud_xcalloc(1, sizeof(*h));

	h->size = r->size;
	h->mtime_ns = r->mtime_ns;
	h->ino = r->ino;
	copy_str(h->blob, sizeof(h->blob), r->blob);
	copy_str(h->key, sizeof(h->key), r->split_key);
	h->exported = r->exported;
	h->outcome = ud_engine_outcome(r->outcome);
	copy_str(h->kblob, sizeof(h->kblob), r->kernel_blob);
	copy_str(h->ublob, sizeof(h->ublob), r->uapi_blob);
	ud_engine_count_header(e, h, 1);
	free(ud_map_put(&e->headers, r->path, h));
	return 0;
}

static int
load_installed(const char *dst, const char *src, const char *src_blob, const char *blob,
	       const char *diagnostics, void *ctx)
{
	struct ud_engine *e = ctx;
	struct istate *s = ud_xcalloc(1, sizeof(*s));

	(void)diagnostics;
	s->src = ud_xstrdup(src);
	copy_str(s->src_blob, sizeof(s->src_blob), src_blob);
	copy_str(s->blob, sizeof(s->blob), blob);
	ud_engine_count_installed(e, s->blob, 1);
	ud_engine_istate_free(ud_map_put(&e->installed, dst, s));
	return 0;
}

static int
load_output(const char *path, const char *blob, const char *owner, void *ctx)
{
	struct ud_engine *e = ctx;
	struct ostate *o = ud_xcalloc(1, sizeof(*o));

	copy_str(o->blob, sizeof(o->blob), blob);
	o->owner = ud_xstrdup(owner);
	ud_engine_ostate_free(ud_map_put(&e->outputs, path, o));
	return 0;
}

/* The rows, as the store has them now (at open, and after a batch that could not commit). */
int
ud_engine_load_state(struct ud_engine *e, char **cause)
{
	int rc;
	char *key;

	ud_map_free(&e->headers, free);
	ud_map_free(&e->installed, ud_engine_istate_free);
	ud_map_free(&e->outputs, ud_engine_ostate_free);
	memset(&e->counts, 0, sizeof(e->counts));
	if ((rc = ud_store_each_header_state(e->store, load_header, e, cause)) < 0 ||
	    (rc = ud_store_each_installed(e->store, load_installed, e, cause)) < 0 ||
	    (rc = ud_store_each_output(e->store, load_output, e, cause)) < 0)
		return rc;
	key = ud_store_meta(e->store, "install_key");
	copy_str(e->install_key, sizeof(e->install_key), key);
	free(key);
	e->clock = ud_store_clock(e->store);
	return 0;
}

/* --- the markers ----------------------------------------------------------------- */

/* Appends copies of from's markers to to (selectors are normalised already). */
static void
add_markers(struct ud_markers *to, const struct ud_markers *from)
{
	size_t i;

	for (i = 0; i < from->n; i++) {
		const struct ud_marker *m = &from->v[i];

		ud_markers_add(to, m->path, m->action, NULL, m->occurrence, m->why);
		to->v[to->n - 1].selector = m->selector != NULL ? ud_xstrdup(m->selector) : NULL;
		to->v[to->n - 1].line = m->line;
	}
}

static void
markers_unref(struct markers_ref *m)
{
	if (m == NULL || --m->refs > 0)
		return;
	ud_markers_free(&m->set);
	free(m);
}

/*
 * The markers in effect, made anew from the file's and those added over
 * the socket (the store's): a new object, so that a batch's snapshot
 * keeps the one it took.
 */
int
ud_engine_load_markers(struct ud_engine *e, char **cause)
{
	struct ud_markers socket = UD_MARKERS_INIT;
	struct markers_ref *m;
	int rc;

	if ((rc = ud_store_markers(e->store, "socket", &socket, NULL, cause)) < 0)
		return rc;
	m = ud_xcalloc(1, sizeof(*m));
	m->refs = 1;
	add_markers(&m->set, &e->file_markers);
	add_markers(&m->set, &socket);
	ud_markers_free(&socket);
	markers_unref(e->markers);
	e->markers = m;
	return 0;
}

/* Reads the --markers file into out. */
static int
read_markers_file(struct ud_engine *e, struct ud_markers *out, char **cause)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	int rc = 0;

	if (e->markers_path == NULL)
		return 0;
	if ((rc = ud_read_file(e->markers_path, &b, cause)) < 0) {
		ud_buf_free(&b);
		return rc;
	}
	if (ud_markers_parse(out, b.data, b.len, &d) < 0) {
		const struct ud_diag *g = &d.v[0];

		*cause = ud_xasprintf("%s:%u: %s%s", e->markers_path, g->line, g->message,
				      d.n > 1 ? " (and more)" : "");
		rc = -EINVAL;
	}
	ud_diags_free(&d);
	ud_buf_free(&b);
	return rc;
}

/*
 * Records the file's markers in the store: in the batch's transaction when
 * one is open (rule 6), else in one of its own.
 */
static int
store_file_markers(struct ud_engine *e, const struct ud_markers *set, char **cause)
{
	bool own = !ud_store_in_transaction(e->store);
	int rc;

	if (own && (rc = ud_store_begin(e->store, cause)) < 0)
		return rc;
	if ((rc = ud_store_set_markers(e->store, "file", set, cause)) < 0) {
		if (own)
			ud_store_rollback(e->store);
		return rc;
	}
	return own ? ud_store_commit(e->store, cause) : 0;
}

int
ud_engine_reload_markers(struct ud_engine *e, char **cause)
{
	struct ud_markers fresh = UD_MARKERS_INIT;
	int rc;

	if ((rc = read_markers_file(e, &fresh, cause)) < 0 ||
	    (rc = store_file_markers(e, &fresh, cause)) < 0) {
		ud_markers_free(&fresh);
		return rc; /* the old markers stay, in memory as in the store */
	}
	ud_markers_free(&e->file_markers);
	e->file_markers = fresh;
	return ud_engine_load_markers(e, cause);
}

int
ud_engine_reload_store_markers(struct ud_engine *e, char **cause)
{
	struct ud_markers file = UD_MARKERS_INIT;
	int rc;

	/* the file's as the store has them: a batch that could not commit took a change back */
	if ((rc = ud_store_markers(e->store, "file", &file, NULL, cause)) < 0)
		return rc;
	ud_markers_free(&e->file_markers);
	e->file_markers = file;
	return ud_engine_load_markers(e, cause);
}

const struct ud_markers *
ud_engine_markers(const struct ud_engine *e)
{
	return &e->markers->set;
}

/* --- snapshots (rule 1) ------------------------------------------------------------ */

struct plan_ref *
ud_engine_plan_ref(struct plan_ref *p)
{
	if (p != NULL)
		p->refs++;
	return p;
}

void
ud_engine_plan_unref(struct plan_ref *p)
{
	if (p == NULL || --p->refs > 0)
		return;
	ud_headers_plan_free(&p->plan);
	free(p);
}

/* A snapshot of the markers in effect and the tree; the batch adds its plan once it has one. */
struct engine_snap *
ud_engine_snap_take(struct ud_engine *e)
{
	struct engine_snap *s = ud_xcalloc(1, sizeof(*s));

	s->refs = 1;
	e->markers->refs++;
	s->markers = e->markers;
	s->src = &e->src;
	return s;
}

struct engine_snap *
ud_engine_snap_ref(struct engine_snap *s)
{
	s->refs++;
	return s;
}

void
ud_engine_snap_unref(struct engine_snap *s)
{
	if (s == NULL || --s->refs > 0)
		return;
	/* the objects are immutable, their counts the loop thread's: cast to let go */
	markers_unref((struct markers_ref *)(uintptr_t)s->markers);
	ud_engine_plan_unref((struct plan_ref *)(uintptr_t)s->plan);
	free(s);
}

/* --- opening and closing --------------------------------------------------------------- */

int
ud_engine_open(struct ud_engine **out, uv_loop_t *loop, const struct ud_engine_opts *o,
	       char **cause)
{
	struct ud_engine *e = ud_xcalloc(1, sizeof(*e));
	char *db;
	int rc;

	*out = NULL;
	e->loop = loop;
	e->root = ud_xstrdup(o->root);
	e->state_dir = ud_xstrdup(o->state_dir);
	e->arch = ud_xstrdup(o->arch);
	e->markers_path = o->markers != NULL ? ud_xstrdup(o->markers) : NULL;
#ifdef UD_TEST_HOOKS
	if (getenv("UAPID_TEST_CRASH_AFTER") != NULL)
		e->crash_after = strtol(getenv("UAPID_TEST_CRASH_AFTER"), NULL, 10);
#endif
	if ((rc = ud_source_open_dir(&e->src, e->root, cause)) < 0)
		goto fail;
	if ((rc = read_markers_file(e, &e->file_markers, cause)) < 0)
		goto fail;
	db = ud_xasprintf("%s/state.db", e->state_dir);
	rc = ud_store_open(&e->store, db, cause);
	free(db);
	if (rc < 0)
		goto fail;
	/* the outputs are the state directory's: private, as it is (daemon.c) */
	if ((rc = ud_sink_open_dir(&e->out, e->state_dir, UD_SINK_PRIVATE, cause)) < 0)
		goto fail;
	if ((rc = ud_store_begin(e->store, cause)) < 0)
		goto fail;
	if ((rc = ud_store_set_markers(e->store, "file", &e->file_markers, cause)) < 0 ||
	    (rc = ud_store_set_meta(e->store, "tree", e->root, cause)) < 0 ||
	    (rc = ud_store_set_meta(e->store, "arch", e->arch, cause)) < 0) {
		ud_store_rollback(e->store);
		goto fail;
	}
	if ((rc = ud_store_commit(e->store, cause)) < 0)
		goto fail;
	if ((rc = ud_engine_load_state(e, cause)) < 0 ||
	    (rc = ud_engine_load_markers(e, cause)) < 0)
		goto fail;
	ud_engine_backfill_api(e);
	*out = e;
	return 0;
fail:
	ud_engine_close(e);
	return rc;
}

void
ud_engine_set_progress(struct ud_engine *e, ud_engine_progress_fn fn, void *ctx)
{
	e->progress = fn;
	e->progress_ctx = ctx;
}

void
ud_engine_close(struct ud_engine *e)
{
	if (e == NULL)
		return;
	/* the loop has stopped: no batch is in flight (shutdown waits for it) */
	assert(e->batch == NULL);
	ud_engine_plan_unref(e->plan);
	ud_strlist_free(&e->plan_reads);
	ud_strlist_free(&e->plan_dirs);
	ud_map_free(&e->headers, free);
	ud_map_free(&e->installed, ud_engine_istate_free);
	ud_map_free(&e->outputs, ud_engine_ostate_free);
	ud_map_free(&e->force_headers, NULL);
	ud_map_free(&e->force_installed, NULL);
	ud_map_free(&e->unrecorded, free);
	ud_map_free(&e->failing, failing_free);
	markers_unref(e->markers);
	ud_markers_free(&e->file_markers);
	ud_tindex_free(e->idx);
	ud_sink_close(&e->out);
	ud_source_close(&e->src);
	ud_store_close(e->store);
	free(e->problem_install);
	free(e->problem_split);
	free(e->problem_read);
	free(e->problem_exports);
	free(e->root);
	free(e->state_dir);
	free(e->arch);
	free(e->markers_path);
	free(e);
}

/* --- what the daemon asks ---------------------------------------------------------------- */

bool
ud_engine_busy(const struct ud_engine *e)
{
	return e->batch != NULL;
}

int
ud_engine_dir_interest(const struct ud_engine *e, const char *rel)
{
	size_t i;

	if (rel[0] == '\0')
		return UD_WATCH_ON; /* the top Makefile */
	if (strcmp(rel, ".git") == 0 || has_prefix_dir(e->state_dir, rel) ||
	    (strncmp(e->state_dir, e->root, strlen(e->root)) == 0 &&
	     e->state_dir[strlen(e->root)] == '/' &&
	     has_prefix_dir(rel, e->state_dir + strlen(e->root) + 1)))
		return UD_WATCH_SKIP; /* git's own files and the daemon's outputs: never */
	/*
	 * Where the tree index looks, the headers are; on the way to them, the
	 * Makefiles (the top's, arch/NAME's) the install plan reads.
	 */
	if (ud_tindex_scope(rel) != UD_TINDEX_OUTSIDE)
		return UD_WATCH_ON;
	for (i = 0; i < e->plan_dirs.n; i++) {
		if (strcmp(e->plan_dirs.v[i], rel) == 0)
			return UD_WATCH_ON;
		if (has_prefix_dir(e->plan_dirs.v[i], rel))
			return UD_WATCH_ON; /* on the way: watched, so its coming back is seen */
	}
	return UD_WATCH_SKIP;
}

const struct ud_strlist *
ud_engine_plan_dirs(const struct ud_engine *e)
{
	return &e->plan_dirs;
}

struct ud_store *
ud_engine_store(struct ud_engine *e)
{
	return e->store;
}

const char *
ud_engine_root(const struct ud_engine *e)
{
	return e->root;
}

void
ud_engine_counts(const struct ud_engine *e, struct ud_engine_counts *c)
{
	*c = e->counts;
	c->outputs = e->outputs.n;
}

const char *
ud_engine_problem(const struct ud_engine *e, const char *what)
{
	if (strcmp(what, "install") == 0)
		return e->problem_install;
	if (strcmp(what, "split") == 0)
		return e->problem_split;
	if (strcmp(what, "exports") == 0)
		return e->problem_exports;
	return NULL;
}
