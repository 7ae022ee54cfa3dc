// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One version of the installed headers read for a target ABI
 * (ud_api_resolve, api.h; the shared parts in api-internal.h).
 *
 * Names are looked up as a compiler of one header sees them: the
 * header's own definitions, then its #includes' breadth first (an
 * #include under a condition the target decides false is not followed;
 * a condition, an enumerator or an expansion in place sees only the
 * #includes written before its line), and for values and types (not
 * for conditions) any header of the version where the header itself
 * leaves a name undefined.  A definition whose conditions are false on
 * the target is skipped; one whose conditions the target does not decide
 * stops the look-up (the answer depends on the program), except a
 * default ("#ifndef X / #define X").
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
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/core/expr.h"
#include "uapid/util/xmalloc.h"

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

/* Whether text is identifier characters only (strspn with 63 accepted bytes is slow). */
static bool
ident_only(const char *text)
{
	const char *p = text;

	while (ud_is_ident((unsigned char)*p))
		p++;
	return *p == '\0';
}

/*
 * Makes symbol i of header h found by its name: one version-wide map from
 * a name to the chain of headers that define it (their first definition,
 * in path order), and per header the chain of its later definitions.
 * Headers are registered in path order, so a name's definitions in h are
 * at the tail of its chain.
 */
static void
register_sym(struct api_ctx *c, size_t h, size_t i)
{
	struct api_hdr *d = &c->hd[h];
	const struct ud_api_sym *s = &c->v[h].v[i];
	int ns = ns_of(s);
	const char *k;
	uintptr_t g;
	size_t j, hash, last = 0; /* last: the tail of the name's chain, when it has one */
	char buf[512];

	if (ns < 0 ||
	    (k = key_of((enum api_ns)ns, s->name, strlen(s->name), buf, sizeof(buf))) == NULL)
		return;
	/* "#define __snd_pcm_mmap_status snd_pcm_mmap_status": a tag or a typedef renamed */
	if (ns == API_NS_MACRO && s->params == NULL && s->text[0] != '\0' &&
	    !ud_is_digit((unsigned char)s->text[0]) && ident_only(s->text)) {
		struct api_rename *e = ud_arena_alloc(&c->arena, sizeof(*e)), **at;

		e->name = s->name;
		e->next = NULL;
		at = (struct api_rename **)ud_map_ref_n(&c->renamed, s->text, strlen(s->text),
							true);
		while (*at != NULL)
			at = &(*at)->next;
		*at = e;
	}
	hash = ud_map_hash(k);
	g = (uintptr_t)ud_map_get_hashed(&c->global, k, hash);
	if (g != 0) {
		for (last = g - 1; c->gnext[last] != 0; last = c->gnext[last] - 1)
			;
		if (c->refs[last].h == h) {
			/* defined again in the same header */
			for (j = c->refs[last].i; d->next[j] != 0; j = d->next[j] - 1)
				;
			d->next[j] = (unsigned)(i + 1);
			return;
		}
	}
	if (c->nrefs + 1 > c->arefs || c->nrefs + 1 > c->agnext) {
		c->refs = ud_xgrow(c->refs, &c->arefs, c->nrefs + 1, sizeof(*c->refs));
		c->gnext = ud_xgrow(c->gnext, &c->agnext, c->nrefs + 1, sizeof(*c->gnext));
	}
	c->refs[c->nrefs].h = (unsigned)h;
	c->refs[c->nrefs].i = (unsigned)i;
	c->gnext[c->nrefs] = 0;
	if (g == 0)
		ud_map_put_hashed(&c->global, k, hash, (void *)(uintptr_t)(c->nrefs + 1));
	else
		c->gnext[last] = (unsigned)(c->nrefs + 1);
	c->nrefs++;
}

static long header_index(const struct api_ctx *c, const char *path);

static void
ctx_init(struct api_ctx *c, struct ud_api_header *v, size_t n, const struct ud_abi *abi)
{
	size_t h, i;

	memset(c, 0, sizeof(*c));
	c->abi = abi;
	c->cur_h = UINT32_MAX;
	c->v = v;
	c->n = n;
	c->hd = ud_xcalloc(n + 1, sizeof(*c->hd));
	/* the name tables' keys live as long as the context: in its arena */
	c->global.keys = c->gseen.keys = c->abi_macros.keys = c->renamed.keys = &c->arena;
	/* one table for the version's names, made once: most symbols have a name of their own */
	for (h = i = 0; h < n; h++)
		i += v[h].n;
	ud_map_reserve(&c->global, i);
	c->refs = ud_xgrow(c->refs, &c->arefs, i + 1, sizeof(*c->refs));
	c->gnext = ud_xgrow(c->gnext, &c->agnext, i + 1, sizeof(*c->gnext));
	for (h = 0; h < n; h++) {
		struct api_hdr *d = &c->hd[h];

		d->seen.keys = &c->arena;
		d->st = ud_xcalloc(v[h].n + 1, sizeof(*d->st));
		d->nst = v[h].n;
		d->next = ud_xcalloc(v[h].n + 1, sizeof(*d->next));
		for (i = 0; i < v[h].n; i++)
			register_sym(c, h, i);
		for (i = 0; v[h].include_lines != NULL && i < v[h].nincludes; i++)
			if (v[h].include_lines[i] > d->last_include)
				d->last_include = v[h].include_lines[i];
	}
	c->prelude = header_index(c, "linux/types.h");
}

