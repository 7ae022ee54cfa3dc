// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bump allocator (see arena.h).
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/arena.h"
#include "uapid/util/xmalloc.h"

#define ARENA_CHUNK 16384

struct ud_arena_chunk {
	struct ud_arena_chunk *next;
	size_t used;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

/* size bytes aligned for any type, not zeroed. */
static void *
arena_alloc_raw(struct ud_arena *a, size_t size)
{
	struct ud_arena_chunk *c = a->head;
	size_t align = alignof(max_align_t);
	void *p;

	size = (size + align - 1) & ~(align - 1);
	if (c == NULL || c->size - c->used < size) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = ud_xmalloc(sizeof(*c) + cap);
		c->next = a->head;
		c->used = 0;
		c->size = cap;
		a->head = c;
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

void *
ud_arena_alloc(struct ud_arena *a, size_t size)
{
	void *p = arena_alloc_raw(a, size);

	memset(p, 0, size);
	return p;
}

/* Not zeroed first: every byte is written (675,000 map keys an api-diff). */
char *
ud_arena_strndup(struct ud_arena *a, const char *s, size_t n)
{
	char *p = arena_alloc_raw(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
ud_arena_free(struct ud_arena *a)
{
	struct ud_arena_chunk *c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}

#define STRARENA_MIN 256
#define STRARENA_MAX (1024 * 1024)

struct ud_strarena_chunk {
	struct ud_strarena_chunk *next;
	char data[];
};

void
ud_strarena_init(struct ud_strarena *a, size_t hint)
{
	a->head = NULL;
	a->cur = a->end = NULL;
	a->next = hint < STRARENA_MIN ? STRARENA_MIN : hint > STRARENA_MAX ? STRARENA_MAX : hint;
	a->used = 0;
}

char *
ud_strarena_alloc(struct ud_strarena *a, size_t n)
{
	char *p;

	if (a->cur == NULL || (size_t)(a->end - a->cur) < n) {
		size_t cap = a->next < STRARENA_MIN ? STRARENA_MIN : a->next;
		struct ud_strarena_chunk *c;

		if (cap < n)
			cap = n;
		c = ud_xmalloc(sizeof(*c) + cap);
		c->next = a->head;
		a->head = c;
		a->cur = c->data;
		a->end = c->data + cap;
		/* doubling: a header the hint undersized needs few chunks more */
		a->next = cap < STRARENA_MAX ? cap * 2 : STRARENA_MAX;
	}
	p = a->cur;
	a->cur += n;
	a->used += n;
	return p;
}

void *
ud_strarena_alloc_aligned(struct ud_strarena *a, size_t n, size_t align)
{
	/* up to align - 1 bytes lost: these are few */
	char *p = ud_strarena_alloc(a, n + align - 1);

	p += (size_t)(-(uintptr_t)p) & (align - 1);
	memset(p, 0, n);
	return p;
}

char *
ud_strarena_strndup(struct ud_strarena *a, const char *s, size_t n)
{
	char *p = ud_strarena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
ud_strarena_strdup(struct ud_strarena *a, const char *s)
{
	return s != NULL ? ud_strarena_strndup(a, s, strlen(s)) : NULL;
}

void
ud_strarena_free(struct ud_strarena *a)
{
	struct ud_strarena_chunk *c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->cur = a->end = NULL;
	a->used = 0;
}
