/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The API model's steps that api/load.h runs on threads, and that the
 * unit tests drive one by one: ud_api_resolve_pair and
 * ud_api_diff_versions (api.h) are these in order.  Not a public
 * interface: only src/api and tests/unit/check_api.c include it.
 */
#ifndef UAPID_API_STAGES_H
#define UAPID_API_STAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/api/api.h"

/*
 * dst becomes a deep copy of src (all its own memory): what ud_api_parse
 * would give for the same text and path, without parsing it again.
 */
void ud_api_header_copy(struct ud_api_header *dst, const struct ud_api_header *src);
/*
 * ud_api_resolve_pair in steps, for a caller that reads the two versions
 * at once: ud_api_resolve_wanted marks (reading both versions) what each
 * needs evaluated; ud_api_resolve_wanted_version then reads one version
 * with its marks and frees them.  The second step touches only its own
 * version, so the two may run on two threads.
 */
struct ud_api_users;
struct api_quiet_side;
struct ud_api_wanted {
	bool **v; /* per header, per symbol */
	/*
	 * Per header, per symbol: a function-like macro whose expansion the
	 * diff may read (the other version's macro of its name and header has
	 * another replacement); NULL: every wanted one.
	 */
	bool **expand;
	size_t n;
	/* which macros and enum constants name each name (ud_api_wanted_own), or NULL */
	struct ud_api_users *users;
	/* who names what, for quiet (ud_api_wanted_own; ud_api_wanted_users frees it) */
	struct api_quiet_side *names;
	/*
	 * Per header, NULL or per symbol: one the diff cannot see change
	 * (api-quiet.c), whose value and layout are not made.  NULL
	 * (ud_api_wanted_users not called): every symbol's are.
	 */
	bool **quiet;
};
void ud_api_resolve_wanted(const struct ud_api_header *old, size_t nold,
			   const struct ud_api_header *new_, size_t nnew,
			   struct ud_api_wanted *wold, struct ud_api_wanted *wnew);
/*
 * ud_api_resolve_wanted in two steps: ud_api_wanted_own marks what one
 * version v needs by itself against other (reading both, writing only
 * *w: the two versions' may be made on two threads, each with the index
 * of who names what in its version); ud_api_wanted_users then adds, in
 * both, the macros that name a wanted one.
 */
void ud_api_wanted_own(const struct ud_api_header *v, size_t n, const struct ud_api_header *other,
		       size_t nother, struct ud_api_wanted *w);
void ud_api_wanted_users(const struct ud_api_header *old, size_t nold,
			 const struct ud_api_header *new_, size_t nnew, struct ud_api_wanted *wold,
			 struct ud_api_wanted *wnew);
void ud_api_resolve_wanted_version(struct ud_api_header *v, size_t n, struct ud_api_wanted *w,
				   const struct ud_abi *abi);
/* Between the two steps: no symbol quiet, every one resolved (load.h's every_symbol). */
void ud_api_wanted_every_symbol(struct ud_api_wanted *w);
/* Frees marks not used. */
void ud_api_wanted_free(struct ud_api_wanted *w);
/* The header at path in v (sorted by path), or NULL. */
const struct ud_api_header *ud_api_find_header(const struct ud_api_header *v, size_t n,
					       const char *path);
/*
 * The differences between two sets of headers, each sorted by path (either
 * may be empty): a header only in old is removed, only in new added.
 */
void ud_api_diff_sets(const struct ud_api_header *old, size_t nold,
		      const struct ud_api_header *new_, size_t nnew, struct ud_api_diff *diff);
/*
 * A symbol removed from one header and added to another that the first
 * (new version) includes, directly or not, has moved: programs still see
 * it.  Turns such pairs into compatible changes.  new_header looks a path
 * up in the new version (NULL when absent).
 */
void ud_api_diff_moves(struct ud_api_diff *diff,
		       const struct ud_api_header *(*new_header)(const char *path, void *ctx),
		       void *ctx);
/*
 * The same knowing the old version (old_header looks a path up in it): a
 * symbol that moved keeps its value and layout, or it is that change
 * (with the move in its reason).
 */
void ud_api_diff_moves_from(struct ud_api_diff *diff,
			    const struct ud_api_header *(*old_header)(const char *path, void *ctx),
			    void *octx,
			    const struct ud_api_header *(*new_header)(const char *path, void *ctx),
			    void *ctx);
/*
 * Symbols whose own text did not change but that use a type whose
 * definition did: a record with a member of that type (breaking when it
 * is embedded and the change breaks, or grew in the middle; compatible
 * through a pointer), a typedef of it, a macro or enum constant whose
 * value holds its size (an ioctl request, a sizeof).  Followed through
 * users of users; each symbol is reported once, under the most severe
 * type it uses.  new_ (sorted by path) is where users are looked for;
 * the changes are merged into diff after their header's own.
 */
void ud_api_diff_through(struct ud_api_diff *diff, const struct ud_api_header *new_, size_t nnew);
/*
 * The same knowing the old version (sorted by path): a user whose own
 * layout did not move inherits the type's verdict, one whose members
 * moved is breaking with the offsets, and a macro whose value holds a
 * size (an ioctl request) is compared by value.
 */
void ud_api_diff_through_versions(struct ud_api_diff *diff, const struct ud_api_header *old,
				  size_t nold, const struct ud_api_header *new_, size_t nnew);
/*
 * ud_api_diff_versions in parts, for a caller with two processors: the
 * parts read the versions only, so ud_api_diff_versions_own (everything
 * but the #include visibility, into diff) and ud_api_diff_includes_apart
 * (that alone, into a diff of its own, *out) may run at once on two
 * threads; ud_api_diff_merge(diff, out) then gives what
 * ud_api_diff_versions gives.
 */
void ud_api_diff_versions_own(const struct ud_api_header *old, size_t nold,
			      const struct ud_api_header *new_, size_t nnew,
			      struct ud_api_diff *diff);
void ud_api_diff_includes_apart(const struct ud_api_header *old, size_t nold,
				const struct ud_api_header *new_, size_t nnew,
				struct ud_api_diff *out);
/*
 * Moves more's changes into diff after each header's own, by symbol (more
 * is left empty, its array freed).
 */
void ud_api_diff_merge(struct ud_api_diff *diff, struct ud_api_diff *more);

#endif /* UAPID_API_STAGES_H */
