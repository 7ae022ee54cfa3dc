/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One header's split as every caller needs it (the batch command, the
 * daemon, the git writer, an editor's preview): compute a changeset, then
 * apply it.
 *
 * Compute reads the header from a source and splits it: no writes, no
 * shared mutable state (markers are read, never counted into), so it runs
 * on a thread pool.  Apply writes a changeset through a sink: the uapi
 * header first, then the kernel header, atomically, taking the uapi
 * header back when the kernel header cannot be written.  The export-list
 * edits of a directory are computed from the moves of all its headers
 * together, in the order a batch meets them, so a caller that re-splits one
 * header recomputes its directory's lists and gets what a batch gives.
 */
#ifndef UAPID_HSPLIT_H
#define UAPID_HSPLIT_H

#include <stdbool.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/core/markers.h"
#include "uapid/io/sink.h"
#include "uapid/io/source.h"
#include "uapid/core/split.h"
#include "uapid/util/strlist.h"

/* The split of one header. */
struct ud_hsplit {
	char *path;			  /* tree-relative header */
	char *twin;			  /* its uapi twin (NULL when path is not a header path) */
	struct ud_buf input;		  /* the bytes split; res.model borrows them */
	struct ud_split_result res;	  /* outcome, texts, diagnostics, classification */
	const struct ud_marker **markers; /* this header's markers (pointers into the set) */
	size_t nmarkers;		  /* ... parallel to res.model.marker_hits */
	bool unreadable;		  /* the header could not be read: res.diags says why */
};

/*
 * Reads path from src and splits it with the markers of set that name it
 * (set may be NULL).  Always fills out; free it with ud_hsplit_free.
 */
void ud_hsplit_compute(struct ud_source *src, const char *path, const struct ud_markers *set,
		       struct ud_hsplit *out);
/* The same for text the caller holds (an editor's unsaved buffer); text is copied. */
void ud_hsplit_compute_text(const char *path, const char *text, size_t len,
			    const struct ud_markers *set, struct ud_hsplit *out);
void ud_hsplit_free(struct ud_hsplit *h);
/* Does the header leave its directory's export list for the uapi one (split or moved)? */
bool ud_hsplit_moves(const struct ud_hsplit *h);

/*
 * Writes h through sink: the uapi header, then the kernel header (split)
 * or, when remove_moved, the removal of the original (moved).  Nothing for
 * other outcomes.  Returns 0 or a negative errno with *cause.
 */
int ud_hsplit_apply(struct ud_sink *sink, const struct ud_hsplit *h, bool remove_moved,
		    char **cause);

/* An export list as a split leaves it. */
struct ud_kbuild_edit {
	char *rel;	    /* tree-relative Kbuild file */
	struct ud_buf text; /* its new text */
	struct ud_buf old;  /* its text in the source (empty when it did not exist) */
	bool existed;	    /* it exists in the source */
	bool changed;	    /* text differs from what the source has */
};

/*
 * The export-list edits for the headers of directory dir whose exports
 * move (names: their file names, in batch order): dir/Kbuild without them
 * (a conditional stanza around an entry moves with it) into *kside, and
 * the uapi twin directory's Kbuild with them (created with the "# UAPI
 * Header export list" line) into *uside.  Kbuild texts, and the lists they
 * include, are read from src.  An entry that comes from an included list
 * (Kbuild.asm) is added to the uapi list without touching the shared file.
 * Problems (an unreadable Kbuild) are diagnostics; returns 0 or a negative
 * errno.
 */
int ud_hsplit_kbuilds(struct ud_source *src, const char *dir, const struct ud_strlist *names,
		      struct ud_kbuild_edit *kside, struct ud_kbuild_edit *uside,
		      struct ud_diags *diags);
void ud_kbuild_edit_free(struct ud_kbuild_edit *e);

#endif /* UAPID_HSPLIT_H */
