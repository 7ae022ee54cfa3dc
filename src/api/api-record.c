// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A struct or union in two versions (api-internal.h).
 *
 * Read for a target ABI (ud_api_resolve), a record is compared by its
 * layout: each member is identified by its access path through
 * anonymous and inline levels ("smac" inside union { struct { ... }; }),
 * not by its nesting.  A member gone is breaking; one whose offset or
 * size moved is breaking, with both (a reserved or padding member is
 * review, a trailing array made flexible is review); one retyped in the
 * same place and size is breaking, but review for an integer that only
 * changed signedness and compatible when the types are the same after
 * typedefs (__u32 -> __be32).  Members added where no offset or size
 * moves (in padding, reserved room given a name, a union member that
 * does not grow the union, fields appended inside a union's member) are
 * compatible; a record that grew at its end is review, with both sizes.
 * Attributes that change no layout are compatible.
 *
 * Not read for an ABI, or where a layout is not known, members are
 * compared as written (by name, order, type, bounds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/api/api.h"
#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

#define add api_diff_add

static bool
flexible(const char *array)
{
	return array != NULL && (strcmp(array, "[]") == 0 || strcmp(array, "[0]") == 0);
}

static char *
describe(const struct ud_api_member *m)
{
	if (m->bits >= 0)
		return ud_xasprintf("%s%s%s : %d", m->type, m->name[0] ? " " : "", m->name,
				    m->bits);
	return ud_xasprintf("%s%s%s%s", m->type, m->name[0] ? " " : "", m->name,
			    api_or_none(m->array));
}

/*
 * text with every flexible array spelled one way: "__DECLARE_FLEX_ARRAY(T,
 * n)" and "n[0]" as "T n[]" (the kernel moved from one to the other).
 */
static char *
flex_canonical(const char *text)
{
	static const char macro[] = "__DECLARE_FLEX_ARRAY(";
	struct ud_buf b = UD_BUF_INIT;
	const char *p = text;

	while (*p != '\0') {
		if (strncmp(p, macro, sizeof(macro) - 1) == 0) {
			const char *t = p + sizeof(macro) - 1, *comma = NULL, *q;
			int depth = 0;

			for (q = t; *q != '\0' && !(depth == 0 && *q == ')'); q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')')
					depth--;
				else if (*q == ',' && depth == 0)
					comma = q;
			}
			if (*q == ')' && comma != NULL) {
				const char *n = comma + 1;

				while (*n == ' ')
					n++;
				ud_buf_add(&b, t, (size_t)(comma - t));
				ud_buf_addch(&b, ' ');
				ud_buf_add(&b, n, (size_t)(q - n));
				ud_buf_addstr(&b, "[]");
				p = q + 1;
				continue;
			}
		}
		if (strncmp(p, "[0]", 3) == 0) {
			ud_buf_addstr(&b, "[]");
			p += 3;
			continue;
		}
		ud_buf_addch(&b, *p++);
	}
	return ud_buf_detach(&b, NULL);
}

/* text with __aligned_u64 (be64, le64) spelled as __u64: what an 8-byte alignment respells. */
static char *
unaligned(const char *text)
{
	static const char pre[] = "__aligned_";
	struct ud_buf b = UD_BUF_INIT;
	const char *p = text;

	while (*p != '\0') {
		if (strncmp(p, pre, sizeof(pre) - 1) == 0 &&
		    (p == text || p[-1] == ' ' || p[-1] == '{' || p[-1] == '(')) {
			ud_buf_addstr(&b, "__");
			p += sizeof(pre) - 1;
			continue;
		}
		ud_buf_addch(&b, *p++);
	}
	return ud_buf_detach(&b, NULL);
}

/*
 * A member whose spelling changed but not its layout (on this ABI): the
 * verdict and the reason's tail, or false.
 */
static bool
respelled(const struct ud_api_member *om, const struct ud_api_member *nm, enum ud_api_verdict *v,
	  const char **why)
{
	char *a, *b, *ua, *ub, *fa, *fb;
	bool aligned, flex;

	if (om->bits != nm->bits)
		return false;
	if (strcmp(om->type, nm->type) == 0 && om->dims != NULL && nm->dims != NULL &&
	    strcmp(om->dims, nm->dims) == 0) {
		*v = UD_API_COMPATIBLE;
		*why = " (the same bounds, spelled differently)";
		return true;
	}
	a = describe(om);
	b = describe(nm);
	ua = unaligned(a);
	ub = unaligned(b);
	fa = flex_canonical(ua);
	fb = flex_canonical(ub);
	aligned = strcmp(ua, ub) == 0;
	flex = !aligned && strcmp(fa, fb) == 0;
	if (aligned || flex) {
		bool both = flex && strcmp(a, ua) != 0;

		*v = UD_API_REVIEW;
		*why = aligned ? " (aligned to 8 bytes on every ABI now; i386 aligned it to 4: "
				 "layouts there may move)"
		       : both  ? " (flexible arrays respelled, and an 8-byte alignment on every "
				 "ABI now: layouts on i386 may move)"
			       : " (flexible arrays respelled: [0], [] and __DECLARE_FLEX_ARRAY "
				 "lay out the same)";
	}
	free(a);
	free(b);
	free(ua);
	free(ub);
	free(fa);
	free(fb);
	return aligned || flex;
}

static void
diff_members_text(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		  const struct ud_api_sym *n)
{
	size_t i, common = 0;
	long last_new = -1;
	bool any = false;

	/* members of the old one: removed, moved, retyped */
	for (i = 0; i < o->nmembers; i++) {
		const struct ud_api_member *om = &o->members[i];
		long j =
			om->name[0] != '\0'
				? api_find_member(n, om->name)
				: (i < n->nmembers && n->members[i].name[0] == '\0' ? (long)i : -1);

		if (j < 0) {
			const struct ud_api_member *at = i < n->nmembers ? &n->members[i] : NULL;

			if (at != NULL && api_find_member(o, at->name) < 0 &&
			    api_placeholder(om->name) && strcmp(at->type, om->type) == 0 &&
			    api_streq(at->array, om->array) && at->bits == om->bits) {
				add(d, header, o, UD_API_CHANGED, UD_API_REVIEW,
				    UD_API_RULE_RESERVED, o->line, n->line,
				    "reserved member %s renamed to %s (same type and place)",
				    om->name, at->name);
			} else {
				char *was = describe(om);

				add(d, header, o, UD_API_CHANGED, UD_API_BREAKING,
				    UD_API_RULE_MEMBER_REMOVED, o->line, n->line,
				    "member %s removed (was %s)",
				    om->name[0] ? om->name : "(anonymous)", was);
				free(was);
			}
			any = true;
			continue;
		}
		common++;
		if (j < last_new) {
			add(d, header, o, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_MEMBER_MOVED,
			    o->line, n->line, "member %s moved before %s: the layout changes",
			    om->name, n->members[last_new].name);
			any = true;
		}
		last_new = j > last_new ? j : last_new;
		{
			const struct ud_api_member *nm = &n->members[j];

			enum ud_api_verdict rv;
			enum ud_api_rule rr = UD_API_RULE_SPELLING;
			const char *why;

			if ((strcmp(nm->type, om->type) != 0 || nm->bits != om->bits ||
			     !api_streq(nm->array, om->array)) &&
			    respelled(om, nm, &rv, &why)) {
				char *a = describe(om), *b = describe(nm);

				if (strstr(why, "flexible") != NULL)
					rr = UD_API_RULE_FLEX;
				add(d, header, o, UD_API_CHANGED, rv, rr, o->line, n->line,
				    "member %s: %s -> %s%s", om->name[0] ? om->name : "(anonymous)",
				    a, b, why);
				free(a);
				free(b);
				any = true;
			} else if (strcmp(nm->type, om->type) != 0 || nm->bits != om->bits ||
				   !api_streq(nm->array, om->array)) {
				char *a = describe(om), *b = describe(nm);
				bool flex = (flexible(om->array) || flexible(nm->array)) &&
					    (size_t)j == n->nmembers - 1 && i == o->nmembers - 1 &&
					    strcmp(nm->type, om->type) == 0;
				bool pad = api_placeholder(om->name);

				add(d, header, o, UD_API_CHANGED,
				    flex || pad ? UD_API_REVIEW : UD_API_BREAKING,
				    flex  ? UD_API_RULE_FLEX
				    : pad ? UD_API_RULE_RESERVED
					  : UD_API_RULE_MEMBER_RETYPED,
				    o->line, n->line, "%s %s: %s -> %s%s",
				    flex  ? "flexible array member"
				    : pad ? "reserved member"
					  : "member",
				    om->name[0] ? om->name : "(anonymous)", a, b,
				    pad ? " (new members took its room? check the total size)"
					: "");
				free(a);
				free(b);
				any = true;
			}
		}
	}
	/* members of the new one the old did not have */
	for (i = 0; i < n->nmembers; i++) {
		const struct ud_api_member *nm = &n->members[i];
		bool at_end = true;
		size_t k;

		if (nm->name[0] == '\0' ? i < o->nmembers && o->members[i].name[0] == '\0'
					: api_find_member(o, nm->name) >= 0)
			continue;
		/* a renamed placeholder was reported above */
		if (i < o->nmembers && api_placeholder(o->members[i].name) &&
		    api_find_member(n, o->members[i].name) < 0 &&
		    strcmp(o->members[i].type, nm->type) == 0 &&
		    api_streq(o->members[i].array, nm->array) && o->members[i].bits == nm->bits)
			continue;
		for (k = i + 1; k < n->nmembers; k++)
			if (api_find_member(o, n->members[k].name) >= 0)
				at_end = false;
		/* the next member the old one had: a reserved one gives up its room */
		for (k = i + 1; k < n->nmembers && api_find_member(o, n->members[k].name) < 0; k++)
			;
		{
			char *b = describe(nm);

			if (!at_end && k < n->nmembers && api_placeholder(n->members[k].name))
				add(d, header, n, UD_API_CHANGED, UD_API_REVIEW,
				    UD_API_RULE_RESERVED, o->line, n->line,
				    "member %s takes room from reserved member %s (check the total "
				    "size)",
				    b, n->members[k].name);
			else if (at_end)
				add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_GREW,
				    o->line, n->line, "%s: %s (old binaries pass the smaller size)",
				    api_grew_reason, b);
			else
				add(d, header, n, UD_API_CHANGED, UD_API_BREAKING,
				    UD_API_RULE_MEMBER_MOVED, o->line, n->line,
				    "member %s inserted before others: their offsets move", b);
			free(b);
		}
		any = true;
	}
	if (!any && strcmp(o->text, n->text) != 0) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_TEXT, o->line,
		    n->line, "layout attributes: '%s' -> '%s'", o->text, n->text);
		any = true;
	}
	(void)common;
	if (!any)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING, o->line,
		    n->line, "spelled differently, same members");
}

