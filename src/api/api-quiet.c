// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The symbols a diff of two versions cannot see change (api-stages.h's
 * ud_api_wanted.quiet): evaluating and laying them out for an ABI is work
 * whose answer nobody reads.  Between two kernel releases two years apart
 * 700 of 970 installed headers hold no other symbol, and resolving them
 * for every ABI was a quarter of `api-diff --arch all`.
 *
 * A symbol is quiet when it has a twin in the other version (the same
 * key and model: text, members, conditions as written), names (in its
 * conditions, text, members or enum body) no name whose definition
 * changed, directly or through other names (a macro that uses a changed
 * macro changes; a struct that holds a changed struct changes), and its
 * header's #includes, however deep, include the same headers as before
 * (which definition of a name defined twice a header sees follows their
 * order; a name a header uses without including it is looked up as
 * linux/types.h sees it, so that one's #includes count for all).  Two
 * ways a name is spelled where no text shows it: a macro that pastes
 * tokens (a struct drm_pvr_ioctl_##data##_args) counts as changed, and a
 * macro renaming a tag (#define __snd_pcm_sync_ptr snd_pcm_sync_ptr)
 * links its two names.  Everything a quiet symbol's look-ups reach is
 * then the same in both versions, and so would its value and layout be:
 * the diff compares only symbols whose fingerprints differ, and its
 * changes "through a type" start from changed names.  A quiet symbol's
 * value is the reader's after the resolve (api-resolve.c): one the
 * evaluation of another symbol gave it on the way, in one version only,
 * would make the same text differ.
 *
 * Names are compared as 64-bit FNV-1a hashes of their spelling, every
 * namespace at once: two names of one hash count as one, which can only
 * make fewer symbols quiet.  Pure; each version's half is made on its own
 * (two threads), the decision reads both.  UAPID_RESOLVE_ALL=1 turns it
 * off (load.h), and the full test tier compares the two.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/chars.h"
#include "uapid/util/hash.h"
#include "uapid/util/xmalloc.h"

/*
 * What the symbols of one model name (ud_api_header.names): made once per
 * model, with it or when first needed, and shared by its copies (one per
 * ABI of `api-diff --arch all`, read-only), so that a text's names are
 * read once however many ABIs read it.
 */
struct ud_api_names {
	unsigned refs;	      /* the models holding it (atomically) */
	size_t n;	      /* the model's symbols when made ... */
	uint64_t fingerprint; /* ... and its fingerprint: else it is not this model's */
	uint32_t *first;      /* per symbol: its first name in named; [n]: the end */
	uint64_t *named;      /* the names symbols name */
	/*
	 * Per symbol, the names it defines (0: none): its own, and for a
	 * macro renaming a tag or a typedef ("#define __snd_pcm_sync_ptr
	 * snd_pcm_sync_ptr"), the other: the struct the model calls
	 * __snd_pcm_sync_ptr is the one programs name snd_pcm_sync_ptr.
	 */
	uint64_t (*def)[2];
	/*
	 * Per symbol: a macro that pastes tokens ("struct drm_pvr_ioctl_##data##_args"),
	 * which names what no text spells: always taken as changed.
	 */
	bool *pastes;
	size_t nnamed, anamed;
};

static void
add_named(struct ud_api_names *q, uint64_t h)
{
	if (q->nnamed == q->anamed)
		q->named = ud_xgrow(q->named, &q->anamed, q->nnamed + 1, sizeof(*q->named));
	q->named[q->nnamed++] = h;
}

/* The bytes of C identifiers: 1 a letter or _, 2 a digit. */
static const unsigned char ident_class[256] = {
	['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2,
	['8'] = 2, ['9'] = 2, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
	['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
	['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1,
	['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,
	['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1,
	['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

/*
 * The names text names, each as its hash: identifiers, not numbers ("x1f"
 * of "0x1f" is none); C's keywords among them are names no symbol defines.
 */
static void
scan(struct ud_api_names *q, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	if (text == NULL)
		return;
	while (*p != '\0') {
		uint64_t h = UD_FNV64_BASIS;
		unsigned char k = ident_class[*p];

		if (k == 0) {
			p++;
			continue;
		}
		if (k == 2) {
			while (ident_class[*p] != 0)
				p++;
			continue;
		}
		while (ident_class[*p] != 0)
			h = (h ^ *p++) * UD_FNV64_PRIME;
		add_named(q, h);
	}
}

static void
scan_members(struct ud_api_names *q, const struct ud_api_member *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		scan(q, m[i].type);
		scan(q, m[i].array);
		scan(q, m[i].width);
		scan(q, m[i].attrs);
		scan(q, m[i].cond);
		scan_members(q, m[i].sub, m[i].nsub);
	}
}

/* The name a symbol defines: "foo" of "struct foo", of "struct (typedef foo)"; 0 when none. */
static uint64_t
defined_name(const char *name)
{
	const char *p = name, *b, *last = NULL;
	size_t len, last_len = 0;

	while ((b = ud_next_ident(name, &p, &len)) != NULL)
		if (!(len == 6 && (memcmp(b, "struct", 6) == 0)) &&
		    !(len == 5 && memcmp(b, "union", 5) == 0) &&
		    !(len == 4 && memcmp(b, "enum", 4) == 0) &&
		    !(len == 7 && memcmp(b, "typedef", 7) == 0)) {
			last = b;
			last_len = len;
		}
	return last != NULL ? ud_fnv64(UD_FNV64_BASIS, last, last_len) : 0;
}

/* The identifier an object-like macro is replaced with, when that is all it is: 0 else. */
static uint64_t
renamed_to(const struct ud_api_sym *s)
{
	const char *p = s->text;

	if (p == NULL || s->kind != UD_API_MACRO || s->params != NULL ||
	    ident_class[(unsigned char)*p] != 1)
		return 0;
	while (ident_class[(unsigned char)*p] != 0)
		p++;
	return *p == '\0' ? ud_fnv64(UD_FNV64_BASIS, s->text, (size_t)(p - s->text)) : 0;
}

struct ud_api_names *
api_names_make(const struct ud_api_header *hd)
{
	struct ud_api_names *q = ud_xcalloc(1, sizeof(*q));
	size_t i;

	q->refs = 1;
	q->n = hd->n;
	q->fingerprint = hd->fingerprint;
	q->first = ud_xcalloc(hd->n + 1, sizeof(*q->first));
	q->def = ud_xcalloc(hd->n + 1, sizeof(*q->def));
	q->pastes = ud_xcalloc(hd->n + 1, sizeof(*q->pastes));
	for (i = 0; i < hd->n; i++) {
		const struct ud_api_sym *s = &hd->v[i];

		q->first[i] = (uint32_t)q->nnamed;
		q->def[i][0] = defined_name(s->name);
		q->def[i][1] = renamed_to(s);
		/* a rename is named by its own name too: the tag changed, what it is called did */
		if (q->def[i][1] != 0)
			add_named(q, q->def[i][0]);
		q->pastes[i] =
			s->kind == UD_API_MACRO && s->text != NULL && strstr(s->text, "##") != NULL;
		scan(q, s->cond);
		scan(q, s->text);
		scan(q, s->source);
		scan_members(q, s->members, s->nmembers);
		if (s->decl != NULL)
			scan_members(q, s->decl, 1);
	}
	q->first[hd->n] = (uint32_t)q->nnamed;
	return q;
}

struct ud_api_names *
api_names_hold(struct ud_api_names *q)
{
	if (q != NULL)
		__atomic_add_fetch(&q->refs, 1, __ATOMIC_RELAXED);
	return q;
}

void
api_names_release(struct ud_api_names *q)
{
	if (q == NULL || __atomic_sub_fetch(&q->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	free(q->first);
	free(q->named);
	free(q->def);
	free(q->pastes);
	free(q);
}

/* One version's symbols, numbered in header order, with what each names. */
struct api_quiet_side {
	const struct ud_api_header *v;
	size_t n;
	struct ud_api_names **names; /* per header: its model's, or one made here */
	size_t *sym0;		     /* per header: the number of its first symbol; [n]: all */
	unsigned char *mark;	     /* per symbol: 0, CHANGED (its names to add), DONE */
	bool *reorders;		     /* per header: its #includes are not the other version's */
	unsigned **includes; /* per header: its #includes' indexes (UINT32_MAX: none here) */
};

enum { CHANGED = 1, DONE = 2 };

/* Whether a's #includes (paths and conditions, in order) are b's. */
static bool
same_includes(const struct ud_api_header *a, const struct ud_api_header *b)
{
	size_t i;

	if (a->nincludes != b->nincludes)
		return false;
	for (i = 0; i < a->nincludes; i++)
		if (strcmp(a->includes[i], b->includes[i]) != 0 ||
		    strcmp(a->include_conds[i], b->include_conds[i]) != 0)
			return false;
	return true;
}

/*
 * Marks CHANGED the symbols of h that o (the other version's header of its
 * path) has no twin of: no symbol of the same key and fingerprint.  Both
 * are sorted by key (api_finish), each key once.
 */
static void
mark_changed(struct api_quiet_side *q, size_t h, const struct ud_api_header *o)
{
	const struct ud_api_header *hd = &q->v[h];
	size_t i, j = 0;

	for (i = 0; i < hd->n; i++) {
		int c = 1;

		while (o != NULL && j < o->n && (c = strcmp(o->v[j].key, hd->v[i].key)) < 0)
			j++;
		if (o == NULL || j >= o->n || c != 0 || o->v[j].fingerprint != hd->v[i].fingerprint)
			q->mark[q->sym0[h] + i] = CHANGED;
	}
}

struct api_quiet_side *
api_quiet_scan(const struct ud_api_header *v, size_t n, const struct ud_api_header *other,
	       size_t nother)
{
	struct api_quiet_side *q = ud_xcalloc(1, sizeof(*q));
	size_t h, i, nsyms = 0;

	q->v = v;
	q->n = n;
	q->names = ud_xcalloc(n + 1, sizeof(*q->names));
	q->sym0 = ud_xcalloc(n + 1, sizeof(*q->sym0));
	for (h = 0; h < n; h++) {
		const struct ud_api_names *own = v[h].names;

		q->sym0[h] = nsyms;
		nsyms += v[h].n;
		/* a model resolved, or made by hand, has none of its own (or an old one) */
		q->names[h] =
			own != NULL && own->n == v[h].n && own->fingerprint == v[h].fingerprint
				? api_names_hold(v[h].names)
				: api_names_make(&v[h]);
	}
	q->sym0[n] = nsyms;
	q->mark = ud_xcalloc(nsyms + 1, sizeof(*q->mark));
	q->reorders = ud_xcalloc(n + 1, sizeof(*q->reorders));
	q->includes = ud_xcalloc(n + 1, sizeof(*q->includes));
	for (h = 0; h < n; h++) {
		const struct ud_api_header *o = ud_api_find_header(other, nother, v[h].path);

		q->reorders[h] = o == NULL || !same_includes(&v[h], o);
		/* a header of the same model has a twin of every symbol: none changed */
		if (o == NULL || o->fingerprint != v[h].fingerprint)
			mark_changed(q, h, o);
		for (i = 0; i < v[h].n; i++)
			if (q->names[h]->pastes[i])
				q->mark[q->sym0[h] + i] = CHANGED;
		q->includes[h] = ud_xcalloc(v[h].nincludes + 1, sizeof(**q->includes));
		for (i = 0; i < v[h].nincludes; i++) {
			const struct ud_api_header *in = ud_api_find_header(v, n, v[h].includes[i]);

			q->includes[h][i] = in != NULL ? (unsigned)(in - v) : UINT32_MAX;
		}
	}
	return q;
}

void
api_quiet_free(struct api_quiet_side *q)
{
	size_t h;

	if (q == NULL)
		return;
	for (h = 0; h < q->n; h++) {
		free(q->includes[h]);
		api_names_release(q->names[h]);
	}
	free(q->names);
	free(q->includes);
	free(q->sym0);
	free(q->mark);
	free(q->reorders);
	free(q);
}

/* The filter before the set of names: 2^18 bits, 32 KiB, what the first level of cache holds. */
#define FILTER_WORDS 4096

/* A set of name hashes: open addressing, 0 standing for the hash 0's place. */
struct hashset {
	uint64_t *v;
	size_t cap, n;
};

static bool hashset_add(struct hashset *s, uint64_t h);

static void
hashset_grow(struct hashset *s)
{
	struct hashset bigger = {NULL, s->cap == 0 ? 1024 : s->cap * 2, 0};
	size_t i;

	bigger.v = ud_xcalloc(bigger.cap, sizeof(*bigger.v));
	for (i = 0; i < s->cap; i++)
		if (s->v[i] != 0)
			hashset_add(&bigger, s->v[i]);
	free(s->v);
	*s = bigger;
}

/* Adds h (0 taken as 1: a collision more, never a name lost); whether it is new. */
static bool
hashset_add(struct hashset *s, uint64_t h)
{
	size_t i;

	if (h == 0)
		h = 1;
	if ((s->n + 1) * 2 > s->cap)
		hashset_grow(s);
	for (i = (size_t)(h ^ (h >> 29)) & (s->cap - 1); s->v[i] != 0; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == h)
			return false;
	s->v[i] = h;
	s->n++;
	return true;
}

static inline bool
hashset_has(const struct hashset *s, uint64_t h)
{
	size_t i;

	if (s->cap == 0)
		return false;
	if (h == 0)
		h = 1;
	for (i = (size_t)(h ^ (h >> 29)) & (s->cap - 1); s->v[i] != 0; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == h)
			return true;
	return false;
}

/*
 * Marks changed every symbol of q that names a name of names; true if any
 * was.  Only symbols not marked yet are read; most names are no name of
 * names, which the filter's one bit says without the set.
 */
static bool
mark_users(struct api_quiet_side *q, const struct hashset *names, const uint64_t *filter)
{
	size_t h, i, j;
	bool any = false;

	for (h = 0; h < q->n; h++) {
		const struct ud_api_names *nm = q->names[h];
		unsigned char *mark = q->mark + q->sym0[h];

		for (i = 0; i < nm->n; i++) {
			if (mark[i] != 0)
				continue;
			for (j = nm->first[i]; j < nm->first[i + 1]; j++) {
				uint64_t x = nm->named[j];

				if (((filter[(x >> 6) & (FILTER_WORDS - 1)] >> (x & 63)) & 1) &&
				    hashset_has(names, x)) {
					mark[i] = CHANGED;
					any = true;
					break;
				}
			}
		}
	}
	return any;
}

/* Adds the names the CHANGED symbols of q define to names and filter; marks them DONE. */
static void
add_defined(struct api_quiet_side *q, struct hashset *names, uint64_t *filter)
{
	size_t h, i, k;

	for (h = 0; h < q->n; h++) {
		const struct ud_api_names *nm = q->names[h];
		unsigned char *mark = q->mark + q->sym0[h];

		for (i = 0; i < nm->n; i++)
			if (mark[i] == CHANGED) {
				for (k = 0; k < 2; k++) {
					uint64_t x = nm->def[i][k];

					if (x == 0)
						continue;
					hashset_add(names, x);
					filter[(x >> 6) & (FILTER_WORDS - 1)] |= (uint64_t)1
										 << (x & 63);
				}
				mark[i] = DONE;
			}
	}
}

/*
 * Per header of q: whether a header it includes, directly or not (or
 * itself), includes other headers than in the other version.  Found from
 * those, back along the #includes.
 */
static bool *
reordered_closures(const struct api_quiet_side *q)
{
	bool *bad = ud_xcalloc(q->n + 1, sizeof(*bad));
	const struct ud_api_header *prelude;
	bool more = true;
	size_t h, i;

	for (h = 0; h < q->n; h++)
		bad[h] = q->reorders[h];
	/* as many passes as the longest chain of #includes, a few */
	while (more) {
		more = false;
		for (h = 0; h < q->n; h++)
			for (i = 0; !bad[h] && i < q->v[h].nincludes; i++)
				if (q->includes[h][i] != UINT32_MAX && bad[q->includes[h][i]]) {
					bad[h] = true;
					more = true;
				}
	}
	/*
	 * A name a header uses without including where it is defined is
	 * looked up as linux/types.h sees it (api-resolve.c's prelude): in
	 * every header, when what linux/types.h sees moved.
	 */
	if ((prelude = ud_api_find_header(q->v, q->n, "linux/types.h")) != NULL &&
	    bad[prelude - q->v])
		for (h = 0; h < q->n; h++)
			bad[h] = true;
	return bad;
}

/* The quiet symbols of header h of q: those not marked, or NULL when none is. */
static bool *
quiet_symbols(const struct api_quiet_side *q, size_t h)
{
	const unsigned char *mark = q->mark + q->sym0[h];
	size_t i, n = q->sym0[h + 1] - q->sym0[h], some = 0;
	bool *quiet;

	for (i = 0; i < n; i++)
		some += mark[i] == 0;
	if (some == 0)
		return NULL;
	quiet = ud_xcalloc(n + 1, sizeof(*quiet));
	for (i = 0; i < n; i++)
		quiet[i] = mark[i] == 0;
	return quiet;
}

void
api_quiet_decide(struct api_quiet_side *side[2], bool **quiet[2])
{
	struct hashset names = {NULL, 0, 0};
	uint64_t *filter = ud_xcalloc(FILTER_WORDS, sizeof(*filter));
	bool *bad[2], more;
	size_t s, h;

	/* the names whose definitions changed, then those of their users, to the end */
	do {
		for (s = 0; s < 2; s++)
			add_defined(side[s], &names, filter);
		/* both versions' users marked each round, whatever the first found */
		more = mark_users(side[0], &names, filter);
		more = mark_users(side[1], &names, filter) || more;
	} while (more);
	free(filter);
	for (s = 0; s < 2; s++) {
		bad[s] = reordered_closures(side[s]);
		quiet[s] = ud_xcalloc(side[s]->n + 1, sizeof(**quiet));
	}
	/*
	 * A symbol of the same text names the same names in both versions:
	 * it is marked in both or in neither.  Where #includes moved, a
	 * header's look-ups may find other definitions in one of them: none
	 * of its symbols is quiet, in either.
	 */
	for (h = 0; h < side[0]->n; h++) {
		const struct ud_api_header *o = &side[0]->v[h];
		const struct ud_api_header *n = ud_api_find_header(side[1]->v, side[1]->n, o->path);
		size_t j = n != NULL ? (size_t)(n - side[1]->v) : 0;

		if (n == NULL || bad[0][h] || bad[1][j])
			continue;
		quiet[0][h] = quiet_symbols(side[0], h);
		quiet[1][j] = quiet_symbols(side[1], j);
	}
	for (s = 0; s < 2; s++) {
		free(bad[s]);
		api_quiet_free(side[s]);
		side[s] = NULL;
	}
	free(names.v);
}
