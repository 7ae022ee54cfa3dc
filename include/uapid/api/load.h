/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Versions of the installed headers made into API models on the machine's
 * processors: what api-diff and api-layout need from the model, in four
 * calls (load, resolve, diff, free).
 *
 * The caller reads the texts (a directory, a tree installed in memory, a
 * git revision: the command's job, with its errors) and hands each over
 * as it is read; the other processors parse them meanwhile.  A text of a
 * pair's second version that is byte for byte its first version's is not
 * parsed again: its model is a copy (most headers of two releases are the
 * same bytes).  Nothing is shared between the threads but the read-only
 * ABI table.  The threads are libuv's (uv_thread_t).
 */
#ifndef UAPID_API_LOAD_H
#define UAPID_API_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/api/api.h"

struct ud_api_text;
/* One version: its models, sorted by path once loaded. */
struct ud_api_version {
	struct ud_api_header *v;
	size_t n, alloc;
	char *what;		    /* how it was read (the caller's, malloc'd; freed here) */
	struct ud_api_text **texts; /* handed over, parsed meanwhile */
	size_t ntexts, atexts;
};

/*
 * What a thread that makes models runs first (a heap of its own, say):
 * UD_API_THREAD_PARSE for the parsing threads (the loading one included,
 * once it has read everything), UD_API_THREAD_RESOLVE for resolving.
 */
enum ud_api_thread { UD_API_THREAD_PARSE, UD_API_THREAD_RESOLVE };
typedef void ud_api_thread_fn(enum ud_api_thread role);

/* The threads a model is made on, the caller's included: the processors, at most 8. */
size_t ud_api_threads(void);

/*
 * Whether ud_api_versions_resolve reads every symbol for its ABI (on), or
 * only those a diff can see change (off, the default; api-quiet.c): the
 * same report but for values one version computed on the way.  For
 * checking the second against the first (UAPID_RESOLVE_ALL=1, the full
 * test tier).  Set before the threads that resolve start.
 */
void ud_api_resolve_every_symbol(bool on);

struct ud_api_load;
/*
 * Starts the parsing threads (none on one processor: then all is parsed
 * at the end).  pair: two versions are loaded, the first, then the second
 * (ud_api_load_next).  on_thread (or NULL) runs first on each thread.
 */
struct ud_api_load *ud_api_load_start(struct ud_api_version *first, bool pair,
				      ud_api_thread_fn *on_thread);
/*
 * Models already made, by path and text: a run that loads many versions
 * (api-diff --arch all: every architecture's) parses each text once and
 * copies its model after.  Handed to a load by ud_api_load_known, which
 * adds the load's new texts to it at ud_api_load_finish.
 */
struct ud_api_models;
struct ud_api_models *ud_api_models_new(void);
void ud_api_models_free(struct ud_api_models *m);
/* The models l copies instead of parsing a text again (before any text is handed over). */
void ud_api_load_known(struct ud_api_load *l, struct ud_api_models *known);
/* The texts handed over from now on are the pair's second version's (zeroed here). */
void ud_api_load_next(struct ud_api_load *l, struct ud_api_version *second);
/* Hands over one header's installed text (malloc'd, taken over) and its path (copied). */
void ud_api_load_text(struct ud_api_load *l, const char *path, char *text, size_t len);
/* Waits for every model, sorts each version by path and frees l. */
void ud_api_load_finish(struct ud_api_load *l);

/* ud_api_resolve_pair of the two versions, each on its own thread. */
void ud_api_versions_resolve(struct ud_api_version *o, struct ud_api_version *n,
			     const struct ud_abi *abi, ud_api_thread_fn *on_thread);
/* ud_api_diff_versions of the two into d (zeroed), its parts on two threads. */
void ud_api_versions_diff(const struct ud_api_version *o, const struct ud_api_version *n,
			  struct ud_api_diff *d);
/* The model of the header at path of version v, or NULL. */
const struct ud_api_header *ud_api_version_header(const struct ud_api_version *v, const char *path);
/* The same as a struct ud_api_lookup's find: ctx is the version. */
const struct ud_api_header *ud_api_version_find(const char *path, void *ctx);

/* dst becomes a deep copy of src (its models, what): for another ABI to resolve. */
void ud_api_version_copy(struct ud_api_version *dst, const struct ud_api_version *src);
/* Frees v (safe on a version that failed to load). */
void ud_api_version_free(struct ud_api_version *v);
/*
 * Both at once (a large version takes a while to free), and beside(ctx)
 * (or NULL) at the same time on another thread: it may read the versions'
 * what and n, not their models (the report of a diff, which owns its
 * text).
 */
void ud_api_versions_free(struct ud_api_version *o, struct ud_api_version *n,
			  void (*beside)(void *ctx), void *ctx);
/*
 * The same for a command about to exit: beside(ctx) runs, and the models
 * are left to the exit, which gives their memory back at once, unless a
 * leak checker (ASan's) watches: then ud_api_versions_free.
 */
void ud_api_versions_exit(struct ud_api_version *o, struct ud_api_version *n,
			  void (*beside)(void *ctx), void *ctx);

#endif /* UAPID_API_LOAD_H */
