/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's branch follower (uapid watch --branches): watches the
 * repository's refs (HEAD, packed-refs, the source branch's loose ref) with
 * inotify and, after each commit, brings the uapi branches up to date
 * (branch.h) on libuv's thread pool, so the socket keeps answering.
 *
 * It shares the cache and the ref records of `uapid branch` (the
 * repository's uapid/branches.db), so the two can take turns, and keeps the
 * api-log index of the headers branch current after each update.
 */
#ifndef UAPID_FOLLOW_H
#define UAPID_FOLLOW_H

#include <jansson.h>
#include <uv.h>

#include "uapid/history/apilog.h"
#include "uapid/core/markers.h"

struct ud_follow;

struct ud_follow_opts {
	const char *tree;  /* the repository's working tree (the daemon's tree) */
	const char *arch;  /* the headers branch's architecture */
	const char *split; /* branch names ("uapi/split", "uapi/headers") */
	const char *headers;
};

/*
 * Called on the loop thread after each update, with the follower's status
 * (as ud_follow_status gives it; borrowed).
 */
typedef void (*ud_follow_cb)(void *ctx, json_t *status);

/*
 * Opens the repository of o->tree and starts watching its refs; the first
 * update runs at once.  Returns 0, or a negative errno with *cause (not a
 * git repository, no watch possible).
 */
int ud_follow_open(struct ud_follow **out, uv_loop_t *loop, const struct ud_follow_opts *o,
		   ud_follow_cb cb, void *ctx, char **cause);
/*
 * The markers the next updates split with (copied): the daemon passes its
 * own whenever they change, so the split branch follows them too.
 */
void ud_follow_set_markers(struct ud_follow *f, const struct ud_markers *set);
/* Asks for an update (debounced); what a ref change does. */
void ud_follow_poke(struct ud_follow *f);
/*
 * The branches as last updated: names, commits, source, what the last update
 * did and when, a branch left alone and why, the last error (a new reference).
 */
json_t *ud_follow_status(const struct ud_follow *f);
/*
 * api.log, on the loop thread: the history of each symbol (strings) from
 * the api-log index the updates keep (apilog.h), read through a
 * repository and a store reader of its own, so it never waits for an
 * update in progress: {"index", "symbols": [...]}.  NULL with *cause when
 * there is no index yet or a symbol or revision cannot be read.
 */
json_t *ud_follow_api_log(struct ud_follow *f, const struct ud_apilog_query *q, json_t *symbols,
			  char **cause);
/* True while an update runs or waits. */
int ud_follow_busy(const struct ud_follow *f);
/* Stops watching; an update in progress finishes first (its callback is not called). */
void ud_follow_close(struct ud_follow *f);

#endif /* UAPID_FOLLOW_H */
