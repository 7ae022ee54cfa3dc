// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One version of the installed headers read for a target ABI
 * (ud_api_resolve, api.h; the shared parts in api-internal.h).
 *
 * Names are looked up as a compiler of one header sees them: the
 * header's own definitions, then its #includes' breadth first (an
 * #include under a condition the target decides false is not followed),
 * and for values and types (not for conditions) any header of the
 * version where the header itself leaves a name undefined.  A definition
 * whose conditions are false on the target is skipped; one whose
 * conditions the target does not decide stops the look-up (the answer
 * depends on the program), except a default ("#ifndef X / #define X").
 *
 * A condition is split at its top-level &&; each term is evaluated as
 * the preprocessor would on the target (api-eval.c): a false term makes
 * the symbol absent, a true one is dropped, the undecided ones remain as
 * the symbol's condition (its key: "struct pt_regs" on x86-64, whatever
 * the header's __ASSEMBLY__ spelling).  Memoized per symbol, cycles
 * broken (a condition met again while it is evaluated is undecided).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/buf.h"
#include "uapid/chars.h"
#include "uapid/expr.h"
#include "uapid/xmalloc.h"

/* ---- names ---- */

static int
ns_of(const struct ud_api_sym *s)
{
	switch (s->kind) {
	case UD_API_MACRO:
		return API_NS_MACRO;
	case UD_API_STRUCT:
	case UD_API_UNION:
	case UD_API_ENUM:
		/* "struct (typedef foo_t)" has no tag: the typedef's name finds it */
		return strchr(s->name, '(') == NULL ? API_NS_TAG : -1;
	case UD_API_TYPEDEF:
	case UD_API_ENUM_CONST:
		return API_NS_ORDINARY;
	default:
		return -1;
	}
}

/* The map key of name[0..n) in namespace ns (written into buf). */
static const char *
key_of(enum api_ns ns, const char *name, size_t n, char *buf, size_t cap)
{
	if (n + 2 > cap)
		return NULL;
	if (ns == API_NS_MACRO) {
		buf[0] = '#';
		memcpy(buf + 1, name, n);
		buf[n + 1] = '\0';
	} else {
		memcpy(buf, name, n);
		buf[n] = '\0';
	}
	return buf;
}

struct ud_api_sym *
api_sym(struct api_ctx *c, struct api_ref r)
{
	return &c->v[r.h].v[r.i];
}

static void
ctx_init(struct api_ctx *c, struct ud_api_header *v, size_t n, const struct ud_abi *abi)
{
	size_t h, i;
	char buf[512];

	memset(c, 0, sizeof(*c));
	c->abi = abi;
	c->cur_h = UINT32_MAX;
	c->v = v;
	c->n = n;
	c->hd = ud_xcalloc(n + 1, sizeof(*c->hd));
	for (h = 0; h < n; h++) {
		struct api_hdr *d = &c->hd[h];

		d->st = ud_xcalloc(v[h].n + 1, sizeof(*d->st));
		d->next = ud_xcalloc(v[h].n + 1, sizeof(*d->next));
		for (i = 0; i < v[h].n; i++) {
			const struct ud_api_sym *s = &v[h].v[i];
			int ns = ns_of(s);
			const char *k;
			uintptr_t first;

			if (ns < 0 || (k = key_of((enum api_ns)ns, s->name, strlen(s->name), buf,
						  sizeof(buf))) == NULL)
				continue;
			/* "#define __snd_pcm_mmap_status snd_pcm_mmap_status": a tag renamed */
			if (ns == API_NS_MACRO && s->params == NULL && s->text[0] != '\0' &&
			    s->text[strspn(s->text,
					   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
					   "0123456789")] == '\0' &&
			    !ud_is_digit((unsigned char)s->text[0]) &&
			    !ud_map_has(&c->renamed, s->text))
				ud_map_put(&c->renamed, s->text, s->name);
			first = (uintptr_t)ud_map_get(&d->names, k);
			if (first == 0) {
				struct api_ref *ref;
				uintptr_t g = (uintptr_t)ud_map_get(&c->global, k);

				ud_map_put(&d->names, k, (void *)(uintptr_t)(i + 1));
				/* the global chain: the headers that define it, in path order */
				c->refs = ud_xgrow(c->refs, &c->arefs, c->nrefs + 1,
						   sizeof(*c->refs));
				c->gnext = ud_xgrow(c->gnext, &c->agnext, c->nrefs + 1,
						    sizeof(*c->gnext));
				ref = &c->refs[c->nrefs];
				ref->h = (unsigned)h;
				ref->i = (unsigned)i;
				c->gnext[c->nrefs] = 0;
				if (g == 0) {
					ud_map_put(&c->global, k,
						   (void *)(uintptr_t)(c->nrefs + 1));
				} else {
					size_t j = g - 1;

					while (c->gnext[j] != 0)
						j = c->gnext[j] - 1;
					c->gnext[j] = (unsigned)(c->nrefs + 1);
				}
				c->nrefs++;
			} else {
				size_t j = first - 1;

				while (d->next[j] != 0)
					j = d->next[j] - 1;
				d->next[j] = (unsigned)(i + 1);
			}
		}
	}
}

static void
ctx_free(struct api_ctx *c)
{
	size_t h, i;

	for (h = 0; h < c->n; h++) {
		struct api_hdr *d = &c->hd[h];

		for (i = 0; i < c->v[h].n; i++) {
			free(d->st[i].residual);
			free(d->st[i].why);
			if (d->st[i].type != NULL) {
				api_type_free(d->st[i].type);
				free(d->st[i].type);
			}
		}
		free(d->st);
		free(d->next);
		free(d->closure);
		ud_map_free(&d->names, NULL);
		ud_map_free(&d->seen, NULL);
	}
	free(c->hd);
	free(c->refs);
	free(c->gnext);
	ud_map_free(&c->global, NULL);
	ud_map_free(&c->renamed, NULL);
	ud_arena_free(&c->arena);
}

static long
header_index(const struct api_ctx *c, const char *path)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k = strcmp(c->v[mid].path, path);

		if (k == 0)
			return (long)mid;
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The headers h sees, itself first, then its #includes breadth first;
 * an #include under a condition the target makes false is not followed
 * (decided on the target's macros alone: the headers' own are what is
 * being found).
 */
static void
closure(struct api_ctx *c, unsigned h)
{
	struct api_hdr *d = &c->hd[h];
	size_t alloc = 0, head;
	unsigned char *seen;

	if (d->closure_done)
		return;
	d->closure_done = true;
	seen = ud_xcalloc(c->n + 1, 1);
	d->closure = ud_xgrow(d->closure, &alloc, 1, sizeof(*d->closure));
	d->closure[d->nclosure++] = h;
	seen[h] = 1;
	for (head = 0; head < d->nclosure; head++) {
		const struct ud_api_header *q = &c->v[d->closure[head]];
		size_t i;

		for (i = 0; i < q->nincludes; i++) {
			long g = header_index(c, q->includes[i]);

			if (g < 0 || seen[g])
				continue;
			if (q->include_conds != NULL && q->include_conds[i][0] != '\0' &&
			    api_cond_eval(c, UINT32_MAX, q->include_conds[i]) == UD_FALSE)
				continue;
			seen[g] = 1;
			d->closure =
				ud_xgrow(d->closure, &alloc, d->nclosure + 1, sizeof(*d->closure));
			d->closure[d->nclosure++] = (unsigned)g;
		}
	}
	free(seen);
}

static int sym_cond_alone(struct api_ctx *c, struct api_ref r);

/* Whether both conditions test defined(NAME) (key "#NAME"): the same #ifndef block. */
static bool
same_block(const char *a, const char *b, const char *key)
{
	char term[300];

	if (b == NULL || key[0] != '#' || strlen(key) > 280)
		return false;
	snprintf(term, sizeof(term), "defined(%s)", key + 1);
	return strstr(a, term) != NULL && strstr(b, term) != NULL;
}

/*
 * 1: a definition of key in header g, true on the target or, where the
 * target does not decide, for a compiler of the header alone (no libc
 * header before it, no macro of the program); 0: none.
 */
static int
find_in(struct api_ctx *c, unsigned g, const char *key, struct api_ref *out)
{
	uintptr_t first = (uintptr_t)ud_map_get(&c->hd[g].names, key);
	size_t i;

	for (i = first; i != 0; i = c->hd[g].next[i - 1]) {
		struct api_ref r = {g, (unsigned)(i - 1)};
		int t;

		/*
		 * A condition sees what its own header defined before it, not
		 * after, nor what the block it tests defines ("#ifndef X /
		 * #define X / ... #endif": X is defined after the test).
		 */
		if (g == c->cur_h && (api_sym(c, r)->line >= c->cur_line ||
				      same_block(api_sym(c, r)->cond, c->cur_cond, key)))
			continue;
		t = api_sym_cond(c, r);
		if (t == UD_UNKNOWN)
			t = sym_cond_alone(c, r);
		if (t == UD_TRUE) {
			*out = r;
			return 1;
		}
	}
	return 0;
}

bool
api_lookup(struct api_ctx *c, unsigned h, enum api_ns ns, const char *name, size_t n, bool global,
	   struct api_ref *out, bool *undecided)
{
	char buf[512];
	const char *key = key_of(ns, name, n, buf, sizeof(buf));
	size_t k;
	uintptr_t g;

	/* outside a condition's evaluation a look-up's answer is the same each time: kept */
	bool memo = h < c->n && c->cur_h == UINT32_MAX && !c->alone;

	*undecided = false;
	if (key == NULL)
		return false;
	if (memo) {
		uintptr_t v = (uintptr_t)ud_map_get(&c->hd[h].seen, key);

		if (v != 0 && v != UINTPTR_MAX) {
			out->h = (unsigned)((v - 1) >> 24);
			out->i = (unsigned)((v - 1) & 0xffffff);
			return true;
		}
		if (v == UINTPTR_MAX && !global)
			return false;
	}
	if (h < c->n) {
		closure(c, h);
		for (k = 0; k < c->hd[h].nclosure; k++)
			if (find_in(c, c->hd[h].closure[k], key, out) > 0) {
				if (memo && out->i < 0xffffff)
					ud_map_put(
						&c->hd[h].seen, key,
						(void *)((((uintptr_t)out->h << 24) | out->i) + 1));
				return true;
			}
		if (memo)
			ud_map_put(&c->hd[h].seen, key, (void *)UINTPTR_MAX);
	}
	if (!global)
		return false;
	for (g = (uintptr_t)ud_map_get(&c->global, key); g != 0; g = c->gnext[g - 1])
		if (find_in(c, c->refs[g - 1].h, key, out) > 0)
			return true;
	return false;
}

/* ---- conditions ---- */

/* The next top-level " && " of cond at or after p, or NULL. */
static const char *
next_and(const char *p)
{
	int depth = 0;

	for (; *p != '\0'; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (depth == 0 && strncmp(p, " && ", 4) == 0)
			return p;
	}
	return NULL;
}

/* The truth of cond in header h's view; the terms left undecided in *residual (may be NULL). */
static int
cond_terms(struct api_ctx *c, unsigned h, const char *cond, char **residual)
{
	struct ud_buf left = UD_BUF_INIT;
	const char *p = cond;
	int truth = UD_TRUE;

	while (*p != '\0') {
		const char *e = next_and(p);
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		char *term = ud_xstrndup(p, len);
		int t = api_eval_condition(c, h, term);

		if (t == UD_FALSE) {
			truth = UD_FALSE;
			free(term);
			break;
		}
		if (t != UD_TRUE) {
			truth = UD_UNKNOWN;
			if (left.len > 0)
				ud_buf_addstr(&left, " && ");
			ud_buf_addstr(&left, term);
		}
		free(term);
		p += len;
		if (e != NULL)
			p += 4;
	}
	if (residual != NULL)
		*residual = ud_buf_detach(&left, NULL);
	ud_buf_free(&left);
	return truth;
}

int
api_cond_eval(struct api_ctx *c, unsigned h, const char *cond)
{
	bool alone = c->alone;
	int t;

	c->alone = false;
	t = cond_terms(c, h, cond, NULL);
	c->alone = alone;
	return t;
}

int
api_cond_eval_alone(struct api_ctx *c, unsigned h, const char *cond)
{
	bool alone = c->alone;
	int t;

	c->alone = true;
	t = cond_terms(c, h, cond, NULL);
	c->alone = alone;
	return t;
}

int
api_sym_cond(struct api_ctx *c, struct api_ref r)
{
	struct api_symstate *st = &c->hd[r.h].st[r.i];
	bool alone = c->alone;

	if (st->cond_st == API_DONE)
		return st->cond;
	if (st->cond_st == API_BUSY)
		return UD_UNKNOWN;
	unsigned cur_h = c->cur_h, cur_line = c->cur_line;
	const char *cur_cond = c->cur_cond;

	st->cond_st = API_BUSY;
	c->alone = false;
	c->cur_h = r.h;
	c->cur_line = api_sym(c, r)->line;
	c->cur_cond = api_sym(c, r)->cond;
	st->cond = (unsigned char)cond_terms(c, r.h, api_sym(c, r)->cond, &st->residual);
	c->alone = alone;
	c->cur_h = cur_h;
	c->cur_line = cur_line;
	c->cur_cond = cur_cond;
	st->cond_st = API_DONE;
	return st->cond;
}

static int
sym_cond_alone(struct api_ctx *c, struct api_ref r)
{
	struct api_symstate *st = &c->hd[r.h].st[r.i];

	if (st->alone_st == API_DONE)
		return st->alone;
	if (st->alone_st == API_BUSY)
		return UD_FALSE;
	unsigned cur_h = c->cur_h, cur_line = c->cur_line;
	const char *cur_cond = c->cur_cond;

	st->alone_st = API_BUSY;
	c->cur_h = r.h;
	c->cur_line = api_sym(c, r)->line;
	c->cur_cond = api_sym(c, r)->cond;
	st->alone = (unsigned char)api_cond_eval_alone(c, r.h, api_sym(c, r)->cond);
	c->cur_h = cur_h;
	c->cur_line = cur_line;
	c->cur_cond = cur_cond;
	st->alone_st = API_DONE;
	return st->alone;
}

/* ---- the version, for the target ---- */

/* Members under conditions false on the target dropped, the others' conditions left undecided. */
static void
prune_members(struct api_ctx *c, unsigned h, struct ud_api_member *m, size_t *n)
{
	size_t i, j;

	for (i = j = 0; i < *n; i++) {
		if (m[i].cond != NULL && m[i].cond[0] != '\0') {
			char *left = NULL;

			if (cond_terms(c, h, m[i].cond, &left) == UD_FALSE) {
				free(left);
				api_members_free_one(&m[i]);
				continue;
			}
			free(m[i].cond);
			m[i].cond = left;
		}
		if (m[i].nsub > 0)
			prune_members(c, h, m[i].sub, &m[i].nsub);
		m[j++] = m[i];
	}
	*n = j;
}

/* The arguments of an ioctl: the size of the type its request number holds. */
static void
ioctl_size(struct api_ctx *c, unsigned h, struct ud_api_sym *s)
{
	struct api_type t;

	if (!s->is_ioctl || s->ioctl.arg == NULL)
		return;
	if (api_type_of_text(c, h, s->ioctl.arg, &t) && t.known) {
		s->ioctl.size_known = true;
		s->ioctl.size = t.size;
	}
	api_type_free(&t);
}

void
ud_api_resolve(struct ud_api_header *v, size_t n, const struct ud_abi *abi)
{
	struct api_ctx c;
	size_t h, i, j;

	ctx_init(&c, v, n, abi);
	for (h = 0; h < n; h++)
		for (i = 0; i < v[h].n; i++) {
			struct api_ref r = {(unsigned)h, (unsigned)i};
			struct ud_api_sym *s = &v[h].v[i];

			if (api_sym_cond(&c, r) == UD_FALSE)
				continue;
			api_eval_sym(&c, r);
			if (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION ||
			    s->kind == UD_API_ENUM || s->kind == UD_API_TYPEDEF)
				(void)api_layout_sym(&c, r);
			ioctl_size(&c, (unsigned)h, s);
		}
	/* members and #includes under false conditions: look-ups still read every symbol */
	for (h = 0; h < n; h++) {
		struct ud_api_header *hd = &v[h];

		for (i = 0; i < hd->n; i++)
			if (c.hd[h].st[i].cond != UD_FALSE)
				prune_members(&c, (unsigned)h, hd->v[i].members,
					      &hd->v[i].nmembers);
		for (i = j = 0; i < hd->nincludes; i++) {
			char *left = NULL;

			if (cond_terms(&c, (unsigned)h, hd->include_conds[i], &left) == UD_FALSE) {
				free(left);
				free(hd->includes[i]);
				free(hd->include_conds[i]);
				continue;
			}
			free(hd->include_conds[i]);
			hd->includes[j] = hd->includes[i];
			hd->include_conds[j++] = left;
		}
		hd->nincludes = j;
	}
	/* only now, with no look-up left: symbols absent on the target go */
	for (h = 0; h < n; h++) {
		struct ud_api_header *hd = &v[h];

		for (i = j = 0; i < hd->n; i++) {
			struct api_symstate *st = &c.hd[h].st[i];

			if (st->cond == UD_FALSE) {
				api_sym_free(&hd->v[i]);
				continue;
			}
			free(hd->v[i].cond);
			hd->v[i].cond = st->residual != NULL ? st->residual : ud_xstrdup("");
			st->residual = NULL;
			hd->v[j++] = hd->v[i];
		}
		hd->n = j;
		hd->abi = abi;
	}
	ctx_free(&c);
	for (h = 0; h < n; h++)
		api_finish(&v[h]);
}
