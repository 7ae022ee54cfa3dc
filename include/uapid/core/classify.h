/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Classifier: says, line range by line range, what of a header belongs to
 * the kernel and what to userspace, and where each line goes in a split.
 *
 * It finds the banner (the leading comment block), the include guard, a
 * top-level include-order check (#ifndef X + #error), and classifies every
 * line as banner, guard, uapi (shared), kernel, user-only or retained (a
 * __KERNEL__ conditional that must stay as it is), with a reason.  It also
 * reports what would stop a split.  The marking follows the 2012 scripts:
 * a conditional that encloses kernel-only content appears on both sides.
 *
 * Pure: a byte buffer in, a model out; the buffer is borrowed.
 */
#ifndef UAPID_CLASSIFY_H
#define UAPID_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/core/cond.h"
#include "uapid/util/diag.h"
#include "uapid/core/lex.h"
#include "uapid/core/markers.h"

enum ud_class {
	UD_CLASS_BANNER,   /* leading comment block: copied to both headers */
	UD_CLASS_GUARD,	   /* include guard lines */
	UD_CLASS_UAPI,	   /* shared with userspace: goes to the uapi header */
	UD_CLASS_KERNEL,   /* kernel-only: stays in the kernel header */
	UD_CLASS_USER,	   /* user-only (#ifndef __KERNEL__): uapi header, conditional kept */
	UD_CLASS_RETAINED, /* a __KERNEL__ conditional kept as it is, in the uapi header */
	UD_CLASS__COUNT
};

/* Where a logical line goes in a split. */
enum ud_dest {
	UD_TO_NONE = 0, /* removed (a __KERNEL__ directive, a coaching marker) */
	UD_TO_KERNEL = 1,
	UD_TO_UAPI = 2,
	UD_TO_BOTH = 3,
};

/* What a logical line is, where that changes how it is written. */
enum ud_role {
	UD_ROLE_TEXT,	       /* copied as it is */
	UD_ROLE_BANNER,	       /* banner line (the last one loses trailing blanks) */
	UD_ROLE_GUARD_IF,      /* #ifndef GUARD: kernel verbatim, uapi gets _UAPI name */
	UD_ROLE_GUARD_DEFINE,  /* #define GUARD: likewise, then the uapi #include */
	UD_ROLE_GUARD_ENDIF,   /* the guard's #endif */
	UD_ROLE_TO_IFNDEF,     /* "#ifdef __KERNEL__" of an #else group: becomes #ifndef */
	UD_ROLE_COMPOUND_IF,   /* "#if defined(__KERNEL__) && X" split: kernel gets "#if X" */
	UD_ROLE_INCLUDE_HERE,  /* coaching marker line: the uapi #include replaces it */
	UD_ROLE_RETAIN_MARKED, /* #if line with a trailing DISINTEGRATE: RETAIN to strip */
	UD_ROLE__COUNT
};

struct ud_block {
	unsigned first, last; /* physical lines, inclusive */
	enum ud_class cls;
	const char *reason; /* static text */
};

struct ud_classified {
	struct ud_lexed lx;
	struct ud_cond cond;
	struct ud_diags diags;
	bool lexed; /* false when the input was rejected (NUL byte, too large) */

	/* per logical line */
	unsigned char *dest; /* enum ud_dest */
	unsigned char *role; /* enum ud_role */
	unsigned char *cls;  /* enum ud_class */
	const char **reason; /* static text */

	/*
	 * The banner: the logical lines whose role is UD_ROLE_BANNER; both
	 * outputs start with them, in file order.  Usually the comments that
	 * open the file; licence comments right inside the include guard count
	 * too.  banner_last is the last of them, UD_NO_LINE when there is none.
	 */
	size_t banner_last;
	long guard;		   /* group index of the include guard, -1 if none */
	const char *guard_name;	   /* arena-owned, NULL if none */
	size_t guard_define;	   /* logical line of the guard's #define */
	long order_check;	   /* group index of the include-order check, -1 if none */
	size_t include_after;	   /* marker "include-here": logical line, UD_NO_LINE if none */
	bool include_marked;	   /* an in-source or marker include point exists */
	const char *compound_rest; /* for split-compound: arena text after removing __KERNEL__ */

	unsigned kernel_groups;	  /* groups split as kernel-only or user-only */
	unsigned retained_groups; /* __KERNEL__ groups kept unsplit */
	bool needs_split;	  /* has content that only the kernel header may have */
	bool skip;		  /* a skip marker applies */

	/* per marker passed to ud_classify: how many lines it selected (0: stale) */
	unsigned *marker_hits;
	size_t nmarkers;
};

/*
 * Classifies buf[0..len) (borrowed; must outlive 'out').  markers[] are the
 * out-of-tree markers for this file (borrowed, never written: what each
 * selected is counted in out->marker_hits); may be NULL.  Returns 0;
 * problems are diagnostics in out->diags.  Free with ud_classified_free
 * whatever happens.
 */
int ud_classify(const char *buf, size_t len, const struct ud_marker *const *markers,
		size_t nmarkers, struct ud_classified *out);
void ud_classified_free(struct ud_classified *c);
/* True when no error diagnostic stops a split. */
bool ud_classified_ok(const struct ud_classified *c);
/* Merged physical-line ranges; *out is malloc'd (free it); returns the count. */
size_t ud_classified_blocks(const struct ud_classified *c, struct ud_block **out);
const char *ud_class_name(enum ud_class cls);

#endif /* UAPID_CLASSIFY_H */
