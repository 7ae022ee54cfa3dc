/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a header the split refused needs (issue 39): the coaching markers
 * that decide it, each one that, fed back, makes the split decide the
 * header; or nothing, because the input itself is broken (a NUL byte, an
 * unbalanced conditional, a file too large): an error at its line that no
 * marker mends.  Pure: reads a split result.
 */
#ifndef UAPID_COACH_H
#define UAPID_COACH_H

#include "uapid/core/split.h"
#include "uapid/util/strlist.h"

enum ud_coach {
	UD_COACH_NONE,	 /* not refused, or refused for a reason no marker decides */
	UD_COACH_MARKER, /* the markers appended to out decide it */
	UD_COACH_BROKEN, /* the input is broken: an error, not a matter of coaching */
};

/*
 * For the split res of the header at tree-relative path: appends to out
 * the marker lines ("PATH ACTION 'SELECTOR'[#N]", as --markers files and
 * `uapictl marker add` take them) that decide it, one for each directive
 * that needs one, and says which case it is.
 */
enum ud_coach ud_coach(const char *path, const struct ud_split_result *res, struct ud_strlist *out);

#endif /* UAPID_COACH_H */
