// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Types a header of both versions lost or gained with its #includes
 * (api.h's ud_api_diff_includes and ud_api_diff_includes_apart): the
 * types each header's #include closure sees in either version, compared;
 * a type of both versions seen in one closure only is reported for that
 * header.
 *
 * Apart from api-through.c because it is a pass of its own: it reads the
 * versions' #include graphs and type names only (numbered once), shares
 * nothing with the through diff but the diff it fills, and runs on a
 * second thread beside ud_api_diff_versions_own.  Pure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/util/arena.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

#define add api_diff_add

/*
 * The type names of both versions as small numbers, given once: the
 * closures of a thousand headers then gather numbers, not strings (a
 * million of them on 6.1 -> 6.12).
 */
struct type_ids {
	struct ud_map ids; /* "KIND NAME" -> 1 + its number (keys in keys) */
	struct ud_arena keys;
	const char **key; /* a number's "KIND NAME": kind is key[0] - 'A' */
	size_t n, alloc;
};

/* One version's headers, each with its types' numbers and its #includes' indexes. */
struct types_side {
	const struct ud_api_header *v;
	size_t nh;
	size_t *first; /* the types of v[i] are ids[first[i]] to ids[first[i + 1]] */
	size_t *ids;
	size_t *inc_first; /* the #includes of v[i]: inc[inc_first[i]] ... (SIZE_MAX: not in v) */
	size_t *inc;
	bool *defined; /* by number: a header of this version defines it */
	/* by number, for the closure being read: seen (== epoch) and where */
	size_t *seen;
	const char **from;
	size_t *order; /* the numbers seen, in the order seen */
	size_t norder;
	size_t *hseen; /* by header: in the closure being read (== epoch) */
};

/* The number of kind and name ("KIND NAME": visible_types' old key), given if new. */
static size_t
type_id(struct type_ids *t, const struct ud_api_sym *s)
{
	char buf[256], *k = buf;
	size_t len = strlen(s->name), id;
	void *v;

	if (len + 3 > sizeof(buf))
		k = ud_xmalloc(len + 3);
	k[0] = (char)('A' + (int)s->kind);
	k[1] = ' ';
	memcpy(k + 2, s->name, len + 1);
	v = ud_map_get(&t->ids, k);
	if (v != NULL) {
		id = (size_t)(uintptr_t)v - 1;
	} else {
		id = t->n;
		t->key = ud_xgrow(t->key, &t->alloc, t->n + 1, sizeof(*t->key));
		t->key[t->n++] = ud_arena_strndup(&t->keys, k, len + 2);
		ud_map_put(&t->ids, k, (void *)(uintptr_t)t->n);
	}
	if (k != buf)
		free(k);
	return id;
}

/* Numbers the types of side's headers and resolves their #includes. */
static void
types_side_init(struct types_side *sd, const struct ud_api_header *v, size_t n, struct type_ids *t)
{
	size_t i, j, nt = 0, ni = 0;

	memset(sd, 0, sizeof(*sd));
	sd->v = v;
	sd->nh = n;
	sd->first = ud_xcalloc(n + 1, sizeof(*sd->first));
	sd->inc_first = ud_xcalloc(n + 1, sizeof(*sd->inc_first));
	for (i = 0; i < n; i++) {
		for (j = 0; j < v[i].n; j++)
			nt += is_type_kind(v[i].v[j].kind);
		ni += v[i].nincludes;
		sd->first[i + 1] = nt;
		sd->inc_first[i + 1] = ni;
	}
	sd->ids = ud_xcalloc(nt + 1, sizeof(*sd->ids));
	sd->inc = ud_xcalloc(ni + 1, sizeof(*sd->inc));
	for (i = 0, nt = 0, ni = 0; i < n; i++) {
		for (j = 0; j < v[i].n; j++)
			if (is_type_kind(v[i].v[j].kind))
				sd->ids[nt++] = type_id(t, &v[i].v[j]);
		for (j = 0; j < v[i].nincludes; j++) {
			const struct ud_api_header *g = ud_api_find_header(v, n, v[i].includes[j]);

			sd->inc[ni++] = g != NULL ? (size_t)(g - v) : SIZE_MAX;
		}
	}
	sd->hseen = ud_xcalloc(n + 1, sizeof(*sd->hseen));
}

/* The by-number arrays, once every type of both versions has its number. */
static void
types_side_size(struct types_side *sd, size_t nids)
{
	size_t i;

	sd->defined = ud_xcalloc(nids + 1, sizeof(*sd->defined));
	for (i = 0; i < sd->first[sd->nh]; i++)
		sd->defined[sd->ids[i]] = true;
	sd->seen = ud_xcalloc(nids + 1, sizeof(*sd->seen));
	sd->from = ud_xcalloc(nids + 1, sizeof(*sd->from));
	sd->order = ud_xcalloc(nids + 1, sizeof(*sd->order));
}

static void
types_side_free(struct types_side *sd)
{
	free(sd->first);
	free(sd->ids);
	free(sd->inc_first);
	free(sd->inc);
	free(sd->defined);
	free(sd->seen);
	free(sd->from);
	free(sd->order);
	free(sd->hseen);
}

/* The headers v[h] includes, directly or not (v[h] first), as indexes into v. */
static void
closure(struct types_side *sd, size_t h, size_t epoch, size_t **out, size_t *nout)
{
	size_t head = 0, alloc = 0, i;

	*out = ud_xgrow(NULL, &alloc, 1, sizeof(**out));
	*nout = 0;
	(*out)[(*nout)++] = h;
	sd->hseen[h] = epoch;
	for (; head < *nout; head++) {
		size_t g = (*out)[head];

		for (i = sd->inc_first[g]; i < sd->inc_first[g + 1]; i++)
			if (sd->inc[i] != SIZE_MAX && sd->hseen[sd->inc[i]] != epoch) {
				sd->hseen[sd->inc[i]] = epoch;
				*out = ud_xgrow(*out, &alloc, *nout + 1, sizeof(**out));
				(*out)[(*nout)++] = sd->inc[i];
			}
	}
}

/* The types a closure sees, each with the first header of it that defines it. */
static void
visible_types(struct types_side *sd, const size_t *hs, size_t n, size_t epoch)
{
	size_t i, j;

	sd->norder = 0;
	for (i = 0; i < n; i++)
		for (j = sd->first[hs[i]]; j < sd->first[hs[i] + 1]; j++) {
			size_t id = sd->ids[j];

			if (sd->seen[id] == epoch)
				continue;
			sd->seen[id] = epoch;
			sd->from[id] = sd->v[hs[i]].path;
			sd->order[sd->norder++] = id;
		}
}

/* A hash of the names of the types v[i] defines (not their bodies: those do not change what is
 * seen). */
static uint64_t *
type_names_hashes(const struct ud_api_header *v, size_t n)
{
	uint64_t *h = ud_xcalloc(n + 1, sizeof(*h));
	size_t i, j;

	for (i = 0; i < n; i++) {
		uint64_t f = UD_FNV64_BASIS;

		for (j = 0; j < v[i].n; j++)
			if (is_type_kind(v[i].v[j].kind))
				f = ud_fnv64_str((f ^ (uint64_t)v[i].v[j].kind) * UD_FNV64_PRIME,
						 v[i].v[j].name);
		h[i] = f;
	}
	return h;
}

/* The two closures (indexes into va and vb) hold the same headers, each defining the same type
 * names. */
static bool
same_closure(const size_t *a, size_t na, const struct ud_api_header *va, const uint64_t *ha,
	     const size_t *b, size_t nb, const struct ud_api_header *vb, const uint64_t *hb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(va[a[i]].path, vb[b[i]].path) != 0 || ha[a[i]] != hb[b[i]])
			return false;
	return true;
}

