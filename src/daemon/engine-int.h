/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's parts (engine.h), shared by its files and by nothing else:
 *
 *   engine.c          the engine: open, close, what it remembers, the
 *                     markers, the snapshots of the thread-pool contract
 *   engine-outputs.c  output files: writing, removing, checking and
 *                     repairing them against the store
 *   engine-plan.c     the install plan: computing it, what it says to make
 *   engine-batch.c    the batch: preparing it, its waves on the pool,
 *                     finishing it
 *   engine-apply.c    a wave's results and the batch's end applied: rows,
 *                     outputs, export lists
 *   engine-api.c      the installed headers' API history: the version in
 *                     effect, the new one's model (on the pool), recorded
 *   engine-query.c    what the socket asks: headers, classify, preview,
 *                     an editor's API changes
 */
#ifndef UAPID_ENGINE_INT_H
#define UAPID_ENGINE_INT_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uapid/daemon/engine.h"
#include "uapid/io/headers.h"
#include "uapid/io/hsplit.h"
#include "uapid/util/map.h"
#include "uapid/core/markers.h"
#include "uapid/io/sink.h"
#include "uapid/io/source.h"
#include "uapid/io/tindex.h"

#define BLOB_HEX 41 /* a git blob id in hex, with its NUL */

/*
 * What became of a header: the store's outcome column, by its name
 * (ud_engine_outcome_names, engine.c).
 */
enum outcome {
	OUT_NONE, /* no outcome yet (""), or a name this uapid does not know */
	OUT_SPLIT,
	OUT_MOVED,
	OUT_NEEDS_COACHING,
	OUT_SKIPPED,
	OUT_UNEXPORTED,
	OUT_UAPI,
	OUT_UNREADABLE,
	OUT__COUNT
};

extern const char *const ud_engine_outcome_names[]; /* sized by its definition: checked there */

static inline const char *
outcome_name(enum outcome o)
{
	return ud_engine_outcome_names[o];
}

/* The outcome of a name (the store's, the split's); OUT_NONE for one not known. */
enum outcome ud_engine_outcome(const char *name);

