// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Types of the API model for a target ABI (api-internal.h): what a type
 * name or a member's declaration is, its size and alignment, as GCC sees
 * it for that ABI.
 *
 * A type is read from its tokens after macro expansion (__aligned_u64 is
 * "__u64 __attribute__((aligned(8)))"): qualifiers and annotations
 * dropped, a '*' makes a pointer, base words give a base type of the ABI
 * table, a typedef name resolves through its declarator (its aligned(N)
 * sets the alignment, down as well as up), a tag through its definition
 * as the header sees it (libc's few records from a table).  A member's
 * type adds its array bounds (evaluated by api-eval.c; [] and [0] are a
 * flexible array) and lays its inline body out (api-layout.c).  Unknown
 * stays unknown.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/hash.h"
#include "uapid/util/arena.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/core/expr.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/*
 * Whether token t is the literal word w: its length known when compiled,
 * where api_tok_is, when the compiler does not inline it, measures the
 * word for every token of every member's type.
 */
#define TOK_IS(t, w) ((t)->n == sizeof(w) - 1 && memcmp((t)->p, (w), sizeof(w) - 1) == 0)

/* ---- attributes ---- */

/* GCC's __BIGGEST_ALIGNMENT__: what aligned without a value means. */
static uint64_t
biggest(const struct ud_abi *abi)
{
	uint64_t a = abi->t[UD_ABI_LDOUBLE].align;

	if (abi->t[UD_ABI_LLONG].size > a)
		a = abi->t[UD_ABI_LLONG].size;
	return a < 8 ? 8 : a;
}

/* The items of one attribute list (inside "__attribute__((" ... "))"): [a, b) of v. */
static bool
attr_items(struct api_ctx *c, unsigned h, const struct api_tok *v, size_t a, size_t b,
	   struct api_attrs *at)
{
	size_t i = a;

	while (i < b) {
		size_t e = i, depth = 0;

		while (e < b && !(depth == 0 && TOK_IS(&v[e], ","))) {
			if (TOK_IS(&v[e], "("))
				depth++;
			else if (TOK_IS(&v[e], ")"))
				depth--;
			e++;
		}
		if (TOK_IS(&v[i], "aligned") || TOK_IS(&v[i], "__aligned__")) {
			uint64_t n = biggest(c->abi);

			if (i + 1 < e && TOK_IS(&v[i + 1], "(")) {
				char *x = api_join(v, i + 2, e - 1);
				struct api_val val = api_eval_text(c, h, x);

				free(x);
				if (!val.known || val.u == 0 || val.u > 4096)
					return false;
				n = val.u;
			}
			if (n > at->aligned)
				at->aligned = n;
		} else if (TOK_IS(&v[i], "packed") || TOK_IS(&v[i], "__packed__")) {
			at->packed = true;
		}
		i = e + 1;
	}
	return true;
}

/*
 * Attributes in text (a member's after its name, the words after a body),
 * macros expanded (__ATM_API_ALIGN); false: unreadable.
 */
bool
api_attrs_of_text(struct api_ctx *c, unsigned h, const char *text, struct api_attrs *at)
{
	struct api_toks t = {NULL, 0, 0};
	bool ok = true;
	size_t i;
	char *x = strchr(text, '_') != NULL || strchr(text, '(') == NULL
			  ? api_expand_text(c, h, text)
			  : ud_xstrdup(text);

	if (x == NULL)
		return false;
	api_tokenize(x, strlen(x), &t);
	for (i = 0; i < t.n && ok; i++) {
		if ((TOK_IS(&t.v[i], "__attribute__") || TOK_IS(&t.v[i], "__attribute")) &&
		    i + 2 < t.n && TOK_IS(&t.v[i + 1], "(") && TOK_IS(&t.v[i + 2], "(")) {
			size_t close = api_match(t.v, i + 2, t.n);

			ok = attr_items(c, h, t.v, i + 3, close, at);
			i = api_match(t.v, i + 1, t.n);
		}
	}
	free(t.v);
	free(x);
	return ok;
}

/* ---- types ---- */

void
api_type_free(struct api_type *t)
{
	free(t->spelled);
	t->spelled = NULL;
}

void
api_type_copy(struct api_type *dst, const struct api_type *src)
{
	*dst = *src;
	dst->spelled = src->spelled != NULL ? ud_xstrdup(src->spelled) : NULL;
}

void
api_base_type(struct api_type *t, const struct ud_abi *abi, enum ud_abi_base b, bool is_unsigned,
	      const char *spelled)
{
	t->known = abi->t[b].size != 0;
	t->size = abi->t[b].size;
	t->align = abi->t[b].align;
	t->integer =
		b != UD_ABI_FLOAT && b != UD_ABI_DOUBLE && b != UD_ABI_LDOUBLE && b != UD_ABI_PTR;
	t->pointer = b == UD_ABI_PTR;
	t->is_unsigned = is_unsigned;
	t->bits = (unsigned)t->size * 8;
	t->rank = b == UD_ABI_LONG     ? (is_unsigned ? API_ULONG : API_LONG)
		  : b == UD_ABI_LLONG  ? (is_unsigned ? API_ULLONG : API_LLONG)
		  : b == UD_ABI_INT128 ? (is_unsigned ? API_ULLONG : API_LLONG)
				       : (is_unsigned ? API_UINT : API_INT);
	free(t->spelled);
	t->spelled = ud_xstrdup(spelled);
}

/* What glibc's headers define that uapi headers use (<stdint.h>, <stddef.h>, <sys/types.h>). */
static const struct {
	const char *name;
	enum ud_abi_base base;
	bool is_unsigned;
	const char *spelled;
} libc_types[] = {
	{"size_t", UD_ABI_LONG, true, "unsigned long"},
	{"ssize_t", UD_ABI_LONG, false, "long"},
	{"ptrdiff_t", UD_ABI_LONG, false, "long"},
	{"intptr_t", UD_ABI_LONG, false, "long"},
	{"uintptr_t", UD_ABI_LONG, true, "unsigned long"},
	{"int8_t", UD_ABI_CHAR, false, "signed char"},
	{"uint8_t", UD_ABI_CHAR, true, "unsigned char"},
	{"int16_t", UD_ABI_SHORT, false, "short"},
	{"uint16_t", UD_ABI_SHORT, true, "unsigned short"},
	{"int32_t", UD_ABI_INT, false, "int"},
	{"uint32_t", UD_ABI_INT, true, "unsigned int"},
	{"int64_t", UD_ABI_LLONG, false, "long long"},
	{"uint64_t", UD_ABI_LLONG, true, "unsigned long long"},
	{"pid_t", UD_ABI_INT, false, "int"},
	{"uid_t", UD_ABI_INT, true, "unsigned int"},
	{"gid_t", UD_ABI_INT, true, "unsigned int"},
	{"mode_t", UD_ABI_INT, true, "unsigned int"},
	{"socklen_t", UD_ABI_INT, true, "unsigned int"},
	{"sa_family_t", UD_ABI_SHORT, true, "unsigned short"},
	{"in_addr_t", UD_ABI_INT, true, "unsigned int"},
	{"in_port_t", UD_ABI_SHORT, true, "unsigned short"},
	{"clockid_t", UD_ABI_INT, false, "int"},
	{"wchar_t", UD_ABI_INT, false, "int"},
	{"time_t", UD_ABI_LONG, false, "long"},
	{"off_t", UD_ABI_LONG, false, "long"},
	{"ino_t", UD_ABI_LONG, true, "unsigned long"},
	{"dev_t", UD_ABI_LLONG, true, "unsigned long long"},
	{"caddr_t", UD_ABI_PTR, false, "char *"},
	/* <sys/types.h>'s BSD names */
	{"u_char", UD_ABI_CHAR, true, "unsigned char"},
	{"u_short", UD_ABI_SHORT, true, "unsigned short"},
	{"u_int", UD_ABI_INT, true, "unsigned int"},
	{"u_long", UD_ABI_LONG, true, "unsigned long"},
	{"u_int8_t", UD_ABI_CHAR, true, "unsigned char"},
	{"u_int16_t", UD_ABI_SHORT, true, "unsigned short"},
	{"u_int32_t", UD_ABI_INT, true, "unsigned int"},
	{"u_int64_t", UD_ABI_LLONG, true, "unsigned long long"},
	{"__int128_t", UD_ABI_INT128, false, "__int128"},
	{"__uint128_t", UD_ABI_INT128, true, "unsigned __int128"},
};

/*
 * What glibc's headers define that uapi headers use without defining:
 * struct sockaddr and friends, struct timespec (its default 64-bit
 * time_t on LP64, the ABI's long elsewhere).
 */
static const struct {
	const char *tag;
	const char *members;
} libc_records[] = {
	{"struct sockaddr", "unsigned short sa_family; char sa_data[14];"},
	{"struct sockaddr_storage",
	 "unsigned short ss_family; char __ss_padding[128 - sizeof(unsigned short) - "
	 "sizeof(unsigned long)]; unsigned long __ss_align;"},
	{"struct timespec", "long tv_sec; long tv_nsec;"},
	{"struct timeval", "long tv_sec; long tv_usec;"},
	{"struct timezone", "int tz_minuteswest; int tz_dsttime;"},
};

static bool
libc_record(struct api_ctx *c, unsigned h, const char *tag, struct api_type *out)
{
	struct ud_api_member *m = NULL;
	struct ud_strarena strs = {NULL, NULL, NULL, 0, 0}; /* m's strings */
	struct ud_api_layout l;
	struct api_attrs at = {0, false};
	size_t i, n = 0;
	bool ok;

	/* laid out afresh each time, its bounds evaluated as deep as the caller is: kept nowhere */
	c->broken++;
	for (i = 0; i < ARRAY_SIZE(libc_records); i++)
		if (strcmp(libc_records[i].tag, tag) == 0)
			break;
	if (i == ARRAY_SIZE(libc_records))
		return false;
	memset(&l, 0, sizeof(l));
	api_members_from_text(libc_records[i].members, &strs, &m, &n);
	ok = api_lay_out(c, h, UD_API_STRUCT, m, n, &at, 0, 0, &l, NULL);
	api_members_free(m, n);
	ud_strarena_free(&strs);
	if (ok) {
		out->size = l.size;
		out->align = l.align;
		api_layout_free_fields(&l);
	}
	return ok;
}

/* The #pragma pack in force where a typedef's inline body was defined (its record's). */
static unsigned
typedef_pack(struct api_ctx *c, struct api_ref r)
{
	const struct ud_api_header *h = &c->v[r.h];
	const struct ud_api_sym *s = api_sym(c, r);
	size_t i;

	if (s->decl->sub_kind != UD_API_STRUCT && s->decl->sub_kind != UD_API_UNION)
		return 0;
	for (i = 0; i < h->n; i++)
		if ((h->v[i].kind == UD_API_STRUCT || h->v[i].kind == UD_API_UNION) &&
		    h->v[i].line <= s->line && h->v[i].pack != 0 && s->line - h->v[i].line < 2000 &&
		    strstr(h->v[i].name, s->name) != NULL)
			return h->v[i].pack;
	return 0;
}

/* Typedef r's type read in header h's view into out (owned); why it is not known in *why. */
static void
typedef_in_view(struct api_ctx *c, struct api_ref r, unsigned h, struct api_type *out, char **why)
{
	struct ud_api_sym *s = api_sym(c, r);
	bool flex = false;

	if (!api_member_type(c, h, s->decl, typedef_pack(c, r), out, &flex, why))
		out->known = false;
	if (out->known && s->decl->sub_kind == 0) {
		/* on a typedef, aligned(N) sets the alignment, down as well as up
		 * (rdma's packed_ulong: an unsigned long aligned to 4) */
		struct api_attrs ta = {0, false};

		if (api_attrs_of_text(c, h, s->decl->type, &ta) &&
		    (s->decl->attrs == NULL || api_attrs_of_text(c, h, s->decl->attrs, &ta)) &&
		    ta.aligned != 0)
			out->align = ta.aligned;
	}
}

bool
api_typedef_type(struct api_ctx *c, struct api_ref r, struct api_type *out)
{
	struct api_symstate *st = &c->hd[r.h].st[r.i];
	struct ud_api_sym *s = api_sym(c, r);
	unsigned long types = c->view_types;

	if (st->type != NULL) {
		api_type_copy(out, st->type);
		return out->known;
	}
	if (st->type_busy)
		c->broken++; /* a typedef that holds itself: later it is known */
	if (st->type_busy || s->decl == NULL)
		return false;
	st->type_busy = true;
	st->type = ud_xcalloc(1, sizeof(*st->type));
	typedef_in_view(c, r, r.h, st->type, &st->why);
	st->view_dependent = c->view_types != types;
	st->type_busy = false;
	api_type_copy(out, st->type);
	return out->known;
}

/*
 * A tag written as a macro that expands to it ("struct __snd_pcm_mmap_status"
 * is struct snd_pcm_mmap_status where the macro is defined): the
 * definition under the written name, found from the expanded one.
 */
static bool
renamed_tag(struct api_ctx *c, unsigned h, const struct api_tok *kw, const struct api_tok *name,
	    struct api_ref *r)
{
	char word[256], tag[300];
	const struct api_rename *written;
	bool undecided;

	if (name->n >= sizeof(word))
		return false;
	memcpy(word, name->p, name->n);
	word[name->n] = '\0';
	if ((written = ud_map_get(&c->renamed, word)) == NULL)
		return false;
	snprintf(tag, sizeof(tag), "%.*s %s", (int)kw->n, kw->p, written->name);
	return api_lookup(c, h, API_NS_TAG, tag, strlen(tag), true, r, &undecided);
}

/*
 * A typedef name t that a typedef of header h's view declares under a
 * macro's name: "#define __old_sigset_t sigset_t" then "typedef unsigned
 * long __old_sigset_t;" (sparc's asm/signal.h) is sigset_t's typedef, and
 * a member written __old_sigset_t reaches here as sigset_t.  The macro
 * must be the one h sees and expand to t.
 */
static bool
renamed_typedef(struct api_ctx *c, unsigned h, const struct api_tok *t, struct api_ref *r)
{
	void **at = ud_map_ref_n(&c->renamed, t->p, t->n, false);
	const struct api_rename *e;
	bool undecided;

	for (e = at != NULL ? *at : NULL; e != NULL; e = e->next) {
		struct api_ref m;
		size_t n = strlen(e->name);

		if (api_lookup(c, h, API_NS_MACRO, e->name, n, false, &m, &undecided) &&
		    api_tok_is(t, api_sym(c, m)->text) &&
		    api_lookup(c, h, API_NS_ORDINARY, e->name, n, false, r, &undecided) &&
		    api_sym(c, *r)->kind == UD_API_TYPEDEF)
			return true;
	}
	return false;
}

/* The word of a type spelled with C's keywords, besides its sign and longs. */
enum base_word {
	WORD_NONE,
	WORD_CHAR,
	WORD_SHORT,
	WORD_INT,
	WORD_FLOAT,
	WORD_DOUBLE,
	WORD_BOOL,
	WORD_VOID,
	WORD_INT128,
};

/* What type_of_tokens has read of a type's specifiers so far. */
struct specifiers {
	enum base_word word;
	int longs;
	bool is_unsigned, is_signed, pointer;
	bool named;	   /* a tag or a type name was read */
	bool base_unknown; /* a typedef whose type is not known: only a pointer to it is */
};

/* Reads t into sp if it is a keyword of a type (unsigned, long, char, ...); false if not. */
static bool
specifier_word(const struct api_tok *t, struct specifiers *sp)
{
	if (TOK_IS(t, "unsigned")) {
		sp->is_unsigned = true;
	} else if (TOK_IS(t, "signed") || TOK_IS(t, "__signed__") || TOK_IS(t, "__signed")) {
		sp->is_signed = true;
	} else if (TOK_IS(t, "long")) {
		sp->longs++;
	} else if (TOK_IS(t, "char")) {
		sp->word = WORD_CHAR;
	} else if (TOK_IS(t, "short")) {
		sp->word = WORD_SHORT;
	} else if (TOK_IS(t, "int")) {
		if (sp->word == WORD_NONE)
			sp->word = WORD_INT;
	} else if (TOK_IS(t, "float")) {
		sp->word = WORD_FLOAT;
	} else if (TOK_IS(t, "double")) {
		sp->word = WORD_DOUBLE;
	} else if (TOK_IS(t, "_Bool")) {
		sp->word = WORD_BOOL;
	} else if (TOK_IS(t, "void")) {
		sp->word = WORD_VOID;
	} else if (TOK_IS(t, "__int128")) {
		sp->word = WORD_INT128;
	} else {
		return false;
	}
	return true;
}

/*
 * The type "struct x", "union x" or "enum x" at v[i], v[i + 1] of type
 * tokens v[0..n) into out, in header h's view; false when it is not the
 * type's only name.
 */
static bool
tag_type(struct api_ctx *c, unsigned h, const struct api_tok *v, size_t n, size_t i,
	 struct specifiers *sp, struct api_type *out)
{
	const struct api_tok *t = &v[i];
	char tag[256];
	size_t taglen;
	struct api_ref r;
	bool undecided = false;
	const struct ud_api_layout *l;
	struct ud_api_sym *s;

	if (i + 1 >= n || !api_tok_ident(&v[i + 1]) || v[i + 1].n > 200 || sp->named)
		return false;
	/* "%.*s %.*s" by hand: every member of a record type comes here (t: struct, union, enum) */
	assert(t->n <= 6);
	memcpy(tag, t->p, t->n);
	tag[t->n] = ' ';
	memcpy(tag + t->n + 1, v[i + 1].p, v[i + 1].n);
	taglen = t->n + 1 + v[i + 1].n;
	tag[taglen] = '\0';
	sp->named = true;
	free(out->spelled);
	out->spelled = ud_xstrndup(tag, taglen);
	if (!api_lookup(c, h, API_NS_TAG, tag, taglen, true, &r, &undecided) &&
	    !renamed_tag(c, h, t, &v[i + 1], &r)) {
		/* libc's, or an incomplete type (a pointer to it is a pointer) */
		out->record = true;
		out->known = libc_record(c, h, tag, out);
		return true;
	}
	s = api_sym(c, r);
	out->record = s->kind != UD_API_ENUM;
	if (sp->pointer)
		return true;
	l = api_layout_sym(c, r);
	out->known = l != NULL;
	out->record = s->kind != UD_API_ENUM;
	if (l != NULL) {
		out->size = l->size;
		out->align = l->align;
		if (s->kind == UD_API_ENUM) {
			out->integer = true;
			out->is_unsigned = c->hd[r.h].st[r.i].enum_unsigned;
			out->bits = (unsigned)l->size * 8;
			out->rank = out->size > 4      ? (out->is_unsigned ? API_ULLONG : API_LLONG)
				    : out->is_unsigned ? API_UINT
						       : API_INT;
		}
	}
	return true;
}

/* Type name t, a typedef or libc's, into out, in header h's view; false when it is neither. */
static bool
named_type(struct api_ctx *c, unsigned h, const struct api_tok *t, struct specifiers *sp,
	   struct api_type *out)
{
	struct api_ref r;
	bool undecided = false, found;
	size_t k;

	if (sp->named || sp->word != WORD_NONE || sp->longs > 0 || sp->is_unsigned || sp->is_signed)
		return false; /* a second name: not a type we read */
	sp->named = true;
	/* not in h's view under its name: under a macro's that expands to it, else anywhere */
	found = api_lookup(c, h, API_NS_ORDINARY, t->p, t->n, false, &r, &undecided) ||
		renamed_typedef(c, h, t, &r) ||
		api_lookup(c, h, API_NS_ORDINARY, t->p, t->n, true, &r, &undecided);
	if (found && api_sym(c, r)->kind == UD_API_TYPEDEF) {
		struct api_type td;
		bool known;

		memset(&td, 0, sizeof(td));
		known = api_typedef_type(c, r, &td);
		if (c->hd[r.h].st[r.i].view_dependent ||
		    api_defined_often(c, API_NS_ORDINARY, t->p, t->n))
			c->view_types++;
		if (c->hd[r.h].st[r.i].view_dependent && r.h != h &&
		    !c->hd[r.h].st[r.i].type_busy) {
			/* its typedef names may be others here: read again in this view */
			char *why = NULL;

			api_type_free(&td);
			memset(&td, 0, sizeof(td));
			typedef_in_view(c, r, h, &td, &why);
			free(why);
			known = td.known;
		}
		if (!known) {
			/* a pointer to it is still a pointer (a function type) */
			free(td.spelled);
			free(out->spelled);
			out->spelled = ud_xstrndup(t->p, t->n);
			out->known = false;
			sp->base_unknown = true;
			return true;
		}
		free(out->spelled);
		*out = td;
		return true;
	}
	for (k = 0; k < ARRAY_SIZE(libc_types); k++)
		if (api_tok_is(t, libc_types[k].name)) {
			api_base_type(out, c->abi, libc_types[k].base, libc_types[k].is_unsigned,
				      libc_types[k].spelled);
			return true;
		}
	return false;
}

/* The type C's keywords read into sp spell, into out; false when they spell none. */
static bool
keyword_type(const struct ud_abi *abi, const struct specifiers *sp, struct api_type *out)
{
	enum base_word word = sp->word;
	int longs = sp->longs;
	bool is_unsigned = sp->is_unsigned, is_signed = sp->is_signed;
	char spelled[64];

	if (word == WORD_VOID && !sp->pointer)
		return false;
	if (word == WORD_FLOAT)
		api_base_type(out, abi, UD_ABI_FLOAT, false, "float");
	else if (word == WORD_DOUBLE)
		api_base_type(out, abi, longs > 0 ? UD_ABI_LDOUBLE : UD_ABI_DOUBLE, false,
			      longs > 0 ? "long double" : "double");
	else if (word == WORD_BOOL)
		api_base_type(out, abi, UD_ABI_BOOL, true, "_Bool");
	else if (word == WORD_VOID)
		api_base_type(out, abi, UD_ABI_CHAR, false, "void");
	else {
		enum ud_abi_base b = word == WORD_CHAR	   ? UD_ABI_CHAR
				     : word == WORD_SHORT  ? UD_ABI_SHORT
				     : word == WORD_INT128 ? UD_ABI_INT128
				     : longs >= 2	   ? UD_ABI_LLONG
				     : longs == 1	   ? UD_ABI_LONG
							   : UD_ABI_INT;
		bool u = is_unsigned || (word == WORD_CHAR && !is_signed && abi->char_unsigned);

		if (word == WORD_NONE && longs == 0 && !is_unsigned && !is_signed)
			return false; /* nothing said what it is */
		const char *sign = is_unsigned			    ? "unsigned "
				   : is_signed && word == WORD_CHAR ? "signed "
								    : "";
		const char *base = b == UD_ABI_CHAR	? "char"
				   : b == UD_ABI_SHORT	? "short"
				   : b == UD_ABI_INT128 ? "__int128"
				   : b == UD_ABI_LLONG	? "long long"
				   : b == UD_ABI_LONG	? "long"
							: "int";
		size_t ns = strlen(sign);

		/* by hand: snprintf's format parsing cost more than the type (every int member) */
		memcpy(spelled, sign, ns);
		memcpy(spelled + ns, base, strlen(base) + 1);
		api_base_type(out, abi, b, u, spelled);
	}
	return true;
}

/* Whether t is a qualifier or an annotation, which says nothing of a layout. */
static bool
ignored_word(const struct api_tok *t)
{
	static const struct {
		const char *w;
		size_t n;
	} words[] = {
#define W(w) {w, sizeof(w) - 1}
		W("__extension__"), W("const"),	      W("volatile"),	 W("__const"),
		W("__volatile__"),  W("__volatile"),  W("restrict"),	 W("__restrict"),
		W("__restrict__"),  W("register"),    W("static"),	 W("extern"),
		W("inline"),	    W("__inline__"),  W("__inline"),	 W("__user"),
		W("__force"),	    W("__iomem"),     W("__kernel"),	 W("__rcu"),
		W("__bitwise"),	    W("__bitwise__"), W("__must_check"),
#undef W
	};
	size_t k;

	/* the lengths first: asked of every token of every member's type */
	for (k = 0; k < ARRAY_SIZE(words); k++)
		if (t->n == words[k].n && memcmp(t->p, words[k].w, t->n) == 0)
			return true;
	return false;
}

/*
 * The type tokens v[0..n) name (after expansion), in header h's view.
 * False (out->known false) when a part of it is not known.
 */
static bool
type_of_tokens(struct api_ctx *c, unsigned h, const struct api_tok *v, size_t n,
	       struct api_type *out)
{
	const struct ud_abi *abi = c->abi;
	struct api_attrs at = {0, false};
	struct specifiers sp = {WORD_NONE, 0, false, false, false, false, false};
	size_t i, k;

	memset(out, 0, sizeof(*out));
	/* a pointer needs no layout of what it points to (a record may point to itself) */
	for (i = 0; i < n && !sp.pointer; i++) {
		if (TOK_IS(&v[i], "__attribute__") || TOK_IS(&v[i], "__attribute"))
			i = i + 1 < n ? api_match(v, i + 1, n) : n;
		else if (TOK_IS(&v[i], "*"))
			sp.pointer = true;
	}
	for (i = 0; i < n; i++) {
		const struct api_tok *t = &v[i];

		if (ignored_word(t))
			continue;
		if (TOK_IS(t, "__attribute__") || TOK_IS(t, "__attribute")) {
			if (i + 2 < n && TOK_IS(&v[i + 1], "(") && TOK_IS(&v[i + 2], "(")) {
				size_t close = api_match(v, i + 2, n);

				if (!attr_items(c, h, v, i + 3, close, &at))
					return false;
			}
			i = i + 1 < n ? api_match(v, i + 1, n) : n;
			continue;
		}
		if (TOK_IS(t, "*")) {
			sp.pointer = true;
			continue;
		}
		if (TOK_IS(t, "(")) {
			/* a function pointer "(*)(...)", or a function type */
			size_t close = api_match(v, i, n);

			for (k = i; k < close; k++)
				if (TOK_IS(&v[k], "*"))
					sp.pointer = true;
			if (!sp.pointer)
				return false;
			i = n; /* its parameters are not the member's layout */
			continue;
		}
		if (TOK_IS(t, "{") || TOK_IS(t, "["))
			return false;
		if (specifier_word(t, &sp))
			continue;
		if (TOK_IS(t, "struct") || TOK_IS(t, "union") || TOK_IS(t, "enum")) {
			if (!tag_type(c, h, v, n, i, &sp, out))
				return false;
			i++; /* the tag's name */
		} else if (!api_tok_ident(t) || !named_type(c, h, t, &sp, out)) {
			return false;
		}
	}
	if (!sp.named && !keyword_type(abi, &sp, out))
		return false;
	if (sp.base_unknown && !sp.pointer)
		return false;
	if (sp.pointer) {
		char *spelled = ud_xstrcat3(out->spelled != NULL ? out->spelled : "?", " ", "*");

		free(out->spelled);
		out->spelled = spelled;
		out->known = true;
		out->pointer = true;
		out->record = false;
		out->integer = false;
		out->size = abi->t[UD_ABI_PTR].size;
		out->align = abi->t[UD_ABI_PTR].align;
	}
	if (at.aligned > out->align)
		out->align = at.aligned;
	if (at.packed)
		out->align = 1;
	return out->known;
}

/* Whether tokens v[0..n) name a macro in header h's view: a type to expand before reading it. */
static bool
names_macro(struct api_ctx *c, unsigned h, const struct api_tok *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct api_ref r;
		bool undecided;

		if (api_tok_ident(&v[i]) &&
		    api_lookup(c, h, API_NS_MACRO, v[i].p, v[i].n, true, &r, &undecided))
			return true;
	}
	return false;
}