/* The symbol of this kind and name that h defines itself, or NULL. */
static const struct ud_api_sym *
own(const struct ud_api_header *h, int kind, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if ((int)h->v[i].kind == kind && strcmp(h->v[i].name, name) == 0)
			return &h->v[i];
	return NULL;
}

/*
 * Reports the types the closure last read in a sees that the one in b
 * does not, for header h (lost: removed, else added); only types that
 * exist on both sides (defined by b's version): one removed or added for
 * good is reported where it is defined, not in every includer.
 */
static void
visibility_changes(struct ud_api_diff *out, const struct ud_api_header *h_old,
		   const struct ud_api_header *h_new, const struct type_ids *t,
		   const struct types_side *a, const struct types_side *b, size_t epoch, bool lost)
{
	size_t i;

	for (i = 0; i < a->norder; i++) {
		size_t id = a->order[i];
		const char *k = t->key[id], *from = a->from[id], *name = k + 2;
		int kind = k[0] - 'A'; /* type_id's key */
		struct ud_api_sym s;

		if (b->seen[id] == epoch || !b->defined[id] ||
		    own(lost ? h_old : h_new, kind, name) != NULL)
			continue; /* still seen, gone for good, or its own definition */
		memset(&s, 0, sizeof(s));
		s.kind = (enum ud_api_kind)kind;
		s.name = (char *)(uintptr_t)name;
		s.cond = (char *)(uintptr_t) "";
		if (lost)
			add(out, h_new->path, &s, UD_API_REMOVED, UD_API_REVIEW,
			    UD_API_RULE_INCLUDES, 1, 1,
			    "no longer seen through its #includes (%s defines it): a program that "
			    "used it must include that itself",
			    from);
		else
			add(out, h_new->path, &s, UD_API_ADDED, UD_API_COMPATIBLE,
			    UD_API_RULE_INCLUDES, 1, 1,
			    "now seen through its #includes (%s defines it)", from);
	}
}

