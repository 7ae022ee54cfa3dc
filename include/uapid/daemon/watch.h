/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watcher: which paths of a kernel tree may have changed, from
 * inotify, on a libuv loop.
 *
 * It says "this path may have changed" and never what it now holds: the
 * caller looks (stat, then a content hash), so a missed, doubled or
 * reordered event costs a look, never a wrong result.  What it cannot
 * vouch for, it says as a rescan of a directory: the queue overflowed, a
 * watch was lost, a directory moved in or out.
 *
 * Which directories to watch is the caller's filter: asked for every
 * directory met, it returns how to watch it.  Directories that appear
 * inside watched ones are asked about and watched as they come.
 */
#ifndef UAPID_WATCH_H
#define UAPID_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

enum ud_watch_kind {
	UD_WATCH_CHANGED = 1 << 0, /* a file's content or attributes may have changed */
	UD_WATCH_ENTRY = 1 << 1,   /* a name appeared or disappeared (create, delete, rename) */
	UD_WATCH_DIR = 1 << 2,	   /* ... and it is (or was) a directory: rescan below it */
	UD_WATCH_RESCAN = 1 << 3,  /* events were lost: anything below rel may have changed */
	UD_WATCH_LIMIT = 1 << 4,   /* the watch limit was hit: rel is not watched */
};

enum ud_watch_mode {
	UD_WATCH_SKIP, /* neither watched nor entered */
	UD_WATCH_PASS, /* entered (a subdirectory may be wanted), not watched */
	UD_WATCH_ON,   /* watched, and entered */
};

/* rel is tree-relative ("" for the top); called on the loop thread. */
typedef void (*ud_watch_fn)(void *ctx, const char *rel, unsigned kinds);
typedef enum ud_watch_mode (*ud_watch_filter)(void *ctx, const char *rel);

struct ud_watch;

/* Starts an inotify instance for root polled on loop; nothing watched yet. */
int ud_watch_open(struct ud_watch **out, uv_loop_t *loop, const char *root, ud_watch_fn fn,
		  ud_watch_filter filter, void *ctx, char **cause);
/*
 * Watches directory rel and the directories below it the filter wants.
 * Returns 0; -ENOSPC when the watch limit stopped it (the watcher is then
 * degraded and said so through fn with UD_WATCH_LIMIT); another negative
 * errno with *cause for an error.
 */
int ud_watch_add(struct ud_watch *w, const char *rel, char **cause);
/* Is rel a watched directory? */
bool ud_watch_has(const struct ud_watch *w, const char *rel);
/* How many directories are watched. */
size_t ud_watch_count(const struct ud_watch *w);
/* Did the watch limit stop a watch (the caller then rescans periodically)? */
bool ud_watch_degraded(const struct ud_watch *w);
/* Stops watching; the memory goes once the loop has closed the handle. */
void ud_watch_close(struct ud_watch *w);

#endif /* UAPID_WATCH_H */