/*
 * The tokens of text into v[0..cap) as api_tokenize reads them, when text
 * holds only words, blanks and '*' ("__u32", "unsigned long", "struct
 * foo *": most types): no allocation for them.  False when it holds more
 * or they do not fit.
 */
static bool
simple_tokens(const char *text, struct api_tok *v, size_t cap, size_t *n)
{
	const char *p = text;

	*n = 0;
	while (*p != '\0') {
		const char *b = p;

		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (ud_is_ident((unsigned char)*p)) {
			/* a word (or a number: the same run of bytes here) */
			while (ud_is_ident((unsigned char)*p))
				p++;
		} else if (*p == '*') {
			p++;
		} else {
			return false;
		}
		if (*n == cap)
			return false;
		memset(&v[*n], 0, sizeof(v[*n]));
		v[*n].p = b;
		v[*n].n = (size_t)(p - b);
		v[*n].line = 1;
		v[*n].bol = *n == 0;
		(*n)++;
	}
	return true;
}

/*
 * api_type_of_text's answers, by header and text: most members' types are
 * a few names ("__u32", "unsigned int") read again for every member.
 *
 * An answer is kept only when a later call must give it again, which is
 * when it was read (1) from words, blanks and '*' naming no macro: no
 * expansion, no attribute, no bound to evaluate, nothing that depends on
 * how deep the caller is; (2) with look-ups kept (outside a condition's
 * evaluation, not as the header alone): each name's look-up is the same
 * later (api_lookup keeps it; names it cannot find are tags, macros or
 * typedefs, which a resolution never adds); (3) with no cycle broken and
 * no libc record laid out meanwhile (c->broken unchanged): the typedefs'
 * types and the records' layouts it read are then kept in their symbols,
 * the same later.  A kept answer is given only under (2) as well.
 */
