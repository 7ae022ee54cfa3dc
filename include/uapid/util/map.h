/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A string-keyed hash map: what the daemon looks a tree path up in (its
 * headers, its outputs, the paths waiting for a batch) a few thousand
 * times a second.  Keys are copied; values are the caller's.  Iteration
 * order is unspecified: sort when order matters.
 */
#ifndef UAPID_MAP_H
#define UAPID_MAP_H

#include <stdbool.h>
#include <stddef.h>

struct ud_map_slot {
	char *key;   /* NULL: free (value NULL) or removed (value not NULL) */
	void *value; /* removed: probing goes on past the slot */
	size_t hash;
};

struct ud_arena;

struct ud_map {
	struct ud_map_slot *slots;
	size_t cap;  /* a power of two, or 0 */
	size_t n;    /* live keys */
	size_t used; /* live and dead slots */
	/*
	 * NULL: each key is malloc'd and freed with its slot.  Else the
	 * arena (the caller's, outliving the map) keys are copied into,
	 * never freed one by one: for a map filled, read and dropped whole
	 * (a model's name tables: hundreds of thousands of keys a diff).
	 */
	struct ud_arena *keys;
};

#define UD_MAP_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0, 0, NULL                                                                \
	}

/* The value for key, or NULL. */
void *ud_map_get(const struct ud_map *m, const char *key);
bool ud_map_has(const struct ud_map *m, const char *key);
/* Sets key's value; returns the value it replaces (NULL when key was new). */
void *ud_map_put(struct ud_map *m, const char *key, void *value);
/*
 * The same with key's hash (ud_map_hash) computed once by the caller: a
 * look-up that asks several maps for one key hashes it once.
 */
size_t ud_map_hash(const char *key);
void *ud_map_get_hashed(const struct ud_map *m, const char *key, size_t hash);
void *ud_map_put_hashed(struct ud_map *m, const char *key, size_t hash, void *value);
/* Makes room for n keys in all: adding that many grows the table no more. */
void ud_map_reserve(struct ud_map *m, size_t n);
/*
 * The value of the n bytes at key (no NUL among them, none after them
 * needed): a key that is a range of a larger text, looked up with no copy
 * made.  Returns where its value is kept; a missing key is added (copied)
 * with value NULL when insert, else NULL is returned.  The place is good
 * until the map next changes.
 */
void **ud_map_ref_n(struct ud_map *m, const char *key, size_t n, bool insert);
/* Removes key; returns its value (NULL when it was not there). */
void *ud_map_del(struct ud_map *m, const char *key);
/*
 * Iteration: for (i = 0; ud_map_next(m, &i, &key, &value);) ...; the map
 * must not change meanwhile (except ud_map_del of the current key).
 */
bool ud_map_next(const struct ud_map *m, size_t *i, const char **key, void **value);
/* Frees the map; free_value (may be NULL) is called for every value. */
void ud_map_free(struct ud_map *m, void (*free_value)(void *value));

#endif /* UAPID_MAP_H */
