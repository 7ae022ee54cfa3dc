// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Changes beyond one header's own text (api.h): symbols that moved into a
 * header the old one includes, and symbols whose text did not change but
 * a type they use did (compared by their own layout and value when both
 * versions were read for an ABI).  Types a header sees or no longer sees
 * through its #includes are api-includes.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/util/arena.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

#define add api_diff_add

/*
 * The headers from (new version) includes, directly or not, in the order
 * looked at (breadth first, from itself first, at most 256 paths, those
 * that are no header of the version left out but counted): what
 * included_definer() searches, the same for every symbol of from.
 */
struct includers {
	const char *from;
	const struct ud_api_header *v[256];
	size_t n;
};

static void
includers_of(struct includers *in, const char *from,
	     const struct ud_api_header *(*new_header)(const char *path, void *ctx), void *ctx)
{
	const char *queue[256];
	size_t head = 0, tail = 0, i, k;

	in->from = from;
	in->n = 0;
	queue[tail++] = from;
	while (head < tail) {
		const struct ud_api_header *h = new_header(queue[head], ctx);

		if (head > 0 && h != NULL)
			in->v[in->n++] = h;
		head++;
		for (i = 0; h != NULL && i < h->nincludes; i++) {
			bool seen = false;

			for (k = 0; k < tail && !seen; k++)
				seen = strcmp(queue[k], h->includes[i]) == 0;
			if (!seen && tail < ARRAY_SIZE(queue))
				queue[tail++] = h->includes[i];
		}
	}
}

/*
 * The symbol of this kind and name that the first of the headers
 * in->from includes (in's) to define one defines; NULL when none does.
 */
static const struct ud_api_sym *
included_definer(const struct includers *in, enum ud_api_kind kind, const char *name,
		 const char **path)
{
	size_t i, k;

	for (i = 0; i < in->n; i++)
		for (k = 0; k < in->v[i]->n; k++) {
			const struct ud_api_sym *s = &in->v[i]->v[k];

			if (s->kind == kind && s->name[0] == name[0] &&
			    strcmp(s->name, name) == 0) {
				*path = in->v[i]->path;
				return s;
			}
		}
	return NULL;
}

/* The symbol of h a change names (its kind, name and condition), or NULL. */
static const struct ud_api_sym *
changed_sym(const struct ud_api_header *h, const struct ud_api_change *r)
{
	size_t k, n = strlen(r->name);

	for (k = 0; h != NULL && k < h->n; k++) {
		const struct ud_api_sym *s = &h->v[k];

		if (s->kind != r->kind || strcmp(s->name, r->name) != 0)
			continue;
		if (s->cond[0] == '\0'
			    ? r->symbol[n] == '\0'
			    : strncmp(r->symbol + n, " [if ", 5) == 0 &&
				      strncmp(r->symbol + n + 5, s->cond, strlen(s->cond)) == 0 &&
				      strcmp(r->symbol + n + 5 + strlen(s->cond), "]") == 0)
			return s;
	}
	return NULL;
}

/*
 * What a symbol that moved from o (old version) to n did besides moving:
 * its value or body compared as if it had stayed; the worst change of
 * that comparison into *worst (a diff of its own), or false when it is
 * the same.
 */
static bool
moved_changed(const char *header, const struct ud_api_sym *o, const struct ud_api_sym *n,
	      struct ud_api_diff *t, size_t *worst)
{
	struct ud_api_sym as_old = *n; /* named as the old one */
	size_t i;
	bool values = o->kind == n->kind &&
		      (o->kind == UD_API_MACRO || o->kind == UD_API_ENUM_CONST) && o->has_value &&
		      n->has_value;

	if (values ? o->value == n->value && o->value_unsigned == n->value_unsigned &&
			     o->body == n->body
		   : o->body == n->body)
		return false;
	as_old.cond = o->cond;
	api_diff_sym(t, header, o, &as_old);
	for (i = 0, *worst = 0; i < t->n; i++)
		if (t->v[i].verdict > t->v[*worst].verdict)
			*worst = i;
	/* a function-like macro rewritten in its new home: its values are not known */
	if (t->n > 0 && t->v[*worst].rule == UD_API_RULE_PARAMS &&
	    t->v[*worst].verdict == UD_API_BREAKING) {
		t->v[*worst].verdict = UD_API_REVIEW;
		ud_api_change_axes(&t->v[*worst]);
	}
	return t->n > 0 && t->v[*worst].verdict > UD_API_COMPATIBLE;
}

