/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the api-log (apilog.h): the chain and the tags, shared by the
 * index's writer (apilog.c) and its reader (apilog-query.c).  Not a
 * public header.
 */
#ifndef UAPID_APILOG_INT_H
#define UAPID_APILOG_INT_H

#include <git2.h>
#include <stdbool.h>
#include <stdint.h>

#include "uapid/api/api.h"
#include "uapid/store/store.h"

/* The full name of a headers branch ("uapi/headers" -> "refs/heads/uapi/headers"). */
char *ud_apilog_ref(const char *headers);
/* The index's key in the store: the repository's git directory and the ref. */
char *ud_apilog_key(git_repository *repo, const char *ref);

/*
 * Brings the chain of index id to the first-parent history of head (the
 * source commit of the headers tip).  anchor (NULL when the chain has
 * commits already) is where a new chain starts: the oldest source commit
 * of the headers branch.  When the history was rewritten below the
 * chain's tip, the index is cut back to the commit both share and *cut
 * set to its place (else -1); when they share nothing, *cut is -2 and
 * nothing is written (the caller makes the index anew).
 */
int ud_apilog_chain_update(git_repository *repo, struct ud_store *st, int64_t id,
			   const git_oid *head, const git_oid *anchor, int64_t *cut, char **cause);
/*
 * The place on the chain of the newest chain commit that commit contains
 * (its own place when it is on the chain), or -1 when it contains none:
 * what decides which steps a revision or a tag holds.
 */
int64_t ud_apilog_place(git_repository *repo, struct ud_store *st, int64_t id,
			const git_oid *commit);

/* A tag and its place on the chain. */
struct ud_apilog_tag {
	char *name;	/* "v5.4" */
	git_oid target; /* the commit it names */
	int64_t pos;
};

/*
 * The tags matching glob, placed on the chain of index id (the places the
 * store keeps when the tag still names the same commit, else computed),
 * sorted by version (version.h).  *fresh counts the places computed.
 */
int ud_apilog_tags(git_repository *repo, struct ud_store *st, int64_t id, const char *glob,
		   struct ud_apilog_tag **out, size_t *n, size_t *fresh, char **cause);
void ud_apilog_tags_free(struct ud_apilog_tag *v, size_t n);

/* ---- the rows of a step (apilog-rows.c) ---- */

/* A row on its way to the store (its fields are struct ud_apilog_row's); strings owned. */
struct ud_apilog_draft {
	char *name, *member, *symbol, *header, *moved_to, *change, *reason, *members;
	const char *kind, *what; /* static strings */
	unsigned line, moved_line;
	int verdict;  /* enum ud_api_verdict, or -1 for present */
	bool implied; /* a symbol of a header added or removed whole */
	bool dropped; /* paired into a "moved" row: not written */
};

struct ud_apilog_rows {
	struct ud_apilog_draft *v;
	size_t n, alloc;
};

/* The rows of a header present in the history's first step: it, and each of its symbols. */
void ud_apilog_present_rows(struct ud_apilog_rows *rs, const struct ud_api_header *h);
/*
 * The rows of api-diff's changes d between two versions of the installed
 * headers; version(path, old, ctx) gives a header's old or new model (NULL
 * where it has none).  A symbol removed from one header and added to
 * another in d is one "moved" row.
 */
void ud_apilog_diff_rows(struct ud_apilog_rows *rs, const struct ud_api_diff *d,
			 const struct ud_api_header *(*version)(const char *path, bool old,
								void *ctx),
			 void *ctx);
void ud_apilog_rows_free(struct ud_apilog_rows *rs);

#endif /* UAPID_APILOG_INT_H */
