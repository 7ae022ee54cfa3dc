// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Layouts of the API model's records for a target ABI (api-internal.h):
 * the size and alignment of every struct, union, enum and typedef, and
 * the offset of every member, as GCC lays them out for that ABI.
 *
 * Records are laid out member by member, each member's type read by
 * api-type.c: natural alignment or what packed and aligned(N) make of
 * it, #pragma pack, bit-fields kept inside a unit of their type unless
 * the ABI says otherwise (unnamed ones align the record only where the
 * ABI says so), flexible arrays of size 0, anonymous and inline members
 * laid out in place, members under conditions the target decides kept or
 * dropped (a condition it does not decide is read as the header alone
 * reads it), macro calls standing for members (__struct_group) expanded
 * and read as members.  Bit-field widths are evaluated (api-eval.c).
 *
 * Each member laid out becomes a field with its access path ("u.b"; an
 * anonymous level adds nothing), its offset and size in bits: what
 * verdicts compare.  Unknown stays unknown: a layout is NULL when any
 * part of it is not known.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/hash.h"
#include "uapid/core/expr.h"
#include "uapid/util/xmalloc.h"

/* ---- records ---- */

struct fields {
	struct ud_api_field *v;
	size_t n, alloc;
};

static void
fields_free(struct fields *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].type);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static void
field_add(struct fields *f, char *path, char *type, uint64_t offset, uint64_t size, unsigned flags)
{
	f->v = ud_xgrow(f->v, &f->alloc, f->n + 1, sizeof(*f->v));
	f->v[f->n].path = path;
	f->v[f->n].type = type;
	f->v[f->n].offset = offset;
	f->v[f->n].size = size;
	f->v[f->n].flags = flags;
	f->n++;
}

/* A record being laid out. */
struct rec {
	struct api_ctx *c;
	unsigned h;
	enum ud_api_kind kind; /* UD_API_STRUCT or UD_API_UNION */
	bool packed;
	uint64_t pack;	 /* #pragma pack(N): no member aligned beyond N bytes; 0 none */
	uint64_t off;	 /* bits: where the next member of a struct goes */
	uint64_t max;	 /* bits: a union's largest member */
	uint64_t align;	 /* bytes */
	struct fields f; /* its fields, offsets from its start */
	unsigned nesting;
	char *why; /* why it cannot be laid out (the first reason) */
};

static bool __attribute__((format(printf, 2, 3))) fail(struct rec *r, const char *fmt, ...)
{
	va_list ap;
	struct ud_buf b = UD_BUF_INIT;

	if (r->why == NULL) {
		va_start(ap, fmt);
		ud_buf_vaddf(&b, fmt, ap);
		va_end(ap);
		r->why = ud_buf_detach(&b, NULL);
	}
	return false;
}

static uint64_t
round_up(uint64_t v, uint64_t to)
{
	return to <= 1 ? v : (v + to - 1) / to * to;
}

static bool place(struct rec *r, const struct ud_api_member *m, const char *prefix);

/*
 * A member read with an attribute macro of another header as its name
 * ("struct atm_trafprm rxtp __ATM_API_ALIGN", the macro in atmapi.h): the
 * same member, named by the last word of its type, the macro its
 * attributes.  False when m is not that.
 */
static bool
attribute_macro_named(struct rec *r, const struct ud_api_member *m, struct ud_api_member *out)
{
	struct api_ref ref;
	bool undecided;
	const struct ud_api_sym *s;
	const char *last;
	size_t n = strlen(m->type);

	if (!api_lookup(r->c, r->h, API_NS_MACRO, m->name, strlen(m->name), true, &ref, &undecided))
		return false;
	s = api_sym(r->c, ref);
	if (s->params != NULL ||
	    !(s->text[0] == '\0' || strncmp(s->text, "__attribute__", 13) == 0))
		return false;
	while (n > 0 && m->type[n - 1] == ' ')
		n--;
	for (last = m->type + n; last > m->type && ud_is_ident((unsigned char)last[-1]); last--)
		;
	if (last == m->type + n || last == m->type || strchr(m->type, '{') != NULL)
		return false;
	*out = *m;
	out->name = ud_xstrndup(last, (size_t)(m->type + n - last));
	out->type = ud_xstrndup(m->type, (size_t)(last - m->type));
	out->attrs =
		m->attrs != NULL ? ud_xasprintf("%s %s", m->name, m->attrs) : ud_xstrdup(m->name);
	return true;
}