void
ud_api_diff_moves(struct ud_api_diff *d,
		  const struct ud_api_header *(*new_header)(const char *path, void *ctx), void *ctx)
{
	ud_api_diff_moves_from(d, NULL, NULL, new_header, ctx);
}

void
ud_api_diff_moves_from(struct ud_api_diff *d,
		       const struct ud_api_header *(*old_header)(const char *path, void *ctx),
		       void *octx,
		       const struct ud_api_header *(*new_header)(const char *path, void *ctx),
		       void *ctx)
{
	struct includers *in = ud_xcalloc(1, sizeof(*in));
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct ud_api_change *r = &d->v[i];
		const struct ud_api_sym *o, *n;
		struct ud_api_diff t;
		const char *to = NULL;
		size_t w;

		if (r->what != UD_API_REMOVED || r->name[0] == '\0' ||
		    new_header(r->header, ctx) == NULL)
			continue;
		/* the changes of a header are together: its includers are found once */
		if (in->from == NULL || strcmp(in->from, r->header) != 0)
			includers_of(in, r->header, new_header, ctx);
		n = included_definer(in, r->kind, r->name, &to);
		if (n == NULL)
			continue;
		d->verdicts[r->verdict]--;
		memset(&t, 0, sizeof(t));
		o = old_header != NULL ? changed_sym(old_header(r->header, octx), r) : NULL;
		free(r->reason);
		/* reachable, yes: but a move keeps its value and layout or it is a change */
		if (o != NULL && moved_changed(r->header, o, n, &t, &w)) {
			r->what = UD_API_CHANGED;
			r->verdict = t.v[w].verdict;
			r->rule = t.v[w].rule;
			r->reason = ud_xasprintf("moved to %s, which %s includes, but: %s", to,
						 r->header, t.v[w].reason);
			r->new_line = n->line;
		} else {
			r->verdict = UD_API_COMPATIBLE;
			r->rule = UD_API_RULE_MOVED;
			r->reason = ud_xasprintf("moved to %s, which %s includes", to, r->header);
		}
		ud_api_change_axes(r);
		d->verdicts[r->verdict]++;
		ud_api_diff_free(&t);
	}
	free(in);
}

/* ---- changes that come through a changed type ---- */

/* A type whose definition changed: what its users inherit. */
struct root {
	char *name; /* as users spell it: "struct foo", "union bar", "enum baz", "foo_t" */
	char *header;
	enum ud_api_verdict verdict;
	bool grew; /* it grew at its end: what follows it in an embedder moves */
};

/*
 * The name users spell a changed type with: a record defined in a typedef
 * ("struct (typedef foo_t)") is used through the typedef's name.
 */
static char *
spelled(const char *name)
{
	const char *t = strstr(name, " (typedef ");

	if (t != NULL) {
		const char *e = strchr(t, ')');

		t += strlen(" (typedef ");
		return ud_xstrndup(t, e != NULL ? (size_t)(e - t) : strlen(t));
	}
	return ud_xstrdup(name);
}

/*
 * What ud_api_diff_through_versions works with: the roots found so far,
 * and which symbols name each word of their texts, noted on the first
 * pass: when a word becomes a root only they can find something new in
 * another (whether a symbol finds nothing depends only on which of its
 * words are roots).  Words are as uses() looks them up ("struct foo",
 * "foo_t").  Symbol nw[i].v[j] is number first[i] + j.
 */
struct through {
	struct ud_map roots; /* name -> struct root */
	uint64_t bloom[64];  /* bit hash % 4096 of each root's name: most words are none */
	/*
	 * Bit hash % 65536 of every name a root can have (a type of nw's, as
	 * spelled): only those words are worth noting.
	 */
	uint64_t *maybe;
	/*
	 * Bit shape_bit() (length, first and last byte) of those names and of
	 * every root's: a word of another shape is no root, now or later, so it
	 * is neither hashed nor looked up.
	 */
	uint64_t shape[1024];
	bool ident[256];     /* by byte: ident_char(), a load in uses()' loop over every text */
	struct ud_map words; /* word -> 1 + index in v of its last link (in keys) */
	struct ud_arena keys;
	struct user_link {
		size_t sym;  /* the symbol's number */
		size_t next; /* 1 + index in v of the word's previous link, or 0 */
	} * v;
	size_t n, alloc;
	size_t sym;	 /* the symbol being read */
	bool first_pass; /* note the words read */
	const struct ud_api_header *nw;
	size_t nn;
	const struct ud_api_header **oh; /* each header's old version, or NULL */
	struct ud_map **reported;	 /* each header's symbols the diff has, or NULL */
	size_t *first;
	bool *done;   /* by symbol: has its change, or needs none */
	bool *dirty;  /* by symbol: names a root added since it was last read */
	bool *hdirty; /* by header: has a dirty symbol */
};

