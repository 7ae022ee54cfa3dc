/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine: keeps a state directory and its store equal to what the
 * batch commands give for the tree as it is now, and brings them up to
 * date from a list of paths that may have changed.
 *
 * The state directory holds split/ (exactly what `uapid split --output`
 * writes for the tree, .uapid-removed included) and install/include/
 * (exactly what `uapid install --arch ARCH` writes there, for trees with
 * include/uapi/), and state.db.  A batch runs in three steps: on the loop
 * thread, the tree index and the install plan take in the paths and say
 * which headers and installed files to look at; on libuv's thread pool,
 * each is stat'ed, read, hashed and, when its content or what decides
 * its split changed, split and installed (the per-header pipeline,
 * hsplit.h and headers.h: no rule here); back on the loop thread, the
 * outputs are written (each atomically) and the store updated, in one
 * transaction whose events carry the clock.
 *
 * Outputs are not flushed to the disk one by one: every start compares
 * each output with the blob the store says it must hold, removes the
 * files the store does not know, and re-makes what differs, which
 * repairs both a kill -9 between the writes and the commit and a power
 * loss that took back writes the commit outlived.
 *
 * Every function here runs on the loop thread.  What the thread pool may
 * read while a batch runs is a contract, written at the top of
 * src/daemon/engine.c: in short, its jobs and a snapshot of the markers
 * and the install plan taken when the batch started; what changes
 * meanwhile (markers over the socket, SIGHUP) is for the next batch.
 */
#ifndef UAPID_ENGINE_H
#define UAPID_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "uapid/api/api.h"
#include "uapid/core/classify.h"
#include "uapid/io/headers.h"
#include "uapid/io/hsplit.h"
#include "uapid/daemon/sched.h"
#include "uapid/store/store.h"
#include "uapid/util/strlist.h"

struct ud_engine_opts {
	const char *root;      /* the tree, canonical absolute path */
	const char *state_dir; /* absolute */
	const char *arch;      /* ARCH for install/ */
	const char *markers;   /* --markers FILE, or NULL */
};

/* What the last batch did. */
struct ud_engine_report {
	size_t paths;	    /* paths it was asked about */
	size_t looked;	    /* headers and installed files looked at */
	size_t resplit;	    /* headers split or classified again */
	size_t reinstalled; /* installed headers made again */
	size_t written;	    /* output files written */
	size_t removed;	    /* output files removed */
	size_t failed;	    /* output files that could not be written */
	bool full;	    /* it looked at the whole tree */
	bool replanned;	    /* the install plan was computed again */
	uint64_t ns;	    /* from its start to its commit */
	int64_t clock;	    /* the clock after it */
	int error;	    /* 0, or a negative errno: it was not recorded (see cause) */
	char *cause;
	struct ud_strlist changed; /* the paths it logged events for, sorted */
	/* installed headers whose userspace API changed in it, with the verdicts (api.h) */
	struct ud_engine_api {
		char *path; /* installed name: linux/foo.h */
		unsigned breaking, review, compatible;
	} * api;
	size_t napi, aapi;
};

/* Counts for status lines and the socket. */
struct ud_engine_counts {
	size_t headers, exported, split, moved, needs_coaching, skipped, unreadable;
	size_t installed, install_failed, outputs;
};

typedef void (*ud_engine_done_fn)(void *ctx, const struct ud_engine_report *r);
typedef void (*ud_engine_progress_fn)(void *ctx, size_t done, size_t total);

struct ud_engine;

/*
 * Opens the store (state_dir/state.db) and the tree, loads what the store
 * remembers and the markers.  Nothing is looked at yet.  Returns 0 or a
 * negative errno with *cause.
 */
int ud_engine_open(struct ud_engine **out, uv_loop_t *loop, const struct ud_engine_opts *o,
		   char **cause);
void ud_engine_close(struct ud_engine *e);
/*
 * The paths the last batches could not look at (an error other than "no
 * such file": no descriptor left, a directory without permission): kept
 * as they were, to look at again (dir: the directory whole).
 */
void ud_engine_each_failing(const struct ud_engine *e,
			    void (*fn)(void *ctx, const char *path, bool dir), void *ctx);
void ud_engine_set_progress(struct ud_engine *e, ud_engine_progress_fn fn, void *ctx);

/*
 * The start: checks every output against the store (removing strays,
 * marking what differs), then a full batch.  done is called on the loop
 * thread when it is recorded.
 */
int ud_engine_start(struct ud_engine *e, ud_engine_done_fn done, void *ctx, char **cause);
/* A batch from the scheduler (b is taken); done as above.  One at a time: never while busy. */
void ud_engine_batch(struct ud_engine *e, struct ud_sched_batch *b, ud_engine_done_fn done,
		     void *ctx);
/*
 * Reads the markers file again (SIGHUP) and records it in the store (in
 * the running batch's transaction when one is open); the next full batch
 * applies them.  Returns 0 or a negative errno with *cause (the old
 * markers stay, in memory and in the store).
 */
int ud_engine_reload_markers(struct ud_engine *e, char **cause);
/* Is a batch running? */
bool ud_engine_busy(const struct ud_engine *e);

/*
 * Does the engine need to hear about rel (a directory): where the tree
 * index looks (ud_tindex_scope: the include trees, and arch/ on the way to
 * them), and the directories of what the install plan read.  ON: watch
 * it; PASS: enter it only; SKIP.
 */
int ud_engine_dir_interest(const struct ud_engine *e, const char *rel);
/* The directories the install plan read from (for the watcher), sorted. */
const struct ud_strlist *ud_engine_plan_dirs(const struct ud_engine *e);