/* The members a macro call stands for ("__struct_group(...)"), laid out in place. */
static bool
place_expansion(struct rec *r, const struct ud_api_member *m, const char *prefix)
{
	struct api_ctx *c = r->c;
	unsigned cur_h = c->cur_h, cur_line = c->cur_line;
	const char *cur_cond = c->cur_cond;
	char *x;
	struct ud_api_member *sub = NULL;
	size_t nsub = 0, i;
	struct ud_strarena strs = {NULL, NULL, NULL, 0, 0}; /* sub's strings */
	bool ok;

	/*
	 * expanded where it stands: sonet.h defines __HANDLE_ITEM inside the
	 * struct, before __SONET_ITEMS, and #undefs it after
	 */
	if (m->line != 0) {
		c->cur_h = r->h;
		c->cur_line = m->line;
		c->cur_cond = NULL;
	}
	x = api_expand_text(c, r->h, m->type);
	c->cur_h = cur_h;
	c->cur_line = cur_line;
	c->cur_cond = cur_cond;
	ok = x != NULL;

	if (ok)
		api_members_from_text(x, &strs, &sub, &nsub);
	for (i = 0; ok && i < nsub; i++)
		ok = !sub[i].expands && place(r, &sub[i], prefix);
	if (nsub == 0)
		ok = false;
	api_members_free(sub, nsub);
	ud_strarena_free(&strs);
	free(x);
	return ok;
}

/* The alignment abi gives an integer of size bytes (0: none of that size). */
static uint64_t
int_align(const struct ud_abi *abi, uint64_t size)
{
	static const enum ud_abi_base ints[] = {UD_ABI_CHAR, UD_ABI_SHORT, UD_ABI_INT, UD_ABI_LONG,
						UD_ABI_LLONG};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ints); i++)
		if (abi->t[ints[i]].size == size)
			return abi->t[ints[i]].align;
	return 0;
}

/* Places bit-field m of type t and attributes ma in record r, its field named under prefix. */
static bool
place_bitfield(struct rec *r, const struct ud_api_member *m, const char *prefix,
	       const struct api_type *t, const struct api_attrs *ma)
{
	const struct ud_abi *abi = r->c->abi;
	struct api_val w = api_eval_text(r->c, r->h, m->width);
	uint64_t unit = (r->pack != 0 && r->pack < t->align ? r->pack : t->align) * 8;
	bool tight = r->packed || ma->packed || abi->bitfields_unaligned;
	uint64_t at, bits, span = 1, mode_align = 0;
	unsigned flags;

	if (!w.known || w.u > t->size * 8 || !t->integer || t->array)
		return fail(r, "bit-field %s%s: width '%s' not known", prefix, m->name, m->width);
	bits = w.u;
	if (bits == 0) {
		if (r->kind == UD_API_STRUCT)
			r->off = round_up(r->off, unit);
		if (abi->unnamed_bitfields_align && t->align > r->align)
			r->align = t->align;
		return true;
	}
	/*
	 * GCC: a bit-field may not span more units of its type's alignment
	 * than its type has (excess_unit_span): one, except where the type is
	 * less aligned than its size (i386's long long: two 4-byte units).
	 */
	if (r->pack == 0 || r->pack >= t->align)
		span = t->size * 8 / unit;
	if (span == 0)
		span = 1;
	/*
	 * Where bit-fields are unaligned (m68k), GCC lays one out as an
	 * ordinary member when its width is an integer's (16, 32, 64) and its
	 * offset is that integer's alignment: it aligns the record (layout_decl).
	 */
	if (tight && !r->packed && !ma->packed && r->pack == 0 &&
	    (bits == 16 || bits == 32 || bits == 64))
		mode_align = int_align(abi, bits / 8);
	if (mode_align > 1 && (r->kind == UD_API_UNION || r->off % (mode_align * 8) == 0) &&
	    mode_align > r->align)
		r->align = mode_align;
	if (r->kind == UD_API_UNION)
		at = 0;
	else if (!tight && (r->off % unit + bits + unit - 1) / unit > span)
		at = round_up(r->off, unit);
	else
		at = r->off;
	if (r->kind == UD_API_STRUCT)
		r->off = at + bits;
	else if (round_up(bits, tight ? 8 : unit) > r->max)
		r->max = round_up(bits, tight ? 8 : unit);
	if (!tight && (m->name[0] != '\0' || abi->unnamed_bitfields_align) && unit / 8 > r->align)
		r->align = unit / 8;
	if (ma->aligned > r->align)
		r->align = ma->aligned;
	if (m->name[0] != '\0') {
		flags = UD_API_FIELD_BITFIELD | UD_API_FIELD_INTEGER |
			(t->is_unsigned ? UD_API_FIELD_UNSIGNED : 0) |
			(api_placeholder(m->name) ? UD_API_FIELD_PLACEHOLDER : 0);
		field_add(&r->f, ud_xstrcat3(prefix, m->name, ""),
			  ud_xasprintf("%s : %llu", t->spelled, (unsigned long long)bits), at, bits,
			  flags);
	}
	return true;
}

