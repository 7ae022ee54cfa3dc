/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Accepted API breaks: a file a maintainer keeps beside a tree, one line
 * per decision,
 *
 *     # comment
 *     HEADER SYMBOL RULE REASON...
 *
 * HEADER, SYMBOL and RULE are globs (fnmatch, `*` crossing `/`): HEADER an
 * installed name ("linux/kvm.h"), SYMBOL a change's symbol without its
 * condition ("KVM_CAP_FOO", "struct kvm_run": a struct, union or enum
 * keyword joins the word after it; `-` for a header's own change), RULE a
 * verdict rule's name ("value", "member-removed"; api.h).  The reason is
 * required: a decision kept without one cannot be re-read.
 *
 * Applied to the JSON of an API diff (json.h), a breaking or review change
 * that a line matches becomes "accepted" (its verdict before in
 * "accepted_from", the line in "accepted_at", the reason in
 * "accepted_because") and the summary's counts follow; a line that matched
 * nothing is listed, so that the file does not rot.  Pure: text in,
 * JSON changed in place.
 */
#ifndef UAPID_ACCEPT_H
#define UAPID_ACCEPT_H

#include <jansson.h>
#include <stddef.h>

struct ud_accept_line {
	char *header, *symbol, *rule, *reason;
	unsigned line; /* in the file, from 1 */
	unsigned used; /* changes it accepted (ud_accept_apply) */
};

struct ud_accept {
	char *file; /* as named in messages */
	struct ud_accept_line *v;
	size_t n, alloc;
};

/*
 * Reads an accept file's text (file names it in messages).  Returns 0, or
 * -EINVAL with *cause ("FILE:LINE: ...") for a line without a reason.
 */
int ud_accept_parse(struct ud_accept *a, const char *file, const char *text, size_t len,
		    char **cause);
void ud_accept_free(struct ud_accept *a);
/*
 * Marks the changes of diff ({"summary", "changes"}) that a line accepts;
 * recounts summary's breaking, review and accepted; sets diff's "accept":
 * {"file", "accepted": N, "unmatched": [{"line", "text"}]}.  Returns the
 * number of changes accepted.
 */
size_t ud_accept_apply(struct ud_accept *a, json_t *diff);
/*
 * The daemon's and a client's way in: params' "accept" (the file's text)
 * and "accept_name" (how to name it, default "accept") applied to diff.
 * Returns 0 (nothing to do when there is no "accept"), or -EINVAL with
 * *cause.
 */
int ud_accept_params(json_t *params, json_t *diff, char **cause);

#endif /* UAPID_ACCEPT_H */