static void
ctx_free(struct api_ctx *c)
{
	size_t h, i;

	for (h = 0; h < c->n; h++) {
		struct api_hdr *d = &c->hd[h];

		/* most symbols own none of these: no call to free for them */
		for (i = 0; i < d->nst; i++) {
			if (d->st[i].residual != NULL)
				free(d->st[i].residual);
			if (d->st[i].why != NULL)
				free(d->st[i].why);
			if (d->st[i].type != NULL) {
				api_type_free(d->st[i].type);
				free(d->st[i].type);
			}
		}
		free(d->st);
		free(d->next);
		free(d->closure);
		free(d->in_closure);
		free(d->by_line);
		free(d->include_cond);
		free(d->include_h);
		ud_map_free(&d->seen, NULL);
	}
	free(c->hd);
	free(c->refs);
	free(c->gnext);
	ud_map_free(&c->global, NULL);
	ud_map_free(&c->gseen, NULL);
	ud_map_free(&c->abi_macros, NULL);
	ud_map_free(&c->renamed, NULL);
	api_type_memo_free(c);
	api_spare_free(c);
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

/* The index of the header #include i of header q names, or -1: found once. */
static long
include_index(struct api_ctx *c, unsigned q, size_t i)
{
	struct api_hdr *d = &c->hd[q];

	if (d->include_h == NULL)
		d->include_h = ud_xcalloc(c->v[q].nincludes + 1, sizeof(*d->include_h));
	if (d->include_h[i] == 0)
		d->include_h[i] = (unsigned)(header_index(c, c->v[q].includes[i]) + 2);
	return (long)d->include_h[i] - 2;
}

/*
 * The truth of #include i of header q's condition on the target: the same
 * in every closure that holds q, so kept where a look-up would keep its
 * answer (outside a condition's evaluation, not alone, no cycle broken).
 */
static int
include_cond(struct api_ctx *c, unsigned q, size_t i)
{
	struct api_hdr *d = &c->hd[q];
	bool memo = c->cur_h == UINT32_MAX && !c->alone;
	unsigned long broken = c->broken;
	int t;

	if (memo && d->include_cond != NULL && d->include_cond[i] != 0)
		return d->include_cond[i] - 1;
	t = api_cond_eval(c, UINT32_MAX, c->v[q].include_conds[i]);
	if (memo && c->broken == broken) {
		if (d->include_cond == NULL)
			d->include_cond = ud_xcalloc(c->v[q].nincludes + 1, 1);
		d->include_cond[i] = (unsigned char)(t + 1);
	}
	return t;
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
	seen = d->in_closure = ud_xcalloc(c->n + 1, 1);
	d->closure = ud_xgrow(d->closure, &alloc, 1, sizeof(*d->closure));
	d->closure[d->nclosure++] = h;
	seen[h] = 1;
	for (head = 0; head < d->nclosure; head++) {
		const struct ud_api_header *q = &c->v[d->closure[head]];
		size_t i;

		for (i = 0; i < q->nincludes; i++) {
			long g = include_index(c, d->closure[head], i);

			if (g < 0 || seen[g])
				continue;
			if (q->include_conds != NULL && q->include_conds[i][0] != '\0' &&
			    include_cond(c, d->closure[head], i) == UD_FALSE)
				continue;
			seen[g] = 1;
			d->closure =
				ud_xgrow(d->closure, &alloc, d->nclosure + 1, sizeof(*d->closure));
			d->closure[d->nclosure++] = (unsigned)g;
		}
	}
}

/*
 * h's by_line: each header its #includes bring, with the line of the
 * first #include that does (their closures, in the order written).
 */
static void
include_lines_of(struct api_ctx *c, unsigned h)
{
	struct api_hdr *d = &c->hd[h];
	const struct ud_api_header *q = &c->v[h];
	size_t i, k;

	if (d->by_line != NULL)
		return;
	d->by_line = ud_xcalloc(c->n + 1, sizeof(*d->by_line));
	for (i = 0; i < q->nincludes; i++) {
		long g = include_index(c, h, i);
		unsigned line = q->include_lines != NULL ? q->include_lines[i] : 0;

		if (g < 0 || d->by_line[g] != 0)
			continue;
		if (q->include_conds != NULL && q->include_conds[i][0] != '\0' &&
		    include_cond(c, h, i) == UD_FALSE)
			continue;
		closure(c, (unsigned)g);
		for (k = 0; k < c->hd[g].nclosure; k++) {
			unsigned x = c->hd[g].closure[k];

			if (x != h && d->by_line[x] == 0)
				d->by_line[x] = line > 0 ? line : 1;
		}
	}
}

/*
 * Whether header g is seen from header h where a look-up in place stands
 * (c->cur_line of c->cur_h): h itself, and what h's #includes before
 * that line bring.  A compiler reads "#if __BITS_PER_LONG == 32" of
 * mips' asm/fcntl.h before the #include that defines __BITS_PER_LONG.
 */
static bool
seen_yet(struct api_ctx *c, unsigned h, unsigned g)
{
	struct api_hdr *d = &c->hd[h];

	if (g == h || c->cur_h != h || c->cur_line > d->last_include)
		return true;
	include_lines_of(c, h);
	return d->by_line[g] != 0 && d->by_line[g] < c->cur_line;
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
 * 1: a definition of key in header g (its first is symbol first), true on
 * the target or, where the target does not decide, for a compiler of the
 * header alone (no libc header before it, no macro of the program); 0:
 * none.
 */
static int
find_in(struct api_ctx *c, unsigned g, unsigned first, const char *key, struct api_ref *out)
{
	size_t i;

	for (i = (size_t)first + 1; i != 0; i = c->hd[g].next[i - 1]) {
		struct api_ref r = {g, (unsigned)(i - 1)};
		int t;

		/*
		 * A condition, an enumerator or an expansion in place sees what
		 * its own header defined before it, not after (an enumerator
		 * earlier on its line, yes), nor what the block a condition
		 * tests defines ("#ifndef X / #define X / ... #endif": X is
		 * defined after the test).
		 */
		if (g == c->cur_h && (api_sym(c, r)->line > c->cur_line ||
				      (api_sym(c, r)->line == c->cur_line && key[0] == '#') ||
				      same_block(api_sym(c, r)->cond, c->cur_cond, key)))
			continue;
		/* a macro #undef'd: seen only before that line, in its own header */
		if (api_sym(c, r)->undef_line != 0 &&
		    !(g == c->cur_h && c->cur_line < api_sym(c, r)->undef_line))
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

/*
 * A look-up's answer as a memo keeps it: a reference in the arena, or
 * &no_ref when there is none (a map's NULL is "not looked up yet").
 */
static const struct api_ref no_ref;

static void *
memo_value(struct api_ctx *c, const struct api_ref *r)
{
	struct api_ref *p;

	if (r == NULL)
		return (void *)(uintptr_t)&no_ref;
	p = ud_arena_alloc(&c->arena, sizeof(*p));
	*p = *r;
	return p;
}

/*
 * The definition header h sees through its #includes: the headers of
 * name's chain (head) that h's closure holds, tried in the closure's
 * order.
 */
static bool
lookup_closure(struct api_ctx *c, unsigned h, uintptr_t head, const char *key, struct api_ref *out)
{
	struct api_hdr *d = &c->hd[h];
	uintptr_t g, only = 0;
	size_t k, count = 0;

	closure(c, h);
	for (g = head; g != 0; g = c->gnext[g - 1])
		if (d->in_closure[c->refs[g - 1].h] && seen_yet(c, h, c->refs[g - 1].h)) {
			only = g;
			count++;
		}
	if (count == 1)
		return find_in(c, c->refs[only - 1].h, c->refs[only - 1].i, key, out) > 0;
	/* defined in several headers it sees: the first in the closure's order */
	for (k = 0; k < d->nclosure && count > 0; k++)
		for (g = head; g != 0; g = c->gnext[g - 1])
			if (c->refs[g - 1].h == d->closure[k] && seen_yet(c, h, d->closure[k])) {
				if (find_in(c, d->closure[k], c->refs[g - 1].i, key, out) > 0)
					return true;
				count--;
				break;
			}
	return false;
}

bool
api_defined_often(struct api_ctx *c, enum api_ns ns, const char *name, size_t n)
{
	char buf[512];
	const char *key = key_of(ns, name, n, buf, sizeof(buf));
	uintptr_t head;

	if (key == NULL)
		return false;
	head = (uintptr_t)ud_map_get(&c->global, key);
	return head != 0 && c->gnext[head - 1] != 0;
}

bool
api_lookup(struct api_ctx *c, unsigned h, enum api_ns ns, const char *name, size_t n, bool global,
	   struct api_ref *out, bool *undecided)
{
	char buf[512];
	const char *key = key_of(ns, name, n, buf, sizeof(buf));
	uintptr_t head, g;
	size_t hash;

	/* outside a condition's evaluation a look-up's answer is the same each time: kept */
	bool memo = c->cur_h == UINT32_MAX && !c->alone;
	bool seen_none = false;

	*undecided = false;
	if (key == NULL)
		return false;
	/* a name no header of the version defines (most are): nothing to remember */
	hash = ud_map_hash(key); /* one hash for the maps asked below */
	head = (uintptr_t)ud_map_get_hashed(&c->global, key, hash);
	if (head == 0)
		return false;
	if (memo && h < c->n) {
		const struct api_ref *v = ud_map_get_hashed(&c->hd[h].seen, key, hash);

		if (v != NULL && v != &no_ref) {
			*out = *v;
			return true;
		}
		seen_none = v == &no_ref;
		if (seen_none && !global)
			return false;
	}
	if (h < c->n && !seen_none) {
		bool found = lookup_closure(c, h, head, key, out);

		if (memo)
			ud_map_put_hashed(&c->hd[h].seen, key, hash,
					  memo_value(c, found ? out : NULL));
		if (found)
			return true;
	}
	if (!global)
		return false;
	/* the version-wide answer, the same from every header */
	if (memo) {
		const struct api_ref *v = ud_map_get_hashed(&c->gseen, key, hash);

		if (v != NULL) {
			if (v == &no_ref)
				return false;
			*out = *v;
			return true;
		}
	}
	/*
	 * A name h uses without including where it is defined (h does not
	 * compile alone): the definition a program that includes
	 * <linux/types.h> sees, else the first in path order.  Path order
	 * alone took asm-generic/int-l64.h's __u64 (unsigned long) over
	 * int-ll64.h's on every ABI, 4 bytes on a 32-bit one.
	 */
	if (c->prelude >= 0 && lookup_closure(c, (unsigned)c->prelude, head, key, out)) {
		if (memo)
			ud_map_put_hashed(&c->gseen, key, hash, memo_value(c, out));
		return true;
	}
	for (g = head; g != 0; g = c->gnext[g - 1])
		if (find_in(c, c->refs[g - 1].h, c->refs[g - 1].i, key, out) > 0) {
			if (memo)
				ud_map_put_hashed(&c->gseen, key, hash, memo_value(c, out));
			return true;
		}
	if (memo)
		ud_map_put_hashed(&c->gseen, key, hash, memo_value(c, NULL));
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
		/* the last term ends the text: read in place, no copy */
		char *copy = e != NULL ? ud_xstrndup(p, len) : NULL;
		const char *term = copy != NULL ? copy : p;
		int t = api_eval_condition(c, h, term);

		if (t == UD_FALSE) {
			truth = UD_FALSE;
			free(copy);
			break;
		}
		if (t != UD_TRUE) {
			truth = UD_UNKNOWN;
			if (left.len > 0)
				ud_buf_addstr(&left, " && ");
			ud_buf_addstr(&left, term);
		}
		free(copy);
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
	if (api_sym(c, r)->cond[0] == '\0') {
		/* no condition (most symbols): true, and no residual to put in its place */
		st->cond = UD_TRUE;
		st->cond_st = API_DONE;
		return st->cond;
	}
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

/*
 * Members under conditions false on the target dropped, the others'
 * conditions left undecided; true when anything changed.
 */
static bool
prune_members(struct api_ctx *c, unsigned h, struct ud_api_member *m, size_t *n)
{
	size_t i, j;
	bool changed = false;

	for (i = j = 0; i < *n; i++) {
		if (m[i].cond != NULL && m[i].cond[0] != '\0') {
			char *left = NULL;

			changed = true;
			if (cond_terms(c, h, m[i].cond, &left) == UD_FALSE) {
				free(left);
				api_members_free_one(&m[i]);
				continue;
			}
			m[i].cond = api_adopt(&c->v[h], left);
		}
		if (m[i].nsub > 0)
			changed |= prune_members(c, h, m[i].sub, &m[i].nsub);
		m[j++] = m[i];
	}
	*n = j;
	return changed;
}

/* The arguments of an ioctl: the size of the type its request number holds. */
static void
ioctl_size(struct api_ctx *c, unsigned h, struct ud_api_sym *s)
{
	struct api_type t;

	if (!s->is_ioctl || s->ioctl->arg == NULL)
		return;
	if (api_type_of_text(c, h, s->ioctl->arg, &t) && t.known) {
		s->ioctl->size_known = true;
		s->ioctl->size = t.size;
	}
	api_type_free(&t);
}

/* A symbol appended to header h during resolution: the look-ups know it. */
static struct ud_api_sym *
append_sym(struct api_ctx *c, size_t h, enum ud_api_kind kind, const char *name,
	   const struct ud_api_sym *like)
{
	struct ud_api_header *hd = &c->v[h];
	struct api_hdr *d = &c->hd[h];
	struct ud_api_sym *s;
	/* like may move with the array (and be another header's) */
	char *cond = ud_strarena_strdup(&hd->strs, like->cond);
	unsigned line = like->line;

	hd->v = ud_xgrow(hd->v, &hd->alloc, hd->n + 1, sizeof(*hd->v));
	if (hd->n < d->nst) { /* the slot of a symbol a resolve dropped */
		free(d->st[hd->n].residual);
		free(d->st[hd->n].why);
		if (d->st[hd->n].type != NULL) {
			api_type_free(d->st[hd->n].type);
			free(d->st[hd->n].type);
		}
	} else {
		d->st = ud_xrealloc(d->st, (hd->n + 2) * sizeof(*d->st));
		d->nst = hd->n + 1;
	}
	d->next = ud_xrealloc(d->next, (hd->n + 2) * sizeof(*d->next));
	memset(&d->st[hd->n], 0, sizeof(*d->st));
	d->next[hd->n] = 0;
	s = &hd->v[hd->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = ud_strarena_strdup(&hd->strs, name);
	s->cond = cond;
	s->line = line;
	s->text = ud_strarena_strdup(&hd->strs, "");
	register_sym(c, h, hd->n - 1);
	return s;
}

/*
 * An enum whose body macros write ("enum bpf_func_id { __BPF_FUNC_MAPPER(
 * __BPF_ENUM_FN) __BPF_FUNC_MAX_ID }"): the body expanded, its
 * enumerators become its constants, with their values, as C sees them.
 */
static void
expand_enum(struct api_ctx *c, size_t h, size_t e)
{
	char *x;
	const struct ud_api_sym *at = &c->v[h].v[e]; /* before any symbol is appended */
	struct api_toks t = {NULL, 0, 0};
	struct ud_api_member *consts = NULL;
	size_t nconsts = 0, aconsts = 0, start = 0, i, depth = 0;
	long long next = 0;
	bool known = true;

	/* expanded where it stands: the macros defined before it, #undef'd or not yet */
	c->cur_h = (unsigned)h;
	c->cur_line = at->line;
	c->cur_cond = NULL;
	x = api_expand_text(c, (unsigned)h, at->source);
	c->cur_h = UINT32_MAX;
	if (x == NULL)
		return;
	api_tokenize(x, strlen(x), &t);
	for (i = 0; i <= t.n; i++) {
		struct ud_api_sym *s;
		char *name, *expr = NULL;
		size_t k;

		if (i < t.n && (api_tok_is(&t.v[i], "(") || api_tok_is(&t.v[i], "[")))
			depth++;
		else if (i < t.n && (api_tok_is(&t.v[i], ")") || api_tok_is(&t.v[i], "]")))
			depth--;
		if (i < t.n && !(depth == 0 && api_tok_is(&t.v[i], ",")))
			continue;
		if (i == start) {
			start = i + 1;
			continue;
		}
		if (!api_tok_ident(&t.v[start]) ||
		    (i > start + 1 && !api_tok_is(&t.v[start + 1], "="))) {
			start = i + 1;
			known = false; /* not an enumerator after all */
			continue;
		}
		name = ud_xstrndup(t.v[start].p, t.v[start].n);
		if (i > start + 2)
			expr = api_join(t.v, start + 2, i);
		/* the one the reader made, or a new one */
		s = NULL;
		for (k = 0; k < c->v[h].n && s == NULL; k++)
			if (c->v[h].v[k].kind == UD_API_ENUM_CONST &&
			    strcmp(c->v[h].v[k].name, name) == 0 &&
			    strcmp(c->v[h].v[k].cond, c->v[h].v[e].cond) == 0)
				s = &c->v[h].v[k];
		if (s == NULL)
			s = append_sym(c, h, UD_API_ENUM_CONST, name, &c->v[h].v[e]);
		/* the reader's text stays in the arena, unused */
		s->text = ud_strarena_strdup(&c->v[h].strs, expr != NULL ? expr : "(implicit)");
		if (expr != NULL) {
			struct api_val v = api_eval_text(c, (unsigned)h, expr);

			known = v.known;
			next = v.known ? api_val_signed(&v, c->abi) : 0;
		}
		s->has_value = known;
		s->value = known ? next : 0;
		s->value_unsigned = false;
		c->hd[h].st[s - c->v[h].v].value_st = API_DONE;
		next++;
		consts = ud_xgrow(consts, &aconsts, nconsts + 1, sizeof(*consts));
		memset(&consts[nconsts], 0, sizeof(*consts));
		consts[nconsts].name = api_adopt(&c->v[h], name);
		consts[nconsts].type = ud_strarena_strdup(&c->v[h].strs, "");
		consts[nconsts].bits = -1;
		nconsts++;
		free(expr);
		start = i + 1;
	}
	c->hd[h].dirty = c->hd[h].rekey = true;
	if (nconsts > 0) {
		struct ud_api_sym *en = &c->v[h].v[e];

		api_members_free(en->members, en->nmembers);
		en->members = consts;
		en->nmembers = nconsts;
	} else {
		free(consts);
	}
	free(t.v);
	free(x);
}

/* The start of a resolution: the context, enums macros write. */
static void
resolve_begin(struct api_ctx *c, struct ud_api_header *v, size_t n, const struct ud_abi *abi)
{
	size_t h, i;

	ctx_init(c, v, n, abi);
	for (h = 0; h < n; h++)
		for (i = 0; i < v[h].n; i++) {
			struct api_ref r = {(unsigned)h, (unsigned)i};

			if (v[h].v[i].kind == UD_API_ENUM && v[h].v[i].source != NULL &&
			    api_sym_cond(c, r) != UD_FALSE)
				expand_enum(c, h, i);
		}
}

/*
 * A function-like macro called with a placeholder for each parameter
 * ("__BPF_FUNC_MAPPER(__uapid_p0)"), expanded: what its users get, however
 * it is written (the X-macro that a compatibility wrapper now forwards).
 */
static char *
placeholder_expansion(struct api_ctx *c, unsigned h, const struct ud_api_sym *s)
{
	struct api_toks p = {NULL, 0, 0};
	struct ud_buf call = UD_BUF_INIT;
	size_t i, k = 0;
	char *x;

	api_tokenize(s->params, strlen(s->params), &p);
	ud_buf_addf(&call, "%s(", s->name);
	for (i = 0; i < p.n; i++)
		if (api_tok_ident(&p.v[i]) && !(i + 1 < p.n && api_tok_is(&p.v[i + 1], "..."))) {
			ud_buf_addf(&call, "%s__uapid_p%zu", k > 0 ? ", " : "", k);
			k++;
		}
	ud_buf_addch(&call, ')');
	x = api_expand_text(c, h, call.data);
	free(p.v);
	ud_buf_free(&call);
	return x;
}

/*
 * Values (of the symbols want marks, or all when want is NULL) and the
 * layout of every type present on the target, but of the symbols quiet
 * marks (when not NULL, of the count[h] first of each header): their
 * conditions only.
 */
static void
resolve_values(struct api_ctx *c, const bool *const *want, const bool *const *expand,
	       const size_t *count, const bool *const *quiet)
{
	size_t h, i;

	for (h = 0; h < c->n; h++)
		for (i = 0; i < c->v[h].n; i++) {
			struct api_ref r = {(unsigned)h, (unsigned)i};
			struct ud_api_sym *s = &c->v[h].v[i];

			if (api_sym_cond(c, r) == UD_FALSE ||
			    (quiet != NULL && quiet[h] != NULL && i < count[h] && quiet[h][i]))
				continue;
			if (want == NULL || want[h][i])
				api_eval_sym(c, r);
			if (want != NULL && want[h][i] && s->params != NULL &&
			    (expand == NULL || (i < count[h] && expand[h][i])))
				s->expansion = api_adopt(&c->v[h],
							 placeholder_expansion(c, (unsigned)h, s));
			if (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION ||
			    s->kind == UD_API_ENUM || s->kind == UD_API_TYPEDEF)
				(void)api_layout_sym(c, r);
			ioctl_size(c, (unsigned)h, s);
		}
}

/*
 * Keys and fingerprints again of the symbols that changed (redo, in order),
 * none added: each one's key (in the header's arena) and fingerprints made
 * again alone.  The others' are what they were; when every changed key
 * still sorts between its neighbours the order is api_finish's (symbols
 * only went) and only the header's fingerprint is folded again; else
 * api_finish sorts it all.
 */
static void
refinish(struct ud_api_header *hd, const size_t *redo, size_t nredo)
{
	size_t i;

	for (i = 0; i < nredo; i++)
		api_sym_finish(&hd->strs, &hd->v[redo[i]]);
	for (i = 0; i < nredo; i++) {
		size_t k = redo[i];

		if ((k > 0 && strcmp(hd->v[k - 1].key, hd->v[k].key) >= 0) ||
		    (k + 1 < hd->n && strcmp(hd->v[k].key, hd->v[k + 1].key) >= 0)) {
			api_finish(hd);
			return;
		}
	}
	api_header_fold(hd);
}

/* Members and #includes under false conditions gone: look-ups still read every symbol. */
static void
prune_header(struct api_ctx *c, unsigned h)
{
	struct ud_api_header *hd = &c->v[h];
	size_t i, j;

	for (i = 0; i < hd->n; i++)
		if (hd->v[i].nmembers > 0 && c->hd[h].st[i].cond != UD_FALSE &&
		    prune_members(c, h, hd->v[i].members, &hd->v[i].nmembers))
			c->hd[h].dirty = c->hd[h].st[i].changed = true;
	for (i = j = 0; i < hd->nincludes; i++) {
		char *left = NULL;

		/* strings dropped or replaced stay in the header's arena */
		if (cond_terms(c, h, hd->include_conds[i], &left) == UD_FALSE) {
			free(left);
			continue;
		}
		hd->includes[j] = hd->includes[i];
		hd->include_lines[j] = hd->include_lines[i];
		hd->include_conds[j++] = api_adopt(hd, left);
	}
	hd->nincludes = j;
	/* kept by index: the #includes have moved */
	free(c->hd[h].include_cond);
	free(c->hd[h].include_h);
	c->hd[h].include_cond = NULL;
	c->hd[h].include_h = NULL;
}

/* What resolve_end does again of one header: nothing, refinish or api_finish. */
struct redo {
	bool dirty, rekey;
	size_t *v; /* refinish's symbols */
	size_t n;
};

/*
 * Only now, with no look-up left: the symbols of header h absent on the
 * target go, the others' undecided conditions are theirs.
 */
static void
drop_absent(struct api_ctx *c, unsigned h, struct redo *redo)
{
	struct ud_api_header *hd = &c->v[h];
	size_t i, j;

	for (i = j = 0; i < hd->n; i++) {
		struct api_symstate *st = &c->hd[h].st[i];

		if (st->cond == UD_FALSE) {
			api_sym_free(&hd->v[i]);
			c->hd[h].dirty = true;
			continue;
		}
		if (st->residual != NULL && strcmp(st->residual, hd->v[i].cond) != 0) {
			hd->v[i].cond = api_adopt(hd, st->residual);
			st->residual = NULL;
			c->hd[h].dirty = st->changed = true;
		}
		if (st->changed) {
			if (redo->v == NULL)
				redo->v = ud_xmalloc(hd->n * sizeof(*redo->v));
			redo->v[redo->n++] = j;
		}
		hd->v[j++] = hd->v[i];
	}
	hd->n = j;
	hd->abi = c->abi;
	redo->dirty = c->hd[h].dirty;
	redo->rekey = c->hd[h].rekey;
}

/* The end: members, #includes and symbols under false conditions gone, keys rewritten. */
static void
resolve_end(struct api_ctx *c)
{
	struct ud_api_header *v = c->v;
	size_t n = c->n, h;
	struct redo *redo = ud_xcalloc(n + 1, sizeof(*redo));

	for (h = 0; h < n; h++) {
		/* what it names as read: no longer this model's */
		api_names_release(v[h].names);
		v[h].names = NULL;
		prune_header(c, (unsigned)h);
	}
	for (h = 0; h < n; h++)
		drop_absent(c, (unsigned)h, &redo[h]);
	ctx_free(c);
	/* keys and fingerprints again where a symbol changed */
	for (h = 0; h < n; h++) {
		if (redo[h].rekey)
			api_finish(&v[h]);
		else if (redo[h].dirty)
			refinish(&v[h], redo[h].v, redo[h].n);
		free(redo[h].v);
	}
	free(redo);
}

void
ud_api_resolve(struct ud_api_header *v, size_t n, const struct ud_abi *abi)
{
	struct api_ctx c;

	resolve_begin(&c, v, n, abi);
	resolve_values(&c, NULL, NULL, NULL, NULL);
	resolve_end(&c);
}

/*
 * The symbol of oh whose key is key, or NULL: both headers' symbols are in
 * strcmp order of their keys, each key once (api_finish), so a walk in step
 * with the caller's (*j only moves forward) finds every counterpart without
 * a table.
 */
static const struct ud_api_sym *
same_key(const struct ud_api_header *oh, size_t *j, const char *key)
{
	int k = 1;

	while (*j < oh->n && (k = strcmp(oh->v[*j].key, key)) < 0)
		(*j)++;
	return *j < oh->n && k == 0 ? &oh->v[*j] : NULL;
}

/*
 * Whether text holds "sizeof", "struct " or "union ": three strstr over
 * every macro's text cost more.
 */
static bool
names_size(const char *text)
{
	const char *p;

	/* strchr finds the few candidates fast; the second byte turns most away before strncmp */
	for (p = text; (p = strchr(p, 's')) != NULL; p++)
		if ((p[1] == 'i' && strncmp(p, "sizeof", 6) == 0) ||
		    (p[1] == 't' && strncmp(p, "struct ", 7) == 0))
			return true;
	for (p = text; (p = strchr(p, 'u')) != NULL; p++)
		if (p[1] == 'n' && strncmp(p, "union ", 6) == 0)
			return true;
	return false;
}

/* What a value is needed for: a symbol that differs between the versions, a size it holds. */
static bool **
wanted(const struct ud_api_header *v, size_t n, const struct ud_api_header *other, size_t nother)
{
	bool **want = ud_xcalloc(n + 1, sizeof(*want));
	size_t h, i;

	for (h = 0; h < n; h++) {
		const struct ud_api_header *oh = ud_api_find_header(other, nother, v[h].path);
		bool differs = oh != NULL && oh->fingerprint != v[h].fingerprint;
		size_t j = 0; /* where in oh the walk for the next key starts */

		want[h] = ud_xcalloc(v[h].n + 1, sizeof(**want));
		for (i = 0; i < v[h].n; i++) {
			const struct ud_api_sym *s = &v[h].v[i], *t;

			if (s->kind != UD_API_MACRO && s->kind != UD_API_ENUM_CONST)
				continue;
			if (s->is_ioctl || names_size(s->text)) {
				want[h][i] = true; /* a size it holds may change with its type */
				continue;
			}
			if (!differs)
				continue;
			t = same_key(oh, &j, s->key);
			want[h][i] = t == NULL || t->body != s->body;
		}
	}
	return want;
}

/*
 * The function-like macros of v whose placeholder expansion the diff may
 * read: it compares expansions only of two such macros of one name in one
 * header whose replacements differ (api-diff.c diff_value), so one whose
 * counterparts all have its parameters and replacement needs none (a
 * table X-macro whose text names a struct is wanted for its users, and
 * its expansion is long).
 */
static bool **
wanted_expansions(const struct ud_api_header *v, size_t n, const struct ud_api_header *other,
		  size_t nother)
{
	static char many; /* a name with several function-like macros: always read */
	bool **x = ud_xcalloc(n + 1, sizeof(*x));
	struct ud_arena arena = UD_ARENA_INIT;
	size_t h, i;

	for (h = 0; h < n; h++) {
		const struct ud_api_header *oh = ud_api_find_header(other, nother, v[h].path);
		struct ud_map names = UD_MAP_INIT;

		names.keys = &arena;
		x[h] = ud_xcalloc(v[h].n + 1, sizeof(**x));
		if (oh == NULL)
			continue;
		for (i = 0; i < oh->n; i++) {
			struct ud_api_sym *t = &oh->v[i];

			if (t->kind == UD_API_MACRO && t->params != NULL)
				ud_map_put(&names, t->name,
					   ud_map_has(&names, t->name) ? (void *)&many : (void *)t);
		}
		for (i = 0; i < v[h].n && names.n > 0; i++) {
			const struct ud_api_sym *s = &v[h].v[i], *t;

			if (s->kind != UD_API_MACRO || s->params == NULL ||
			    (t = ud_map_get(&names, s->name)) == NULL)
				continue;
			x[h][i] = (const void *)t == (const void *)&many ||
				  strcmp(t->params, s->params) != 0 ||
				  strcmp(t->text, s->text) != 0;
		}
		ud_map_free(&names, NULL);
	}
	ud_arena_free(&arena);
	return x;
}

/* The users of each name in one version: which macros and enum constants name it. */
struct ud_api_users {
	struct ud_map heads; /* name -> its first user's index in v, + 1 */
	struct users_ref {
		unsigned h;
		size_t i;
		size_t next; /* the next user of the same name, + 1; 0 ends */
	} * v;
	size_t n, alloc;
	struct ud_arena arena; /* the map's keys */
};

static void
users_add(struct ud_api_users *u, const char *text, unsigned h, size_t i)
{
	const char *p = text, *b;
	char word[128];
	size_t len;

	while ((b = ud_next_ident(text, &p, &len)) != NULL) {
		size_t hash, head;

		if (len >= sizeof(word))
			continue; /* no name that long is looked for */
		memcpy(word, b, len);
		word[len] = '\0';
		hash = ud_map_hash(word);
		head = (uintptr_t)ud_map_get_hashed(&u->heads, word, hash);
		/* a name used twice in one text: one entry is enough */
		if (head != 0 && u->v[head - 1].h == h && u->v[head - 1].i == i)
			continue;
		u->v = ud_xgrow(u->v, &u->alloc, u->n + 1, sizeof(*u->v));
		u->v[u->n] = (struct users_ref){h, i, head};
		ud_map_put_hashed(&u->heads, word, hash, (void *)(uintptr_t)++u->n);
	}
}

static struct ud_api_users *
users_index(const struct ud_api_header *v, size_t n)
{
	struct ud_api_users *u = ud_xcalloc(1, sizeof(*u));
	unsigned h;
	size_t i;

	u->heads.keys = &u->arena;
	for (h = 0; h < n; h++)
		for (i = 0; i < v[h].n; i++)
			if (v[h].v[i].kind == UD_API_MACRO || v[h].v[i].kind == UD_API_ENUM_CONST)
				users_add(u, v[h].v[i].text, h, i);
	return u;
}

static void
users_free(struct ud_api_users *u)
{
	if (u == NULL)
		return;
	free(u->v);
	ud_map_free(&u->heads, NULL);
	ud_arena_free(&u->arena);
	free(u);
}

/* The names whose users are wanted: each once, in the order found. */
struct name_queue {
	struct ud_map seen;
	const char **v;
	size_t n, alloc;
};

static void
queue_name(struct name_queue *q, const char *name)
{
	if (ud_map_has(&q->seen, name))
		return;
	ud_map_put(&q->seen, name, NULL);
	q->v = ud_xgrow(q->v, &q->alloc, q->n + 1, sizeof(*q->v));
	q->v[q->n++] = name;
}

/*
 * A macro whose text is the same but names one whose value is wanted may
 * change value too (SOF_ABI_VERSION built from SOF_ABI_PATCH): wanted, and
 * so on from its own name, until nothing new is found, in both versions
 * alike.  Each version's users of every name were indexed beside its own
 * marks; the names wanted are followed through both indexes, each once,
 * to the end of every chain.  (Before, every text was rescanned on one
 * thread, at most four times: about eight links of a chain; the kernel
 * releases compared have none that long, check_api's value chain has.)
 */
static void
wanted_users(const struct ud_api_header *const v[2], const size_t n[2], bool **const want[2],
	     struct ud_api_users *const users[2])
{
	struct name_queue q = {UD_MAP_INIT, NULL, 0, 0};
	unsigned side, h;
	size_t i, k;

	for (side = 0; side < 2; side++)
		for (h = 0; h < n[side]; h++)
			for (i = 0; i < v[side][h].n; i++)
				if (want[side][h][i] && v[side][h].v[i].kind == UD_API_MACRO)
					queue_name(&q, v[side][h].v[i].name);
	for (i = 0; i < q.n; i++)
		for (side = 0; side < 2; side++)
			for (k = (uintptr_t)ud_map_get(&users[side]->heads, q.v[i]); k != 0;
			     k = users[side]->v[k - 1].next) {
				const struct users_ref *r = &users[side]->v[k - 1];

				if (want[side][r->h][r->i])
					continue;
				want[side][r->h][r->i] = true;
				queue_name(&q, v[side][r->h].v[r->i].name);
			}
	free(q.v);
	ud_map_free(&q.seen, NULL);
}

void
ud_api_wanted_own(const struct ud_api_header *v, size_t n, const struct ud_api_header *other,
		  size_t nother, struct ud_api_wanted *w)
{
	w->v = wanted(v, n, other, nother);
	w->expand = wanted_expansions(v, n, other, nother);
	w->n = n;
	w->users = users_index(v, n);
	w->names = api_quiet_scan(v, n, other, nother);
	w->quiet = NULL;
}

void
ud_api_wanted_users(const struct ud_api_header *old, size_t nold, const struct ud_api_header *new_,
		    size_t nnew, struct ud_api_wanted *wold, struct ud_api_wanted *wnew)
{
	const struct ud_api_header *const vs[2] = {old, new_};
	const size_t ns[2] = {nold, nnew};
	bool **const ws[2] = {wold->v, wnew->v};
	struct ud_api_users *const us[2] = {wold->users, wnew->users};

	wanted_users(vs, ns, ws, us);
	users_free(wold->users);
	users_free(wnew->users);
	wold->users = wnew->users = NULL;
	if (wold->names != NULL && wnew->names != NULL) {
		struct api_quiet_side *names[2] = {wold->names, wnew->names};
		bool **quiet[2];

		api_quiet_decide(names, quiet);
		wold->quiet = quiet[0];
		wnew->quiet = quiet[1];
		wold->names = wnew->names = NULL;
	}
}

void
ud_api_wanted_every_symbol(struct ud_api_wanted *w)
{
	api_quiet_free(w->names);
	w->names = NULL;
}

void
ud_api_resolve_wanted(const struct ud_api_header *old, size_t nold,
		      const struct ud_api_header *new_, size_t nnew, struct ud_api_wanted *wold,
		      struct ud_api_wanted *wnew)
{
	ud_api_wanted_own(old, nold, new_, nnew, wold);
	ud_api_wanted_own(new_, nnew, old, nold, wnew);
	ud_api_wanted_users(old, nold, new_, nnew, wold, wnew);
}

/* A symbol's value as the reader left it. */
struct was {
	long long value;
	bool has_value, value_unsigned;
};

static struct was *
values_kept(const struct ud_api_header *hd, const bool *quiet)
{
	struct was *was = ud_xcalloc(hd->n + 1, sizeof(*was));
	size_t i;

	for (i = 0; i < hd->n; i++)
		if (quiet[i]) {
			was[i].value = hd->v[i].value;
			was[i].has_value = hd->v[i].has_value;
			was[i].value_unsigned = hd->v[i].value_unsigned;
		}
	return was;
}

/*
 * The quiet symbols' values as the reader left them: those that the
 * evaluation of other symbols gave some of them on the way (a symbol's
 * fingerprint holds its value) would make one differ where one version
 * happened to need it and the other not.
 */
static void
values_restore(struct ud_api_header *hd, const struct was *was, const bool *quiet, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (quiet[i]) {
			hd->v[i].value = was[i].value;
			hd->v[i].has_value = was[i].has_value;
			hd->v[i].value_unsigned = was[i].value_unsigned;
		}
}

void
ud_api_resolve_wanted_version(struct ud_api_header *v, size_t n, struct ud_api_wanted *w,
			      const struct ud_abi *abi)
{
	struct api_ctx c;
	size_t *count = ud_xcalloc(n + 1, sizeof(*count));
	struct was **was = ud_xcalloc(n + 1, sizeof(*was));
	size_t i;

	for (i = 0; i < n; i++) {
		count[i] = v[i].n;
		if (w->quiet != NULL && w->quiet[i] != NULL)
			was[i] = values_kept(&v[i], w->quiet[i]);
	}
	resolve_begin(&c, v, n, abi);
	/* enums macros wrote may have grown (their constants have their values) */
	for (i = 0; i < n; i++) {
		w->v[i] = ud_xrealloc(w->v[i], (v[i].n + 1) * sizeof(**w->v));
		memset(w->v[i] + count[i], 0, (v[i].n + 1 - count[i]) * sizeof(**w->v));
	}
	resolve_values(&c, (const bool *const *)w->v, (const bool *const *)w->expand, count,
		       (const bool *const *)w->quiet);
	for (i = 0; i < n; i++)
		if (was[i] != NULL) {
			values_restore(&v[i], was[i], w->quiet[i], count[i]);
			free(was[i]);
		}
	free(was);
	free(count);
	resolve_end(&c);
	ud_api_wanted_free(w);
}

void
ud_api_wanted_free(struct ud_api_wanted *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i]);
		if (w->expand != NULL)
			free(w->expand[i]);
		if (w->quiet != NULL)
			free(w->quiet[i]);
	}
	free(w->v);
	free(w->expand);
	users_free(w->users);
	api_quiet_free(w->names);
	free(w->quiet);
	w->v = NULL;
	w->expand = NULL;
	w->users = NULL;
	w->names = NULL;
	w->quiet = NULL;
	w->n = 0;
}

void
ud_api_resolve_pair(struct ud_api_header *o, size_t no, struct ud_api_header *nw, size_t nn,
		    const struct ud_abi *abi)
{
	struct ud_api_wanted wo, wn;

	ud_api_resolve_wanted(o, no, nw, nn, &wo, &wn);
	ud_api_resolve_wanted_version(o, no, &wo, abi);
	ud_api_resolve_wanted_version(nw, nn, &wn, abi);
}