void
ud_api_diff_includes_apart(const struct ud_api_header *o, size_t no, const struct ud_api_header *n,
			   size_t nn, struct ud_api_diff *out)
{
	struct ud_api_diff more;
	struct type_ids t;
	struct types_side so, sn;
	uint64_t *ho = type_names_hashes(o, no), *hn = type_names_hashes(n, nn);
	size_t i;

	memset(&more, 0, sizeof(more));
	memset(&t, 0, sizeof(t));
	t.ids.keys = &t.keys;
	types_side_init(&so, o, no, &t);
	types_side_init(&sn, n, nn, &t);
	types_side_size(&so, t.n);
	types_side_size(&sn, t.n);
	for (i = 0; i < nn; i++) {
		const struct ud_api_header *h_old = ud_api_find_header(o, no, n[i].path);
		size_t *co, *cn, nco, ncn, epoch = i + 1;

		if (h_old == NULL)
			continue; /* a new header: reported as such */
		closure(&so, (size_t)(h_old - o), epoch, &co, &nco);
		closure(&sn, i, epoch, &cn, &ncn);
		if (!same_closure(co, nco, o, ho, cn, ncn, n, hn)) {
			visible_types(&so, co, nco, epoch);
			visible_types(&sn, cn, ncn, epoch);
			visibility_changes(&more, h_old, &n[i], &t, &so, &sn, epoch, true);
			visibility_changes(&more, h_old, &n[i], &t, &sn, &so, epoch, false);
		}
		free(co);
		free(cn);
	}
	types_side_free(&so);
	types_side_free(&sn);
	free(t.key);
	ud_map_free(&t.ids, NULL);
	ud_arena_free(&t.keys);
	free(ho);
	free(hn);
	*out = more;
}

void
ud_api_diff_includes(struct ud_api_diff *d, const struct ud_api_header *o, size_t no,
		     const struct ud_api_header *n, size_t nn)
{
	struct ud_api_diff more;

	ud_api_diff_includes_apart(o, no, n, nn, &more);
	api_diff_merge(d, &more);
}