/* Adds to r the fields of sub, an inline body placed at bit at, and frees sub's. */
static void
take_fields(struct rec *r, struct rec *sub, uint64_t at)
{
	size_t i;

	for (i = 0; i < sub->f.n; i++) {
		field_add(&r->f, sub->f.v[i].path, sub->f.v[i].type, at + sub->f.v[i].offset,
			  sub->f.v[i].size, sub->f.v[i].flags);
		sub->f.v[i].path = sub->f.v[i].type = NULL;
	}
	fields_free(&sub->f);
}

/*
 * Member m, an inline body ("struct { ... } u;") and not a bit-field,
 * placed in record r in one pass: its members laid out once, under their
 * path, giving both its size and its fields.  (api_member_type lays the
 * body out to learn its size, then place would lay it out again for its
 * fields: the same calls in the same order, every answer the second time
 * the first one's, as each is kept in its symbol or its look-up.)
 *
 * False, r untouched, when the pass fails: the caller then takes the two
 * passes, whose first says why in its own words (no prefix), nested as
 * deep as that pass counts.  Else *placed is the answer.
 */
static bool
place_body(struct rec *r, const struct ud_api_member *m, const char *prefix, bool *placed)
{
	struct api_ctx *c = r->c;
	struct rec sub;
	struct api_attrs ba = {0, false}, ma = {0, false};
	const char *open = strchr(m->type, '{');
	char *pre, *spelled;
	uint64_t at, malign, size, align;
	unsigned flags = 0;
	size_t i, n;
	bool ok;

	if (r->nesting + 1 >= 32 || !api_body_attrs(c, r->h, m->type, &ba))
		return false;
	memset(&sub, 0, sizeof(sub));
	sub.c = c;
	sub.h = r->h;
	sub.kind = m->sub_kind;
	sub.nesting = r->nesting + 1;
	sub.packed = ba.packed;
	sub.pack = r->pack;
	sub.align = 1;
	pre = m->name[0] != '\0' ? ud_xstrcat3(prefix, m->name, ".") : ud_xstrdup(prefix);
	for (ok = true, i = 0; ok && i < m->nsub; i++)
		ok = place(&sub, &m->sub[i], pre);
	free(pre);
	free(sub.why);
	if (!ok) {
		fields_free(&sub.f);
		return false;
	}
	/* its size and alignment as api_lay_out gives them, the attributes after '}' its own */
	align = ba.aligned > sub.align ? ba.aligned : sub.align;
	size = round_up(sub.kind == UD_API_STRUCT ? sub.off : sub.max, align * 8) / 8;
	if (m->attrs != NULL && !api_attrs_of_text(c, r->h, m->attrs, &ma)) {
		fields_free(&sub.f);
		*placed = fail(r, "member %s%s: %s", prefix, m->name[0] ? m->name : "(anonymous)",
			       "attributes not known");
		return true;
	}
	malign = r->packed || ma.packed ? 1 : align;
	if (ma.aligned > malign)
		malign = ma.aligned;
	if (r->pack != 0 && malign > r->pack)
		malign = r->pack;
	at = r->kind == UD_API_STRUCT ? round_up(r->off, malign * 8) : 0;
	if (r->kind == UD_API_STRUCT)
		r->off = at + size * 8;
	else if (size * 8 > r->max)
		r->max = size * 8;
	if (malign > r->align)
		r->align = malign;
	if (m->name[0] != '\0') {
		if (api_placeholder(m->name))
			flags |= UD_API_FIELD_PLACEHOLDER;
		/* "struct tag { ... }" is named by its tag, as api_member_type spells it */
		n = open != NULL ? (size_t)(open - m->type) : strlen(m->type);
		while (n > 0 && m->type[n - 1] == ' ')
			n--;
		spelled = ud_xstrndup(m->type, n);
		field_add(&r->f, ud_xstrcat3(prefix, m->name, ""), spelled, at, size * 8,
			  flags | UD_API_FIELD_AGGREGATE);
	}
	take_fields(r, &sub, at);
	*placed = true;
	return true;
}