/* What is remembered of one header (a row of the headers table). */
struct hstate {
	int64_t size, mtime_ns;
	uint64_t ino;
	char blob[BLOB_HEX];
	char key[32]; /* the split key: what besides the text decides the split */
	bool exported;
	enum outcome outcome;
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

/* An immutable set of markers, shared by the engine and the snapshots that took it. */
struct markers_ref {
	unsigned refs;
	struct ud_markers set;
};

/* An immutable install plan, shared the same way. */
struct plan_ref {
	unsigned refs;
	struct ud_hdr_plan plan;
};

/*
 * What a batch's workers read besides their own jobs (see the contract in
 * engine.c): complete before the first chunk goes out, never written
 * after, freed when the batch and every chunk have let go of it.
 */
struct engine_snap {
	unsigned refs;			   /* taken and dropped on the loop thread */
	const struct markers_ref *markers; /* the markers in effect when the batch started */
	const struct plan_ref *plan;	   /* the install plan of the batch, NULL for none */
	struct ud_source *src; /* the tree: read-only, safe from any thread (source.h) */
};

/* A header to look at, and what the thread pool found. */
struct hjob {
	/* made on the loop thread (the index's answers for the path, and the old row) */
	char *path;
	bool force;	 /* split again even when nothing seems to have changed */
	bool takes_part; /* by the index, now: false when it is no header any more */
	bool exported;	 /* by the index, now */
	bool uapi_dir;
	bool had_row;
	struct hstate old;
	char key[32];
	/*
	 * Its path lies where the last look at the tree failed (a directory
	 * that could not be listed): the index cannot say whether it is
	 * still there, so only a stat that finds nothing removes it.
	 */
	bool unsure;
	/* found on the pool */
	bool gone, same, unreadable;
	/*
	 * It could not be looked at (an error other than "no such file": no
	 * descriptor left, no permission on its directory...): its row and
	 * outputs stay as they are, the cause is in cause, and it is looked
	 * at again (ud_engine_failing_paths).  Never a deletion.
	 */
	bool failed;
	bool racy; /* modified within RACY_NS of the look: its mtime is not recorded */
	struct ud_fstat st;
	char blob[BLOB_HEX];
	char *cause;
	struct ud_hsplit h;
	bool split; /* h is filled */
	enum outcome outcome;
	char *blocks, *diags; /* JSON, as the store keeps them */
	struct ud_markers in_source;
};

/*
 * An installed header's API history, for one job (engine-api.c): the
 * version in effect, taken from the store on the loop; whether a new one
 * is to be recorded and its verdicts, found on the pool.
 */
struct api_job {
	bool had;			       /* a version in effect (not removed) */
	char *old_fp;			       /* its fingerprint */
	struct ud_buf old_text;		       /* and its text (freed by the pool once read) */
	char fp[32];			       /* the new version's fingerprint ("-": removed) */
	bool record;			       /* another API: a new version */
	unsigned breaking, review, compatible; /* against the old one, when had */
};

/* An installed header to make. */
struct ijob {
	size_t fi; /* its file in the snapshot's plan */
	/* made on the loop as its wave goes out (ud_engine_prepare_ijob) */
	char old_blob[BLOB_HEX]; /* the installed text's blob now, "" for none */
	struct api_job api;	 /* computed only when the installed text changed */
	/* found on the pool */
	struct ud_installed in;
	char src_blob[BLOB_HEX];
	char blob[BLOB_HEX];
};

/* The batch in flight: everything that lives from its start to its commit. */
struct batch {
	struct ud_engine *e;
	struct engine_snap *snap;
	struct ud_sched_batch *req; /* what the scheduler asked for */
	ud_engine_done_fn done;
	void *done_ctx;
	struct hjob *hjobs;
	size_t nhjobs, ahjobs;
	struct ijob *ijobs;
	size_t nijobs, aijobs;
	struct ud_map queued;	     /* the paths of hjobs */
	struct ud_strlist uninstall; /* planned files gone from the plan */
	/*
	 * The watcher's paths, taken into the index a slice a turn (a
	 * checkout's thousands take the loop hundreds of milliseconds): the
	 * sorted paths, the next one, and what they found so far.
	 */
	struct ud_strlist prep_paths, prep_other, prep_export;
	size_t prep_i;
	bool prep_replan;
	uv_idle_t *prep_idle;	      /* slices after the first, one a turn; NULL when none */
	size_t wave_h0, wave_i0;      /* the wave being computed: [wave_h0, wave_h) */
	size_t wave_h, wave_i;	      /* and where the next one starts */
	unsigned chunks_out;	      /* the wave's requests on the pool */
	bool verify_disk;	      /* asked for (resplit): outputs are checked on disk too */
	bool kbuild_all;	      /* recompute every directory's export lists */
	struct ud_strlist dirty_dirs; /* directories whose moves changed */
	bool removed_dirty;
	uint64_t t0, t_end; /* its start, and its end's (the lists) */
	size_t progress_total, progress_done;
	struct ud_engine_report rep;
	struct ud_map changed_set; /* the paths of rep.changed */
	/*
	 * The batch's first failed write of an output or of the store (a
	 * negative errno, and why): it is not committed but rolled back,
	 * and tried again (ud_engine_fault).  0 while none.
	 */
	int fault;
	char *fault_cause;
	struct ud_map touched; /* outputs written or removed: state-relative path -> owner */
};

/*
 * Contract rule 3, checked in --enable-debug builds: nothing a worker
 * reads is written while the batch has chunks on the pool.
 */
#ifdef UD_DEBUG
#define ASSERT_NO_CHUNKS_OUT(b) assert((b) == NULL || (b)->chunks_out == 0)
#else
#define ASSERT_NO_CHUNKS_OUT(b) ((void)(b))
#endif

struct ud_engine {
	uv_loop_t *loop;
	char *root, *state_dir, *arch, *markers_path;
	struct ud_store *store;
	struct ud_source src;
	struct ud_tindex *idx;
	struct ud_sink out;
	struct ud_markers file_markers;	  /* from --markers, as the store has them */
	struct markers_ref *markers;	  /* in effect: the file's and the socket's */
	struct ud_map headers, installed; /* path -> hstate, dst -> istate */
	struct ud_map outputs;		  /* state-relative path -> ostate */
	struct ud_map force_headers;	  /* headers whose outputs are missing or damaged */
	struct ud_map force_installed;	  /* installed headers the same */
	/*
	 * Outputs a batch wrote or removed and could not record (path ->
	 * owner): until a batch is recorded, each owner is made again and
	 * the disk checked; then those the store does not know are removed.
	 */
	struct ud_map unrecorded;
	/* the install */
	struct plan_ref *plan;	      /* NULL: no plan */
	struct ud_strlist plan_reads; /* what planning looked at, sorted */
	struct ud_strlist plan_dirs;  /* their directories, sorted */
	char install_key[32];	      /* the install rules the installed headers were made with */
	char *problem_install, *problem_split;
	size_t problem_split_count;
	char *problem_exports; /* export list entries that name no header file */
	bool exports_said;     /* the store's "exports" row was set since start */
	struct batch *batch;   /* in flight, or NULL */
	ud_engine_progress_fn progress;
	void *progress_ctx;
	int64_t clock;
	/*
	 * Paths that could not be looked at (path -> struct failing): kept as
	 * they were, a problem in status ("read"), looked at again until the
	 * error clears (the daemon's back-off).
	 */
	struct ud_map failing;
	size_t failing_dirs; /* of them directories: add_hjob asks only while there are */
	char *problem_read;
	struct ud_engine_counts counts; /* kept as rows change (outputs: counted when asked) */
#ifdef UD_TEST_HOOKS
	long crash_after; /* UAPID_TEST_CRASH_AFTER=N: SIGKILL before the Nth write */
#endif
};

static inline void
copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src != NULL ? src : "");
}

