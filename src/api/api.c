// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The userspace API model of an installed header, and diffs (api.h).
 *
 * A small C tokenizer (comments dropped, continuations joined, each token
 * with its line) feeds two readers: directives give macros and the
 * conditional context; the rest is read as top-level declarations, split
 * at ';' outside braces, and each is recognised by shape (typedef,
 * struct/union/enum body, function declaration, variable).  This is not a
 * C parser: it reads what uapi headers hold, and skips what it does not
 * recognise.
 *
 * This file holds the header's life: ud_api_parse, which splits the code
 * from the directives and drives the readers, the symbols' keys,
 * fingerprints and order (api_finish), and the frees.  The readers are
 * api-reader-directive.c, api-reader-decl.c and api-reader-member.c, the
 * values they read api-reader-value.c, their shared state api-reader.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "api-reader.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/* ---- the model being built ---- */

static const char *const kind_names[UD_API__KINDS] = {
	"macro", "enum constant", "enum", "struct", "union", "typedef", "function", "variable",
};

const char *
ud_api_kind_name(enum ud_api_kind k)
{
	return k < UD_API__KINDS ? kind_names[k] : "?";
}

const char *
ud_api_kind_shown(const char *kind, const char *symbol)
{
	size_t n = strlen(kind);

	return strncmp(symbol, kind, n) == 0 && symbol[n] == ' ' ? "" : kind;
}

char *
api_adopt(struct ud_api_header *h, char *s)
{
	char *own = ud_strarena_strdup(&h->strs, s);

	free(s);
	return own;
}

/* name and text: in the header's arena (text NULL: ""). */
struct ud_api_sym *
api_add_sym_named(struct reader *r, enum ud_api_kind kind, char *name, unsigned line, char *text)
{
	struct ud_api_header *h = r->h;
	struct ud_api_sym *s;

	h->v = ud_xgrow(h->v, &h->alloc, h->n + 1, sizeof(*h->v));
	s = &h->v[h->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = name;
	s->cond = hstrn(r, ud_buf_str(&r->cond), r->cond.len);
	s->line = line;
	s->text = text != NULL ? text : hstrn(r, "", 0);
	if (kind == UD_API_STRUCT || kind == UD_API_UNION)
		s->pack = r->pack;
	return s;
}

/* ---- the header ---- */

/* The strings are the header's arena's: only the arrays are the member's own. */
void
api_members_free_one(struct ud_api_member *m)
{
	api_members_free(m->sub, m->nsub);
}

void
api_members_free(struct ud_api_member *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		api_members_free_one(&m[i]);
	free(m);
}

void
api_layout_free(struct ud_api_layout *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nfields; i++) {
		free(l->fields[i].path);
		free(l->fields[i].type);
	}
	free(l->fields);
	free(l->type);
	free(l);
}

/* The strings but layout's are the header's arena's (ud_api_header_free). */
void
api_sym_free(struct ud_api_sym *s)
{
	api_members_free(s->members, s->nmembers);
	if (s->decl != NULL) {
		api_members_free_one(s->decl);
		free(s->decl);
	}
	api_layout_free(s->layout);
	free(s->layout_why);
}

/* s and a separator: "ab","c" hashes apart from "a","bc" */
static uint64_t
fnv(uint64_t h, const char *s)
{
	return ud_fnv64_sep(ud_fnv64_str(h, s));
}

/* A symbol to sort, with its key's first 8 bytes read big-endian (zero past the end). */
struct sort_key {
	uint64_t pre;
	struct ud_api_sym *s;
};

static uint64_t
key_prefix(const char *k)
{
	uint64_t pre = 0;
	int i;

	for (i = 0; i < 8; i++) {
		pre <<= 8;
		if (*k != '\0')
			pre |= (unsigned char)*k++;
	}
	return pre;
}

/*
 * Whether a sorts before b: the order strcmp gives keys (the prefixes
 * settle most pairs with no call), equal keys in the order of the array,
 * the later definition last.
 */
static bool
key_before(const struct sort_key *a, const struct sort_key *b)
{
	int c;

	if (a->pre != b->pre)
		return a->pre < b->pre;
	c = strcmp(a->s->key, b->s->key);
	return c != 0 ? c < 0 : a->s < b->s;
}