/* A bit for the shape of the n-byte word w (n > 0). */
static size_t
shape_bit(const char *w, size_t n)
{
	return (n * 2654435761u + (unsigned char)w[0] * 131u + (unsigned char)w[n - 1]) & 65535;
}

static void
shape_add(struct through *t, const char *name)
{
	size_t b = shape_bit(name, strlen(name));

	t->shape[b >> 6] |= (uint64_t)1 << (b & 63);
}

static bool
shape_has(const struct through *t, const char *w, size_t n)
{
	size_t b = shape_bit(w, n);

	return (t->shape[b >> 6] >> (b & 63)) & 1;
}

static bool
bloom_has(const struct through *t, size_t h)
{
	return (t->bloom[(h >> 6) & 63] >> (h & 63)) & 1;
}

/*
 * Records r (or raises the verdict of the root of the same name); true
 * when it is new.  Callers add the diff's changed types before the passes
 * and, in them, only types of nw as spelled(): t->maybe counts on it.
 */
static bool
add_root(struct through *t, const char *name, const char *header, enum ud_api_verdict v, bool grew)
{
	size_t h = ud_map_hash(name);
	struct root *r = ud_map_get_hashed(&t->roots, name, h);

	if (r != NULL) {
		if (v > r->verdict)
			r->verdict = v;
		r->grew |= grew;
		return false;
	}
	r = ud_xmalloc(sizeof(*r));
	r->name = ud_xstrdup(name);
	r->header = ud_xstrdup(header);
	r->verdict = v;
	r->grew = grew;
	ud_map_put_hashed(&t->roots, name, h, r);
	shape_add(t, name);
	t->bloom[(h >> 6) & 63] |= (uint64_t)1 << (h & 63);
	return true;
}

static void
root_free(void *p)
{
	struct root *r = p;

	free(r->name);
	free(r->header);
	free(r);
}

static bool
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Notes that the symbol being read names word (hashed h). */
static void
users_add(struct through *u, const char *word, size_t h)
{
	size_t *last = ud_map_get_hashed(&u->words, word, h);

	if (last == NULL) {
		last = ud_arena_alloc(&u->keys, sizeof(*last));
		ud_map_put_hashed(&u->words, word, h, last);
	}
	if (u->n == u->alloc)
		u->v = ud_xgrow(u->v, &u->alloc, u->n + 1, sizeof(*u->v));
	u->v[u->n].sym = u->sym;
	u->v[u->n].next = *last;
	*last = ++u->n;
}

/* Marks dirty every symbol that names word (and its header). */
static void
users_mark(struct through *t, const char *word)
{
	const size_t *last = ud_map_get(&t->words, word);
	size_t k;

	for (k = last != NULL ? *last : 0; k != 0; k = t->v[k - 1].next) {
		size_t sym = t->v[k - 1].sym, lo = 0, hi = t->nn;

		t->dirty[sym] = true;
		while (hi - lo > 1) { /* the header: the last i with first[i] <= sym */
			size_t mid = lo + (hi - lo) / 2;

			if (t->first[mid] <= sym)
				lo = mid;
			else
				hi = mid;
		}
		t->hdirty[lo] = true;
	}
}

/* Does the diff report s, symbol of nw[i], itself (then it inherits nothing)? */
static bool
reported(const struct through *t, size_t i, const struct ud_api_sym *s)
{
	char *id;
	bool has;

	if (t->reported[i] == NULL)
		return false;
	if (s->cond[0] == '\0')
		return ud_map_has(t->reported[i], s->name);
	id = ud_xasprintf("%s [if %s]", s->name, s->cond);
	has = ud_map_has(t->reported[i], id);
	free(id);
	return has;
}

/*
 * The most severe changed type that text (a member's type, a typedef, a
 * macro's replacement) names, skipping self (a record pointing at its own
 * kind); *by_value is false when it is only reached through a pointer (its
 * layout is then not part of the user's).  On the first pass, notes the
 * words it names for t->sym.
 */