/* ---- by layout ---- */

/* An offset for people: bytes, "byte:bit" inside a byte. */
static char *
where(uint64_t bits)
{
	return bits % 8 == 0 ? ud_xasprintf("%llu", (unsigned long long)(bits / 8))
			     : ud_xasprintf("%llu:%llu", (unsigned long long)(bits / 8),
					    (unsigned long long)(bits % 8));
}

static char *
how_big(const struct ud_api_field *f)
{
	return f->flags & UD_API_FIELD_BITFIELD
		       ? ud_xasprintf("%llu bits", (unsigned long long)f->size)
		       : ud_xasprintf("%llu", (unsigned long long)(f->size / 8));
}

/* The fields of l that start inside [from, to) (bits) and are not in other. */
static void
newcomers(const struct ud_api_layout *l, const struct ud_api_layout *other, uint64_t from,
	  uint64_t to, struct ud_buf *names)
{
	size_t i;

	for (i = 0; i < l->nfields; i++) {
		const struct ud_api_field *f = &l->fields[i];

		if (f->offset >= from && f->offset < to && api_layout_field(other, f->path) == NULL)
			ud_buf_addf(names, "%s%s", names->len ? ", " : "", f->path);
	}
}

/* Whether f is inside an aggregate field of l that is itself absent from other. */
static bool
under_new_aggregate(const struct ud_api_layout *l, const struct ud_api_layout *other,
		    const struct ud_api_field *f)
{
	size_t i;

	for (i = 0; i < l->nfields; i++) {
		const struct ud_api_field *a = &l->fields[i];
		size_t n = strlen(a->path);

		if ((a->flags & UD_API_FIELD_AGGREGATE) && a != f &&
		    strncmp(f->path, a->path, n) == 0 && f->path[n] == '.' &&
		    api_layout_field(other, a->path) == NULL)
			return true;
	}
	return false;
}

