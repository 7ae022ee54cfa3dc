// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open addressing with linear probing over a power-of-two table, each
 * key's hash kept in its slot so growing never rehashes strings.  Removal
 * leaves a dead slot; a table more than half full of live and dead slots
 * is rebuilt.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/arena.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/*
 * A slot with no key is free when its value is NULL, removed (probing goes
 * on past it) when not: ud_map_del leaves the slot's own address there.
 * The caller's values are only ever stored beside a key.
 */
#define REMOVED(s) ((s)->value != NULL)

/* Odd 64-bit multipliers with their bits spread evenly (any such would do). */
#define MUL_A 0x9e3779b97f4a7c15ULL
#define MUL_B 0xd6e8feb86659fd93ULL
#define MUL_C 0xa0761d6478bd642fULL

static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline uint64_t
load32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* One word into the state: the multiply carries its bits up, the shift brings the top ones down. */
static inline uint64_t
absorb(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MUL_B;
	return h ^ (h >> 31);
}

/*
 * The hash of the n bytes at key, eight at a time: FNV-1a's byte at a
 * time was the largest part of the map's cost in an API diff.  Every byte
 * is read, and for one length the bytes go into the words absorbed one to
 * one (the last word may repeat bytes of the one before, 4 to 7 bytes are
 * read as two halves that may overlap, 1 to 3 as three bytes that may
 * repeat); the length seeds the state, so keys of other lengths start
 * apart.  Words are read in the host's byte order: the hash, like the
 * iteration order it makes, is the same on every run of one build but not
 * across hosts of the other order.
 */
static inline size_t
hash_bytes(const char *key, size_t n)
{
	const unsigned char *p = (const unsigned char *)key, *e = p + n;
	uint64_t h = (uint64_t)n * MUL_A, w;

	if (n > 8) {
		do {
			h = absorb(h, load64(p));
			p += 8;
		} while (e - p > 8);
		w = load64(e - 8);
	} else if (n >= 4) {
		w = load32(p) | load32(e - 4) << 32;
	} else if (n > 0) {
		w = p[0] | (uint64_t)p[n >> 1] << 8 | (uint64_t)p[n - 1] << 16;
	} else {
		w = 0;
	}
	h = absorb(h, w);
	/* every bit of the state into the low ones a table's index takes */
	h ^= h >> 29;
	h *= MUL_C;
	h ^= h >> 32;
	return (size_t)h;
}

size_t
ud_map_hash(const char *key)
{
	return hash_bytes(key, strlen(key));
}

/* The slot holding key, or NULL. */
static inline struct ud_map_slot *
lookup(const struct ud_map *m, const char *key, size_t h)
{
	size_t mask = m->cap - 1, i;

	if (m->cap == 0)
		return NULL;
	for (i = h & mask;; i = (i + 1) & mask) {
		struct ud_map_slot *s = &m->slots[i];

		if (s->key == NULL) {
			if (!REMOVED(s))
				return NULL;
		} else if (s->hash == h && strcmp(s->key, key) == 0) {
			return s;
		}
	}
}

/*
 * The slot holding key, or the one to put it in: the first dead slot its
 * probe met, else the free one that ended it.  The table has one free slot
 * at least (ud_map_put_hashed grows it first).
 */
static inline struct ud_map_slot *
find_room(const struct ud_map *m, const char *key, size_t h)
{
	struct ud_map_slot *reuse = NULL;
	size_t mask = m->cap - 1, i;

	for (i = h & mask;; i = (i + 1) & mask) {
		struct ud_map_slot *s = &m->slots[i];

		if (s->key == NULL) {
			if (!REMOVED(s))
				return reuse != NULL ? reuse : s;
			if (reuse == NULL)
				reuse = s;
		} else if (s->hash == h && strcmp(s->key, key) == 0) {
			return s;
		}
	}
}

/* The table rebuilt with cap slots (a power of two holding every live key). */
static void
rebuild(struct ud_map *m, size_t cap)
{
	struct ud_map_slot *old = m->slots;
	size_t oldcap = m->cap, i, mask = cap - 1;

	m->cap = cap;
	m->slots = ud_xcalloc(m->cap, sizeof(*m->slots));
	m->used = m->n;
	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (old[i].key == NULL)
			continue;
		for (j = old[i].hash & mask; m->slots[j].key != NULL; j = (j + 1) & mask)
			;
		m->slots[j] = old[i];
	}
	free(old);
}

static void
grow(struct ud_map *m)
{
	rebuild(m, m->cap == 0 ? 16 : (m->n * 4 > m->cap ? m->cap * 2 : m->cap));
}