static const struct root *
uses(struct through *t, const char *text, const char *self, bool *by_value)
{
	const struct root *best = NULL;
	const char *p = text;
	bool in_fnptr = false;

	*by_value = false;
	while (*p != '\0') {
		const char *w = p, *e;
		char name[256];
		const struct root *r = NULL;

		/* p never stops inside a word: it goes on from a word's end */
		if (!t->ident[(unsigned char)*p]) {
			if (p[0] == '(' && p[1] == '*')
				in_fnptr = true;
			else if (p[0] == ';')
				in_fnptr = false; /* the next member of an inline body */
			p++;
			continue;
		}
		for (e = p; t->ident[(unsigned char)*e]; e++)
			;
		if ((e - w == 6 && memcmp(w, "struct", 6) == 0) ||
		    (e - w == 5 && memcmp(w, "union", 5) == 0) ||
		    (e - w == 4 && memcmp(w, "enum", 4) == 0)) {
			const char *q = e;

			while (*q == ' ')
				q++;
			if (t->ident[(unsigned char)*q])
				for (e = q; t->ident[(unsigned char)*e]; e++)
					;
		}
		/* a tag's word alone ("struct {") is not a name; no type has one that long */
		if ((size_t)(e - w) < sizeof(name) && shape_has(t, w, (size_t)(e - w))) {
			size_t h;

			memcpy(name, w, (size_t)(e - w));
			name[e - w] = '\0';
			h = ud_map_hash(name);
			if (t->first_pass && ((t->maybe[(h >> 6) & 1023] >> (h & 63)) & 1))
				users_add(t, name, h);
			if (bloom_has(t, h) &&
			    (r = ud_map_get_hashed(&t->roots, name, h)) != NULL &&
			    strcmp(name, self) == 0)
				r = NULL;
		}
		if (r != NULL) {
			const char *q = e;
			bool value;

			while (*q == ' ')
				q++;
			value = *q != '*' && !in_fnptr;
			if (best == NULL || (value && !*by_value) ||
			    (value == *by_value && r->verdict > best->verdict)) {
				best = r;
				*by_value = value;
			}
		}
		p = e;
	}
	return best;
}

/* The version of s in h, its header's old version (sorted by key; may be NULL), or NULL. */
static const struct ud_api_sym *
old_sym(const struct ud_api_header *h, const struct ud_api_sym *s)
{
	size_t lo = 0, hi = h != NULL ? h->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->v[mid].key, s->key);

		if (c == 0)
			return &h->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * How the layout of a record moved between its versions, for a reason:
 * 2 when a member's offset or size moved or it shrank (*why says which),
 * 1 when it only grew at its end, 0 when it did not move.
 */
static int
layout_moved(const struct ud_api_layout *ol, const struct ud_api_layout *nl, char **why)
{
	size_t i;

	for (i = 0; i < ol->nfields; i++) {
		const struct ud_api_field *f = &ol->fields[i];
		const struct ud_api_field *g = api_layout_field(nl, f->path);

		if (g == NULL || (f->flags & UD_API_FIELD_AGGREGATE))
			continue;
		if (g->offset != f->offset) {
			*why = ud_xasprintf("member %s: offset %llu -> %llu", f->path,
					    (unsigned long long)(f->offset / 8),
					    (unsigned long long)(g->offset / 8));
			return 2;
		}
		/* one that grew into room nothing else used (a union's) moves nothing */
		if (g->size < f->size && !((f->flags | g->flags) & UD_API_FIELD_FLEXIBLE)) {
			*why = ud_xasprintf("member %s: size %llu -> %llu", f->path,
					    (unsigned long long)(f->size / 8),
					    (unsigned long long)(g->size / 8));
			return 2;
		}
	}
	if (nl->size < ol->size) {
		*why = ud_xasprintf("size %llu -> %llu", (unsigned long long)ol->size,
				    (unsigned long long)nl->size);
		return 2;
	}
	if (nl->size > ol->size) {
		*why = ud_xasprintf("size %llu -> %llu", (unsigned long long)ol->size,
				    (unsigned long long)nl->size);
		return 1;
	}
	return 0;
}