/* What diff_layouts' members share while it walks the old layout's fields. */
struct layouts_diff {
	struct ud_api_diff *d;
	const char *header;
	const struct ud_api_sym *o, *n;
	struct ud_buf grown; /* aggregates grown inside the room they had */
	bool moved;	     /* a member that is not reserved moved */
};

/* Reports member f of the old layout, which the new one lacks; false if its aggregate says it. */
static bool
diff_member_gone(struct layouts_diff *x, const struct ud_api_field *f)
{
	const struct ud_api_layout *ol = x->o->layout, *nl = x->n->layout;
	bool pad = (f->flags & UD_API_FIELD_PLACEHOLDER) != 0;
	struct ud_buf room = UD_BUF_INIT;
	char *a, *sa;

	if (under_new_aggregate(ol, nl, f))
		return false; /* reported with its aggregate */
	newcomers(nl, ol, f->offset, f->offset + (f->size > 0 ? f->size : 1), &room);
	a = where(f->offset);
	sa = how_big(f);
	if (pad)
		add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_RESERVED,
		    x->o->line, x->n->line, "reserved member %s (%s, at %s, size %s) is gone%s%s%s",
		    f->path, f->type, a, sa, room.len ? "; its room now holds " : "",
		    ud_buf_str(&room), room.len ? "" : " (check what took its room)");
	else
		add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_BREAKING,
		    UD_API_RULE_MEMBER_REMOVED, x->o->line, x->n->line,
		    "member %s removed (was %s, at %s, size %s)%s%s", f->path, f->type, a, sa,
		    room.len ? "; its room now holds " : "", ud_buf_str(&room));
	free(a);
	free(sa);
	ud_buf_free(&room);
	return true;
}