/* Places member m in record r, its fields named under prefix ("" or "a."). */
static bool
place(struct rec *r, const struct ud_api_member *m, const char *prefix)
{
	struct api_ctx *c = r->c;
	struct api_type t;
	struct api_attrs ma = {0, false};
	bool flexible = false, ok = true;
	uint64_t at, malign;
	unsigned flags = 0;

	if (m->cond != NULL && m->cond[0] != '\0') {
		int truth = api_cond_eval(c, r->h, m->cond);

		/* what the target leaves open: as the header alone is compiled */
		if (truth == UD_UNKNOWN)
			truth = api_cond_eval_alone(c, r->h, m->cond);
		if (truth == UD_FALSE)
			return true;
		if (truth != UD_TRUE)
			return fail(r,
				    "member %s%s is under '%s', which the target does not decide",
				    prefix, m->name[0] ? m->name : "(anonymous)", m->cond);
	}
	if (m->expands)
		return place_expansion(r, m, prefix) ||
		       fail(r, "members from '%s' not known", m->type);
	if (m->name[0] != '\0' && m->width == NULL) {
		struct ud_api_member named;

		/* "struct atm_trafprm rxtp __ATM_API_ALIGN": the last word was a macro */
		if (attribute_macro_named(r, m, &named)) {
			bool placed = place(r, &named, prefix);

			free(named.name);
			free(named.type);
			free(named.attrs);
			return placed;
		}
	}
	if (m->width == NULL && (m->sub_kind == UD_API_STRUCT || m->sub_kind == UD_API_UNION) &&
	    m->array == NULL && !api_inline_pointer(m) && place_body(r, m, prefix, &ok))
		return ok;
	{
		char *why = NULL;

		if (!api_member_type(c, r->h, m, (unsigned)r->pack, &t, &flexible, &why) ||
		    (m->attrs != NULL && !api_attrs_of_text(c, r->h, m->attrs, &ma))) {
			api_type_free(&t);
			fail(r, "member %s%s: %s", prefix, m->name[0] ? m->name : "(anonymous)",
			     why != NULL ? why : "attributes not known");
			free(why);
			return false;
		}
		free(why);
	}
	if (m->width != NULL) {
		/* a bit-field */
		ok = place_bitfield(r, m, prefix, &t, &ma);
		api_type_free(&t);
		return ok;
	}
	malign = r->packed || ma.packed ? 1 : t.align;
	if (ma.aligned > malign)
		malign = ma.aligned;
	if (r->pack != 0 && malign > r->pack)
		malign = r->pack;
	at = r->kind == UD_API_STRUCT ? round_up(r->off, malign * 8) : 0;
	if (r->kind == UD_API_STRUCT)
		r->off = at + t.size * 8;
	else if (t.size * 8 > r->max)
		r->max = t.size * 8;
	if (malign > r->align)
		r->align = malign;
	if (t.integer)
		flags |= UD_API_FIELD_INTEGER | (t.is_unsigned ? UD_API_FIELD_UNSIGNED : 0);
	if (t.array)
		flags |= UD_API_FIELD_ARRAY;
	if (flexible)
		flags |= UD_API_FIELD_FLEXIBLE;
	if (m->name[0] != '\0' && api_placeholder(m->name))
		flags |= UD_API_FIELD_PLACEHOLDER;
	if ((m->sub_kind == UD_API_STRUCT || m->sub_kind == UD_API_UNION) && m->array == NULL &&
	    !api_inline_pointer(m)) {
		/* an inline body: its members are the record's, under its name if it has one */
		struct rec sub;
		char *pre =
			m->name[0] != '\0' ? ud_xstrcat3(prefix, m->name, ".") : ud_xstrdup(prefix);
		struct api_attrs ba = {0, false};
		size_t i;

		if (m->name[0] != '\0') {
			/* the field takes the type's spelling (one copy fewer per member) */
			field_add(&r->f, ud_xstrcat3(prefix, m->name, ""), t.spelled, at,
				  t.size * 8, flags | UD_API_FIELD_AGGREGATE);
			t.spelled = NULL;
		}
		memset(&sub, 0, sizeof(sub));
		sub.c = c;
		sub.h = r->h;
		sub.kind = m->sub_kind;
		sub.nesting = r->nesting + 1;
		ok = api_body_attrs(c, r->h, m->type, &ba) && sub.nesting < 32;
		sub.packed = ba.packed;
		sub.pack = r->pack;
		sub.align = 1;
		for (i = 0; ok && i < m->nsub; i++)
			ok = place(&sub, &m->sub[i], pre);
		if (!ok)
			fail(r, "%s", sub.why != NULL ? sub.why : "nested too deep");
		free(sub.why);
		if (ok)
			take_fields(r, &sub, at);
		fields_free(&sub.f);
		free(pre);
	} else if (m->name[0] != '\0') {
		field_add(&r->f, ud_xstrcat3(prefix, m->name, ""), t.spelled, at, t.size * 8,
			  flags);
		t.spelled = NULL;
	}
	api_type_free(&t);
	return ok;
}