/* A record's member that uses a changed type: r, by value, at member index *at. */
static const struct root *
member_root(struct through *t, const struct ud_api_sym *s, bool *value, size_t *at)
{
	const struct root *r = NULL;
	size_t i;

	*value = false;
	*at = 0;
	for (i = 0; i < s->nmembers; i++) {
		bool mv;
		const struct root *m = uses(t, s->members[i].type, s->name, &mv);

		if (m != NULL &&
		    (r == NULL || (mv && !*value) || (mv == *value && m->verdict > r->verdict))) {
			r = m;
			*value = mv;
			*at = i;
		}
	}
	return r;
}

static int
inherit_record(struct ud_api_diff *out, struct through *t, size_t hi, const struct ud_api_sym *s,
	       bool *grew)
{
	const char *header = t->nw[hi].path;
	enum ud_api_verdict v;
	bool value;
	size_t at;
	const struct root *r = member_root(t, s, &value, &at);
	const struct ud_api_sym *o;
	const char *mname;

	if (r == NULL)
		return -1;
	if (reported(t, hi, s))
		return -2;
	o = old_sym(t->oh[hi], s);
	mname = s->members[at].name[0] ? s->members[at].name : "(anonymous)";
	if (!value) {
		add(out, header, s, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_THROUGH, s->line,
		    s->line, "member %s points to %s, which changed (%s): its own layout does not",
		    mname, r->name, r->header);
		return UD_API_COMPATIBLE;
	}
	v = r->verdict;
	if (o != NULL && o->layout != NULL && s->layout != NULL) {
		/* its own layout says what the change does to it */
		char *why = NULL;
		int moved = layout_moved(o->layout, s->layout, &why);

		if (moved == 2)
			v = UD_API_BREAKING;
		else if (r->grew && v == UD_API_BREAKING && moved == 0)
			v = UD_API_REVIEW; /* it grew where this one had room */
		*grew = moved == 1;
		add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line, s->line,
		    "member %s is a %s, which changed (%s, %s)%s%s", mname, r->name, r->header,
		    ud_api_verdict_name(r->verdict),
		    moved == 2	 ? ": here "
		    : moved == 1 ? ": it grows at its end here, "
				 : ": no offset or size moves here",
		    moved ? why : "");
		free(why);
		return (int)v;
	}
	/* an embedded type that grew moves whatever follows it */
	if (r->grew && v == UD_API_REVIEW && at + 1 < s->nmembers)
		v = UD_API_BREAKING;
	*grew = r->grew && at + 1 == s->nmembers;
	add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line, s->line,
	    "member %s is a %s, which changed (%s, %s)%s", mname, r->name, r->header,
	    ud_api_verdict_name(r->verdict),
	    v == UD_API_BREAKING && r->verdict != UD_API_BREAKING ? ": the members after it move"
								  : "");
	return (int)v;
}

/*
 * What symbol s of header nw[hi] inherits from the changed types it uses:
 * records and typedefs through their members and text, macros and enum
 * constants through a sizeof or an ioctl argument; its old version (when
 * known): what its own layout or value did.  Appends the
 * change to out and returns its verdict, or -1 when s uses no changed
 * type, -2 when it does but the diff reports s itself; *grew: s grew at
 * its end too.
 */
