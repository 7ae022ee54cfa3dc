/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The branch writer: keeps two branches of a kernel repository current,
 * from objects only (no checkout; the working tree, index and HEAD are
 * never touched).
 *
 *  - the split branch (uapi/split): on top of the source commit, the
 *    scripted split as commits, one per split directory ("UAPI: (Scripted)
 *    Disintegrate include/linux") or one; its tree is what `uapid split
 *    --in-place` gives on the source tree.  A patch series: regenerated
 *    (force-updated) when the source moves.
 *  - the headers branch (uapi/headers): for each commit of the source's
 *    first-parent chain whose installed headers differ from the previous
 *    one's, a commit holding those headers (include/...), with the source
 *    commit's subject, author and dates and a Source-commit: trailer.  It
 *    only grows.
 *
 * Commits are deterministic: identity and dates come from the source
 * commit (or a fixed identity given), so the same source gives the same
 * ids.  Results are cached in the store by source blob and by source
 * commit.  Refs are updated with compare-and-swap against what uapid last
 * wrote; a branch someone else moved is left alone, and said so.
 */
#ifndef UAPID_BRANCH_H
#define UAPID_BRANCH_H

#include <git2.h>
#include <stdbool.h>

#include "uapid/core/markers.h"
#include "uapid/io/progress.h"
#include "uapid/store/store.h"
#include "uapid/util/strlist.h"

struct ud_branch_opts {
	const char *split;   /* branch name ("uapi/split"), or NULL: not kept */
	const char *headers; /* branch name ("uapi/headers"), or NULL: not kept */
	const char *source;  /* a revision; NULL: the branch HEAD points to */
	const char *arch;    /* the headers branch's architecture ("x86") */
	const char *since;   /* headers history after this revision; NULL: from the head */
	bool whole_history;  /* without since, the first time: the whole first-parent chain */
	bool one_commit;     /* the split as one commit, not one per directory */
	const char
		*identity; /* "Name <email>" for the split commits; NULL: the source's committer */
	const struct ud_markers *markers;	/* coaching markers, or NULL */
	const char *markers_hash;		/* what identifies them in cache keys ("-": none) */
	struct ud_progress_cb split_progress;	/* headers of the split looked at, of all */
	struct ud_progress_cb headers_progress; /* source commits done, of those to do */
};

struct ud_branch_result {
	char source[GIT_OID_HEXSZ + 1];	   /* the source commit */
	char split[GIT_OID_HEXSZ + 1];	   /* the split branch's head ("" when not kept) */
	char headers[GIT_OID_HEXSZ + 1];   /* the headers branch's head ("" when none) */
	unsigned split_commits;		   /* commits in the split series */
	unsigned split_headers;		   /* headers split or moved in it */
	bool split_changed;		   /* the split branch was written */
	unsigned headers_added;		   /* commits added to the headers branch */
	unsigned headers_scanned;	   /* source commits looked at for it */
	unsigned cache_hits, cache_misses; /* per-header results */
	char *split_refused;		   /* why the split branch was left alone, or NULL */
	char *headers_refused;		   /* the same for the headers branch */
	unsigned headers_skipped;	   /* source commits whose headers could not be installed */
	char *headers_skipped_why;	   /* the last one's reason */
	/*
	 * The exported headers the split left whole because they need
	 * coaching (as `uapid split` reports them), from the series' last
	 * commit's Needs-coaching: trailers.
	 */
	struct ud_strlist needs_coaching;
};

/*
 * Updates the branches of repo as opts say, caching in st.  Returns 0 (a
 * branch left alone is not an error: see *_refused), or a negative errno
 * with *cause (no such revision, an architecture the tree refuses, a
 * header that cannot be installed, libgit2 or store errors).  The refs
 * move last, both in one git transaction, and only when the whole update
 * succeeded: a failure leaves every ref, and the store, as they were.
 * Free r with ud_branch_result_free whatever this returns.
 */
int ud_branch_update(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
		     struct ud_branch_result *r, char **cause);
void ud_branch_result_free(struct ud_branch_result *r);
/*
 * Would ud_branch_update add nothing to the headers branch (o->headers, for
 * o->source and o->arch)?  True when uapid made it and has looked at the
 * source commit already.  It only reads st, so a store reader will do.
 */
bool ud_branch_headers_current(git_repository *repo, struct ud_store *st,
			       const struct ud_branch_opts *o);

#endif /* UAPID_BRANCH_H */
