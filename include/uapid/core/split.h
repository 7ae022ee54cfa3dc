/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The splitter: one header in, up to two out, as David Howells' 2012
 * scripts did it (see doc/splitting.md).
 *
 * Pure: works on a buffer and a tree-relative path (which decides the
 * uapi include name); no I/O.  Every split is checked for lost lines: an
 * input line missing from both outputs (other than the __KERNEL__
 * directives the split removes) makes the split refuse.
 */
#ifndef UAPID_SPLIT_H
#define UAPID_SPLIT_H

#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/core/classify.h"
#include "uapid/util/diag.h"
#include "uapid/core/markers.h"

/*
 * Changes whenever split output for the same input could change (3: a
 * uapi header with nothing left in it is an empty comment, not an empty
 * include guard; 4: a retain or kernel marker decides an #elif that
 * mentions __KERNEL__).
 */
#define UD_SPLIT_VERSION 4

enum ud_split_outcome {
	UD_SPLIT_SPLIT,	  /* kernel header rewritten, uapi header created */
	UD_SPLIT_MOVED,	  /* no kernel-only part: the header moves whole to its uapi path */
	UD_SPLIT_REFUSED, /* needs coaching: left untouched (see diagnostics) */
	UD_SPLIT_SKIPPED, /* a skip marker applies: left untouched */
	UD_SPLIT__COUNT
};

struct ud_split_result {
	enum ud_split_outcome outcome;
	struct ud_buf kernel; /* SPLIT: the new kernel header */
	struct ud_buf uapi;   /* SPLIT and MOVED: the uapi header */
	struct ud_diags diags;
	unsigned kernel_groups;	  /* __KERNEL__ groups split */
	unsigned retained_groups; /* __KERNEL__ groups kept as they are */
	/*
	 * The classification the split was made from (blocks, marker hits),
	 * kept so callers need not classify again; its diagnostics have moved
	 * to diags.  It borrows the input buffer: keep that alive while using
	 * it.  Zeroed when the path was refused before classifying.
	 */
	struct ud_classified model;
};

/*
 * Splits buf[0..len), the header at tree-relative 'path' (include/... or
 * arch/A/include/...).  markers[] are this file's out-of-tree markers (may
 * be NULL; never written).  Returns 0 with res filled, or -EINVAL when the
 * path is not a header path (an error diagnostic says so).  Free with
 * ud_split_result_free whatever happens.
 */
int ud_split(const char *path, const char *buf, size_t len, const struct ud_marker *const *markers,
	     size_t nmarkers, struct ud_split_result *res);
void ud_split_result_free(struct ud_split_result *res);
const char *ud_split_outcome_name(enum ud_split_outcome o);

#endif /* UAPID_SPLIT_H */
