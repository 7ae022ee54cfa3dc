/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One userspace API symbol as a person names it, and what changed in it
 * between two versions, in a few words: what `uapid api-log` looks up and
 * prints.  The models and the verdicts are api.h's; this says which
 * symbols a name means ("struct epoll_event.data" is a member of a
 * record, "linux/eventpoll.h" every symbol of a header) and describes a
 * change as "value 4 -> 5" or "member data retyped __u64 -> __aligned_u64",
 * from the two models, so that the words do not depend on how a verdict's
 * reason is phrased.  Pure: no I/O.
 */
#ifndef UAPID_APISYM_H
#define UAPID_APISYM_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/api/api.h"
#include "uapid/util/strlist.h"

enum ud_apisym_form {
	UD_APISYM_NAME,	  /* a macro, enum constant, typedef, ioctl request, struct/union/enum */
	UD_APISYM_MEMBER, /* "struct foo.bar": one member of a record */
	UD_APISYM_HEADER, /* an installed header: every symbol in it */
};

struct ud_apisym_query {
	enum ud_apisym_form form;
	/*
	 * The names the model may give it, the first as written:
	 * "EPOLL_CLOEXEC"; "struct epoll_event"; for foo_t also its untagged
	 * record or enum ("struct (typedef foo_t)"); none for a header.
	 */
	struct ud_strlist names;
	char *member; /* UD_APISYM_MEMBER: the member */
	char *header; /* UD_APISYM_HEADER: the installed name ("linux/eventpoll.h") */
};

/*
 * Reads a symbol as a person writes it: NAME, "struct NAME", "union NAME",
 * "enum NAME" (spaces as they come), any of the records with ".MEMBER",
 * or a header: an installed name ("linux/eventpoll.h"), its path in a
 * tree ("include/uapi/linux/eventpoll.h",
 * "arch/x86/include/uapi/asm/unistd.h") or in an install
 * ("usr/include/linux/eventpoll.h").  Returns 0, or -EINVAL with *cause.
 */
int ud_apisym_parse(const char *text, struct ud_apisym_query *q, char **cause);
void ud_apisym_query_free(struct ud_apisym_query *q);

/* What changed in one member of a record (or one constant of an enum). */
struct ud_apisym_item {
	char *member; /* its name ("" for an anonymous member) */
	char *text;   /* "member data retyped __u64 -> __aligned_u64" */
};

struct ud_apisym_items {
	struct ud_apisym_item *v;
	size_t n, alloc;
};

/*
 * What changed from o to n, two versions of one symbol (kinds may differ:
 * a macro that became an enum constant), in words: "value 4 -> 5",
 * "'A' -> 'B'", "member data retyped __u64 -> __aligned_u64; member pad
 * added at the end", "constant FOO_C added", "ioctl argument struct a ->
 * struct b".  Records and enums also append one item per member or
 * constant that changed to items (when not NULL).  Returns a malloc'd
 * string, or NULL when the symbol's own text did not change (a change
 * that comes through a type it uses, or in its conditions only): the
 * caller has the verdict's reason for that.
 */
char *ud_apisym_describe(const struct ud_api_sym *o, const struct ud_api_sym *n,
			 struct ud_apisym_items *items);
void ud_apisym_items_free(struct ud_apisym_items *items);
/*
 * The named members of a record (the constants of an enum), in order,
 * separated by spaces, malloc'd; "" when it has none.
 */
char *ud_apisym_members(const struct ud_api_sym *s);
/* Is word a whole word of text (not a part of a longer identifier)? */
bool ud_apisym_mentions(const char *text, const char *word);

#endif /* UAPID_APISYM_H */