static int
inherit(struct ud_api_diff *out, struct through *t, size_t hi, const struct ud_api_sym *s,
	bool *grew)
{
	const char *header = t->nw[hi].path;
	const struct root *r = NULL;
	const struct ud_api_sym *o;
	enum ud_api_verdict v = UD_API_COMPATIBLE;
	bool value = false;

	if (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION)
		return inherit_record(out, t, hi, s, grew);
	if (s->text == NULL || s->text[0] == '\0')
		return -1;
	r = uses(t, s->text, s->kind == UD_API_TYPEDEF ? s->name : "", &value);
	/* a macro that casts to a pointer of a changed type changes nothing */
	if (r == NULL || (!value && s->kind != UD_API_TYPEDEF))
		return -1;
	if (reported(t, hi, s))
		return -2;
	o = old_sym(t->oh[hi], s);
	v = value ? r->verdict : UD_API_COMPATIBLE;
	*grew = value && r->grew;
	if (s->kind == UD_API_TYPEDEF) {
		if (value && o != NULL && o->layout != NULL && s->layout != NULL &&
		    (o->layout->size != s->layout->size || o->layout->align != s->layout->align))
			v = UD_API_BREAKING;
		add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line, s->line,
		    "names %s%s, which changed (%s, %s)", value ? "" : "a pointer to ", r->name,
		    r->header, ud_api_verdict_name(r->verdict));
	} else if (o != NULL && o->has_value && s->has_value) {
		/* the value holds the size: compared as a value */
		*grew = false;
		if (o->value == s->value) {
			v = UD_API_COMPATIBLE;
			add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line,
			    s->line, "%s is the same (%#llx): %s changed (%s, %s) but not its size",
			    s->is_ioctl ? "the request number" : "its value",
			    (unsigned long long)s->value, r->name, r->header,
			    ud_api_verdict_name(r->verdict));
		} else {
			v = UD_API_BREAKING;
			if (r->grew && s->is_ioctl && o->is_ioctl && o->ioctl->size_known &&
			    s->ioctl->size_known && s->ioctl->size > o->ioctl->size &&
			    strcmp(o->ioctl->dir, s->ioctl->dir) == 0 && o->ioctl->known &&
			    s->ioctl->known && o->ioctl->typev == s->ioctl->typev &&
			    o->ioctl->nrv == s->ioctl->nrv) {
				/* as the struct's own entry says: old binaries pass the smaller
				 * size */
				v = UD_API_REVIEW;
				add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_IOCTL_GREW,
				    s->line, s->line,
				    "the request number changes %#llx -> %#llx only as sizeof(%s) "
				    "grew at its end %llu -> %llu (%s): old binaries pass the smaller "
				    "size",
				    (unsigned long long)o->value, (unsigned long long)s->value,
				    api_or_none(s->ioctl->arg), (unsigned long long)o->ioctl->size,
				    (unsigned long long)s->ioctl->size, r->header);
			} else if (s->is_ioctl && o->is_ioctl && o->ioctl->size_known &&
				   s->ioctl->size_known)
				add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line,
				    s->line,
				    "the request number changes %#llx -> %#llx: sizeof(%s) %llu -> "
				    "%llu (%s)",
				    (unsigned long long)o->value, (unsigned long long)s->value,
				    api_or_none(s->ioctl->arg), (unsigned long long)o->ioctl->size,
				    (unsigned long long)s->ioctl->size, r->header);
			else
				add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line,
				    s->line, "its value changes %lld -> %lld: it holds %s (%s, %s)",
				    o->value, s->value, r->name, r->header,
				    ud_api_verdict_name(r->verdict));
		}
	} else if (s->is_ioctl) {
		add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line, s->line,
		    "the request number encodes sizeof(%s), which changed (%s, %s)", r->name,
		    r->header, ud_api_verdict_name(r->verdict));
	} else {
		add(out, header, s, UD_API_CHANGED, v, UD_API_RULE_THROUGH, s->line, s->line,
		    "%s %s, which changed (%s, %s)",
		    strstr(s->text, "sizeof") != NULL ? "its value holds the size of"
						      : "its replacement uses",
		    r->name, r->header, ud_api_verdict_name(r->verdict));
	}
	return (int)v;
}

static int
by_header_then_symbol(const void *a, const void *b)
{
	const struct ud_api_change *x = a, *y = b;
	int c = strcmp(x->header, y->header);

	return c != 0 ? c : strcmp(x->symbol, y->symbol);
}

/*
 * Moves the changes of more into d (more is left empty): by header, after
 * each header's own changes, by symbol; a header with none before counts
 * as changed.
 */
void
api_diff_merge(struct ud_api_diff *d, struct ud_api_diff *more)
{
	struct ud_api_change *merged;
	size_t a = 0, b = 0, k, i, n = d->n + more->n;

	if (more->n == 0)
		return;
	qsort(more->v, more->n, sizeof(*more->v), by_header_then_symbol);
	merged = ud_xmalloc(n * sizeof(*merged));
	for (k = 0; k < n; k++) {
		bool take_old = b >= more->n ||
				(a < d->n && strcmp(d->v[a].header, more->v[b].header) <= 0);

		if (!take_old && (a == 0 || strcmp(d->v[a - 1].header, more->v[b].header) != 0) &&
		    (b == 0 || strcmp(more->v[b - 1].header, more->v[b].header) != 0))
			d->headers_changed++; /* the first change of a header that had none */
		merged[k] = take_old ? d->v[a++] : more->v[b++];
	}
	for (i = 0; i < UD_API__VERDICTS; i++)
		d->verdicts[i] += more->verdicts[i];
	free(d->v);
	d->v = merged;
	d->n = d->alloc = n;
	free(more->v);
	memset(more, 0, sizeof(*more));
}