void
api_layout_free_fields(struct ud_api_layout *l)
{
	size_t i;

	for (i = 0; i < l->nfields; i++) {
		free(l->fields[i].path);
		free(l->fields[i].type);
	}
	free(l->fields);
	l->fields = NULL;
	l->nfields = 0;
}

/* Lays out a struct or union of members m[0..n) with attributes ra; false when not known. */
bool
api_lay_out(struct api_ctx *c, unsigned h, enum ud_api_kind kind, const struct ud_api_member *m,
	    size_t n, const struct api_attrs *ra, unsigned pack, unsigned nesting,
	    struct ud_api_layout *out, char **why)
{
	struct rec r;
	size_t i;
	bool ok = nesting < 32;
	uint64_t bits;

	memset(&r, 0, sizeof(r));
	r.c = c;
	r.h = h;
	r.kind = kind;
	r.packed = ra->packed;
	r.pack = pack;
	r.align = 1;
	r.nesting = nesting;
	for (i = 0; ok && i < n; i++)
		ok = place(&r, &m[i], "");
	if (!ok) {
		fields_free(&r.f);
		if (why != NULL && *why == NULL)
			*why = r.why != NULL ? r.why : ud_xstrdup("nested too deep");
		else
			free(r.why);
		return false;
	}
	free(r.why);
	if (ra->aligned > r.align)
		r.align = ra->aligned;
	bits = kind == UD_API_STRUCT ? r.off : r.max;
	out->align = r.align;
	out->size = round_up(bits, r.align * 8) / 8;
	/* as many as there are: the layouts of a whole version stay in memory */
	out->fields =
		r.f.n > 0 && r.f.n < r.f.alloc ? ud_xrealloc(r.f.v, r.f.n * sizeof(*r.f.v)) : r.f.v;
	out->nfields = r.f.n;
	return true;
}

/*
 * An enum's layout: an int unless a value needs more (GCC: unsigned int
 * when no constant is negative, kept in its state); packed makes it the
 * smallest that holds the values.
 */
static bool
enum_layout(struct api_ctx *c, struct api_ref r, struct ud_api_layout *out)
{
	const struct ud_api_sym *s = api_sym(c, r);
	const struct ud_abi *abi = c->abi;
	long long lo = 0;
	unsigned long long hi = 0;
	bool negative = false, packed = strstr(s->text, "packed") != NULL;
	size_t i;

	for (i = 0; i < s->nmembers; i++) {
		struct api_ref k;
		bool undecided;
		const struct ud_api_sym *e;

		if (!api_lookup(c, r.h, API_NS_ORDINARY, s->members[i].name,
				strlen(s->members[i].name), false, &k, &undecided))
			continue;
		api_eval_sym(c, k);
		e = api_sym(c, k);
		if (!e->has_value)
			continue; /* GCC's choice for it is int as long as it fits: assume it does
				   */
		if (!e->value_unsigned && e->value < 0) {
			negative = true;
			if (e->value < lo)
				lo = e->value;
		} else if ((unsigned long long)e->value > hi) {
			hi = (unsigned long long)e->value;
		}
	}
	memset(out, 0, sizeof(*out));
	if (packed) {
		out->size = (negative ? (lo >= -128 && hi <= 127) : hi <= 255)	       ? 1
			    : (negative ? (lo >= -32768 && hi <= 32767) : hi <= 65535) ? 2
										       : 4;
		out->align = out->size;
	} else if (negative ? (lo >= INT32_MIN && hi <= INT32_MAX) : hi <= UINT32_MAX) {
		out->size = abi->t[UD_ABI_INT].size;
		out->align = abi->t[UD_ABI_INT].align;
	} else {
		out->size = abi->t[UD_ABI_LLONG].size;
		out->align = abi->t[UD_ABI_LLONG].align;
	}
	c->hd[r.h].st[r.i].enum_unsigned = !negative;
	return true;
}