struct memo_entry {
	unsigned h;
	bool ok;
	struct api_type t;	 /* t.spelled in the arena */
	struct memo_entry *next; /* the same text's answer in another header */
};

/* text -> its answers, one per header (in the arena; the map's keys too) */
struct api_typememo {
	struct ud_map by_text;
};

static const struct memo_entry *
memo_find(const struct api_ctx *c, unsigned h, const char *text, size_t hash)
{
	const struct memo_entry *e;

	if (c->types == NULL)
		return NULL;
	for (e = ud_map_get_hashed(&c->types->by_text, text, hash); e != NULL; e = e->next)
		if (e->h == h)
			return e;
	return NULL;
}

static void
memo_put(struct api_ctx *c, unsigned h, const char *text, size_t hash, bool ok,
	 const struct api_type *t)
{
	struct memo_entry *e;

	if (c->types == NULL) {
		c->types = ud_arena_alloc(&c->arena, sizeof(*c->types));
		memset(c->types, 0, sizeof(*c->types));
		c->types->by_text.keys = &c->arena;
		ud_map_reserve(&c->types->by_text, 512);
	}
	e = ud_arena_alloc(&c->arena, sizeof(*e));
	e->h = h;
	e->ok = ok;
	e->t = *t;
	e->t.spelled = t->spelled != NULL
			       ? ud_arena_strndup(&c->arena, t->spelled, strlen(t->spelled))
			       : NULL;
	e->next = ud_map_get_hashed(&c->types->by_text, text, hash);
	ud_map_put_hashed(&c->types->by_text, text, hash, e);
}

