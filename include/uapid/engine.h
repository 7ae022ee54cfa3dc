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
 */
#ifndef UAPID_ENGINE_H
#define UAPID_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <uv.h>

#include "uapid/sched.h"
#include "uapid/store.h"
#include "uapid/strlist.h"

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
void ud_engine_set_progress(struct ud_engine *e, ud_engine_progress_fn fn, void *ctx);

/*
 * The start: checks every output against the store (removing strays,
 * marking what differs), then a full batch.  done is called on the loop
 * thread when it is recorded.
 */
int ud_engine_start(struct ud_engine *e, ud_engine_done_fn done, void *ctx, char **cause);
/* A batch from the scheduler (b is taken); done as above. */
void ud_engine_batch(struct ud_engine *e, struct ud_sched_batch *b, ud_engine_done_fn done,
		     void *ctx);
/*
 * Reads the markers file again (SIGHUP); the next full batch applies
 * them.  Returns 0 or a negative errno with *cause (the old markers stay).
 */
int ud_engine_reload_markers(struct ud_engine *e, char **cause);
/* Is a batch running? */
bool ud_engine_busy(const struct ud_engine *e);

/*
 * Does the engine need to hear about rel (a directory): the include
 * trees, arch/ on the way to them, and the directories of what the
 * install plan read.  ON: watch it; PASS: enter it only; SKIP.
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
 * Classifies path as `uapid classify --json` does: {"path", "blocks",
 * "diagnostics"}, with the header's markers; text (len bytes) is an
 * editor's unsaved buffer, NULL to read the file.  Returns NULL with
 * *cause when the file cannot be read.
 */
json_t *ud_engine_classify(struct ud_engine *e, const char *path, const char *text, size_t len,
			   char **cause);
/*
 * What the split gives for path (its text, or the buffer given): outcome,
 * kernel and uapi texts with their paths, and the installed text of the
 * uapi header as the tree's install makes it (when the tree has an
 * install); NULL with *cause when the file cannot be read or is not a
 * header path.
 */
/*
 * What an editor's buffer (text) of the uapi header path changes in the
 * userspace API, against the version installed now: the buffer installed by
 * the tree's rules, diffed (api.h), lines mapped back to the buffer's.
 */
json_t *ud_engine_api_text(struct ud_engine *e, const char *path, const char *text, size_t len,
			   char **cause);
json_t *ud_engine_preview(struct ud_engine *e, const char *path, const char *text, size_t len,
			  char **cause);
/* The markers in effect (the file's and the socket's); valid until the next reload. */
const struct ud_markers *ud_engine_markers(const struct ud_engine *e);
/* The markers changed in the store (added or removed over the socket): take them in. */
int ud_engine_reload_store_markers(struct ud_engine *e, char **cause);
void ud_engine_counts(const struct ud_engine *e, struct ud_engine_counts *c);
/* What cannot be served, by what ("install", "split"): NULL when all is served. */
const char *ud_engine_problem(const struct ud_engine *e, const char *what);

#endif /* UAPID_ENGINE_H */