/* Reports how member f of the old layout differs from g, the new one's of its name, if it does. */
static bool
diff_member_changed(struct layouts_diff *x, const struct ud_api_field *f,
		    const struct ud_api_field *g)
{
	const struct ud_api_layout *ol = x->o->layout, *nl = x->n->layout;
	bool pad = (f->flags & UD_API_FIELD_PLACEHOLDER) != 0;
	char *a, *b, *sa, *sb;

	if (f->offset != g->offset) {
		a = where(f->offset);
		b = where(g->offset);
		add(x->d, x->header, x->o, UD_API_CHANGED, pad ? UD_API_REVIEW : UD_API_BREAKING,
		    pad ? UD_API_RULE_RESERVED : UD_API_RULE_MEMBER_MOVED, x->o->line, x->n->line,
		    "%smember %s: offset %s -> %s", pad ? "reserved " : "", f->path, a, b);
		free(a);
		free(b);
		x->moved |= !pad;
		return true;
	}
	if (f->size != g->size) {
		bool last = f->offset + f->size >= ol->size * 8 && g->size > f->size &&
			    nl->size > ol->size;

		if (f->flags & UD_API_FIELD_AGGREGATE) {
			/* its members and the record's size tell what matters */
			if (g->size > f->size && nl->size == ol->size)
				ud_buf_addf(&x->grown, "%s%s", x->grown.len ? ", " : "", f->path);
			return false;
		}
		sa = how_big(f);
		sb = how_big(g);
		if ((f->flags | g->flags) & UD_API_FIELD_FLEXIBLE)
			add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_FLEX,
			    x->o->line, x->n->line,
			    "member %s: %s -> %s (size %s -> %s): a flexible array now or "
			    "before",
			    f->path, f->type, g->type, sa, sb);
		else if (pad)
			add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_REVIEW,
			    UD_API_RULE_RESERVED, x->o->line, x->n->line,
			    "reserved member %s: size %s -> %s (its room given to other "
			    "members)",
			    f->path, sa, sb);
		else if (last)
			add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_GREW,
			    x->o->line, x->n->line,
			    "%s: member %s %s -> %s, size %llu -> %llu (old binaries pass the "
			    "smaller size)",
			    api_grew_reason, f->path, f->type, g->type,
			    (unsigned long long)ol->size, (unsigned long long)nl->size);
		else {
			add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_BREAKING,
			    UD_API_RULE_MEMBER_RESIZED, x->o->line, x->n->line,
			    "member %s: %s -> %s, size %s -> %s", f->path, f->type, g->type, sa,
			    sb);
			/* shrunk: what a rebuilt program stores or indexes there no longer fits */
			if (g->size < f->size)
				x->d->v[x->d->n - 1].axis[UD_API_SOURCE] = UD_API_BREAKING;
		}
		free(sa);
		free(sb);
		return true;
	}
	if (strcmp(f->type, g->type) != 0 && (f->flags & g->flags & UD_API_FIELD_AGGREGATE)) {
		/* struct { x } -> union { x; y }: its members are compared one by one */
		add(x->d, x->header, x->o, UD_API_CHANGED, UD_API_REVIEW,
		    UD_API_RULE_MEMBER_RETYPED, x->o->line, x->n->line,
		    "member %s: %s -> %s (the same size and place; its members are compared one "
		    "by one)",
		    f->path, f->type, g->type);
		return true;
	}
	if (strcmp(f->type, g->type) != 0) {
		bool ints = (f->flags & g->flags & UD_API_FIELD_INTEGER) != 0;

		add(x->d, x->header, x->o, UD_API_CHANGED, ints ? UD_API_REVIEW : UD_API_BREAKING,
		    ints ? UD_API_RULE_SIGNEDNESS : UD_API_RULE_MEMBER_RETYPED, x->o->line,
		    x->n->line, "member %s: %s -> %s%s", f->path, f->type, g->type,
		    ints ? " (the same size and place: an integer of another signedness or "
			   "enum)"
			 : " (the same size and place)");
		return true;
	}
	return false;
}