void
api_type_memo_free(struct api_ctx *c)
{
	if (c->types != NULL)
		ud_map_free(&c->types->by_text, NULL);
	c->types = NULL;
}

bool
api_type_of_text(struct api_ctx *c, unsigned h, const char *text, struct api_type *out)
{
	char *x = NULL;
	struct api_toks t = {NULL, 0, 0};
	struct api_tok small[16];
	const struct api_tok *v = small;
	size_t n, hash = 0;
	unsigned long broken = c->broken;
	bool ok, keep;

	memset(out, 0, sizeof(*out));
	keep = simple_tokens(text, small, ARRAY_SIZE(small), &n);
	if (!keep) {
		api_tokenize(text, strlen(text), &t);
		v = t.v;
		n = t.n;
	}
	keep = keep && c->cur_h == UINT32_MAX && !c->alone;
	if (keep) {
		const struct memo_entry *e = memo_find(c, h, text, hash = ud_map_hash(text));

		if (e != NULL) {
			api_type_copy(out, &e->t);
			return e->ok;
		}
	}
	/* most type names hold no macro ("__u32", "struct foo"): read them as they are */
	if (names_macro(c, h, v, n)) {
		keep = false;
		free(t.v);
		t.v = NULL;
		t.n = t.alloc = 0;
		if ((x = api_expand_text(c, h, text)) == NULL)
			return false;
		api_tokenize(x, strlen(x), &t);
		v = t.v;
		n = t.n;
	}
	ok = type_of_tokens(c, h, v, n, out);
	free(t.v);
	free(x);
	if (!ok)
		out->known = false;
	if (keep && c->broken == broken)
		memo_put(c, h, text, hash, ok, out);
	return ok;
}

