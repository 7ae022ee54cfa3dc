// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open addressing with linear probing over a power-of-two table, FNV-1a
 * hashes kept per slot so growing never rehashes strings.  Removal leaves
 * a dead slot; a table more than half full of live and dead slots is
 * rebuilt.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/arena.h"
#include "uapid/map.h"
#include "uapid/xmalloc.h"

static size_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s != '\0') {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* The slot holding key, or the first free one its probe meets (NULL if the table is empty). */
static struct ud_map_slot *
find(const struct ud_map *m, const char *key, size_t h)
{
	struct ud_map_slot *reuse = NULL;
	size_t i;

	if (m->cap == 0)
		return NULL;
	for (i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct ud_map_slot *s = &m->slots[i];

		if (s->key == NULL && !s->dead)
			return reuse != NULL ? reuse : s;
		if (s->dead) {
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
	size_t oldcap = m->cap, i;

	m->cap = cap;
	m->slots = ud_xcalloc(m->cap, sizeof(*m->slots));
	m->used = m->n;
	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (old[i].key == NULL)
			continue;
		for (j = old[i].hash & (m->cap - 1); m->slots[j].key != NULL;
		     j = (j + 1) & (m->cap - 1))
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
	return ud_map_get_hashed(m, key, hash_str(key));
}

size_t
ud_map_hash(const char *key)
{
	return hash_str(key);
}

void *
ud_map_get_hashed(const struct ud_map *m, const char *key, size_t hash)
{
	struct ud_map_slot *s = find(m, key, hash);

	return s != NULL && s->key != NULL ? s->value : NULL;
}

bool
ud_map_has(const struct ud_map *m, const char *key)
{
	struct ud_map_slot *s = find(m, key, hash_str(key));

	return s != NULL && s->key != NULL;
}

void *
ud_map_put(struct ud_map *m, const char *key, void *value)
{
	return ud_map_put_hashed(m, key, hash_str(key), value);
}

void *
ud_map_put_hashed(struct ud_map *m, const char *key, size_t h, void *value)
{
	struct ud_map_slot *s;

	if ((m->used + 1) * 2 > m->cap)
		grow(m);
	s = find(m, key, h);
	if (s->key != NULL) {
		void *old = s->value;

		s->value = value;
		return old;
	}
	if (!s->dead)
		m->used++;
	s->key = m->keys != NULL ? ud_arena_strndup(m->keys, key, strlen(key)) : ud_xstrdup(key);
	s->hash = h;
	s->value = value;
	s->dead = false;
	m->n++;
	return NULL;
}

void *
ud_map_del(struct ud_map *m, const char *key)
{
	struct ud_map_slot *s = find(m, key, hash_str(key));
	void *old;

	if (s == NULL || s->key == NULL)
		return NULL;
	old = s->value;
	if (m->keys == NULL)
		free(s->key);
	s->key = NULL;
	s->value = NULL;
	s->dead = true;
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