struct ud_store *ud_engine_store(struct ud_engine *e);

/* What is known of one header (the last batch's view). */
struct ud_engine_header {
	const char *path;
	const char
		*outcome; /* split, moved, needs-coaching, skipped, unexported, uapi, unreadable */
	const char *blob;
	bool exported;
};
/*
 * Calls fn for every header in path order, or only those below prefix
 * (a directory or a path prefix, NULL for all); stops at a non-zero return.
 */
int ud_engine_each_header(struct ud_engine *e, const char *prefix,
			  int (*fn)(const struct ud_engine_header *h, void *ctx), void *ctx);
/* One header (1), or 0 when the engine does not know it. */
int ud_engine_header(struct ud_engine *e, const char *path, struct ud_engine_header *h);
/* The tree's root, canonical. */
const char *ud_engine_root(const struct ud_engine *e);

/*
 * The queries an editor or a script asks, on the loop thread, of the tree
 * as the engine knows it now (its markers, its install plan).  text (len
 * bytes) is an editor's unsaved buffer, NULL to read the file.  They
 * return plain results: the socket's methods make the JSON.
 */

/*
 * Classifies path as `uapid classify` does, with the header's markers,
 * into *out (free with ud_classified_free), which borrows the bytes
 * classified: they are put in *bytes, to be kept until then.  Returns 0,
 * or a negative errno with *cause when the file cannot be read.
 */
int ud_engine_classify(struct ud_engine *e, const char *path, const char *text, size_t len,
		       struct ud_buf *bytes, struct ud_classified *out, char **cause);

/* What the split gives for a header, and what installing its uapi part gives. */
struct ud_engine_preview {
	const char *path;
	bool uapi;	       /* path is a uapi header: nothing to split, installed as it is */
	const char *outcome;   /* the split's outcome name, or "uapi" */
	bool exported;	       /* by its directory's export list (not for a uapi header) */
	const char *kernel;    /* the kernel header's text: NULL unless split */
	const char *uapi_path; /* the uapi header (path itself for a uapi header), NULL for none */
	const char *uapi_text; /* its text: NULL unless the header moves (or is uapi) */
	const struct ud_diags *diags; /* the split's */
	/* the uapi text installed by the tree's rules, when it moves and the tree installs */
	bool has_installed;
	char *installed_path; /* its include name: linux/foo.h */
	struct ud_installed installed;
	/* what the fields above point into */
	struct ud_hsplit h;
	struct ud_buf text;
	struct ud_diags none;
};
/*
 * Fills *p (free with ud_engine_preview_free, whatever happens).  Returns
 * 0, or a negative errno with *cause when the file cannot be read or is
 * not a header path.
 */
int ud_engine_preview(struct ud_engine *e, const char *path, const char *text, size_t len,
		      struct ud_engine_preview *p, char **cause);
void ud_engine_preview_free(struct ud_engine_preview *p);

/*
 * What a query on one header's text reads, taken on the loop thread: the
 * markers and the install plan in effect now (a reference to each: a
 * batch or a reload later does not change them), the tree's source, and
 * the tree index's answer for path.  ud_engine_query_classify and
 * ud_engine_query_preview read only it and their own arguments: any thread
 * may run them (the thread-pool contract in engine.c).  Take and free on
 * the loop thread.
 */
struct ud_engine_query;
struct ud_engine_query *ud_engine_query_take(struct ud_engine *e, const char *path);
void ud_engine_query_free(struct ud_engine_query *q);
/* ud_engine_classify and ud_engine_preview on a query taken before. */
int ud_engine_query_classify(const struct ud_engine_query *q, const char *path, const char *text,
			     size_t len, struct ud_buf *bytes, struct ud_classified *out,
			     char **cause);
int ud_engine_query_preview(const struct ud_engine_query *q, const char *path, const char *text,
			    size_t len, struct ud_engine_preview *p, char **cause);

/* What an editor's buffer is compared with (ud_engine_api_text). */
struct ud_engine_api_base {
	bool given;	  /* false: the version installed now (the store's latest) */
	const char *text; /* given: the header's source text at the baseline; NULL: absent */
	size_t len;
};

/*
 * What an editor's buffer (text) of the uapi header path changes in the
 * userspace API, against base (the version installed now, or a baseline's
 * source text installed by the same rules): the buffer installed by the
 * tree's rules, diffed (api.h), lines mapped back to the buffer's, into
 * *diff (free with ud_api_diff_free), and the installed name into
 * *installed (malloc'd).  Returns 0, or -EINVAL with *cause when path is no
 * header the tree installs or the buffer cannot be installed.
 */
int ud_engine_api_text(struct ud_engine *e, const char *path, const char *text, size_t len,
		       const struct ud_engine_api_base *base, struct ud_api_diff *diff,
		       char **installed, char **cause);
/*
 * The markers in effect (the file's and the socket's); valid until the next
 * reload.  A batch running works on those it started with; the next takes
 * these.
 */
const struct ud_markers *ud_engine_markers(const struct ud_engine *e);
/*
 * The markers changed in the store (added or removed over the socket, in
 * the running batch's transaction when one is open): take them in.
 */
int ud_engine_reload_store_markers(struct ud_engine *e, char **cause);
void ud_engine_counts(const struct ud_engine *e, struct ud_engine_counts *c);
/* What cannot be served, by what ("install", "split"): NULL when all is served. */
const char *ud_engine_problem(const struct ud_engine *e, const char *what);

#endif /* UAPID_ENGINE_H */