/* The attributes written after an inline body's '}' (in the member's type text). */
bool
api_body_attrs(struct api_ctx *c, unsigned h, const char *type, struct api_attrs *at)
{
	const char *close = strrchr(type, '}');

	return close == NULL || api_attrs_of_text(c, h, close + 1, at);
}

/*
 * Whether text is a decimal literal alone, without suffix, below 10^9
 * ("16", "0"; not "010"): its value in *n, an int whatever the ABI.
 */
static bool
small_decimal(const char *text, uint64_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; ud_is_digit((unsigned char)text[i]); i++)
		*n = *n * 10 + (uint64_t)(text[i] - '0');
	return text[i] == '\0' && i > 0 && i <= 9 && (text[0] != '0' || i == 1);
}

/* The element count of array text "[A][B]" (1 when NULL); *flexible: "[]" or "[0]". */
static bool
array_count(struct api_ctx *c, unsigned h, const char *array, uint64_t *count, bool *flexible)
{
	const char *p = array;

	*count = 1;
	*flexible = false;
	if (array == NULL)
		return true;
	while (*p == '[') {
		const char *e = strchr(p, ']');
		char *x;
		struct api_val v;
		uint64_t n;

		if (e == NULL)
			return false;
		x = ud_xstrndup(p + 1, (size_t)(e - p - 1));
		if (x[strspn(x, " ")] == '\0') {
			*count = 0;
			*flexible = true;
		} else if (small_decimal(x, &n) && c->depth <= API_MAX_DEPTH) {
			/* "16": the int api_eval_text makes of it, without expanding it */
			if (n == 0)
				*flexible = true;
			*count *= n;
		} else {
			v = api_eval_text(c, h, x);
			if (!v.known || api_val_signed(&v, c->abi) < 0 || v.u > (1ull << 40)) {
				free(x);
				return false;
			}
			if (v.u == 0)
				*flexible = true;
			*count *= v.u;
		}
		free(x);
		p = e + 1;
		while (*p == ' ')
			p++;
	}
	return true;
}