/*
 * Members of the new layout that sit where the old one had padding (no
 * member of the old one there, one after it): the bytes are the same, but
 * a positional initialiser ({a, b, c}) now fills the new member with what
 * was meant for the next one.  Padding at the end, and room in a union,
 * take no initialiser's value.
 */
static bool
padding_named(struct layouts_diff *x)
{
	const struct ud_api_layout *ol = x->o->layout, *nl = x->n->layout;
	struct ud_buf names = UD_BUF_INIT;
	const char *before = NULL;
	size_t i, k;
	bool any = false;

	for (i = 0; i < nl->nfields; i++) {
		const struct ud_api_field *g = &nl->fields[i];
		bool overlaps = false;
		const char *next = NULL;

		if ((g->flags & UD_API_FIELD_AGGREGATE) || g->size == 0 ||
		    api_layout_field(ol, g->path) != NULL || under_new_aggregate(nl, ol, g))
			continue;
		for (k = 0; k < ol->nfields && !overlaps; k++) {
			const struct ud_api_field *f = &ol->fields[k];

			if (f->flags & UD_API_FIELD_AGGREGATE)
				continue;
			overlaps = f->offset < g->offset + g->size &&
				   g->offset < f->offset + (f->size > 0 ? f->size : 1);
			if (f->offset >= g->offset + g->size && next == NULL)
				next = f->path;
		}
		if (overlaps || next == NULL)
			continue;
		ud_buf_addf(&names, "%s%s", names.len ? ", " : "", g->path);
		before = before != NULL ? before : next;
		any = true;
	}
	if (any)
		add(x->d, x->header, x->n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_RESERVED,
		    x->o->line, x->n->line,
		    "padding named: %s, where the old layout had none of its members (before %s): "
		    "the same bytes, but positional initialisers now fill it",
		    ud_buf_str(&names), before);
	ud_buf_free(&names);
	return any;
}

static void
diff_layouts(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	     const struct ud_api_sym *n)
{
	const struct ud_api_layout *ol = o->layout, *nl = n->layout;
	struct layouts_diff x = {d, header, o, n, UD_BUF_INIT, false};
	struct ud_buf added = UD_BUF_INIT;
	bool any = false;
	size_t i;

	for (i = 0; i < ol->nfields; i++) {
		const struct ud_api_field *f = &ol->fields[i];
		const struct ud_api_field *g = api_layout_field(nl, f->path);

		if (g == NULL)
			any |= diff_member_gone(&x, f);
		else
			any |= diff_member_changed(&x, f, g);
	}
	/* what the new one has that the old did not */
	newcomers(nl, ol, 0, UINT64_MAX, &added);
	any |= padding_named(&x);
	if (nl->size > ol->size && !x.moved) {
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_GREW, o->line, n->line,
		    "%s: size %llu -> %llu%s%s (old binaries pass the smaller size)",
		    api_grew_reason, (unsigned long long)ol->size, (unsigned long long)nl->size,
		    added.len ? ", members added: " : "", ud_buf_str(&added));
		any = true;
	} else if (nl->size != ol->size) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_SIZE, o->line,
		    n->line, "size %llu -> %llu%s%s", (unsigned long long)ol->size,
		    (unsigned long long)nl->size, added.len ? ", members added: " : "",
		    ud_buf_str(&added));
		any = true;
	} else if (added.len > 0 || x.grown.len > 0) {
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
		    o->line, n->line,
		    "%s%s%s%s in room it already had: no offset or size moves (size %llu)",
		    added.len ? "members added: " : "", ud_buf_str(&added),
		    added.len && x.grown.len ? "; " : "",
		    x.grown.len ? "grew inside the union: " : "", (unsigned long long)nl->size);
		if (x.grown.len > 0)
			ud_buf_addstr(&added, ud_buf_str(&x.grown));
		any = true;
	}
	if (nl->align != ol->align) {
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_ALIGN, o->line,
		    n->line, "alignment %llu -> %llu: where it is embedded, what follows may move",
		    (unsigned long long)ol->align, (unsigned long long)nl->align);
		any = true;
	}
	if (!any) {
		if (strcmp(o->text, n->text) != 0)
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING,
			    o->line, n->line,
			    "attributes '%s' -> '%s': the layout does not change (size %llu)",
			    o->text, n->text, (unsigned long long)nl->size);
		else
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING,
			    o->line, n->line, "spelled differently, the same layout (size %llu)",
			    (unsigned long long)nl->size);
	}
	ud_buf_free(&added);
	ud_buf_free(&x.grown);
}

