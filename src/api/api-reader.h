/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the files of the header reader (api.c and api-reader-*.c):
 * the reader's state, the helpers that put its strings in the header's
 * arena, and the parts one file calls in another.  The reader was one
 * file of 2,000 lines; these are its seams.  Not a public interface: what
 * the rest of the API model calls is in api-internal.h.
 */
#ifndef UAPID_CORE_API_READER_H
#define UAPID_CORE_API_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/api/api.h"
#include "uapid/util/arena.h"
#include "uapid/util/buf.h"
#include "uapid/core/expr.h"
#include "uapid/util/map.h"

/* ---- the reader: what it knows of the header read so far ---- */

struct known {
	struct ud_expr_sym *v; /* numeric macros and enum constants so far */
	size_t n, alloc;
	/*
	 * A name -> (uintptr_t) the index + 1 of its first entry in v: what
	 * ud_expr_find_sym answers, found without its walk of the whole list
	 * (a header of a thousand macros walked it for every name).
	 */
	struct ud_map first;
};

struct reader {
	struct ud_api_header *h;
	const struct api_toks *t; /* every token (directives read these) */
	const struct api_toks *c; /* the tokens outside directives (declarations read these) */
	struct known known;
	char *guard;
	struct ud_buf cond; /* the current conditions, " && "-joined */
	struct {
		size_t len;	  /* cond's length before this level */
		char *text;	  /* this branch's condition: not_before && own */
		char *own;	  /* the branch's own test, NULL for an #else */
		char *not_before; /* the earlier branches' tests, negated, or NULL */
	} stack[64];
	size_t depth;
	bool guard_seen;
	unsigned nesting; /* records being read inside records */
	struct {
		size_t at;  /* the first code token under these conditions */
		char *cond; /* the conditions, " && "-joined */
	} * points;	    /* where the conditions change, in token order */
	size_t npoints, apoints;
	struct ud_map attr_macros; /* macros defined so far that stand for attributes */
	struct ud_map macros;	   /* the macros defined so far, but those naming themselves */
	struct ud_arena keys;	   /* the maps' keys, dropped with the reader */
	/* a member's declarator buffers, reused (a zeroed buffer is empty) */
	struct {
		struct ud_buf type, dims, attrs;
	} spare;
	unsigned pack;	   /* #pragma pack(N) in force, 0 when none */
	unsigned packs[8]; /* pack(push) */
	size_t npacks;
};

/* ---- strings, in the header's arena ---- */

/*
 * Every string of a model lives in its header's arena (h->strs): some
 * 700,000 small blocks a diff, a fifth of its instructions in malloc and
 * free and a third of its peak in their overhead.  These put one there.
 */
static inline char *
hstr(struct reader *r, const char *s)
{
	return ud_strarena_strdup(&r->h->strs, s);
}

static inline char *
hstrn(struct reader *r, const char *p, size_t n)
{
	return ud_strarena_strndup(&r->h->strs, p, n);
}

/* api_join's text of tokens [a, b), written straight into the header's arena. */
static inline char *
hjoin(struct reader *r, const struct api_tok *v, size_t a, size_t b)
{
	char *own = ud_strarena_alloc(&r->h->strs, api_join_len(v, a, b) + 1);

	api_join_to(own, v, a, b);
	return own;
}

/* api_join's text of tokens [a, b) appended to buffer out. */
static inline void
join_add(struct ud_buf *out, const struct api_tok *v, size_t a, size_t b)
{
	size_t n = api_join_len(v, a, b);

	ud_buf_grow(out, n);
	api_join_to(out->data + out->len, v, a, b);
	out->len += n;
}

/* A buffer's text in the header's arena; the buffer is freed. */
static inline char *
hbuf(struct reader *r, struct ud_buf *b)
{
	char *own = hstrn(r, ud_buf_str(b), b->len);

	ud_buf_free(b);
	return own;
}

/* ---- numbers (api-reader-value.c) ---- */

/* Records that numeric name name (a macro or enum constant) is value, for what is read after it. */
void api_remember(struct reader *r, const char *name, long long value);
/* The value of expression text, with the header's numeric names so far; false when unknown. */
bool api_evaluate(struct reader *r, const char *text, long long *out);

/* ---- the header being built (api.c) ---- */

/* A new symbol under the current conditions; name and text in the header's arena (text NULL: "").
 */
struct ud_api_sym *api_add_sym_named(struct reader *r, enum ud_api_kind kind, char *name,
				     unsigned line, char *text);

/* ---- directives (api-reader-directive.c) ---- */

/* Directive tokens [a, b) of r->t ("#" first) read into the model and the reader's state. */
void api_directive(struct reader *r, size_t a, size_t b);
/* Leaves the innermost conditional branch (#endif, or the header's end). */
void api_pop_cond(struct reader *r);
/*
 * An object-like macro this header defined before token t that stands for
 * attributes ("#define EPOLL_PACKED __attribute__((packed))", or nothing).
 */
bool api_macro_here(const struct reader *r, const struct api_tok *t);
/* Whether token t names a macro this header defined (one not just naming itself). */
bool api_defined_here(const struct reader *r, const struct api_tok *t);

/* ---- members (api-reader-member.c) ---- */

/*
 * The declared name in declarator tokens [a, b) (a function pointer's
 * "(*name)", else the last identifier before a bound, parameters, a
 * bit-field or the end): its index, or b.
 */
size_t api_declared_name(const struct api_tok *v, size_t a, size_t b);
/*
 * Member declaration [a, b) of r->c (no ';'), in a record opened at token
 * open, its declarators appended to out[0..*n) (*alloc entries).
 */
void api_member(struct reader *r, size_t a, size_t b, size_t open, struct ud_api_member **out,
		size_t *n, size_t *alloc);
/* The members of a body, tokens [a, b) of r->c, into *out (malloc'd, *n of them). */
void api_parse_members(struct reader *r, size_t a, size_t b, struct ud_api_member **out, size_t *n);

/* ---- declarations (api-reader-decl.c) ---- */

/* A top-level declaration, code tokens [a, b) of r->c (no ';'), read into the model. */
void api_declaration(struct reader *r, size_t a, size_t b);

#endif /* UAPID_CORE_API_READER_H */
