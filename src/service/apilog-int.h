/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the api-log (apilog.h): the chain and the tags, shared by the
 * index's writer (apilog.c) and its reader (apilog-query.c).  Not a
 * public header.
 */
#ifndef UAPID_APILOG_INT_H
#define UAPID_APILOG_INT_H

#include <git2.h>
#include <stdint.h>

#include "uapid/store.h"

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

#endif /* UAPID_APILOG_INT_H */