/*
 * An inline body's type written from its members ("union { int a; int b; }"):
 * the members a resolution dropped (another architecture's branch) are no
 * longer in it, though they are in the type as the header spells it.
 */
static char *
canonical_type(const struct ud_api_member *m)
{
	const char *open = strchr(m->type, '{'), *close = strrchr(m->type, '}');
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	if ((m->sub_kind != UD_API_STRUCT && m->sub_kind != UD_API_UNION) || open == NULL ||
	    close == NULL || close < open)
		return ud_xstrdup(m->type);
	ud_buf_add(&b, m->type, (size_t)(open - m->type));
	ud_buf_addstr(&b, "{ ");
	for (i = 0; i < m->nsub; i++) {
		struct ud_api_member sub = m->sub[i];
		char *t = canonical_type(&m->sub[i]), *text;

		sub.type = t;
		text = describe(&sub);
		ud_buf_addf(&b, "%s; ", text);
		free(text);
		free(t);
	}
	ud_buf_addstr(&b, close);
	return ud_buf_detach(&b, NULL);
}

static struct ud_api_sym
canonical(const struct ud_api_sym *s)
{
	struct ud_api_sym c = *s;
	size_t i;

	c.members = ud_xcalloc(s->nmembers + 1, sizeof(*c.members));
	for (i = 0; i < s->nmembers; i++) {
		c.members[i] = s->members[i];
		c.members[i].type = canonical_type(&s->members[i]);
	}
	return c;
}

static void
canonical_free(struct ud_api_sym *c)
{
	size_t i;

	for (i = 0; i < c->nmembers; i++)
		free(c->members[i].type);
	free(c->members);
}

/*
 * The zero-length arrays ("x[0]") among v's members, inline bodies
 * included: their names into names, their count returned.
 */
static size_t
zero_arrays(const struct ud_api_member *v, size_t n, struct ud_buf *names)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i].array != NULL && strcmp(v[i].array, "[0]") == 0) {
			if (names != NULL)
				ud_buf_addf(names, "%s%s", names->len ? ", " : "", v[i].name);
			k++;
		}
		k += zero_arrays(v[i].sub, v[i].nsub, names);
	}
	return k;
}

void
api_diff_record(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		const struct ud_api_sym *n)
{
	if (o->layout != NULL && n->layout != NULL) {
		struct ud_buf names = UD_BUF_INIT;

		diff_layouts(d, header, o, n);
		/*
		 * "x[0]" made "x[]" (or __DECLARE_FLEX_ARRAY) lays out the same, but
		 * sizeof(s.x) stops compiling and C++ rejects the struct where it
		 * was embedded before another member: the source may not build.
		 */
		if (zero_arrays(o->members, o->nmembers, NULL) >
		    zero_arrays(n->members, n->nmembers, NULL)) {
			zero_arrays(o->members, o->nmembers, &names);
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_FLEX, o->line,
			    n->line,
			    "zero-length array%s made flexible (was %s): the same layout, but "
			    "sizeof of %s and embedding before another member no longer compile",
			    strchr(ud_buf_str(&names), ',') != NULL ? "s" : "", ud_buf_str(&names),
			    strchr(ud_buf_str(&names), ',') != NULL ? "them" : "it");
		}
		ud_buf_free(&names);
	} else {
		struct ud_api_sym co = canonical(o), cn = canonical(n);

		diff_members_text(d, header, &co, &cn);
		canonical_free(&co);
		canonical_free(&cn);
	}
}