/* Is path dir or below it ("" is the top)? */
static inline bool
has_prefix_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n == 0 || (strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

/* Is path one of the tree's headers now (the tree index says), or was it (a row)? */
static inline bool
is_header(const struct ud_engine *e, const char *path)
{
	return ud_tindex_takes_part(e->idx, path) || ud_map_has(&e->headers, path);
}

/* A path that could not be looked at (engine.c). */
struct failing {
	char *cause;
	bool dir; /* a directory that could not be listed: looked at again whole */
};

/* engine.c */
/* Records that path could not be looked at (cause taken); logged when new or changed. */
void ud_engine_fail_path(struct ud_engine *e, const char *path, char *cause, bool dir);
/* path (and, with below, everything under it) was looked at: no longer failing. */
void ud_engine_path_ok(struct ud_engine *e, const char *path, bool below);
/* Is path where a failing directory is (unsure: the index may have lost it)? */
bool ud_engine_path_unsure(const struct ud_engine *e, const char *path);
/* The "read" problem as the failing paths say (in the batch's transaction). */
void ud_engine_failing_problem(struct ud_engine *e);
void ud_engine_blob(const void *data, size_t len, char out[BLOB_HEX]);
void ud_engine_split_key(const struct ud_markers *set, const char *path, char out[32]);
void ud_engine_set_problem(struct ud_engine *e, char **slot, const char *what, const char *reason);
/*
 * A write of an output or of the store failed (rc, and cause, which it
 * takes): logged, and, in a batch, the batch's fault (the first one is
 * kept): the batch is rolled back and tried again.
 */
void ud_engine_fault(struct ud_engine *e, int rc, char *cause);
/* Has the batch in flight failed already (its outputs are not written any more)? */
bool ud_engine_failed(const struct batch *b);
/* The install's and the split's problems as the store has them (after a rollback). */
void ud_engine_load_problems(struct ud_engine *e);
void ud_engine_count_header(struct ud_engine *e, const struct hstate *h, int sign);
void ud_engine_count_installed(struct ud_engine *e, const char *blob, int sign);
void ud_engine_istate_free(void *v);
int ud_engine_load_state(struct ud_engine *e, char **cause);
int ud_engine_load_markers(struct ud_engine *e, char **cause);
/*
 * engine-compute.c, on a pool thread: header job j, or installed-file job
 * j, computed from j and snapshot s alone.
 */
void engine_compute_header(const struct engine_snap *s, struct hjob *j);
void engine_compute_install(const struct engine_snap *s, struct ijob *j);
struct engine_snap *ud_engine_snap_take(struct ud_engine *e);
struct engine_snap *ud_engine_snap_ref(struct engine_snap *s);
void ud_engine_snap_unref(struct engine_snap *s);
struct plan_ref *ud_engine_plan_ref(struct plan_ref *p);
void ud_engine_plan_unref(struct plan_ref *p);

/* engine-outputs.c */
void ud_engine_ostate_free(void *v);
int ud_engine_put_output(struct batch *b, const char *rel, const char *owner, const char *data,
			 size_t len);
void ud_engine_drop_output(struct batch *b, const char *rel);
void ud_engine_drop_owned(struct batch *b, const char *owner, const struct ud_strlist *keep);
/* The batch is rolled back: the outputs it wrote or removed go to the engine's unrecorded. */
void ud_engine_keep_unrecorded(struct batch *b);
/* A batch is recorded: the unrecorded outputs the store does not know are removed. */
void ud_engine_tidy_unrecorded(struct ud_engine *e);
int ud_engine_verify_outputs(struct ud_engine *e, char **cause);
void ud_engine_backfill_api(struct ud_engine *e);

/* engine-plan.c */
void ud_engine_replan(struct batch *b);
void ud_engine_add_ijob(struct batch *b, size_t fi);
bool ud_engine_wants_replan(const struct ud_engine *e, const char *path, unsigned kinds,
			    bool existed);

/* engine-api.c */
/* On the loop: the API version of dst in effect, from the store, into a. */
void ud_engine_api_take(struct ud_engine *e, const char *dst, struct api_job *a);
/* On the pool, from its arguments alone: dst's new text (NULL: removed) against a's old one. */
void ud_engine_api_compute(const char *dst, const char *text, size_t len, struct api_job *a);
/* On the loop: the new version recorded (at the engine's clock) and reported, when a says so. */
void ud_engine_api_record(struct batch *b, const char *dst, const char *text, size_t len,
			  const struct api_job *a);
void ud_engine_api_free(struct api_job *a);

/* engine-apply.c */
/* On the loop, as the wave of installed-header job j goes out: what the pool needs of now. */
void ud_engine_prepare_ijob(struct batch *b, struct ijob *j);
void ud_engine_event(struct batch *b, const char *path, const char *kind, const char *detail);
void ud_engine_apply_header(struct batch *b, struct hjob *j);
void ud_engine_apply_install(struct batch *b, struct ijob *j);
/*
 * The batch's end: the export lists (computed on the pool), split/.uapid-removed,
 * the headers no longer installed, the problems; then done(b), on the loop.
 */
void ud_engine_apply_end(struct batch *b, void (*done)(struct batch *b));

#endif /* UAPID_ENGINE_INT_H */
