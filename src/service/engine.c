// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine (engine.h).
 *
 * What it remembers between batches, in memory and in the store alike:
 * per header its stat, blob, export state, outcome and output blobs; per
 * installed header its source blob and blob; per output file its blob and
 * owner.  The tree index and the install plan are rebuilt at start and
 * updated from the paths of each batch.
 *
 * A batch is cut into waves of jobs so that a full scan of a big tree
 * never holds every header's split in memory at once: each wave is
 * computed on the thread pool and applied on the loop thread, inside the
 * batch's one transaction, before the next wave starts.
 */
#include <errno.h>
#include <git2.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uapid/api.h"
#include "uapid/apiquery.h"
#include "uapid/engine.h"
#include "uapid/fsutil.h"
#include "uapid/headers.h"
#include "uapid/hsplit.h"
#include "uapid/json.h"
#include "uapid/log.h"
#include "uapid/map.h"
#include "uapid/path.h"
#include "uapid/sink.h"
#include "uapid/source.h"
#include "uapid/tindex.h"
#include "uapid/watch.h"
#include "uapid/xmalloc.h"

#define BLOB_HEX 41	  /* a git blob id in hex, with its NUL */
#define JOBS_PER_CHUNK 32 /* jobs per thread-pool request */
/*
 * A file changed this recently may change again within the same tick of
 * the file system's clock without its size or mtime moving ("racy git"):
 * its stat is not trusted next time, its content is hashed again.
 */
#define RACY_NS (2 * 1000000000LL)
#define JOBS_PER_WAVE 512 /* jobs computed before their results are applied */
/*
 * A wave this small is computed on the loop thread: a lone save's header
 * takes tens of microseconds, less than waking a pool thread and hearing
 * back from it costs on a busy machine.
 */
#define INLINE_JOBS 4

/* What is remembered of one header (a row of the headers table). */
struct hstate {
	int64_t size, mtime_ns;
	uint64_t ino;
	char blob[BLOB_HEX];
	char key[32]; /* the split key: what besides the text decides the split */
	bool exported;
	char outcome[16];
	char kblob[BLOB_HEX]; /* the kernel header in split/, "" for none */
	char ublob[BLOB_HEX]; /* the uapi header in split/, "" for none */
};

/* One installed header (a row of the installed table). */
struct istate {
	char *src;
	char src_blob[BLOB_HEX];
	char blob[BLOB_HEX]; /* "" when it failed */
};

/* One output file (a row of the outputs table). */
struct ostate {
	char blob[BLOB_HEX];
	char *owner;
};

/* A header to look at, and what the thread pool found. */
struct hjob {
	char *path;
	bool force;	 /* split again even when nothing seems to have changed */
	bool takes_part; /* by the index, now: false when it is no header any more */
	bool exported;	 /* by the index, now */
	bool uapi_dir;
	bool had_row;
	struct hstate old;
	char key[32];
	/* results */
	bool gone, same, unreadable;
	bool racy; /* modified within RACY_NS of the look: its mtime is not recorded */
	struct ud_fstat st;
	char blob[BLOB_HEX];
	char *cause;
	struct ud_hsplit h;
	bool split; /* h is filled */
	char outcome[16];
	char *blocks, *diags; /* JSON */
	struct ud_markers in_source;
};

/* An installed header to make. */
struct ijob {
	size_t fi; /* its file in the plan */
	struct ud_installed in;
	char src_blob[BLOB_HEX];
	char blob[BLOB_HEX];
};

struct chunk {
	uv_work_t req;
	struct ud_engine *e;
	size_t h0, h1, i0, i1; /* the jobs it computes */
};

struct ud_engine {
	uv_loop_t *loop;
	char *root, *state_dir, *arch, *markers_path;
	struct ud_store *store;
	struct ud_source src;
	struct ud_tindex *idx;
	struct ud_sink out;
	struct ud_markers file_markers;	  /* from --markers */
	struct ud_markers markers;	  /* in effect: the file's and the socket's */
	struct ud_map headers, installed; /* path -> hstate, dst -> istate */
	struct ud_map outputs;		  /* state-relative path -> ostate */
	bool verify_disk; /* this batch was asked for (resplit): outputs are checked on disk too */
	struct ud_map force_headers;   /* headers whose outputs are missing or damaged */
	struct ud_map force_installed; /* installed headers the same */
	/* the install */
	bool have_plan;
	struct ud_hdr_plan plan;
	struct ud_strlist plan_reads; /* what planning looked at, sorted */
	struct ud_strlist plan_dirs;  /* their directories, sorted */
	char install_key[32];	      /* the install rules the installed headers were made with */
	char *problem_install, *problem_split;
	size_t problem_split_count;
	/* the batch in flight */
	bool busy;
	struct ud_sched_batch *batch;
	ud_engine_done_fn done;
	void *done_ctx;
	struct hjob *hjobs;
	size_t nhjobs, ahjobs;
	struct ijob *ijobs;
	size_t nijobs, aijobs;
	struct ud_strlist uninstall; /* planned files gone from the plan */
	size_t wave_h0, wave_i0;     /* the wave being computed: [wave_h0, wave_h) */
	size_t wave_h, wave_i;	     /* and where the next one starts */
	unsigned chunks_out;
	bool kbuild_all;	      /* recompute every directory's export lists */
	struct ud_strlist dirty_dirs; /* directories whose moves changed */
	bool removed_dirty;
	bool replanned;
	uint64_t t0;
	struct ud_engine_report rep;
	ud_engine_progress_fn progress;
	void *progress_ctx;
	size_t progress_total, progress_done;
	int64_t clock;
	struct ud_engine_counts counts; /* kept as rows change (outputs: counted when asked) */
	long crash_after; /* test hook UAPID_TEST_CRASH_AFTER=N: SIGKILL before the Nth write */
	struct ud_map changed_set; /* the paths of rep.changed */
};

static void report_reset(struct ud_engine *e);

/* --- small helpers ------------------------------------------------------- */

static void
blob_of(const void *data, size_t len, char out[BLOB_HEX])
{
	git_oid oid;

	if (git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB) != 0) {
		out[0] = '\0';
		return;
	}
	git_oid_tostr(out, BLOB_HEX, &oid);
}

static void
copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src != NULL ? src : "");
}

