/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The branch writer's parts (branch.h), shared by its files and by nothing
 * else:
 *
 *   branch.c          refs (compare-and-swap), signatures, the small git
 *                     helpers, the public entry points
 *   branch-split.c    the split branch: the split series
 *   branch-headers.c  the headers branch and its incremental install
 */
#ifndef UAPID_BRANCH_INT_H
#define UAPID_BRANCH_INT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/api/api.h"
#include "uapid/history/branch.h"
#include "uapid/io/gittree.h"
#include "uapid/io/headers.h"
#include "uapid/io/hsplit.h"
#include "uapid/core/install.h"
#include "uapid/io/log.h"
#include "uapid/util/map.h"
#include "uapid/util/path.h"
#include "uapid/core/split.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

#define HEX (GIT_OID_HEXSZ + 1)

/* A ref uapid writes, compare-and-swap against what uapid last wrote. */
struct ref_state {
	char *name;	/* refs/heads/... */
	char *key;	/* the cache key: repository and ref */
	bool exists;	/* the ref is there */
	git_oid cur;	/* its value */
	char *recorded; /* what uapid last wrote there (NULL: nothing) */
	bool adopted;	/* not recorded here, but its commit says uapid wrote it for this use */
	char *holds;	/* its commit's Written-by: trailer when that is uapid's other use */
};

/*
 * The trailer every commit uapid writes carries, "Written-by: uapid
 * (split)" or "uapid (headers, ARCH)": refs are uapid's by what they hold
 * (issue 39), not by the state directory that wrote them.
 */
#define UD_BRANCH_TRAILER "Written-by"
/* "uapid (split)" (headers: NULL) or "uapid (headers, ARCH)", malloc'd. */
char *ud_branch_written_by(const char *headers_arch);
/* The value of the trailer key of commit id's message (malloc'd), or NULL. */
char *ud_branch_commit_trailer(git_repository *repo, const git_oid *id, const char *key);
/*
 * A ref this state directory has no record of (a moved repository, a
 * clone, another --state-dir, an emptied cache) whose commit carries the
 * trailer want: adopted (rs->recorded is its value, rs->adopted set), as
 * if this directory had written it.
 */
void ud_branch_ref_adopt(git_repository *repo, struct ref_state *rs, const char *want);
/* branch.c */
char *ud_branch_oid_hex(const git_oid *id);
int ud_branch_git_fail(char **cause, const char *what);
char *ud_branch_full_ref(const char *name);
bool ud_branch_blob_at(const git_tree *tree, const char *rel, git_oid *out);
int ud_branch_sink_finish(struct ud_sink *sink, git_oid *out, char **cause);
void ud_branch_ref_state_load(git_repository *repo, struct ud_store *st, const char *branch,
			      struct ref_state *rs);
void ud_branch_ref_state_free(struct ref_state *rs);
char *ud_branch_ref_foreign(const struct ref_state *rs, const git_oid *would_write);
/*
 * A ref to move once the whole update succeeded (ud_branch_update moves
 * them last, together): the state it was loaded in, where it goes, the
 * reflog message.
 */
struct ref_pending {
	struct ref_state rs;
	git_oid id;
	char *log;
	bool set;
};
/* Takes rs over (it is left empty: freeing it is a no-op) into p, to move to id. */
void ud_branch_ref_defer(struct ref_pending *p, struct ref_state *rs, const git_oid *id, char *log);
int ud_branch_make_sig(git_signature **out, const git_signature *from, const char *identity,
		       char **cause);
int ud_branch_commit_tree(git_repository *repo, git_oid *out, const git_oid *tree_id,
			  const git_commit *parent, const git_signature *author,
			  const git_signature *committer, const char *message, char **cause);

/* branch-split.c */
int ud_branch_update_split(git_repository *repo, struct ud_store *st,
			   const struct ud_branch_opts *o, git_commit *source,
			   struct ud_branch_result *r, struct ref_pending *pend, char **cause);

/* branch-headers.c */
int ud_branch_update_headers(git_repository *repo, struct ud_store *st,
			     const struct ud_branch_opts *o, git_commit *head,
			     struct ud_branch_result *r, struct ref_pending *pend, char **cause);

#endif