static void
free_reported(void *p)
{
	ud_map_free(p, NULL);
	free(p);
}

/*
 * One pass over the symbols not done yet: each that uses a changed type
 * gets its change in more and is done; a type among them becomes a root
 * in turn.  Only the dirty ones are read (every one on the first pass;
 * after it, those naming a root added since they were last read): the
 * others would find nothing again.  True when a root was added.
 */
static bool
through_pass(struct ud_api_diff *more, struct through *t)
{
	bool more_roots = false;
	size_t i, j;

	for (i = 0; i < t->nn; i++) {
		if (!t->hdirty[i])
			continue;
		t->hdirty[i] = false;
		for (j = 0; j < t->nw[i].n; j++) {
			const struct ud_api_sym *s = &t->nw[i].v[j];
			size_t k = t->first[i] + j;
			bool grew = false;
			int v;

			if (t->done[k] || !t->dirty[k] || s->kind == UD_API_ENUM ||
			    s->kind == UD_API_FUNCTION || s->kind == UD_API_VARIABLE)
				continue;
			t->dirty[k] = false;
			t->sym = k;
			v = inherit(more, t, i, s, &grew);
			if (v == -1)
				continue;
			t->done[k] = true;
			if (v >= 0 && is_type_kind(s->kind)) {
				char *name = spelled(s->name);

				if (add_root(t, name, t->nw[i].path, (enum ud_api_verdict)v,
					     grew)) {
					more_roots = true;
					users_mark(t, name);
				}
				free(name);
			}
		}
	}
	return more_roots;
}

/*
 * The changed types of d become roots; ids gets, per header, the symbols
 * d reports, added the headers d reports as new.
 */
static void
through_roots(const struct ud_api_diff *d, struct through *t, struct ud_map *ids,
	      struct ud_map *added_headers)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		struct ud_map *reported = ud_map_get(ids, c->header);

		if (reported == NULL) {
			reported = ud_xcalloc(1, sizeof(*reported));
			reported->keys = &t->keys;
			ud_map_put(ids, c->header, reported);
		}
		ud_map_put(reported, c->symbol, NULL);
		if (c->symbol[0] == '\0' && c->what == UD_API_ADDED)
			ud_map_put(added_headers, c->header, NULL);
		/* a type whose own definition changed: not one only spelled otherwise or moved */
		if (c->symbol[0] != '\0' && is_type_kind(c->kind) && c->what != UD_API_ADDED &&
		    (c->verdict != UD_API_COMPATIBLE ||
		     (c->kind == UD_API_ENUM && c->what == UD_API_CHANGED))) {
			char *name = spelled(c->name);

			add_root(t, name, c->header, c->verdict,
				 strncmp(c->reason, api_grew_reason, strlen(api_grew_reason)) == 0);
			free(name);
		}
	}
}

/*
 * A macro of d whose value changed only in the size field of an ioctl
 * request number (DRM_IOWR(0xC3, struct drm_syncobj_wait)), grown, as a
 * type it names grew at its end: review, as ud_api_diff_through says of
 * the same request when its text did not change.
 */
static void
ioctl_grew(struct ud_api_diff *d, struct through *t, const struct ud_api_header *o, size_t no)
{
	const unsigned long long size = 0x3fffULL << 16; /* _IOC_SIZEMASK << _IOC_SIZESHIFT */
	size_t i;

	for (i = 0; o != NULL && i < d->n; i++) {
		struct ud_api_change *c = &d->v[i];
		const struct ud_api_sym *ns, *os;
		const struct root *r;
		unsigned long long ou, nu;
		bool by_value = false;

		if (c->verdict != UD_API_BREAKING || c->what != UD_API_CHANGED ||
		    (c->rule != UD_API_RULE_VALUE && c->rule != UD_API_RULE_IOCTL))
			continue;
		ns = changed_sym(ud_api_find_header(t->nw, t->nn, c->header), c);
		os = changed_sym(ud_api_find_header(o, no, c->header), c);
		if (ns == NULL || os == NULL || !ns->has_value || !os->has_value ||
		    ns->text == NULL)
			continue;
		ou = (unsigned long long)os->value;
		nu = (unsigned long long)ns->value;
		if (ou >> 32 != 0 || nu >> 32 != 0 || nu >> 30 == 0 || ((ou ^ nu) & ~size) != 0 ||
		    (nu & size) <= (ou & size))
			continue;
		r = uses(t, ns->text, "", &by_value);
		if (r == NULL || !r->grew || !by_value)
			continue;
		d->verdicts[c->verdict]--;
		c->verdict = UD_API_REVIEW;
		c->rule = UD_API_RULE_IOCTL_GREW;
		ud_api_change_axes(c);
		d->verdicts[c->verdict]++;
		free(c->reason);
		c->reason =
			ud_xasprintf("the request number changes %#llx -> %#llx only as %s grew at "
				     "its end (%s): old binaries pass the smaller size",
				     ou, nu, r->name, r->header);
	}
}