const struct ud_api_layout *
api_layout_sym(struct api_ctx *c, struct api_ref r)
{
	struct api_symstate *st = &c->hd[r.h].st[r.i];
	struct ud_api_sym *s = api_sym(c, r);
	struct ud_api_layout l;
	bool ok = false;

	if (st->layout_st == API_DONE)
		return s->layout;
	if (st->layout_st == API_BUSY) {
		c->broken++; /* once laid out, the record is known: an answer to keep none of */
		return NULL; /* a record that holds itself: not a C type */
	}
	st->layout_st = API_BUSY;
	memset(&l, 0, sizeof(l));
	if (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION) {
		struct api_attrs at = {0, false};
		char *x = NULL;

		/*
		 * no words after the body (most records): no attributes, as
		 * expanding "" twice says when the expansion's depth allows it
		 */
		if (s->text[0] == '\0')
			ok = c->depth <= API_MAX_DEPTH;
		else if ((x = api_expand_text(c, r.h, s->text)) != NULL) /* EPOLL_PACKED */
			ok = api_attrs_of_text(c, r.h, x, &at);
		ok = ok && api_lay_out(c, r.h, s->kind, s->members, s->nmembers, &at, s->pack, 0,
				       &l, &st->why);
		free(x);
	} else if (s->kind == UD_API_ENUM) {
		ok = enum_layout(c, r, &l);
		l.type = ud_xstrdup(s->name);
		l.integer = true;
	} else if (s->kind == UD_API_TYPEDEF) {
		struct api_type t;

		memset(&t, 0, sizeof(t));
		ok = api_typedef_type(c, r, &t);
		l.size = t.size;
		l.align = t.align;
		l.type = t.spelled;
		l.integer = t.integer;
		t.spelled = NULL;
		api_type_free(&t);
	}
	if (ok) {
		s->layout = ud_xmalloc(sizeof(*s->layout));
		*s->layout = l;
	} else {
		free(l.type);
	}
	if (!ok && s->layout_why == NULL) {
		s->layout_why = st->why != NULL ? st->why : ud_xstrdup("its type is not known");
		st->why = NULL;
	}
	st->layout_st = API_DONE;
	return s->layout;
}

const struct ud_api_field *
api_layout_field(const struct ud_api_layout *l, const char *path)
{
	size_t i;

	for (i = 0; i < l->nfields; i++)
		if (strcmp(l->fields[i].path, path) == 0)
			return &l->fields[i];
	return NULL;
}

/* Whether s starts with the word w. */
static inline bool
starts(const char *s, const char *w)
{
	while (*w != '\0' && *s == *w)
		s++, w++;
	return *w == '\0';
}

bool
api_placeholder(const char *name)
{
	const char *p;

	/*
	 * Whether one of reserved, resv, rsvd, pad, unused, spare, rsv, __res,
	 * Reserved, __align, __opaque or filler is in name: one pass, the words
	 * tried where their first two bytes are (asked of every member laid
	 * out and of every member diffed: a loop of strncmp over the list cost
	 * more).  rsvd is rsv's.
	 */
	for (p = name; *p != '\0'; p++) {
		switch (*p) {
		case 'r':
			if ((p[1] == 's' && p[2] == 'v') ||
			    (p[1] == 'e' && (starts(p, "resv") || starts(p, "reserved"))))
				return true;
			break;
		case 'p':
			if (p[1] == 'a' && p[2] == 'd')
				return true;
			break;
		case 's':
			if (p[1] == 'p' && starts(p, "spare"))
				return true;
			break;
		case 'u':
			if (p[1] == 'n' && starts(p, "unused"))
				return true;
			break;
		case '_':
			if (p[1] == '_' &&
			    (starts(p, "__res") || starts(p, "__align") || starts(p, "__opaque")))
				return true;
			break;
		case 'R':
			if (p[1] == 'e' && starts(p, "Reserved"))
				return true;
			break;
		case 'f':
			if (p[1] == 'i' && starts(p, "filler"))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}