static bool
has_prefix_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n == 0 || (strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

static bool
has_h_suffix(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && strcmp(path + n - 2, ".h") == 0;
}

/* Is path one of the tree's headers now (the tree index says), or was it? */
static bool
header_path(const struct ud_engine *e, const char *path)
{
	return ud_tindex_takes_part(e->idx, path) || ud_map_has(&e->headers, path);
}

/* Is path in an include tree's uapi/ part (where the installer reads)? */
static bool
in_uapi_area(const char *path)
{
	const char *n = ud_path_include_name(path);

	return n != NULL && (strncmp(n, "uapi/", 5) == 0 || strcmp(n, "uapi") == 0 ||
			     strncmp(n, "generated/", 10) == 0);
}

/* The split key: the split rules' version and this header's markers. */
static void
split_key(const struct ud_markers *set, const char *path, char out[32])
{
	const struct ud_marker **mk = NULL;
	size_t n = ud_markers_for(set, path, &mk), i;
	uint64_t h = 1469598103934665603ULL;

	for (i = 0; i < n; i++) {
		const char *parts[3] = {ud_marker_action_name(mk[i]->action),
					mk[i]->selector != NULL ? mk[i]->selector : "", ""};
		char occ[16];
		size_t p;

		snprintf(occ, sizeof(occ), "%u", mk[i]->occurrence);
		parts[2] = occ;
		for (p = 0; p < 3; p++) {
			const char *c;

			for (c = parts[p]; *c != '\0'; c++) {
				h ^= (unsigned char)*c;
				h *= 1099511628211ULL;
			}
			h ^= 0xff;
			h *= 1099511628211ULL;
		}
	}
	free(mk);
	snprintf(out, 32, "%d:%016" PRIx64, UD_SPLIT_VERSION, n > 0 ? h : 0);
}

static void
set_problem(struct ud_engine *e, char **slot, const char *what, const char *reason)
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
	if (ud_store_set_problem(e->store, what, reason, e->clock, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
}

static void
event(struct ud_engine *e, const char *path, const char *kind, const char *detail)
{
	char *cause = NULL;
	int64_t c = ud_store_event(e->store, path, kind, detail, &cause);

	if (!ud_map_has(&e->changed_set, path)) {
		ud_map_put(&e->changed_set, path, (void *)1);
		ud_strlist_add(&e->rep.changed, path);
	}
	if (c < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return;
	}
	e->clock = c;
}

/* Adds (sign 1) or takes away (-1) a header's part of the counts. */
static void
count_header(struct ud_engine *e, const struct hstate *h, int sign)
{
	struct ud_engine_counts *c = &e->counts;
	size_t d = (size_t)(ptrdiff_t)sign;

	if (h == NULL)
		return;
	c->headers += d;
	if (h->exported)
		c->exported += d;
	if (strcmp(h->outcome, "split") == 0)
		c->split += d;
	else if (strcmp(h->outcome, "moved") == 0)
		c->moved += d;
	else if (strcmp(h->outcome, "needs-coaching") == 0)
		c->needs_coaching += d;
	else if (strcmp(h->outcome, "skipped") == 0)
		c->skipped += d;
	else if (strcmp(h->outcome, "unreadable") == 0)
		c->unreadable += d;
}

static void
count_installed(struct ud_engine *e, const char *blob, int sign)
{
	size_t d = (size_t)(ptrdiff_t)sign;

	if (blob == NULL)
		return;
	e->counts.installed += d;
	if (blob[0] == '\0')
		e->counts.install_failed += d;
}

/* --- outputs ------------------------------------------------------------ */

static void
ostate_free(void *v)
{
	struct ostate *o = v;

	if (o != NULL)
		free(o->owner);
	free(o);
}

static void
istate_free(void *v)
{
	struct istate *s = v;

	if (s != NULL)
		free(s->src);
	free(s);
}

/* Removes the directories a removal left empty, up to split/ or install/include/. */
static void
prune_dirs(struct ud_engine *e, const char *rel)
{
	char *dir = ud_path_dir(rel);

	while (strchr(dir, '/') != NULL && strcmp(dir, "install/include") != 0) {
		char *abs = ud_xasprintf("%s/%s", e->state_dir, dir);
		char *up;
		int rc = rmdir(abs);

		free(abs);
		if (rc < 0)
			break; /* not empty (or gone): stop */
		up = ud_path_dir(dir);
		free(dir);
		dir = up;
	}
	free(dir);
}

/* Writes an output (when its blob differs from what is there); 0 or a negative errno. */
static int
put_output(struct ud_engine *e, const char *rel, const char *owner, const char *data, size_t len)
{
	struct ostate *o = ud_map_get(&e->outputs, rel);
	char blob[BLOB_HEX], *cause = NULL;
	int rc;

	bool damaged = false;

	blob_of(data, len, blob);
	if (e->verify_disk && o != NULL && strcmp(o->blob, blob) == 0) {
		/* asked to split again: what the store says is there may have been damaged */
		struct ud_buf there = UD_BUF_INIT;

		damaged = ud_sink_read(&e->out, rel, &there, NULL) != 0 || there.len != len ||
			  (len > 0 && memcmp(there.data, data, len) != 0);
		ud_buf_free(&there);
	}
	if (!damaged && o != NULL && strcmp(o->blob, blob) == 0 && strcmp(o->owner, owner) == 0)
		return 0;
	if (damaged || o == NULL || strcmp(o->blob, blob) != 0) {
		if (e->crash_after > 0 && --e->crash_after == 0)
			raise(SIGKILL); /* the test hook: killed between the writes and the commit
					 */
		if ((rc = ud_sink_write(&e->out, rel, data, len, &cause)) < 0) {
			ud_log(LOG_ERR, "%s", cause);
			free(cause);
			e->rep.failed++;
			return rc;
		}
		e->rep.written++;
	}
	if ((rc = ud_store_put_output(e->store, rel, blob, owner, &cause)) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return rc;
	}
	if (o == NULL) {
		o = ud_xcalloc(1, sizeof(*o));
		ud_map_put(&e->outputs, rel, o);
	}
	copy_str(o->blob, sizeof(o->blob), blob);
	free(o->owner);
	o->owner = ud_xstrdup(owner);
	return 0;
}

static void
drop_output(struct ud_engine *e, const char *rel)
{
	char *cause = NULL;

	if (ud_sink_remove(&e->out, rel, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		e->rep.failed++;
		return; /* still recorded: the next start finds it and repairs */
	}
	e->rep.removed++;
	prune_dirs(e, rel);
	if (ud_store_del_output(e->store, rel, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	ostate_free(ud_map_del(&e->outputs, rel));
}

/* Every output of owner that is not in keep (may be NULL) goes. */
static void
drop_owned(struct ud_engine *e, const char *owner, const struct ud_strlist *keep)
{
	struct ud_strlist gone = UD_STRLIST_INIT;
	const char *k;
	void *v;
	size_t i = 0;

	while (ud_map_next(&e->outputs, &i, &k, &v))
		if (strcmp(((struct ostate *)v)->owner, owner) == 0 &&
		    (keep == NULL || !ud_strlist_has(keep, k)))
			ud_strlist_add(&gone, k);
	for (i = 0; i < gone.n; i++)
		drop_output(e, gone.v[i]);
	ud_strlist_free(&gone);
}

/* --- loading what the store remembers ---------------------------------------- */

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
	copy_str(h->outcome, sizeof(h->outcome), r->outcome);
	copy_str(h->kblob, sizeof(h->kblob), r->kernel_blob);
	copy_str(h->ublob, sizeof(h->ublob), r->uapi_blob);
	count_header(e, h, 1);
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
	count_installed(e, s->blob, 1);
	istate_free(ud_map_put(&e->installed, dst, s));
	return 0;
}

static int
load_output(const char *path, const char *blob, const char *owner, void *ctx)
{
	struct ud_engine *e = ctx;
	struct ostate *o = ud_xcalloc(1, sizeof(*o));

	copy_str(o->blob, sizeof(o->blob), blob);
	o->owner = ud_xstrdup(owner);
	ostate_free(ud_map_put(&e->outputs, path, o));
	return 0;
}

static int
load_state(struct ud_engine *e, char **cause)
{
	int rc;
	char *key;

	ud_map_free(&e->headers, free);
	ud_map_free(&e->installed, istate_free);
	ud_map_free(&e->outputs, ostate_free);
	memset(&e->counts, 0, sizeof(e->counts));
	if ((rc = ud_store_each_header(e->store, load_header, e, cause)) < 0 ||
	    (rc = ud_store_each_installed(e->store, load_installed, e, cause)) < 0 ||
	    (rc = ud_store_each_output(e->store, load_output, e, cause)) < 0)
		return rc;
	key = ud_store_meta(e->store, "install_key");
	copy_str(e->install_key, sizeof(e->install_key), key);
	free(key);
	e->clock = ud_store_clock(e->store);
	return 0;
}

/* The markers in effect: the file's and those added over the socket. */
static int
load_markers(struct ud_engine *e, char **cause)
{
	struct ud_markers socket = UD_MARKERS_INIT;
	size_t i;
	int rc;

	if ((rc = ud_store_markers(e->store, "socket", &socket, NULL, cause)) < 0)
		return rc;
	ud_markers_free(&e->markers);
	for (i = 0; i < e->file_markers.n; i++) {
		const struct ud_marker *m = &e->file_markers.v[i];

		ud_markers_add(&e->markers, m->path, m->action, NULL, m->occurrence, m->why);
		e->markers.v[e->markers.n - 1].selector =
			m->selector != NULL ? ud_xstrdup(m->selector) : NULL;
		e->markers.v[e->markers.n - 1].line = m->line;
	}
	for (i = 0; i < socket.n; i++) {
		const struct ud_marker *m = &socket.v[i];

		ud_markers_add(&e->markers, m->path, m->action, NULL, m->occurrence, m->why);
		e->markers.v[e->markers.n - 1].selector =
			m->selector != NULL ? ud_xstrdup(m->selector) : NULL;
	}
	ud_markers_free(&socket);
	return 0;
}

/* Reads the --markers file into file_markers; the store keeps a copy. */
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

/* --- opening -------------------------------------------------------------- */

static void backfill_api(struct ud_engine *e);

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
	if (getenv("UAPID_TEST_CRASH_AFTER") != NULL)
		e->crash_after = strtol(getenv("UAPID_TEST_CRASH_AFTER"), NULL, 10);
	if ((rc = ud_source_open_dir(&e->src, e->root, cause)) < 0)
		goto fail;
	if ((rc = read_markers_file(e, &e->file_markers, cause)) < 0)
		goto fail;
	db = ud_xasprintf("%s/state.db", e->state_dir);
	rc = ud_store_open(&e->store, db, cause);
	free(db);
	if (rc < 0)
		goto fail;
	if ((rc = ud_sink_open_dir(&e->out, e->state_dir, 0, cause)) < 0)
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
	if ((rc = load_state(e, cause)) < 0 || (rc = load_markers(e, cause)) < 0)
		goto fail;
	backfill_api(e);
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

static void
hjob_free(struct hjob *j)
{
	free(j->path);
	free(j->cause);
	free(j->blocks);
	free(j->diags);
	if (j->split)
		ud_hsplit_free(&j->h);
	ud_markers_free(&j->in_source);
	memset(j, 0, sizeof(*j));
}

static void
jobs_free(struct ud_engine *e)
{
	size_t i;

	for (i = 0; i < e->nhjobs; i++)
		hjob_free(&e->hjobs[i]);
	for (i = 0; i < e->nijobs; i++)
		ud_installed_free(&e->ijobs[i].in);
	e->nhjobs = e->nijobs = 0;
	ud_strlist_free(&e->uninstall);
	ud_strlist_free(&e->dirty_dirs);
}

void
ud_engine_close(struct ud_engine *e)
{
	if (e == NULL)
		return;
	jobs_free(e);
	free(e->hjobs);
	free(e->ijobs);
	ud_sched_batch_free(e->batch);
	if (e->have_plan)
		ud_headers_plan_free(&e->plan);
	ud_strlist_free(&e->plan_reads);
	ud_strlist_free(&e->plan_dirs);
	ud_map_free(&e->headers, free);
	ud_map_free(&e->installed, istate_free);
	ud_map_free(&e->outputs, ostate_free);
	ud_map_free(&e->force_headers, NULL);
	ud_map_free(&e->force_installed, NULL);
	ud_markers_free(&e->markers);
	ud_markers_free(&e->file_markers);
	ud_tindex_free(e->idx);
	ud_sink_close(&e->out);
	ud_source_close(&e->src);
	ud_store_close(e->store);
	free(e->problem_install);
	free(e->problem_split);
	free(e->root);
	free(e->state_dir);
	free(e->arch);
	free(e->markers_path);
	report_reset(e);
	free(e);
}

/* --- the start-up check of the outputs ------------------------------------------ */

struct verify {
	struct ud_engine *e;
	struct ud_map seen;
	size_t strays, damaged;
};

static void
mark_damaged(struct ud_engine *e, const char *rel)
{
	struct ostate *o = ud_map_get(&e->outputs, rel);
	char *cause = NULL;

	if (o == NULL)
		return;
	if (strcmp(o->owner, "install") == 0)
		ud_map_put(&e->force_installed, rel + strlen("install/include/"), (void *)1);
	else if (strncmp(o->owner, "kbuild:", 7) != 0 && strcmp(o->owner, "removed") != 0)
		ud_map_put(&e->force_headers, o->owner, (void *)1);
	/* forgotten: the owner's next look writes it whatever its blob */
	if (ud_store_del_output(e->store, rel, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	ostate_free(ud_map_del(&e->outputs, rel));
}

static void
verify_dir(struct verify *v, const char *rel)
{
	struct ud_strlist names = UD_STRLIST_INIT;
	struct ud_source dir;
	char *abs = ud_xasprintf("%s/%s", v->e->state_dir, rel);
	size_t i;

	memset(&dir, 0, sizeof(dir));
	if (ud_source_open_dir(&dir, abs, NULL) < 0 || ud_source_list(&dir, "", &names, NULL) < 0) {
		ud_source_close(&dir);
		ud_strlist_free(&names);
		free(abs);
		return;
	}
	ud_strlist_sort(&names);
	for (i = 0; i < names.n; i++) {
		size_t n = strlen(names.v[i]);
		char *child;

		if (n > 0 && names.v[i][n - 1] == '/') {
			names.v[i][n - 1] = '\0';
			child = ud_xasprintf("%s/%s", rel, names.v[i]);
			verify_dir(v, child);
			free(child);
			continue;
		}
		child = ud_xasprintf("%s/%s", rel, names.v[i]);
		struct ostate *o = ud_map_get(&v->e->outputs, child);

		if (o == NULL) {
			/* a file the store does not know: a batch that never committed */
			char *p = ud_xasprintf("%s/%s", v->e->state_dir, child);

			if (unlink(p) == 0)
				v->strays++;
			free(p);
			prune_dirs(v->e, child);
		} else {
			struct ud_buf b = UD_BUF_INIT;
			char blob[BLOB_HEX];

			ud_map_put(&v->seen, child, (void *)1);
			if (ud_source_read(&dir, names.v[i], &b, NULL) < 0)
				blob[0] = '\0';
			else
				blob_of(b.data, b.len, blob);
			if (strcmp(blob, o->blob) != 0) {
				mark_damaged(v->e, child);
				v->damaged++;
			}
			ud_buf_free(&b);
		}
		free(child);
	}
	ud_source_close(&dir);
	ud_strlist_free(&names);
	free(abs);
}

/* Every output against the store: strays removed, missing or damaged ones marked to be made. */
static int
verify_outputs(struct ud_engine *e, char **cause)
{
	struct verify v;
	struct ud_strlist missing = UD_STRLIST_INIT;
	const char *k;
	size_t i = 0;
	int rc;

	memset(&v, 0, sizeof(v));
	v.e = e;
	if ((rc = ud_store_begin(e->store, cause)) < 0)
		return rc;
	verify_dir(&v, "split");
	verify_dir(&v, "install");
	while (ud_map_next(&e->outputs, &i, &k, NULL))
		if (!ud_map_has(&v.seen, k))
			ud_strlist_add(&missing, k);
	for (i = 0; i < missing.n; i++)
		mark_damaged(e, missing.v[i]);
	v.damaged += missing.n;
	ud_strlist_free(&missing);
	ud_map_free(&v.seen, NULL);
	if ((rc = ud_store_commit(e->store, cause)) < 0)
		return rc;
	if (v.strays > 0 || v.damaged > 0)
		ud_log(LOG_NOTICE,
		       "outputs repaired: %zu stray files removed, %zu missing or damaged made again",
		       v.strays, v.damaged);
	return 0;
}

/* --- planning the install ---------------------------------------------------------- */

static void
install_key(const struct ud_hdr_plan *p, char out[32])
{
	uint64_t h = 1469598103934665603ULL;
	char head[64];
	size_t i;
	const char *c;

	snprintf(head, sizeof(head), "%d:%d:%s", UD_INSTALL_VERSION, (int)p->style, p->arch);
	for (c = head; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	for (i = 0; i < p->rules.nleak_ignores; i++) {
		for (c = p->rules.leak_ignores[i]; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	snprintf(out, 32, "%016" PRIx64, h);
}

static void
add_ijob(struct ud_engine *e, size_t fi)
{
	struct ijob *j;
	size_t i;

	for (i = 0; i < e->nijobs; i++)
		if (e->ijobs[i].fi == fi)
			return;
	e->ijobs = ud_xgrow(e->ijobs, &e->aijobs, e->nijobs + 1, sizeof(*e->ijobs));
	j = &e->ijobs[e->nijobs++];
	memset(j, 0, sizeof(*j));
	j->fi = fi;
}

/*
 * Computes the install plan again and decides what to make and remove.
 * The plan reads through a recorder: what it looked at is what the
 * watcher must follow.
 */
static void
replan(struct ud_engine *e)
{
	struct ud_strlist reads = UD_STRLIST_INIT;
	struct ud_source rec;
	struct ud_hdr_plan plan;
	char *cause = NULL, key[32];
	const char *k;
	void *v;
	size_t i;
	int rc;

	e->replanned = true;
	e->rep.replanned = true;
	if (ud_source_type(&e->src, "include/uapi") != UD_FT_DIR) {
		/* a tree from before the 2012 split: nothing is installed from it */
		set_problem(e, &e->problem_install, "install",
			    "the tree has no include/uapi/: only its split is kept");
		ud_strlist_add(&reads, "include");
		rc = -ENOENT;
	} else {
		ud_source_open_recorder(&rec, &e->src, &reads);
		rc = ud_headers_plan(&rec, e->idx, e->arch, &plan, &cause);
		ud_source_close(&rec);
		if (rc < 0) {
			set_problem(e, &e->problem_install, "install", cause);
			free(cause);
			ud_headers_plan_free(&plan);
		}
	}
	ud_strlist_sort(&reads);
	ud_strlist_free(&e->plan_reads);
	e->plan_reads = reads;
	ud_strlist_free(&e->plan_dirs);
	for (i = 0; i < e->plan_reads.n; i++) {
		char *d = ud_path_dir(e->plan_reads.v[i]);

		if (!ud_strlist_has(&e->plan_dirs, d))
			ud_strlist_take(&e->plan_dirs, d);
		else
			free(d);
		/* a directory it listed is watched itself */
		if (ud_source_type(&e->src, e->plan_reads.v[i]) == UD_FT_DIR &&
		    !ud_strlist_has(&e->plan_dirs, e->plan_reads.v[i]))
			ud_strlist_add(&e->plan_dirs, e->plan_reads.v[i]);
	}
	ud_strlist_sort(&e->plan_dirs);
	if (rc < 0) {
		if (rc == -EPERM || rc == -ENOENT) {
			/* refused, or nothing to install: what was installed goes */
			i = 0;
			while (ud_map_next(&e->installed, &i, &k, &v))
				ud_strlist_add(&e->uninstall, k);
			if (e->have_plan) {
				ud_headers_plan_free(&e->plan);
				e->have_plan = false;
			}
		}
		/* another failure keeps the last plan and its files, stale but named */
		return;
	}
	if (plan.problems.n > 0) {
		struct ud_buf why = UD_BUF_INIT;

		for (i = 0; i < plan.problems.n && i < 3; i++)
			ud_buf_addf(&why, "%s%s: %s", i ? "; " : "",
				    plan.problems.v[i].path ? plan.problems.v[i].path : "",
				    plan.problems.v[i].message);
		set_problem(e, &e->problem_install, "install", ud_buf_str(&why));
		ud_buf_free(&why);
	} else {
		set_problem(e, &e->problem_install, "install", NULL);
	}
	if (e->have_plan)
		ud_headers_plan_free(&e->plan);
	e->plan = plan;
	e->have_plan = true;
	install_key(&e->plan, key);
	/* what to make: new, moved to another source, generated text changed, or other rules */
	for (i = 0; i < e->plan.n; i++) {
		const struct ud_hdr_file *f = &e->plan.v[i];
		struct istate *s = ud_map_get(&e->installed, f->dst);
		char gb[BLOB_HEX];

		if (s == NULL || strcmp(s->src, f->src) != 0 || strcmp(key, e->install_key) != 0 ||
		    f->problems.n > 0 || s->blob[0] == '\0') {
			add_ijob(e, i);
			continue;
		}
		if (f->generated) {
			blob_of(f->gen.data, f->gen.len, gb);
			if (strcmp(gb, s->src_blob) != 0)
				add_ijob(e, i);
		}
	}
	i = 0;
	while (ud_map_next(&e->installed, &i, &k, &v))
		if (!ud_headers_plan_has(&e->plan, k))
			ud_strlist_add(&e->uninstall, k);
	if (strcmp(key, e->install_key) != 0) {
		copy_str(e->install_key, sizeof(e->install_key), key);
		ud_store_set_meta(e->store, "install_key", key, NULL);
	}
}

/* --- preparing a batch ----------------------------------------------------------- */

static void
add_hjob(struct ud_engine *e, struct ud_map *queued, const char *path, bool force)
{
	struct hjob *j;
	struct hstate *old;

	if (ud_map_has(queued, path))
		return;
	ud_map_put(queued, path, (void *)1);
	e->hjobs = ud_xgrow(e->hjobs, &e->ahjobs, e->nhjobs + 1, sizeof(*e->hjobs));
	j = &e->hjobs[e->nhjobs++];
	memset(j, 0, sizeof(*j));
	j->path = ud_xstrdup(path);
	j->force = force || ud_map_has(&e->force_headers, path);
	j->takes_part = ud_tindex_takes_part(e->idx, path);
	j->exported = ud_tindex_exported(e->idx, path);
	j->uapi_dir = ud_path_is_uapi(path);
	old = ud_map_get(&e->headers, path);
	if (old != NULL) {
		j->had_row = true;
		j->old = *old;
	}
	split_key(&e->markers, path, j->key);
}

/* Does a change at path (kinds from the watcher) call for a new install plan? */
static bool
wants_replan(struct ud_engine *e, const char *path, unsigned kinds, bool existed)
{
	char *dir;
	bool hit;

	if (ud_strlist_bsearch(&e->plan_reads, path) >= 0)
		return true;
	if (kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN))
		return in_uapi_area(path) || has_prefix_dir("include/uapi", path) ||
		       ud_strlist_bsearch(&e->plan_dirs, path) >= 0;
	if (!(kinds & UD_WATCH_ENTRY))
		return false;
	/*
	 * A name came or went: in the uapi part, only a header's coming or
	 * going counts (the install takes *.h there); the 3.x install reads
	 * the export lists, which may name any header.
	 */
	if (ud_path_include_name(path) != NULL)
		return existed != ud_tindex_has(e->idx, path) &&
		       (in_uapi_area(path) ? has_h_suffix(path)
					   : e->have_plan && e->plan.style != UD_INSTALL_SH &&
						     header_path(e, path));
	dir = ud_path_dir(path);
	hit = ud_strlist_bsearch(&e->plan_reads, dir) >= 0;
	free(dir);
	return hit;
}

static void
prepare(struct ud_engine *e, struct ud_sched_batch *b)
{
	struct ud_strlist export_changed = UD_STRLIST_INIT, paths = UD_STRLIST_INIT;
	struct ud_strlist other_srcs = UD_STRLIST_INIT;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_map queued = UD_MAP_INIT;
	bool replan_needed = !e->have_plan && e->problem_install == NULL;
	const char *k;
	void *v;
	size_t i;

	e->verify_disk = b->force_all;
	if (b->force_all) {
		/* everything made again: the start-up check's path, for every output */
		i = 0;
		while (ud_map_next(&e->headers, &i, &k, NULL))
			ud_map_put(&e->force_headers, k, (void *)1);
		i = 0;
		while (ud_map_next(&e->installed, &i, &k, NULL))
			ud_map_put(&e->force_installed, k, (void *)1);
	}
	if (b->full || e->idx == NULL) {
		struct ud_tindex *idx = NULL;

		if (ud_tindex_build(&idx, &e->src, &problems) < 0)
			for (i = 0; i < problems.n; i++)
				ud_log(LOG_WARNING, "%s: %s",
				       problems.v[i].path ? problems.v[i].path : e->root,
				       problems.v[i].message);
		ud_diags_free(&problems);
		ud_tindex_free(e->idx);
		e->idx = idx;
		e->rep.full = true;
		e->kbuild_all = true;
		e->removed_dirty = true;
		replan_needed = true;
		ud_tindex_headers_under(e->idx, "", &paths);
		for (i = 0; i < paths.n; i++)
			add_hjob(e, &queued, paths.v[i], false);
		i = 0;
		while (ud_map_next(&e->headers, &i, &k, &v))
			add_hjob(e, &queued, k, false);
		ud_strlist_free(&paths);
	} else {
		i = 0;
		while (ud_map_next(&b->paths, &i, &k, &v))
			ud_strlist_add(&paths, k);
		ud_strlist_sort(&paths);
		for (i = 0; i < paths.n; i++) {
			const char *p = paths.v[i];
			unsigned kinds = (unsigned)(uintptr_t)ud_map_get(&b->paths, p);
			bool existed = ud_tindex_has(e->idx, p);
			size_t j;

			e->rep.paths++;
			if (ud_tindex_update(e->idx, p, &export_changed, &problems) < 0)
				for (j = 0; j < problems.n; j++)
					ud_log(LOG_WARNING, "%s: %s",
					       problems.v[j].path ? problems.v[j].path : p,
					       problems.v[j].message);
			ud_diags_free(&problems);
			if (kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN)) {
				struct ud_strlist under = UD_STRLIST_INIT;
				const char *hk;
				size_t h = 0;

				/* what is there now, and what was there */
				ud_tindex_headers_under(e->idx, p, &under);
				for (j = 0; j < under.n; j++)
					add_hjob(e, &queued, under.v[j], false);
				ud_strlist_free(&under);
				while (ud_map_next(&e->headers, &h, &hk, NULL))
					if (has_prefix_dir(hk, p))
						add_hjob(e, &queued, hk, false);
				e->kbuild_all = true;
			} else if (header_path(e, p)) {
				add_hjob(e, &queued, p, (kinds & UD_SCHED_FORCE) != 0);
				e->verify_disk |= (kinds & UD_SCHED_FORCE) != 0;
			}
			if (ud_tindex_is_kbuild(e->idx, p) ||
			    strcmp(strrchr(p, '/') ? strrchr(p, '/') + 1 : p, "Kbuild") == 0)
				e->kbuild_all = true;
			if (!replan_needed && wants_replan(e, p, kinds, existed))
				replan_needed = true;
			/*
			 * A planned source that is not a header (those are made
			 * again when their look finds new content).
			 */
			if (!header_path(e, p))
				ud_strlist_add(&other_srcs, p);
		}
		ud_strlist_free(&paths);
		for (i = 0; i < export_changed.n; i++)
			add_hjob(e, &queued, export_changed.v[i], false);
	}
	/* headers whose outputs the start-up check found missing or damaged */
	i = 0;
	while (ud_map_next(&e->force_headers, &i, &k, NULL))
		add_hjob(e, &queued, k, true);
	ud_map_free(&e->force_headers, NULL);
	if (replan_needed)
		replan(e);
	if (e->have_plan) {
		for (i = 0; i < other_srcs.n; i++) {
			const struct ud_hdr_file *f =
				ud_headers_plan_source(&e->plan, other_srcs.v[i]);

			if (f != NULL)
				add_ijob(e, (size_t)(f - e->plan.v));
		}
		/* installed headers whose outputs are missing or damaged */
		i = 0;
		while (ud_map_next(&e->force_installed, &i, &k, NULL)) {
			size_t fi;

			for (fi = 0; fi < e->plan.n; fi++)
				if (strcmp(e->plan.v[fi].dst, k) == 0)
					add_ijob(e, fi);
		}
	}
	ud_map_free(&e->force_installed, NULL);
	ud_strlist_free(&other_srcs);
	ud_strlist_free(&export_changed);
	ud_map_free(&queued, NULL);
}

/* --- the thread pool's part --------------------------------------------------------- */

/* In-source markers of the 2012 scripts, for the store (the classifier honours them itself). */
static void
scan_in_source(const char *path, const char *text, size_t len, struct ud_markers *out)
{
	const char *p = text, *end = text + len;
	unsigned line = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *l = NULL;

		if (memmem(p, n, "DISINTEGRATE", 12) != NULL) {
			l = ud_xstrndup(p, n);
			if (strstr(l, UD_MARKER_INCLUDE_HERE) != NULL) {
				ud_markers_add(out, path, UD_MARK_INCLUDE_HERE, NULL, 1, NULL);
				out->v[out->n - 1].line = line;
			} else if (strstr(l, UD_MARKER_RETAIN) != NULL) {
				char *at = strstr(l, UD_MARKER_RETAIN);

				*at = '\0';
				ud_markers_add(out, path, UD_MARK_RETAIN, NULL, 1, NULL);
				out->v[out->n - 1].selector = ud_selector_normalize(l);
				out->v[out->n - 1].line = line;
			}
			free(l);
		}
		line++;
		p += n + 1;
	}
}

static void
compute_header(struct ud_engine *e, struct hjob *j)
{
	struct ud_buf text = UD_BUF_INIT;
	char *cause = NULL;
	int rc;

	struct timespec now;

	if (!j->takes_part) {
		j->gone = true; /* no header any more: unexported, and not named *.h */
		return;
	}
	rc = ud_source_stat(&e->src, j->path, &j->st, NULL);
	if (rc < 0 || j->st.type != UD_FT_FILE || j->st.symlink) {
		/* gone, or a symlink: not one of the tree's headers (as the tree index says) */
		j->gone = true;
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	j->racy = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec - j->st.mtime_ns < RACY_NS;
	if (j->racy)
		j->st.mtime_ns = 0; /* never matches: the next look hashes it */
	if (j->had_row && !j->force && (int64_t)j->st.size == j->old.size && j->old.mtime_ns != 0 &&
	    j->st.mtime_ns == j->old.mtime_ns && j->st.ino == j->old.ino &&
	    strcmp(j->key, j->old.key) == 0 && j->exported == j->old.exported) {
		j->same = true;
		copy_str(j->blob, sizeof(j->blob), j->old.blob);
		return;
	}
	if ((rc = ud_source_read(&e->src, j->path, &text, &cause)) < 0) {
		j->unreadable = true;
		j->cause = cause;
		copy_str(j->outcome, sizeof(j->outcome), "unreadable");
		ud_buf_free(&text);
		return;
	}
	blob_of(text.data, text.len, j->blob);
	if (j->had_row && !j->force && strcmp(j->blob, j->old.blob) == 0 &&
	    strcmp(j->key, j->old.key) == 0 && j->exported == j->old.exported &&
	    strcmp(j->old.outcome, "unreadable") != 0) {
		j->same = true; /* touched, not changed */
		ud_buf_free(&text);
		return;
	}
	scan_in_source(j->path, text.data, text.len, &j->in_source);
	if (j->exported) {
		ud_hsplit_compute_text(j->path, text.data, text.len, &e->markers, &j->h);
		j->split = true;
		copy_str(j->outcome, sizeof(j->outcome), ud_split_outcome_name(j->h.res.outcome));
		j->blocks = ud_json_take_dump(ud_json_blocks(&j->h.res.model));
		j->diags = ud_json_take_dump(ud_json_diags(&j->h.res.diags));
	} else {
		const struct ud_marker **mk = NULL;
		size_t n = ud_markers_for(&e->markers, j->path, &mk);
		struct ud_classified c;

		ud_classify(text.data, text.len, mk, n, &c);
		free(mk);
		copy_str(j->outcome, sizeof(j->outcome), j->uapi_dir ? "uapi" : "unexported");
		j->blocks = ud_json_take_dump(ud_json_blocks(&c));
		j->diags = ud_json_take_dump(ud_json_diags(&c.diags));
		ud_classified_free(&c);
	}
	ud_buf_free(&text);
}

static void
compute_install(struct ud_engine *e, struct ijob *j)
{
	ud_headers_install_file(&e->plan, &e->plan.v[j->fi], &e->src, &j->in);
	blob_of(j->in.source.data, j->in.source.len, j->src_blob);
	if (j->in.ok)
		blob_of(j->in.text.data, j->in.text.len, j->blob);
}

static void
work_cb(uv_work_t *req)
{
	struct chunk *c = req->data;
	size_t i;

	for (i = c->h0; i < c->h1; i++)
		compute_header(c->e, &c->e->hjobs[i]);
	for (i = c->i0; i < c->i1; i++)
		compute_install(c->e, &c->e->ijobs[i]);
}

static void apply_wave(struct ud_engine *e);
static void finish(struct ud_engine *e);
static void next_wave(struct ud_engine *e);

static void
after_work_cb(uv_work_t *req, int status)
{
	struct chunk *c = req->data;
	struct ud_engine *e = c->e;

	(void)status; /* a cancelled request still ran or never will: the batch waits for all */
	e->progress_done += (c->h1 - c->h0) + (c->i1 - c->i0);
	free(c);
	if (--e->chunks_out > 0)
		return;
	if (e->progress != NULL)
		e->progress(e->progress_ctx, e->progress_done, e->progress_total);
	apply_wave(e);
	next_wave(e);
}

static void
queue_chunk(struct ud_engine *e, size_t h0, size_t h1, size_t i0, size_t i1)
{
	struct chunk *c = ud_xcalloc(1, sizeof(*c));

	c->e = e;
	c->h0 = h0;
	c->h1 = h1;
	c->i0 = i0;
	c->i1 = i1;
	c->req.data = c;
	e->chunks_out++;
	uv_queue_work(e->loop, &c->req, work_cb, after_work_cb);
}

/*
 * The next wave: headers first, then the installed headers (whose
 * sources the headers' waves have looked at, adding the ones that
 * changed).  When all are done, the batch finishes.
 */
static void
next_wave(struct ud_engine *e)
{
	size_t n;

	e->wave_h0 = e->wave_h;
	e->wave_i0 = e->wave_i;
	if (e->wave_h < e->nhjobs) {
		n = e->nhjobs - e->wave_h < JOBS_PER_WAVE ? e->nhjobs - e->wave_h : JOBS_PER_WAVE;
		e->wave_h += n;
	} else if (e->wave_i < e->nijobs) {
		n = e->nijobs - e->wave_i < JOBS_PER_WAVE ? e->nijobs - e->wave_i : JOBS_PER_WAVE;
		e->wave_i += n;
	} else {
		finish(e);
		return;
	}
	e->progress_total = e->nhjobs + e->nijobs;
	e->chunks_out = 0;
	if ((e->wave_h - e->wave_h0) + (e->wave_i - e->wave_i0) <= INLINE_JOBS) {
		for (n = e->wave_h0; n < e->wave_h; n++)
			compute_header(e, &e->hjobs[n]);
		for (n = e->wave_i0; n < e->wave_i; n++)
			compute_install(e, &e->ijobs[n]);
		e->progress_done += (e->wave_h - e->wave_h0) + (e->wave_i - e->wave_i0);
		apply_wave(e);
		next_wave(e);
		return;
	}
	for (n = e->wave_h0; n < e->wave_h; n += JOBS_PER_CHUNK)
		queue_chunk(e, n, n + JOBS_PER_CHUNK < e->wave_h ? n + JOBS_PER_CHUNK : e->wave_h,
			    0, 0);
	for (n = e->wave_i0; n < e->wave_i; n += JOBS_PER_CHUNK)
		queue_chunk(e, 0, 0, n,
			    n + JOBS_PER_CHUNK < e->wave_i ? n + JOBS_PER_CHUNK : e->wave_i);
}

/* --- applying ---------------------------------------------------------------------- */

static bool
moves(const struct hstate *h)
{
	return h != NULL && h->exported &&
	       (strcmp(h->outcome, "split") == 0 || strcmp(h->outcome, "moved") == 0);
}

static void
dirty_dir(struct ud_engine *e, const char *path)
{
	char *d = ud_path_dir(path);

	if (!ud_strlist_has(&e->dirty_dirs, d))
		ud_strlist_take(&e->dirty_dirs, d);
	else
		free(d);
}

static char *
split_out(const char *path)
{
	return ud_xasprintf("split/%s", path);
}

/* A header's old outputs that the new state does not keep go. */
static void
drop_header_outputs(struct ud_engine *e, const char *path, const struct hstate *old, bool keep_k,
		    bool keep_u)
{
	char *twin = ud_path_uapi_twin(path);

	if (old->kblob[0] != '\0' && !keep_k) {
		char *o = split_out(path);

		drop_output(e, o);
		free(o);
	}
	if (old->ublob[0] != '\0' && !keep_u && twin != NULL) {
		char *o = split_out(twin);

		drop_output(e, o);
		free(o);
	}
	free(twin);
}

static void
apply_gone(struct ud_engine *e, struct hjob *j)
{
	struct hstate *old = ud_map_get(&e->headers, j->path);
	char *cause = NULL;

	if (old == NULL)
		return;
	drop_header_outputs(e, j->path, old, false, false);
	if (moves(old))
		dirty_dir(e, j->path);
	if (strcmp(old->outcome, "moved") == 0)
		e->removed_dirty = true;
	if (ud_store_del_header(e->store, j->path, &cause) < 0 ||
	    ud_store_set_path_markers(e->store, "source", j->path, NULL, 0, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	event(e, j->path, "remove", NULL);
	count_header(e, old, -1);
	free(ud_map_del(&e->headers, j->path));
}

/* The header's planned install is made again when its text changed (or when forced). */
static void
reinstall_source(struct ud_engine *e, const char *path, bool force)
{
	const struct ud_hdr_file *f = e->have_plan ? ud_headers_plan_source(&e->plan, path) : NULL;
	struct istate *s;

	if (f == NULL)
		return;
	s = ud_map_get(&e->installed, f->dst);
	if (force || s == NULL || s->blob[0] == '\0' ||
	    strcmp(s->src_blob, ((struct hstate *)ud_map_get(&e->headers, path))->blob) != 0)
		add_ijob(e, (size_t)(f - e->plan.v));
}

static void
apply_header(struct ud_engine *e, struct hjob *j)
{
	struct hstate *old = ud_map_get(&e->headers, j->path), nw;
	struct ud_hrow row;
	char *cause = NULL, *twin = NULL;
	bool want_k = false, want_u = false, ok = true, changed;

	if (j->gone) {
		apply_gone(e, j);
		return;
	}
	if (j->same) {
		if (old != NULL && (old->size != (int64_t)j->st.size ||
				    old->mtime_ns != j->st.mtime_ns || old->ino != j->st.ino)) {
			memset(&row, 0, sizeof(row));
			/* only the stat moved: the row keeps what it says */
			if (ud_store_header(e->store, j->path, &row, &cause) == 1) {
				row.size = (int64_t)j->st.size;
				row.mtime_ns = j->st.mtime_ns;
				row.ino = j->st.ino;
				if (ud_store_put_header(e->store, &row, &cause) == 0) {
					old->size = row.size;
					old->mtime_ns = row.mtime_ns;
					old->ino = row.ino;
				}
			}
			ud_hrow_free(&row);
			if (cause != NULL) {
				ud_log(LOG_ERR, "%s", cause);
				free(cause);
			}
		}
		return;
	}
	e->rep.resplit++;
	memset(&nw, 0, sizeof(nw));
	nw.size = (int64_t)j->st.size;
	nw.mtime_ns = j->st.mtime_ns;
	nw.ino = j->st.ino;
	copy_str(nw.blob, sizeof(nw.blob), j->blob);
	copy_str(nw.key, sizeof(nw.key), j->key);
	nw.exported = j->exported;
	copy_str(nw.outcome, sizeof(nw.outcome), j->outcome);
	/* the outputs first: a row never says more than what is on disk */
	if (j->split && ud_hsplit_moves(&j->h)) {
		const struct ud_split_result *r = &j->h.res;
		char *o;

		twin = ud_xstrdup(j->h.twin);
		want_u = true;
		o = split_out(twin);
		ok = put_output(e, o, j->path, r->uapi.data != NULL ? r->uapi.data : "",
				r->uapi.len) == 0;
		free(o);
		blob_of(r->uapi.data != NULL ? r->uapi.data : "", r->uapi.len, nw.ublob);
		if (ok && r->outcome == UD_SPLIT_SPLIT) {
			want_k = true;
			o = split_out(j->path);
			ok = put_output(e, o, j->path, r->kernel.data != NULL ? r->kernel.data : "",
					r->kernel.len) == 0;
			free(o);
			blob_of(r->kernel.data != NULL ? r->kernel.data : "", r->kernel.len,
				nw.kblob);
		}
	}
	if (!ok) {
		/* the row stays as it was: the next look at this header tries again */
		free(twin);
		return;
	}
	if (old != NULL)
		drop_header_outputs(e, j->path, old, want_k, want_u);
	memset(&row, 0, sizeof(row));
	row.path = j->path;
	row.size = nw.size;
	row.mtime_ns = nw.mtime_ns;
	row.ino = nw.ino;
	row.blob = nw.blob;
	row.exported = nw.exported;
	row.outcome = nw.outcome;
	row.blocks = j->blocks;
	if (j->unreadable) {
		struct ud_diags d = UD_DIAGS_INIT;

		ud_diags_add(&d, 0, UD_SEV_ERROR, "%s", j->cause);
		free(j->diags);
		j->diags = ud_json_take_dump(ud_json_diags(&d));
		ud_diags_free(&d);
		ud_log(LOG_WARNING, "%s", j->cause);
	}
	row.diagnostics = j->diags;
	row.kernel_blob = nw.kblob[0] ? nw.kblob : NULL;
	row.uapi_blob = nw.ublob[0] ? nw.ublob : NULL;
	row.split_key = nw.key;
	changed = old == NULL || strcmp(old->outcome, nw.outcome) != 0 ||
		  strcmp(old->kblob, nw.kblob) != 0 || strcmp(old->ublob, nw.ublob) != 0 ||
		  old->exported != nw.exported;
	event(e, j->path, changed ? "split" : "header", nw.outcome);
	row.clock = e->clock;
	if (ud_store_put_header(e->store, &row, &cause) < 0 ||
	    ud_store_set_path_markers(e->store, "source", j->path, j->in_source.v, j->in_source.n,
				      &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	if (j->split && j->h.res.outcome == UD_SPLIT_REFUSED &&
	    (old == NULL || strcmp(old->outcome, "needs-coaching") != 0))
		ud_log(LOG_WARNING, "%s: needs coaching (see its diagnostics)", j->path);
	if (moves(old) != moves(&nw))
		dirty_dir(e, j->path);
	if ((old != NULL && strcmp(old->outcome, "moved") == 0 && old->exported) !=
	    (strcmp(nw.outcome, "moved") == 0 && nw.exported))
		e->removed_dirty = true;
	if (old == NULL) {
		old = ud_xmalloc(sizeof(*old));
		ud_map_put(&e->headers, j->path, old);
	} else {
		count_header(e, old, -1);
	}
	*old = nw;
	count_header(e, old, 1);
	free(twin);
	if (strcmp(j->blob, j->old.blob) != 0 || !j->had_row || j->force)
		reinstall_source(e, j->path, j->force);
}

/* Each directory's export lists as a split leaves them (see hsplit.h). */
static void
apply_kbuilds(struct ud_engine *e)
{
	struct ud_map by_dir = UD_MAP_INIT; /* dir -> struct ud_strlist * of moving names */
	struct ud_strlist dirs = UD_STRLIST_INIT;
	const char *k;
	void *v;
	size_t i = 0, d;

	if (!e->kbuild_all && e->dirty_dirs.n == 0)
		return;
	while (ud_map_next(&e->headers, &i, &k, &v)) {
		struct ud_strlist *names;
		char *dir;

		if (!moves(v))
			continue;
		dir = ud_path_dir(k);
		if ((names = ud_map_get(&by_dir, dir)) == NULL) {
			names = ud_xcalloc(1, sizeof(*names));
			ud_map_put(&by_dir, dir, names);
		}
		ud_strlist_add(names, strrchr(k, '/') + 1);
		free(dir);
	}
	if (e->kbuild_all) {
		i = 0;
		while (ud_map_next(&by_dir, &i, &k, NULL))
			ud_strlist_add(&dirs, k);
		i = 0;
		while (ud_map_next(&e->outputs, &i, &k, &v)) {
			const char *owner = ((struct ostate *)v)->owner;

			if (strncmp(owner, "kbuild:", 7) == 0 && !ud_strlist_has(&dirs, owner + 7))
				ud_strlist_add(&dirs, owner + 7);
		}
	} else {
		for (i = 0; i < e->dirty_dirs.n; i++)
			ud_strlist_add(&dirs, e->dirty_dirs.v[i]);
	}
	ud_strlist_sort(&dirs);
	for (d = 0; d < dirs.n; d++) {
		struct ud_strlist *names = ud_map_get(&by_dir, dirs.v[d]);
		struct ud_strlist keep = UD_STRLIST_INIT;
		char *owner = ud_xasprintf("kbuild:%s", dirs.v[d]);

		if (names != NULL) {
			struct ud_kbuild_edit kside, uside;
			struct ud_diags problems = UD_DIAGS_INIT;
			const struct ud_kbuild_edit *ed[2] = {&kside, &uside};
			size_t x;

			/* in the order a batch meets them: sorted, as the tree index lists */
			ud_strlist_sort(names);
			if (ud_hsplit_kbuilds(&e->src, dirs.v[d], names, &kside, &uside,
					      &problems) < 0) {
				for (x = 0; x < problems.n; x++)
					ud_log(LOG_WARNING, "%s: %s",
					       problems.v[x].path ? problems.v[x].path : dirs.v[d],
					       problems.v[x].message);
				ud_strlist_add(&keep,
					       "*"); /* keep what is there: nothing known better */
			} else {
				for (x = 0; x < 2; x++) {
					char *o;

					if (!ed[x]->changed)
						continue;
					o = split_out(ed[x]->rel);
					if (put_output(e, o, owner, ud_buf_str(&ed[x]->text),
						       ed[x]->text.len) == 0)
						ud_strlist_add(&keep, o);
					free(o);
				}
			}
			ud_diags_free(&problems);
			ud_kbuild_edit_free(&kside);
			ud_kbuild_edit_free(&uside);
		}
		if (!ud_strlist_has(&keep, "*"))
			drop_owned(e, owner, &keep);
		ud_strlist_free(&keep);
		free(owner);
	}
	i = 0;
	while (ud_map_next(&by_dir, &i, &k, &v)) {
		ud_strlist_free(v);
		free(v);
	}
	ud_map_free(&by_dir, NULL);
	ud_strlist_free(&dirs);
}

/* split/.uapid-removed: the headers that moved whole, as uapid split --output lists them. */
static void
apply_removed(struct ud_engine *e)
{
	struct ud_strlist moved = UD_STRLIST_INIT;
	struct ud_buf text = UD_BUF_INIT;
	const char *k;
	void *v;
	size_t i = 0;

	if (!e->removed_dirty)
		return;
	while (ud_map_next(&e->headers, &i, &k, &v))
		if (((struct hstate *)v)->exported &&
		    strcmp(((struct hstate *)v)->outcome, "moved") == 0)
			ud_strlist_add(&moved, k);
	ud_strlist_sort(&moved);
	for (i = 0; i < moved.n; i++)
		ud_buf_addf(&text, "%s\n", moved.v[i]);
	if (moved.n > 0)
		put_output(e, "split/.uapid-removed", "removed", text.data, text.len);
	else if (ud_map_has(&e->outputs, "split/.uapid-removed"))
		drop_output(e, "split/.uapid-removed");
	ud_buf_free(&text);
	ud_strlist_free(&moved);
}

/*
 * Records a new version of an installed header in the store when its API
 * model changed (text NULL: it was removed), and its verdicts against the
 * version before for the batch's report.
 */
static void
record_api(struct ud_engine *e, const char *dst, const char *text, size_t len)
{
	struct ud_api_header nw, old;
	struct ud_buf prev = UD_BUF_INIT;
	char *prev_fp = NULL, fp[32], *cause = NULL;
	bool had;

	if (text != NULL) {
		ud_api_parse(dst, text, len, &nw);
		snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)nw.fingerprint);
	} else {
		memset(&nw, 0, sizeof(nw));
		snprintf(fp, sizeof(fp), "-");
	}
	had = ud_store_api_version_at(e->store, dst, INT64_MAX, &prev_fp, &prev) == 0;
	if ((had && strcmp(prev_fp, fp) == 0) || (!had && text == NULL)) {
		free(prev_fp);
		ud_buf_free(&prev);
		if (text != NULL)
			ud_api_header_free(&nw);
		return; /* the same API (comments, spacing): no new version */
	}
	if (ud_store_put_api_version(e->store, dst, e->clock, fp, text, len, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	if (had) {
		struct ud_api_diff d;
		struct ud_engine_api *a;

		memset(&d, 0, sizeof(d));
		ud_api_parse(dst, prev.data != NULL ? prev.data : "", prev.len, &old);
		ud_api_diff_header(&old, text != NULL ? &nw : NULL, &d);
		if (text != NULL)
			ud_api_diff_through(&d, &nw, 1);
		e->rep.api =
			ud_xgrow(e->rep.api, &e->rep.aapi, e->rep.napi + 1, sizeof(*e->rep.api));
		a = &e->rep.api[e->rep.napi++];
		a->path = ud_xstrdup(dst);
		a->breaking = d.verdicts[UD_API_BREAKING];
		a->review = d.verdicts[UD_API_REVIEW];
		a->compatible = d.verdicts[UD_API_COMPATIBLE];
		ud_api_diff_free(&d);
		ud_api_header_free(&old);
	}
	free(prev_fp);
	ud_buf_free(&prev);
	if (text != NULL)
		ud_api_header_free(&nw);
}

static void
apply_install(struct ud_engine *e, struct ijob *j)
{
	const struct ud_hdr_file *f = &e->plan.v[j->fi];
	struct istate *s = ud_map_get(&e->installed, f->dst);
	char *o = ud_xasprintf("install/include/%s", f->dst), *cause = NULL, *diags;
	bool changed;

	e->rep.reinstalled++;
	if (j->in.ok) {
		if (put_output(e, o, "install", j->in.text.data != NULL ? j->in.text.data : "",
			       j->in.text.len) < 0) {
			free(o);
			return; /* the row stays: the next start finds the output and repairs it */
		}
	} else {
		j->blob[0] = '\0';
		if (ud_map_has(&e->outputs, o))
			drop_output(e, o);
		if (s == NULL || s->blob[0] != '\0' || strcmp(s->src_blob, j->src_blob) != 0) {
			struct ud_diag *g = j->in.diags.n > 0 ? &j->in.diags.v[0] : NULL;

			ud_log(LOG_WARNING, "install/include/%s: not installed: %s%s%s", f->dst,
			       g != NULL && g->path ? g->path : f->src, g != NULL ? ": " : "",
			       g != NULL ? g->message : "");
		}
	}
	diags = ud_json_take_dump(ud_json_diags(&j->in.diags));
	changed = s == NULL || strcmp(s->blob, j->blob) != 0;
	if (changed)
		event(e, f->dst, "install", j->in.ok ? "installed" : "failed");
	if (changed && j->in.ok)
		record_api(e, f->dst, j->in.text.data != NULL ? j->in.text.data : "",
			   j->in.text.len);
	if (ud_store_put_installed(e->store, f->dst, f->src, j->src_blob, j->blob, diags, e->clock,
				   &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	free(diags);
	if (s == NULL) {
		s = ud_xcalloc(1, sizeof(*s));
		ud_map_put(&e->installed, f->dst, s);
	} else {
		count_installed(e, s->blob, -1);
	}
	free(s->src);
	s->src = ud_xstrdup(f->src);
	copy_str(s->src_blob, sizeof(s->src_blob), j->src_blob);
	copy_str(s->blob, sizeof(s->blob), j->blob);
	count_installed(e, s->blob, 1);
	free(o);
}

static void
apply_uninstall(struct ud_engine *e)
{
	struct istate *s;
	size_t i;
	char *cause = NULL;

	for (i = 0; i < e->uninstall.n; i++) {
		char *o = ud_xasprintf("install/include/%s", e->uninstall.v[i]);

		if (ud_map_has(&e->outputs, o))
			drop_output(e, o);
		if (ud_store_del_installed(e->store, e->uninstall.v[i], &cause) < 0) {
			ud_log(LOG_ERR, "%s", cause);
			free(cause);
			cause = NULL;
		}
		event(e, e->uninstall.v[i], "install", "removed");
		record_api(e, e->uninstall.v[i], NULL, 0);
		s = ud_map_del(&e->installed, e->uninstall.v[i]);
		if (s != NULL)
			count_installed(e, s->blob, -1);
		istate_free(s);
		free(o);
	}
}

static void
apply_wave(struct ud_engine *e)
{
	size_t i;
	uint64_t t = uv_hrtime();

	for (i = e->wave_h0; i < e->wave_h; i++) {
		apply_header(e, &e->hjobs[i]);
		hjob_free(&e->hjobs[i]); /* its texts are on disk now */
	}
	for (i = e->wave_i0; i < e->wave_i; i++) {
		apply_install(e, &e->ijobs[i]);
		ud_installed_free(&e->ijobs[i].in);
	}
	ud_log(LOG_DEBUG, "batch: wave of %zu+%zu computed by %.2f ms, applied in %.2f ms",
	       e->wave_h - e->wave_h0, e->wave_i - e->wave_i0, (double)(t - e->t0) / 1e6,
	       (double)(uv_hrtime() - t) / 1e6);
}

static void
update_split_problem(struct ud_engine *e)
{
	struct ud_engine_counts c;
	const char *k, *first = NULL;
	void *v;
	size_t i = 0;

	ud_engine_counts(e, &c);
	if (c.needs_coaching == 0) {
		set_problem(e, &e->problem_split, "split", NULL);
		return;
	}
	if (c.needs_coaching == e->problem_split_count && e->problem_split != NULL)
		return; /* said already (the first one named may be another now: no matter) */
	e->problem_split_count = c.needs_coaching;
	while (ud_map_next(&e->headers, &i, &k, &v))
		if (strcmp(((struct hstate *)v)->outcome, "needs-coaching") == 0 &&
		    (first == NULL || strcmp(k, first) < 0))
			first = k;
	char *why = ud_xasprintf("%zu header%s need%s coaching (%s%s): give markers with "
				 "--markers, or over the socket",
				 c.needs_coaching, c.needs_coaching == 1 ? "" : "s",
				 c.needs_coaching == 1 ? "s" : "", first,
				 c.needs_coaching > 1 ? ", ..." : "");
	set_problem(e, &e->problem_split, "split", why);
	free(why);
}

static void
finish(struct ud_engine *e)
{
	ud_engine_done_fn done = e->done;
	void *ctx = e->done_ctx;
	char *cause = NULL;
	int rc;

	uint64_t t1 = uv_hrtime(), t2;

	apply_kbuilds(e);
	apply_removed(e);
	apply_uninstall(e);
	update_split_problem(e);
	t2 = uv_hrtime();
	rc = ud_store_commit(e->store, &cause);
	ud_log(LOG_DEBUG, "batch: computed and applied at %.2f ms, lists %.2f ms, commit %.2f ms",
	       (double)(t1 - e->t0) / 1e6, (double)(t2 - t1) / 1e6,
	       (double)(uv_hrtime() - t2) / 1e6);
	e->rep.ns = uv_hrtime() - e->t0;
	if (rc < 0) {
		/* nothing of the batch is recorded: remember what the store says, look again */
		e->rep.error = rc;
		e->rep.cause = cause;
		load_state(e, NULL);
	}
	e->rep.clock = e->clock = ud_store_clock(e->store);
	jobs_free(e);
	e->busy = false;
	ud_sched_batch_free(e->batch);
	e->batch = NULL;
	if (e->rep.full)
		malloc_trim(0); /* a full scan's buffers are freed: give the pages back */
	ud_strlist_sort(&e->rep.changed);
	done(ctx, &e->rep);
	report_reset(e);
}

static void
report_reset(struct ud_engine *e)
{
	free(e->rep.cause);
	ud_strlist_free(&e->rep.changed);
	for (size_t i = 0; i < e->rep.napi; i++)
		free(e->rep.api[i].path);
	free(e->rep.api);
	ud_map_free(&e->changed_set, NULL);
	memset(&e->rep, 0, sizeof(e->rep));
}

static void
begin_batch(struct ud_engine *e, struct ud_sched_batch *b, ud_engine_done_fn done, void *ctx)
{
	char *cause = NULL;

	report_reset(e);
	e->busy = true;
	e->batch = b;
	e->done = done;
	e->done_ctx = ctx;
	e->t0 = uv_hrtime();
	e->kbuild_all = false;
	e->removed_dirty = false;
	e->replanned = false;
	e->wave_h = e->wave_i = 0;
	e->progress_done = 0;
	if (ud_store_begin(e->store, &cause) < 0) {
		e->rep.error = -EIO;
		e->rep.cause = cause;
		e->busy = false;
		e->batch = NULL;
		ud_sched_batch_free(b);
		done(ctx, &e->rep);
		report_reset(e);
		return;
	}
	prepare(e, b);
	ud_log(LOG_DEBUG, "batch: prepared %zu header and %zu install jobs in %.2f ms%s", e->nhjobs,
	       e->nijobs, (double)(uv_hrtime() - e->t0) / 1e6, e->replanned ? " (replanned)" : "");
	e->progress_total = e->nhjobs + e->nijobs;
	next_wave(e);
}

void
ud_engine_batch(struct ud_engine *e, struct ud_sched_batch *b, ud_engine_done_fn done, void *ctx)
{
	begin_batch(e, b, done, ctx);
}

int
ud_engine_start(struct ud_engine *e, ud_engine_done_fn done, void *ctx, char **cause)
{
	struct ud_sched_batch *b;
	int rc;

	if ((rc = ud_mkdir_p(e->state_dir, cause)) < 0)
		return rc;
	if ((rc = verify_outputs(e, cause)) < 0)
		return rc;
	/* split/ exists even when nothing is split, as uapid split --output makes it */
	{
		char *d = ud_xasprintf("%s/split", e->state_dir);

		rc = ud_mkdir_p(d, cause);
		free(d);
		if (rc < 0)
			return rc;
	}
	b = ud_xcalloc(1, sizeof(*b));
	b->full = true;
	b->first_ns = uv_hrtime();
	begin_batch(e, b, done, ctx);
	return 0;
}

int
ud_engine_reload_markers(struct ud_engine *e, char **cause)
{
	struct ud_markers fresh = UD_MARKERS_INIT;
	int rc;

	if ((rc = read_markers_file(e, &fresh, cause)) < 0) {
		ud_markers_free(&fresh);
		return rc;
	}
	ud_markers_free(&e->file_markers);
	e->file_markers = fresh;
	if ((rc = ud_store_begin(e->store, cause)) < 0)
		return rc;
	if ((rc = ud_store_set_markers(e->store, "file", &e->file_markers, cause)) < 0) {
		ud_store_rollback(e->store);
		return rc;
	}
	if ((rc = ud_store_commit(e->store, cause)) < 0)
		return rc;
	return load_markers(e, cause);
}

bool
ud_engine_busy(const struct ud_engine *e)
{
	return e->busy;
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
	return NULL;
}

/* --- queries (the socket's) ----------------------------------------------------------- */

const char *
ud_engine_root(const struct ud_engine *e)
{
	return e->root;
}

static void
fill_header(const char *path, const struct hstate *h, struct ud_engine_header *out)
{
	out->path = path;
	out->outcome = h->outcome;
	out->blob = h->blob;
	out->exported = h->exported;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
ud_engine_each_header(struct ud_engine *e, const char *prefix,
		      int (*fn)(const struct ud_engine_header *h, void *ctx), void *ctx)
{
	const char **keys = ud_xcalloc(e->headers.n + 1, sizeof(*keys));
	const char *k;
	size_t i = 0, n = 0, plen = prefix != NULL ? strlen(prefix) : 0;
	int stop = 0;

	while (ud_map_next(&e->headers, &i, &k, NULL))
		if (plen == 0 || strncmp(k, prefix, plen) == 0)
			keys[n++] = k;
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n && stop == 0; i++) {
		struct ud_engine_header h;

		fill_header(keys[i], ud_map_get(&e->headers, keys[i]), &h);
		stop = fn(&h, ctx);
	}
	free(keys);
	return stop;
}

int
ud_engine_header(struct ud_engine *e, const char *path, struct ud_engine_header *h)
{
	const struct hstate *s = ud_map_get(&e->headers, path);

	if (s == NULL)
		return 0;
	fill_header(path, s, h);
	return 1;
}

/* The text to work on: the buffer given, or the file. */
static int
text_of(struct ud_engine *e, const char *path, const char *text, size_t len, struct ud_buf *out,
	char **cause)
{
	if (text != NULL) {
		ud_buf_add(out, text, len);
		return 0;
	}
	return ud_source_read(&e->src, path, out, cause);
}

json_t *
ud_engine_classify(struct ud_engine *e, const char *path, const char *text, size_t len,
		   char **cause)
{
	struct ud_buf b = UD_BUF_INIT;
	const struct ud_marker **mk = NULL;
	struct ud_classified c;
	size_t n;
	json_t *r;

	if (text_of(e, path, text, len, &b, cause) < 0) {
		ud_buf_free(&b);
		return NULL;
	}
	n = ud_markers_for(&e->markers, path, &mk);
	ud_classify(ud_buf_str(&b), b.len, mk, n, &c);
	free(mk);
	r = json_pack("{s:s, s:o, s:o}", "path", path, "blocks", ud_json_blocks(&c), "diagnostics",
		      ud_json_diags(&c.diags));
	ud_classified_free(&c);
	ud_buf_free(&b);
	return r;
}

/*
 * Installed headers the store has no API version of (a state directory
 * from before the API history, sql/003-api.sql): their text now is their
 * first version, so the next change is compared with something.
 */
static void
backfill_api(struct ud_engine *e)
{
	struct ud_buf text = UD_BUF_INIT, have = UD_BUF_INIT;
	const char *k;
	void *v;
	size_t i = 0, n = 0;
	char *cause = NULL;

	if (ud_store_begin(e->store, &cause) < 0) {
		free(cause);
		return;
	}
	while (ud_map_next(&e->installed, &i, &k, &v)) {
		const struct istate *s = v;
		struct ud_api_header h;
		char *path, fp[32];

		if (s->blob[0] == '\0' ||
		    ud_store_api_version_at(e->store, k, INT64_MAX, NULL, &have) == 0)
			continue;
		path = ud_xasprintf("%s/install/include/%s", e->state_dir, k);
		if (ud_read_file(path, &text, NULL) == 0) {
			ud_api_parse(k, text.data != NULL ? text.data : "", text.len, &h);
			snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)h.fingerprint);
			if (ud_store_put_api_version(e->store, k, ud_store_clock(e->store), fp,
						     text.data != NULL ? text.data : "", text.len,
						     NULL) == 0)
				n++;
			ud_api_header_free(&h);
		}
		free(path);
	}
	if (ud_store_commit(e->store, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	} else if (n > 0) {
		ud_log(LOG_INFO, "API history: %zu installed header%s recorded as they are now", n,
		       n == 1 ? "" : "s");
	}
	ud_buf_free(&text);
	ud_buf_free(&have);
}

json_t *
ud_engine_api_text(struct ud_engine *e, const char *path, const char *text, size_t len,
		   char **cause)
{
	char *name = ud_apiquery_installed_name(path);
	const struct ud_hdr_file *f = NULL;
	struct ud_hdr_file g;
	struct ud_installed in;
	struct ud_buf prev = UD_BUF_INIT;
	struct ud_api_header o, n;
	struct ud_api_diff d;
	bool had;
	size_t i;
	json_t *r;

	if (name != NULL && e->have_plan)
		f = ud_headers_plan_source(&e->plan, path);
	if (f == NULL) {
		*cause = ud_xasprintf("invalid params: \"path\" %s is not a header this tree "
				      "installs (yet: a new one counts once it is saved)",
				      path);
		free(name);
		return NULL;
	}
	/* the buffer installed as the tree's rules install the file */
	memset(&g, 0, sizeof(g));
	g.dst = f->dst;
	g.src = f->src;
	g.generated = true;
	ud_buf_add(&g.gen, text, len);
	ud_headers_install_file(&e->plan, &g, &e->src, &in);
	ud_buf_free(&g.gen);
	if (!in.ok) {
		*cause = ud_xasprintf("%s: cannot be installed: %s", path,
				      in.diags.n > 0 ? in.diags.v[0].message : "unknown reason");
		ud_installed_free(&in);
		free(name);
		return NULL;
	}
	had = ud_store_api_version_at(e->store, f->dst, INT64_MAX, NULL, &prev) == 0;
	if (had)
		ud_api_parse(f->dst, prev.data != NULL ? prev.data : "", prev.len, &o);
	ud_api_parse(f->dst, in.text.data != NULL ? in.text.data : "", in.text.len, &n);
	memset(&d, 0, sizeof(d));
	ud_api_diff_header(had ? &o : NULL, &n, &d);
	ud_api_diff_through(&d, &n, 1);
	/* the editor's lines: installed lines mapped back to the buffer's */
	for (i = 0; i < d.n; i++) {
		unsigned l = d.v[i].new_line;

		d.v[i].new_line = l > 0 && l <= in.map.n ? in.map.v[l - 1] : 0;
		d.v[i].old_line = 0;
	}
	r = ud_json_api_diff(&d);
	json_object_set_new(r, "installed", json_string(f->dst));
	ud_api_diff_free(&d);
	if (had)
		ud_api_header_free(&o);
	ud_api_header_free(&n);
	ud_installed_free(&in);
	ud_buf_free(&prev);
	free(name);
	return r;
}

/* The installed form of text, at include name dst, by the tree's install rules. */
static json_t *
installed_json(struct ud_engine *e, const char *src, const char *dst, const char *text, size_t len)
{
	struct ud_hdr_file f;
	struct ud_installed in;
	json_t *r;

	if (!e->have_plan)
		return json_null();
	memset(&f, 0, sizeof(f));
	f.dst = (char *)(uintptr_t)dst;
	f.src = (char *)(uintptr_t)src;
	f.generated = true; /* the text is given: not read from the tree */
	ud_buf_add(&f.gen, text, len);
	ud_headers_install_file(&e->plan, &f, &e->src, &in);
	r = json_pack("{s:s, s:s?, s:o}", "path", dst, "text", in.ok ? ud_buf_str(&in.text) : NULL,
		      "diagnostics", ud_json_diags(&in.diags));
	ud_installed_free(&in);
	ud_buf_free(&f.gen);
	return r;
}

json_t *
ud_engine_preview(struct ud_engine *e, const char *path, const char *text, size_t len, char **cause)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_hsplit h;
	json_t *r, *installed = json_null();
	const char *name = ud_path_include_name(path);

	if (name == NULL) {
		*cause = ud_xasprintf("%s: not a header under include/ or arch/*/include/", path);
		return NULL;
	}
	if (text_of(e, path, text, len, &b, cause) < 0) {
		ud_buf_free(&b);
		return NULL;
	}
	if (ud_path_is_uapi(path)) {
		/* a uapi header: nothing to split; installed as it is */
		json_decref(installed);
		installed = installed_json(e, path, name + 5, ud_buf_str(&b), b.len);
		r = json_pack("{s:s, s:s, s:n, s:s, s:s, s:o, s:o}", "path", path, "outcome",
			      "uapi", "kernel", "uapi_path", path, "uapi", ud_buf_str(&b),
			      "installed", installed, "diagnostics", json_array());
		ud_buf_free(&b);
		return r;
	}
	ud_hsplit_compute_text(path, ud_buf_str(&b), b.len, &e->markers, &h);
	if (ud_hsplit_moves(&h)) {
		json_decref(installed);
		installed = installed_json(e, h.twin, ud_path_include_name(h.twin) + 5,
					   ud_buf_str(&h.res.uapi), h.res.uapi.len);
	}
	r = json_pack(
		"{s:s, s:s, s:b, s:s?, s:s?, s:s?, s:o, s:o}", "path", path, "outcome",
		ud_split_outcome_name(h.res.outcome), "exported", ud_tindex_exported(e->idx, path),
		"kernel", h.res.outcome == UD_SPLIT_SPLIT ? ud_buf_str(&h.res.kernel) : NULL,
		"uapi_path", h.twin, "uapi", ud_hsplit_moves(&h) ? ud_buf_str(&h.res.uapi) : NULL,
		"installed", installed, "diagnostics", ud_json_diags(&h.res.diags));
	ud_hsplit_free(&h);
	ud_buf_free(&b);
	return r;
}

const struct ud_markers *
ud_engine_markers(const struct ud_engine *e)
{
	return &e->markers;
}

int
ud_engine_reload_store_markers(struct ud_engine *e, char **cause)
{
	return load_markers(e, cause);
}