void
ud_api_diff_through_versions(struct ud_api_diff *d, const struct ud_api_header *o, size_t no,
			     const struct ud_api_header *nw, size_t nn)
{
	struct ud_map ids = UD_MAP_INIT, added_headers = UD_MAP_INIT;
	struct ud_api_diff more;
	struct through t;
	size_t i, j, nsyms;
	bool more_roots = true;

	memset(&more, 0, sizeof(more));
	memset(&t, 0, sizeof(t));
	t.words.keys = ids.keys = added_headers.keys = &t.keys;
	t.nw = nw;
	t.nn = nn;
	for (i = 0; i < sizeof(t.ident); i++)
		t.ident[i] = ident_char((char)i);
	through_roots(d, &t, &ids, &added_headers);
	if (t.roots.n == 0)
		goto out;
	t.oh = ud_xcalloc(nn + 1, sizeof(*t.oh));
	t.reported = ud_xcalloc(nn + 1, sizeof(*t.reported));
	t.first = ud_xcalloc(nn + 1, sizeof(*t.first));
	for (i = 0; i < nn; i++)
		t.first[i + 1] = t.first[i] + nw[i].n;
	nsyms = t.first[nn];
	t.done = ud_xcalloc(nsyms + 1, sizeof(*t.done));
	t.dirty = ud_xmalloc((nsyms + 1) * sizeof(*t.dirty));
	memset(t.dirty, 1, (nsyms + 1) * sizeof(*t.dirty));
	t.hdirty = ud_xmalloc((nn + 1) * sizeof(*t.hdirty));
	memset(t.hdirty, 1, (nn + 1) * sizeof(*t.hdirty));
	t.maybe = ud_xcalloc(1024, sizeof(*t.maybe));
	/* each symbol reported once: what the diff has (looked up when it finds a root), a new
	 * header (reported as such) */
	for (i = 0; i < nn; i++) {
		t.oh[i] = o != NULL ? ud_api_find_header(o, no, nw[i].path) : NULL;
		t.reported[i] = ud_map_get(&ids, nw[i].path);
		if (ud_map_has(&added_headers, nw[i].path) || (o != NULL && t.oh[i] == NULL)) {
			for (j = 0; j < nw[i].n; j++)
				t.done[t.first[i] + j] = true;
			t.hdirty[i] = false;
			continue;
		}
		for (j = 0; j < nw[i].n; j++)
			if (is_type_kind(nw[i].v[j].kind)) {
				char *name = spelled(nw[i].v[j].name);
				size_t h = ud_map_hash(name);

				t.maybe[(h >> 6) & 1023] |= (uint64_t)1 << (h & 63);
				shape_add(&t, name);
				free(name);
			}
	}
	/* users of users: until nothing new is found */
	t.first_pass = true;
	while (more_roots) {
		more_roots = through_pass(&more, &t);
		t.first_pass = false;
	}
	ioctl_grew(d, &t, o, no);
	free(t.oh);
	free(t.reported);
	free(t.first);
	free(t.done);
	free(t.dirty);
	free(t.hdirty);
	free(t.maybe);
out:
	d->symbols_changed += (unsigned)more.n;
	api_diff_merge(d, &more);
	free(t.v);
	ud_map_free(&t.words, NULL);
	ud_map_free(&t.roots, root_free);
	ud_map_free(&ids, free_reported);
	ud_map_free(&added_headers, NULL);
	ud_arena_free(&t.keys);
}

void
ud_api_diff_through(struct ud_api_diff *d, const struct ud_api_header *nw, size_t nn)
{
	ud_api_diff_through_versions(d, NULL, 0, nw, nn);
}

void
ud_api_diff_merge(struct ud_api_diff *d, struct ud_api_diff *more)
{
	api_diff_merge(d, more);
	ud_api_diff_fold(d);
}