/* Whether m's type is a pointer to its inline body ("struct { ... } *p"). */
bool
api_inline_pointer(const struct ud_api_member *m)
{
	const char *close = strrchr(m->type, '}');

	return (m->sub_kind == UD_API_STRUCT || m->sub_kind == UD_API_UNION) && close != NULL &&
	       strchr(close, '*') != NULL;
}

/* A member's type (its array included), in header h's view. */
bool
api_member_type(struct api_ctx *c, unsigned h, const struct ud_api_member *m, unsigned pack,
		struct api_type *out, bool *flexible, char **why)
{
	uint64_t count;

	memset(out, 0, sizeof(*out));
	*flexible = false;
	if (api_inline_pointer(m)) {
		/* "struct tag { ... } *p": a pointer, whatever the body */
		const char *open = strchr(m->type, '{');
		char *tag = ud_xstrndup(m->type, (size_t)(open - m->type));
		char *sp;

		while (tag[0] != '\0' && tag[strlen(tag) - 1] == ' ')
			tag[strlen(tag) - 1] = '\0';
		sp = ud_xasprintf("%s *", tag);
		api_base_type(out, c->abi, UD_ABI_PTR, false, sp);
		free(sp);
		free(tag);
	} else if (m->sub_kind == UD_API_STRUCT || m->sub_kind == UD_API_UNION) {
		struct api_attrs at = {0, false};
		struct ud_api_layout l;
		const char *open = strchr(m->type, '{');

		memset(&l, 0, sizeof(l));
		if (!api_body_attrs(c, h, m->type, &at) ||
		    !api_lay_out(c, h, m->sub_kind, m->sub, m->nsub, &at, pack, 0, &l, why))
			return false;
		out->known = true;
		out->record = true;
		out->size = l.size;
		out->align = l.align;
		api_layout_free_fields(&l);
		/* "struct tag { ... }" is named by its tag */
		out->spelled = open != NULL ? ud_xstrndup(m->type, (size_t)(open - m->type))
					    : ud_xstrdup(m->type);
		while (out->spelled[0] != '\0' && out->spelled[strlen(out->spelled) - 1] == ' ')
			out->spelled[strlen(out->spelled) - 1] = '\0';
	} else if (m->sub_kind == UD_API_ENUM) {
		api_base_type(out, c->abi, UD_ABI_INT, false, "enum");
	} else if (!api_type_of_text(c, h, m->type, out)) {
		if (why != NULL && *why == NULL)
			*why = ud_xasprintf("type '%s' not known", m->type);
		return false;
	}
	if (m->array != NULL) {
		char *sp;

		if (!array_count(c, h, m->array, &count, flexible)) {
			if (why != NULL && *why == NULL)
				*why = ud_xasprintf("bound %s not known", m->array);
			return false;
		}
		/* [0] and [] are one flexible array */
		sp = ud_xstrcat3(out->spelled != NULL ? out->spelled : "?", " ",
				 *flexible && count == 0 ? "[]"
				 : m->dims != NULL	 ? m->dims
							 : m->array);
		free(out->spelled);
		out->spelled = sp;
		out->size *= count;
		out->array = true; /* integer and is_unsigned say what its elements are */
		out->pointer = false;
	}
	return out->known;
}