void
ud_map_reserve(struct ud_map *m, size_t n)
{
	size_t cap = m->cap == 0 ? 16 : m->cap;

	/* ud_map_put grows a table more than half full */
	while (cap / 2 < n + 1)
		cap *= 2;
	if (cap > m->cap)
		rebuild(m, cap);
}

void *
ud_map_get(const struct ud_map *m, const char *key)
{
	struct ud_map_slot *s;

	if (m->n == 0)
		return NULL;
	s = lookup(m, key, ud_map_hash(key));
	return s != NULL ? s->value : NULL;
}

void *
ud_map_get_hashed(const struct ud_map *m, const char *key, size_t hash)
{
	struct ud_map_slot *s = lookup(m, key, hash);

	return s != NULL ? s->value : NULL;
}

bool
ud_map_has(const struct ud_map *m, const char *key)
{
	return m->n > 0 && lookup(m, key, ud_map_hash(key)) != NULL;
}

/* ud_map_put_hashed with key's length when known (SIZE_MAX: not). */
static void *
put(struct ud_map *m, const char *key, size_t len, size_t h, void *value)
{
	struct ud_map_slot *s;

	if ((m->used + 1) * 2 > m->cap)
		grow(m);
	s = find_room(m, key, h);
	if (s->key != NULL) {
		void *old = s->value;

		s->value = value;
		return old;
	}
	if (!REMOVED(s))
		m->used++;
	if (len == SIZE_MAX)
		len = strlen(key);
	s->key = m->keys != NULL ? ud_arena_strndup(m->keys, key, len) : ud_xstrndup(key, len);
	s->hash = h;
	s->value = value;
	m->n++;
	return NULL;
}

void *
ud_map_put(struct ud_map *m, const char *key, void *value)
{
	size_t len = strlen(key);

	return put(m, key, len, hash_bytes(key, len), value);
}

void *
ud_map_put_hashed(struct ud_map *m, const char *key, size_t h, void *value)
{
	return put(m, key, SIZE_MAX, h, value);
}

/* Whether slot key is the n bytes at key (no NUL among them: strncmp stops at a shorter key's). */
static inline bool
same_n(const char *slot_key, const char *key, size_t n)
{
	return strncmp(slot_key, key, n) == 0 && slot_key[n] == '\0';
}

void **
ud_map_ref_n(struct ud_map *m, const char *key, size_t n, bool insert)
{
	struct ud_map_slot *reuse = NULL, *s;
	size_t h = hash_bytes(key, n), mask, i;

	assert(memchr(key, '\0', n) == NULL);
	if (insert && (m->used + 1) * 2 > m->cap)
		grow(m);
	if (m->cap == 0)
		return NULL;
	mask = m->cap - 1;
	for (i = h & mask;; i = (i + 1) & mask) {
		s = &m->slots[i];
		if (s->key == NULL) {
			if (!REMOVED(s))
				break;
			if (reuse == NULL)
				reuse = s;
		} else if (s->hash == h && same_n(s->key, key, n)) {
			return &s->value;
		}
	}
	if (!insert)
		return NULL;
	if (reuse != NULL)
		s = reuse;
	else
		m->used++;
	s->key = m->keys != NULL ? ud_arena_strndup(m->keys, key, n) : ud_xstrndup(key, n);
	s->hash = h;
	s->value = NULL;
	m->n++;
	return &s->value;
}

void *
ud_map_del(struct ud_map *m, const char *key)
{
	struct ud_map_slot *s;
	void *old;

	if (m->n == 0 || (s = lookup(m, key, ud_map_hash(key))) == NULL)
		return NULL;
	old = s->value;
	if (m->keys == NULL)
		free(s->key);
	s->key = NULL;
	s->value = s;
	m->n--;
	return old;
}

bool
ud_map_next(const struct ud_map *m, size_t *i, const char **key, void **value)
{
	for (; *i < m->cap; (*i)++) {
		if (m->slots[*i].key != NULL) {
			*key = m->slots[*i].key;
			if (value != NULL)
				*value = m->slots[*i].value;
			(*i)++;
			return true;
		}
	}
	return false;
}

void
ud_map_free(struct ud_map *m, void (*free_value)(void *value))
{
	size_t i;

	/* keys in an arena and no values to free: nothing per slot */
	for (i = 0; (m->keys == NULL || free_value != NULL) && i < m->cap; i++) {
		if (m->slots[i].key == NULL)
			continue;
		if (free_value != NULL)
			free_value(m->slots[i].value);
		if (m->keys == NULL)
			free(m->slots[i].key);
	}
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