/* A merge sort of v[0..n) with tmp (n / 2 + 1 entries): no comparison through a pointer call. */
static void
sort_keys(struct sort_key *v, struct sort_key *tmp, size_t n)
{
	size_t m = n / 2, i, j, k;

	if (n <= 8) {
		for (i = 1; i < n; i++) {
			struct sort_key x = v[i];

			for (j = i; j > 0 && key_before(&x, &v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	sort_keys(v, tmp, m);
	sort_keys(v + m, tmp, n - m);
	if (!key_before(&v[m], &v[m - 1]))
		return;
	memcpy(tmp, v, m * sizeof(*tmp));
	for (i = 0, j = m, k = 0; i < m && j < n;)
		v[k++] = key_before(&v[j], &tmp[i]) ? v[j++] : tmp[i++];
	while (i < m)
		v[k++] = tmp[i++];
}

static uint64_t
fnv_u64(uint64_t h, uint64_t v)
{
	const uint64_t prime = UD_FNV64_PRIME;

	/* byte by byte, low first, written out: the loop's own count was half its cost */
	h = (h ^ (v & 0xff)) * prime;
	h = (h ^ (v >> 8 & 0xff)) * prime;
	h = (h ^ (v >> 16 & 0xff)) * prime;
	h = (h ^ (v >> 24 & 0xff)) * prime;
	h = (h ^ (v >> 32 & 0xff)) * prime;
	h = (h ^ (v >> 40 & 0xff)) * prime;
	h = (h ^ (v >> 48 & 0xff)) * prime;
	return (h ^ (v >> 56)) * prime;
}

/*
 * A member into hash f.  An inline body is hashed through its members, so
 * that members a resolution drops (another architecture's branch) leave
 * no trace in its type text.
 */
static uint64_t
member_hash(uint64_t f, const struct ud_api_member *m)
{
	size_t k;

	f = fnv(f, m->name);
	if (m->sub_kind == UD_API_STRUCT || m->sub_kind == UD_API_UNION) {
		const char *open = strchr(m->type, '{'), *close = strrchr(m->type, '}');

		f = fnv(f, ud_api_kind_name(m->sub_kind));
		if (close != NULL && open != NULL && close > open)
			f = fnv(ud_fnv64_sep(ud_fnv64(f, m->type, (size_t)(open - m->type))),
				close + 1);
		for (k = 0; k < m->nsub; k++)
			f = member_hash(f, &m->sub[k]);
	} else {
		f = fnv(f, m->type);
	}
	f = fnv(f, m->array != NULL ? m->array : "");
	f = fnv_u64(f, (uint64_t)(int64_t)m->bits);
	/* what older models did not read: only when present */
	if (m->attrs != NULL)
		f = fnv(fnv(f, "attrs"), m->attrs);
	if (m->cond != NULL && m->cond[0] != '\0')
		f = fnv(fnv(f, "if"), m->cond);
	return f;
}

/*
 * "KIND NAME" or "KIND NAME @ COND": what matches a symbol across versions
 * ("... #undef LINE" for a macro its header #undefs: not API).
 */
_Static_assert(UD_API__KINDS <= 10, "a key's kind is one digit");

/* In the header's arena a: a key replaced (a resolve re-keys) stays there, unused. */
static char *
key_of(struct ud_strarena *a, const struct ud_api_sym *s)
{
	size_t n = strlen(s->name), c = strlen(s->cond);
	char *k = ud_strarena_alloc(a, 4 + n + (c > 0 ? c + 3 : 0) + (s->undef_line != 0 ? 24 : 0)),
	     *p = k;

	/* kinds are one digit; written by hand: snprintf was a tenth of api_finish's time */
	*p++ = (char)('0' + (int)s->kind);
	*p++ = ' ';
	memcpy(p, s->name, n);
	p += n;
	if (c > 0) {
		memcpy(p, " @ ", 3);
		memcpy(p + 3, s->cond, c);
		p += c + 3;
	}
	*p = '\0';
	/* a helper #undef'd later: each definition its own, in the order of lines */
	if (s->undef_line != 0)
		snprintf(p, 24, " #undef %08u", s->line);
	return k;
}

void
api_sym_finish(struct ud_strarena *strs, struct ud_api_sym *s)
{
	uint64_t f = UD_FNV64_BASIS;
	size_t j;

	s->key = key_of(strs, s);
	f = fnv(f, s->text);
	f = fnv(f, s->params != NULL ? s->params : "-");
	f = fnv_u64(fnv_u64(f, s->has_value), s->has_value ? (uint64_t)s->value : 0);
	if (s->source != NULL)
		f = fnv(fnv(f, "source"), s->source);
	if (s->pack != 0)
		f = fnv_u64(fnv(f, "pack"), s->pack);
	for (j = 0; j < s->nmembers; j++)
		f = member_hash(f, &s->members[j]);
	s->body = f;
	s->fingerprint = fnv_u64(fnv(UD_FNV64_BASIS, s->key), f);
}

void
api_header_fold(struct ud_api_header *h)
{
	size_t i;

	h->fingerprint = UD_FNV64_BASIS;
	for (i = 0; i < h->n; i++)
		h->fingerprint = (h->fingerprint ^ h->v[i].fingerprint) * UD_FNV64_PRIME;
}

void
api_finish(struct ud_api_header *h)
{
	size_t i, j;

	for (i = 0; i < h->n; i++)
		api_sym_finish(&h->strs, &h->v[i]);
	if (h->n > 1) {
		/* sorted through pointers: a symbol is a few hundred bytes */
		struct sort_key *p = ud_xmalloc((h->n + h->n / 2 + 1) * sizeof(*p));
		struct ud_api_sym *sorted;

		for (i = 0; i < h->n; i++) {
			p[i].pre = key_prefix(h->v[i].key);
			p[i].s = &h->v[i];
		}
		sort_keys(p, p + h->n, h->n);
		/* as many as there are: the reader's guess at the count was generous */
		h->alloc = h->n;
		sorted = ud_xmalloc(h->alloc * sizeof(*sorted));
		for (i = 0; i < h->n; i++)
			sorted[i] = *p[i].s;
		free(h->v);
		h->v = sorted;
		free(p);
	}
	/* the same key twice (a redefinition): the later one stands, as in C */
	for (i = j = 0; i < h->n; i++) {
		if (j > 0 && strcmp(h->v[j - 1].key, h->v[i].key) == 0) {
			api_sym_free(&h->v[j - 1]);
			h->v[j - 1] = h->v[i];
			continue;
		}
		h->v[j++] = h->v[i];
	}
	h->n = j;
	api_header_fold(h);
}

/* Macros whose value needs names defined after them: C expands at use, so look again. */
static void
late_values(struct reader *r)
{
	size_t pass, i;
	bool more = true;

	for (pass = 0; pass < 4 && more; pass++) {
		more = false;
		for (i = 0; i < r->h->n; i++) {
			struct ud_api_sym *s = &r->h->v[i];

			if (s->kind != UD_API_MACRO || s->params != NULL)
				continue;
			if (!s->has_value && api_evaluate(r, s->text, &s->value)) {
				s->has_value = true;
				api_remember(r, s->name, s->value);
				more = true;
			}
			if (s->is_ioctl && !s->ioctl->known) {
				s->ioctl->known = (s->ioctl->type[0] == '\''
							   ? true
							   : api_evaluate(r, s->ioctl->type,
									  &s->ioctl->typev)) &&
						  api_evaluate(r, s->ioctl->nr, &s->ioctl->nrv);
			}
		}
	}
}

static void
reader_spares_free(struct reader *r)
{
	ud_buf_free(&r->spare.type);
	ud_buf_free(&r->spare.dims);
	ud_buf_free(&r->spare.attrs);
}

struct dline {
	size_t a, b; /* the directive's tokens in the full list */
	size_t at;   /* the code token it stands before */
};

void
ud_api_parse(const char *path, const char *text, size_t len, struct ud_api_header *out)
{
	struct api_toks t = {NULL, 0, 0}, c = {NULL, 0, 0};
	struct dline *dl = NULL;
	size_t ndl = 0, adl = 0, i, di = 0, start = 0, ndefine = 0;
	struct reader r;
	int depth = 0;
	bool function_body = false;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	out->path = ud_xstrdup(path);
	/*
	 * the model's strings come to about 0.8 of the text's bytes (less
	 * with long comments): a first chunk of half, then one twice that,
	 * allocated 18 MB for 10 MB of strings in 6.1 and 6.12, the least
	 * of the sizes tried (a chunk's untouched tail costs no page)
	 */
	ud_strarena_init(&out->strs, len / 2);
	r.h = out;
	r.macros.keys = r.attr_macros.keys = r.known.first.keys = &r.keys;
	/*
	 * about one symbol per 80 bytes of a uapi header at most: few copies
	 * of a growing array (add_sym clears each; api_finish trims it)
	 */
	out->alloc = len / 80 + 16;
	out->v = ud_xmalloc(out->alloc * sizeof(*out->v));
	api_tokenize(text, len, &t);
	/* as many as the tokens at most: one allocation, not a call per token (333,000 a diff) */
	c.alloc = t.n > 0 ? t.n : 1;
	c.v = ud_xmalloc(c.alloc * sizeof(*c.v));
	/* directives apart: a declaration never holds one (#ifdef inside a struct) */
	for (i = 0; i < t.n;) {
		if (t.v[i].bol && api_tok_is(&t.v[i], "#")) {
			size_t e = i + 1;

			while (e < t.n && !t.v[e].bol)
				e++;
			dl = ud_xgrow(dl, &adl, ndl + 1, sizeof(*dl));
			dl[ndl].a = i;
			dl[ndl].b = e;
			dl[ndl++].at = c.n;
			ndefine += e - i >= 3 && api_tok_is(&t.v[i + 1], "define");
			i = e;
			continue;
		}
		c.v[c.n++] = t.v[i++];
	}
	/*
	 * The name maps sized once: a macro is named by a #define, and so
	 * are most numeric names (enum_body makes room for its constants).
	 * Grown a doubling at a time they were rebuilt some 5,400 times a
	 * diff, 550,000 slots allocated for 360,000 kept.
	 */
	if (ndefine > 0) {
		ud_map_reserve(&r.macros, ndefine);
		ud_map_reserve(&r.known.first, ndefine);
	}
	r.t = &t;
	r.c = &c;
	for (i = 0; i <= c.n; i++) {
		bool moved = false;

		while (di < ndl && dl[di].at <= i) {
			api_directive(&r, dl[di].a, dl[di].b);
			di++;
			moved = true;
		}
		if (moved && strcmp(ud_buf_str(&r.cond),
				    r.npoints > 0 ? r.points[r.npoints - 1].cond : "") != 0) {
			r.points = ud_xgrow(r.points, &r.apoints, r.npoints + 1, sizeof(*r.points));
			r.points[r.npoints].at = i;
			r.points[r.npoints++].cond = ud_xstrdup(ud_buf_str(&r.cond));
		}
		if (i == c.n)
			break;
		/* extern "C" { ... }: its contents are top-level declarations */
		if (depth == 0 && i == start && api_tok_is(&c.v[i], "extern") && i + 2 < c.n &&
		    c.v[i + 1].p[0] == '"' && api_tok_is(&c.v[i + 2], "{")) {
			i += 2;
			start = i + 1;
			continue;
		}
		if (depth == 0 && api_tok_is(&c.v[i], "{") && i > start &&
		    api_tok_is(&c.v[i - 1], ")")) {
			/* "f(void) {": a function's body; "__attribute__((packed)) {" is none */
			size_t k = i - 1, d = 0;

			while (k > start) {
				if (api_tok_is(&c.v[k], ")"))
					d++;
				else if (api_tok_is(&c.v[k], "(") && --d == 0)
					break;
				k--;
			}
			function_body = k > start && api_tok_ident(&c.v[k - 1]) &&
					!api_is_attr(&c.v[k - 1]);
		}
		if (api_tok_is(&c.v[i], "{") || api_tok_is(&c.v[i], "("))
			depth++;
		else if (api_tok_is(&c.v[i], "}") || api_tok_is(&c.v[i], ")"))
			depth = depth > 0 ? depth - 1 : 0;
		if (depth == 0 && api_tok_is(&c.v[i], "}") && i == start) {
			start = i + 1; /* the end of an extern "C" block */
		} else if (depth == 0 && api_tok_is(&c.v[i], "}") && function_body) {
			/* a function's definition ends with its body, no ';' after it */
			api_declaration(&r, start, i + 1);
			start = i + 1;
			function_body = false;
		} else if (depth == 0 && api_tok_is(&c.v[i], ";")) {
			if (i > start)
				api_declaration(&r, start, i);
			start = i + 1;
			function_body = false;
		}
	}
	while (r.depth > 0)
		api_pop_cond(&r);
	late_values(&r);
	api_finish(out);
	/* with the model: a diff of many ABIs reads one text's names once */
	out->names = api_names_make(out);
	for (i = 0; i < r.npoints; i++)
		free(r.points[i].cond);
	free(r.points);
	free(r.known.v);
	ud_map_free(&r.known.first, NULL);
	free(r.guard);
	ud_buf_free(&r.cond);
	reader_spares_free(&r);
	ud_map_free(&r.attr_macros, NULL);
	ud_map_free(&r.macros, NULL);
	ud_arena_free(&r.keys);
	free(dl);
	free(c.v);
	free(t.v);
}

void
api_members_from_text(const char *text, struct ud_strarena *strs, struct ud_api_member **out,
		      size_t *n)
{
	struct api_toks t = {NULL, 0, 0};
	struct ud_api_header h;
	struct reader r;

	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	h.strs = *strs;
	r.h = &h;
	api_tokenize(text, strlen(text), &t);
	r.t = &t;
	r.c = &t;
	api_parse_members(&r, 0, t.n, out, n);
	*strs = h.strs;
	free(t.v);
	ud_buf_free(&r.cond);
	reader_spares_free(&r);
}

void
ud_api_header_free(struct ud_api_header *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		api_sym_free(&h->v[i]);
	/* the strings of its symbols, members and includes */
	ud_strarena_free(&h->strs);
	free(h->includes);
	free(h->include_conds);
	free(h->include_lines);
	free(h->v);
	free(h->path);
	api_names_release(h->names);
	memset(h, 0, sizeof(*h));
}
