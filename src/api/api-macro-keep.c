// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the expander (api-macro.c) keeps through a context, in the
 * context's arena (api_ctx's spare): emptied token vectors for reuse,
 * each text's tokens, each identifier's word (its ABI answer and the
 * macro look-ups api_lookup itself memoizes), each macro's replacement as
 * tokens (api_symstate's body), the ABI's answers by name.
 *
 * Apart from the expansion because none of it is expansion: tables that
 * make the 26,000 expansions of a diff cheap, and that never change a
 * result (nothing kept depends on a value or condition still being worked
 * out).  Pure.
 */
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"

/*
 * A text expanded, tokenized once: conditions and enumerators' values are
 * asked again and again ("!defined(__i386__)" 2,400 times a diff).  The
 * tokens point into the copy, so the caller's text may go.
 */
struct text {
	const char *s; /* a copy in the arena */
	size_t len;
	uint32_t hash;
	const struct api_tok *v;
	size_t n;
};

/* The spares of c, made on first use. */
static struct api_spare *
spare_of(struct api_ctx *c)
{
	if (c->spare == NULL)
		c->spare = ud_arena_alloc(&c->arena, sizeof(*c->spare));
	return c->spare;
}

void
api_tv_grow(struct tv *t, size_t want)
{
	size_t alloc = t->alloc < 64 ? 64 : t->alloc * 2;
	struct api_tok *v;

	while (alloc < want)
		alloc *= 2;
	v = ud_arena_alloc(t->arena, alloc * sizeof(*v));
	if (t->n > 0)
		memcpy(v, t->v, t->n * sizeof(*v));
	t->v = v;
	t->alloc = alloc;
}

/* Gives t's room back to c's spares (t is left empty). */
void
api_tv_put(struct api_ctx *c, struct tv *t)
{
	struct api_spare *sp = c->spare;

	if (t->v != NULL) {
		sp = spare_of(c);
		if (sp->n == sp->alloc) {
			size_t alloc = sp->alloc < 16 ? 16 : sp->alloc * 2;
			struct tv *v = ud_arena_alloc(&c->arena, alloc * sizeof(*v));

			if (sp->n > 0)
				memcpy(v, sp->v, sp->n * sizeof(*v));
			sp->v = v;
			sp->alloc = alloc;
		}
		sp->v[sp->n++] = *t;
	}
	t->v = NULL;
	t->n = t->alloc = 0;
}

/* ud_abi_macro, its answers kept: the expander asks it of every identifier. */
enum ud_abi_macro
api_abi_macro(struct api_ctx *c, const char *name, size_t n, const char **value)
{
	struct known {
		enum ud_abi_macro what;
		const char *value;
	} * k;
	char buf[128];

	if (n >= sizeof(buf))
		return ud_abi_macro(c->abi, name, n, value);
	memcpy(buf, name, n);
	buf[n] = '\0';
	if ((k = ud_map_get(&c->abi_macros, buf)) == NULL) {
		k = ud_arena_alloc(&c->arena, sizeof(*k));
		k->what = ud_abi_macro(c->abi, name, n, &k->value);
		ud_map_put(&c->abi_macros, buf, k);
	}
	*value = k->value;
	return k->what;
}

#define WORDS_FIRST 1024

/*
 * A hash of a token's text from its length and its first and last 8
 * bytes (a byte at a time when shorter): cheaper than a byte loop, and
 * names that share both ends are told apart by the compare.
 */
static inline uint32_t
word_hash(const char *p, size_t n)
{
	uint64_t a, b, h;
	size_t i;

	if (n < 8) {
		h = n;
		for (i = 0; i < n; i++)
			h = h * 31 + (unsigned char)p[i];
		return (uint32_t)((h * 0x9e3779b97f4a7c15ull) >> 32);
	}
	memcpy(&a, p, 8);
	memcpy(&b, p + n - 8, 8);
	h = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ n;
	return (uint32_t)(h ^ (h >> 29) ^ (h >> 41));
}

static size_t
word_slot(const struct word *v, size_t awords, const char *p, size_t n, uint32_t hash)
{
	size_t mask = awords - 1, i = hash & mask;

	while (v[i].name != NULL &&
	       !(v[i].hash == hash && v[i].n == n && memcmp(v[i].name, p, n) == 0))
		i = (i + 1) & mask;
	return i;
}

/* Room for one more word: the table doubled when half full. */
static void
words_room(struct api_ctx *c, struct api_spare *sp)
{
	struct word *old = sp->words;
	size_t i, aold = sp->awords;

	if ((sp->nwords + 1) * 2 <= sp->awords)
		return;
	sp->awords = aold == 0 ? WORDS_FIRST : aold * 2;
	sp->words = ud_arena_alloc(&c->arena, sp->awords * sizeof(*sp->words));
	for (i = 0; i < aold; i++)
		if (old[i].name != NULL)
			sp->words[word_slot(sp->words, sp->awords, old[i].name, old[i].n,
					    old[i].hash)] = old[i];
}

/* The word of identifier token t (valid until the next api_word_of: the table may move). */
struct word *
api_word_of(struct api_ctx *c, const struct api_tok *t)
{
	struct api_spare *sp = spare_of(c);
	uint32_t hash = word_hash(t->p, t->n);
	struct word *w;
	char key[512]; /* api_lookup's bound: a longer name is no macro */

	words_room(c, sp);
	w = &sp->words[word_slot(sp->words, sp->awords, t->p, t->n, hash)];
	if (w->name != NULL)
		return w;
	sp->nwords++;
	w->name = ud_arena_strndup(&c->arena, t->p, t->n);
	w->n = t->n;
	w->hash = hash;
	w->abi = api_abi_macro(c, t->p, t->n, &w->value);
	w->no_macro = true;
	if (t->n + 2 <= sizeof(key)) {
		key[0] = '#';
		memcpy(key + 1, t->p, t->n);
		key[t->n + 1] = '\0';
		uintptr_t head = (uintptr_t)ud_map_get(&c->global, key);

		w->no_macro = head == 0;
		w->many_macros = head != 0 && c->gnext[head - 1] != 0;
	}
	return w;
}

/* A hash of a text, 8 bytes at a time. */
static uint32_t
text_hash(const char *p, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return (uint32_t)(h ^ (h >> 32));
}

static size_t
text_slot(const struct text *v, size_t a, const char *s, size_t len, uint32_t hash)
{
	size_t mask = a - 1, i = hash & mask;

	while (v[i].s != NULL &&
	       !(v[i].hash == hash && v[i].len == len && memcmp(v[i].s, s, len) == 0))
		i = (i + 1) & mask;
	return i;
}

/* The tokens of text (len bytes), kept in c's arena: tokenized on first use. */
const struct api_tok *
api_text_tokens(struct api_ctx *c, const char *text, size_t len, size_t *n)
{
	struct api_spare *sp = spare_of(c);
	uint32_t hash = text_hash(text, len);
	struct api_toks t = {NULL, 0, 0};
	struct text *x;
	struct api_tok *v;
	size_t i;

	if ((sp->ntexts + 1) * 2 > sp->atexts) {
		struct text *old = sp->texts;
		size_t aold = sp->atexts;

		sp->atexts = aold == 0 ? 256 : aold * 2;
		sp->texts = ud_arena_alloc(&c->arena, sp->atexts * sizeof(*sp->texts));
		for (i = 0; i < aold; i++)
			if (old[i].s != NULL)
				sp->texts[text_slot(sp->texts, sp->atexts, old[i].s, old[i].len,
						    old[i].hash)] = old[i];
	}
	x = &sp->texts[text_slot(sp->texts, sp->atexts, text, len, hash)];
	if (x->s == NULL) {
		x->s = ud_arena_strndup(&c->arena, text, len);
		x->len = len;
		x->hash = hash;
		api_tokenize(x->s, len, &t);
		v = ud_arena_alloc(&c->arena, (t.n + 1) * sizeof(*v));
		if (t.n > 0)
			memcpy(v, t.v, t.n * sizeof(*v));
		x->v = v;
		x->n = t.n;
		sp->ntexts++;
		free(t.v);
	}
	*n = x->n;
	return x->v;
}

const struct api_tok *
api_macro_body(struct api_ctx *c, struct api_ref r, size_t *n)
{
	struct api_symstate *st = &c->hd[r.h].st[r.i];

	if (!st->body_done) {
		struct api_toks t = {NULL, 0, 0};
		const char *text = api_sym(c, r)->text;

		api_tokenize(text, strlen(text), &t);
		st->body = ud_arena_alloc(&c->arena, (t.n + 1) * sizeof(*t.v));
		if (t.n > 0)
			memcpy(st->body, t.v, t.n * sizeof(*t.v));
		st->nbody = t.n;
		st->body_done = true;
		free(t.v);
	}
	*n = st->nbody;
	return st->body;
}
