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

/*
 * Strings of one owner (an API model's header), freed in one call: bytes
 * packed with no alignment and not zeroed, in chunks that start at a size
 * the owner hints (its text's length) and double, so thousands of small
 * owners neither call malloc per string nor each waste a large chunk.
 * A string replaced stays until the arena is freed.
 */
struct ud_strarena_chunk;

struct ud_strarena {
	struct ud_strarena_chunk *head;
	char *cur, *end; /* the free bytes of head */
	size_t next;	 /* the next chunk's size (0: the smallest) */
	size_t used;	 /* bytes handed out: what a copy of it needs */
};

/* An empty arena whose first chunk will hold hint bytes; a zeroed one is valid too. */
void ud_strarena_init(struct ud_strarena *a, size_t hint);
/* n bytes owned by the arena, not aligned, not zeroed; never NULL. */
char *ud_strarena_alloc(struct ud_strarena *a, size_t n);
/*
 * n zeroed bytes aligned to align (a power of two), for the rare small
 * struct that lives as long as the strings.
 */
void *ud_strarena_alloc_aligned(struct ud_strarena *a, size_t n, size_t align);
/* Copies n bytes and adds a NUL. */
char *ud_strarena_strndup(struct ud_strarena *a, const char *s, size_t n);
/* Copies s (NULL gives NULL). */
char *ud_strarena_strdup(struct ud_strarena *a, const char *s);
/* Frees every string of the arena and leaves it empty. */
void ud_strarena_free(struct ud_strarena *a);

#endif /* UAPID_ARENA_H */
