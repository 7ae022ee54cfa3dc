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
	const struct api_tok *v; /* into a copy of the text in the arena */
	size_t n;
};

/* The spares of c, made on first use. */
static struct api_spare *
spare_of(struct api_ctx *c)
{
	if (c->spare == NULL) {
		c->spare = ud_arena_alloc(&c->arena, sizeof(*c->spare));
		memset(c->spare, 0, sizeof(*c->spare));
		/* names and texts: their keys live as long as the context */
		c->spare->words.keys = c->spare->texts.keys = &c->arena;
		ud_map_reserve(&c->spare->words, 1024);
		ud_map_reserve(&c->spare->texts, 256);
	}
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

/* The word of identifier token t (in c's arena: the same word at every use of the name). */
struct word *
api_word_of(struct api_ctx *c, const struct api_tok *t)
{
	struct api_spare *sp = spare_of(c);
	void **slot = ud_map_ref_n(&sp->words, t->p, t->n, true);
	struct word *w = *slot;
	char key[512]; /* api_lookup's bound: a longer name is no macro */

	if (w != NULL)
		return w;
	*slot = w = ud_arena_alloc(&c->arena, sizeof(*w));
	memset(w, 0, sizeof(*w));
	w->name = ud_arena_strndup(&c->arena, t->p, t->n);
	w->n = t->n;
	w->abi = api_abi_macro(c, t->p, t->n, &w->value);
	w->no_macro = true;
	if (t->n + 2 <= sizeof(key)) {
		uintptr_t head;

		key[0] = '#';
		memcpy(key + 1, t->p, t->n);
		key[t->n + 1] = '\0';
		head = (uintptr_t)ud_map_get(&c->global, key);
		w->no_macro = head == 0;
		w->many_macros = head != 0 && c->gnext[head - 1] != 0;
	}
	return w;
}

/*
 * The tokens of text (len bytes), kept in c's arena: tokenized on first
 * use (a text with a NUL byte, broken input, every time).
 */
const struct api_tok *
api_text_tokens(struct api_ctx *c, const char *text, size_t len, size_t *n)
{
	struct api_spare *sp = spare_of(c);
	struct api_toks t = {NULL, 0, 0};
	struct text *x = NULL;
	struct api_tok *v;
	void **slot = NULL;

	if (memchr(text, '\0', len) == NULL) {
		slot = ud_map_ref_n(&sp->texts, text, len, true);
		if ((x = *slot) != NULL) {
			*n = x->n;
			return x->v;
		}
	}
	/* the tokens point into a copy of the text in the arena: the caller's may go */
	api_tokenize(ud_arena_strndup(&c->arena, text, len), len, &t);
	v = ud_arena_alloc(&c->arena, (t.n + 1) * sizeof(*v));
	if (t.n > 0)
		memcpy(v, t.v, t.n * sizeof(*v));
	free(t.v);
	*n = t.n;
	if (slot != NULL) {
		*slot = x = ud_arena_alloc(&c->arena, sizeof(*x));
		x->v = v;
		x->n = t.n;
	}
	return v;
}

void
api_spare_free(struct api_ctx *c)
{
	if (c->spare == NULL)
		return;
	ud_map_free(&c->spare->words, NULL);
	ud_map_free(&c->spare->texts, NULL);
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
