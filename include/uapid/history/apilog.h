/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The history of each userspace API symbol: in which release it appeared
 * and what changed in it when (`uapid api-log`, the daemon's api.log).
 *
 * The index is built from a headers branch (branch.h: one commit per
 * source commit whose installed headers changed, with a Source-commit:
 * trailer).  It follows the first-parent chain of the source commit of
 * the branch's tip: each headers commit whose source is on that chain is a
 * step, compared with the step before it (only the headers the commit
 * changed are read), and every change of every symbol is kept in the store
 * with api-diff's verdict and reason (api.h), so that a question is a few
 * indexed reads.  The first step holds every symbol as it was then.  Tags
 * are placed on the chain, so that each change is attributed to the
 * earliest release (in version order, version.h) whose tag contains it.
 * The index grows with the branch; when the source history was rewritten
 * it is cut back to where the chains part and grows from there.
 *
 * Functions return 0 or a negative errno with *cause; they read the
 * repository and write (or read) the store given, from one thread.
 */
#ifndef UAPID_APILOG_H
#define UAPID_APILOG_H

#include <git2.h>
#include <jansson.h>
#include <stdbool.h>

#include "uapid/io/progress.h"
#include "uapid/store/store.h"

/* What the rows were made by: another value makes an index anew. */
#define UD_APILOG_VERSION 1

struct ud_apilog_opts {
	const char *headers;		/* the headers branch: "uapi/headers" or a full ref */
	struct ud_progress_cb progress; /* headers commits read, of those to read */
};

struct ud_apilog_result {
	unsigned commits; /* headers commits read */
	unsigned steps;	  /* of them, steps added to the index */
	unsigned rows;	  /* changes recorded */
	unsigned steps_total;
	bool rebuilt;	 /* the index was made anew (a new branch, or other rules) */
	int64_t rewound; /* the chain was cut back to this place (-1: not) */
};

/*
 * Brings the index of the headers branch o->headers up to date, in one
 * transaction.  -ENOENT (with *cause) when the branch does not exist.
 */
int ud_apilog_update(git_repository *repo, struct ud_store *st, const struct ud_apilog_opts *o,
		     struct ud_apilog_result *r, char **cause);
/*
 * Places the tags matching glob (fnmatch on the name after refs/tags/) on
 * the index's chain and keeps their places, so that questions need not
 * compute them; forgets tags that are gone.
 */
int ud_apilog_update_tags(git_repository *repo, struct ud_store *st, const char *headers,
			  const char *glob, char **cause);

/*
 * Is the index of headers up to date, its tags matching glob placed: would
 * ud_apilog_update and ud_apilog_update_tags write nothing?  It only
 * reads st: a store reader will do, so that a question needs no writer.
 */
bool ud_apilog_current(git_repository *repo, struct ud_store *st, const char *headers,
		       const char *glob);

struct ud_apilog_query {
	const char *headers; /* the headers branch, as for ud_apilog_update */
	const char *since;   /* changes after this revision only, or NULL */
	const char *until;   /* up to this revision only, or NULL */
	const char *tags;    /* the release tags: a glob, NULL for "v*" */
};

/*
 * The daemon's api.log parameters (doc/protocol.md): "symbol" (a string)
 * or "symbols" (an array of 1 to 64 strings), each a symbol as
 * ud_apisym_parse reads it, and the optional strings "since", "until" and
 * "tags" into *q (borrowed from params; q->headers is left NULL).  0 with
 * *symbols a new reference to an array of the symbols' strings, or
 * -EINVAL with *message saying which parameter is wrong and why.
 */
int ud_apilog_params(json_t *params, struct ud_apilog_query *q, json_t **symbols, char **message);

/*
 * The history of one symbol (apisym.h says how it is named), from the
 * index, which this does not write:
 *   {"symbol": as asked, "found": bool, "history": [{"release" (null when
 *    no tag contains it yet), "date", "commit", "headers_commit", "header",
 *    "line", "symbol", "kind", "member"?, "what" (present, added, removed,
 *    changed, moved), "verdict" (null for present), "change", "reason",
 *    "moved"? {"from", "from_line", "to", "to_line"}}, ...], "summary": "first in v5.4;
 *    changed in v5.10 (breaking), v6.2", "first": the line it appeared
 *    at or null, "last_change": the last change or null}
 * found is false when the symbol did not exist anywhere in the range.
 * -ENOENT when there is no index yet, -EINVAL for a symbol or revision
 * that cannot be read.
 */
int ud_apilog_lookup(git_repository *repo, struct ud_store *st, const struct ud_apilog_query *q,
		     const char *symbol, json_t **out, char **cause);
/*
 * What the index covers, for a reader: {"headers_branch", "headers_commit",
 * "source", "start": {"commit", "date"}, "steps"}; NULL when there is no
 * index.
 */
json_t *ud_apilog_about(git_repository *repo, struct ud_store *st, const char *headers);

#endif /* UAPID_APILOG_H */
