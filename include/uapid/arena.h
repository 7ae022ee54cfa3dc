/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bump allocator: everything one parse allocates, freed in one call.
 */
#ifndef UAPID_ARENA_H
#define UAPID_ARENA_H

#include <stddef.h>

struct ud_arena_chunk;

struct ud_arena {
	struct ud_arena_chunk *head;
};

#define UD_ARENA_INIT                                                                              \
	{                                                                                          \
		NULL                                                                               \
	}

/* Returns zeroed memory aligned for any type; never NULL.  Owned by the arena. */
void *ud_arena_alloc(struct ud_arena *a, size_t size);
/* Copies n bytes and adds a NUL; the copy is owned by the arena. */
char *ud_arena_strndup(struct ud_arena *a, const char *s, size_t n);
/* Frees every allocation of the arena; a zeroed arena is valid and empty. */
void ud_arena_free(struct ud_arena *a);

#endif /* UAPID_ARENA_H */
