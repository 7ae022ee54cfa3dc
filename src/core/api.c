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
 */
#include <assert.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "api-reader.h"
#include "uapid/api.h"
#include "uapid/buf.h"
#include "uapid/chars.h"
#include "uapid/expr.h"
#include "uapid/map.h"
#include "uapid/xmalloc.h"

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

/* a, the n bytes at b, then c, in the header's arena: a name with no printf nor malloc. */
static char *
hcat(struct reader *r, const char *a, const char *b, size_t n, const char *c)
{
	size_t na = strlen(a), nc = strlen(c);
	char *own = ud_strarena_alloc(&r->h->strs, na + n + nc + 1);

	memcpy(own, a, na);
	memcpy(own + na, b, n);
	memcpy(own + na + n, c, nc + 1);
	return own;
}

char *
api_adopt(struct ud_api_header *h, char *s)
{
	char *own = ud_strarena_strdup(&h->strs, s);

	free(s);
	return own;
}

/* "(BASE) + N", an implicit enumerator's value after one not known here, in the arena. */
static char *
implicit_after(struct reader *r, const char *base, long long offset)
{
	char *t = ud_xasprintf("(%s) + %lld", base, offset), *own = hstr(r, t);

	free(t);
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

/* text: in the header's arena (or NULL: ""). */
static struct ud_api_sym *
add_sym(struct reader *r, enum ud_api_kind kind, const char *name, unsigned line, char *text)
{
	return api_add_sym_named(r, kind, hstr(r, name), line, text);
}

/* ---- declarations ---- */

/*
 * "__struct_group(TAG, NAME, ATTRS, MEMBERS...)" at [at, ...): the kernel's
 * macro (linux/stddef.h) defines struct TAG { MEMBERS } ATTRS in file scope
 * when TAG is given (pkt_cls.h's tc_u32_sel_hdr); records that struct.
 * Returns the index after the call.
 */
static size_t
struct_group_tag(struct reader *r, size_t at, size_t b)
{
	const struct api_tok *v = r->c->v;
	size_t close, comma[3], nc = 0, i;
	struct ud_api_sym *s;
	char *name;

	if (at + 1 >= b || !api_tok_is(&v[at + 1], "("))
		return at + 1;
	close = api_match(v, at + 1, b);
	for (i = at + 2; i < close && nc < 3; i++) {
		if (api_tok_is(&v[i], "(") || api_tok_is(&v[i], "{") || api_tok_is(&v[i], "["))
			i = api_match(v, i, close);
		else if (api_tok_is(&v[i], ","))
			comma[nc++] = i;
	}
	if (nc < 3 || comma[0] != at + 3 || !api_tok_ident(&v[at + 2]))
		return close + 1; /* no tag: nothing in file scope */
	name = hcat(r, "struct ", v[at + 2].p, v[at + 2].n, "");
	s = api_add_sym_named(r, UD_API_STRUCT, name, v[at + 2].line,
			      comma[2] > comma[1] + 1 ? hjoin(r, v, comma[1] + 1, comma[2]) : NULL);
	api_parse_members(r, comma[2] + 1, close, &s->members, &s->nmembers);
	return close + 1;
}

/*
 * The body of an enum at [at, ...), its braces at open and close, named name
 * or anonymous (NULL): records its constants and, if it has a name, the enum.
 */
static void
enum_body(struct reader *r, size_t at, size_t open, size_t close, const char *name)
{
	const struct api_tok *v = r->c->v;
	size_t start = open + 1, j, depth = 0;
	long long next = 0, offset = 0;
	bool next_known = true;
	/* the last initializer, for constants that count on from it (in the reader's arena) */
	const char *last_expr = NULL;
	struct ud_api_member *consts = NULL;
	size_t nconsts = 0, calloc_ = 0;
	bool generated = false; /* a macro in the body makes enumerators (X-macros) */
	char *anonymous = NULL;
	struct ud_api_sym *s;
	size_t most = 1;

	/* room for every constant at once (one per comma at most): big enums grew the map often */
	for (j = open + 1; j < close; j++)
		most += api_tok_is(&v[j], ",");
	ud_map_reserve(&r->known.first, r->known.first.n + most);
	for (j = open + 1; j <= close; j++) {
		if (j < close && (api_tok_is(&v[j], "(") || api_tok_is(&v[j], "[")))
			depth++;
		else if (j < close && (api_tok_is(&v[j], ")") || api_tok_is(&v[j], "]")))
			depth--;
		if (j < close && !(depth == 0 && api_tok_is(&v[j], ",")))
			continue;
		if (j > start && (!(api_tok_ident(&v[start]) &&
				    (j == start + 1 || api_tok_is(&v[start + 1], "="))) ||
				  (j == start + 1 && api_defined_here(r, &v[start])))) {
			/*
			 * "__BPF_FUNC_MAPPER(__BPF_ENUM_FN)", "CXL_CMDS" (a macro
			 * defined above): not an enumerator
			 */
			generated = true;
			next_known = false;
			last_expr = NULL;
		} else if (j > start) {
			/* the name dies with the parse: in the arena, not malloc'd and freed */
			const char *cname = ud_arena_strndup(&r->keys, v[start].p, v[start].n);
			char *expr = j > start + 2 && api_tok_is(&v[start + 1], "=")
					     ? hjoin(r, v, start + 2, j)
					     : NULL;
			struct ud_api_sym *c;
			long long val;

			/*
			 * An implicit value whose base cannot be evaluated here (a
			 * macro of another header) is kept as "BASE + N", so that a
			 * constant inserted before it still shows as a new value.
			 */
			if (expr != NULL) {
				last_expr = ud_arena_strndup(&r->keys, expr, strlen(expr));
				offset = 0;
			} else {
				offset++;
			}
			c = add_sym(r, UD_API_ENUM_CONST, cname, v[start].line,
				    /* the joined initializer becomes the constant's text */
				    expr != NULL ? expr
				    : !next_known && last_expr != NULL
					    ? implicit_after(r, last_expr, offset)
					    : hstr(r, "(implicit)"));
			if (expr != NULL) {
				next_known = api_evaluate(r, c->text, &val);
			} else {
				val = next;
			}
			if (next_known) {
				c->has_value = true;
				c->value = val;
				api_remember(r, cname, val);
				next = val + 1;
			}
			consts = ud_xgrow(consts, &calloc_, nconsts + 1, sizeof(*consts));
			memset(&consts[nconsts], 0, sizeof(*consts));
			consts[nconsts].name = hstr(r, cname);
			consts[nconsts].type = hstrn(r, "", 0);
			consts[nconsts].bits = -1;
			nconsts++;
		}
		start = j + 1;
	}
	/*
	 * An anonymous enum macros write ("enum { CXL_CMDS };") is kept
	 * under the first word of its body, for the resolution to expand.
	 */
	if (name == NULL && generated && api_tok_ident(&v[open + 1]))
		name = anonymous =
			ud_xasprintf("enum (anonymous, %.*s)", (int)v[open + 1].n, v[open + 1].p);
	if (name != NULL) {
		s = add_sym(r, UD_API_ENUM, name, v[at].line, NULL);
		/* as many as there are, as api_parse_members leaves a record's */
		s->members = nconsts > 0 && nconsts < calloc_
				     ? ud_xrealloc(consts, nconsts * sizeof(*consts))
				     : consts;
		s->nmembers = nconsts;
		if (generated)
			s->source = hjoin(r, v, open + 1, close);
	} else {
		api_members_free(consts, nconsts);
	}
	free(anonymous);
}

/* "struct foo { ... }" at [at, ...): records it; returns the index after its '}'. */
static size_t
record_body(struct reader *r, size_t at, size_t b, const char *typedef_name)
{
	const struct api_tok *v = r->c->v;
	bool is_enum = api_tok_is(&v[at], "enum");
	enum ud_api_kind kind = is_enum			      ? UD_API_ENUM
				: api_tok_is(&v[at], "union") ? UD_API_UNION
							      : UD_API_STRUCT;
	size_t i = at + 1, open, close;
	/* the name in the header's arena: a symbol's name, with no copy */
	char *name = NULL;
	const char *word = is_enum ? "enum " : kind == UD_API_UNION ? "union " : "struct ";
	struct ud_api_sym *s;

	while (i < b && api_is_attr(&v[i])) {
		i++;
		if (i < b && api_tok_is(&v[i], "("))
			i = api_match(v, i, b) + 1;
	}
	if (i < b && api_tok_ident(&v[i]))
		name = hcat(r, word, v[i].p, v[i].n, ""), i++;
	while (i < b && !api_tok_is(&v[i], "{"))
		i++;
	if (i >= b)
		return b;
	open = i;
	close = api_match(v, open, b);
	if (name == NULL && typedef_name != NULL)
		name = api_adopt(r->h, ud_xasprintf("%s(typedef %s)", word, typedef_name));
	if (is_enum) {
		enum_body(r, at, open, close, name);
	} else if (name != NULL) {
		s = api_add_sym_named(r, kind, name, v[at].line, NULL);
		api_parse_members(r, open + 1, close, &s->members, &s->nmembers);
		/*
		 * A tagged struct, union or enum defined inside a member is a
		 * type of its own in C (its tag and an enum's constants are in
		 * file scope), whatever record it is spelled in.
		 */
		if (r->nesting < 32) {
			size_t k;

			r->nesting++;
			for (k = open + 1; k + 1 < close; k++) {
				bool tag = api_tok_is(&v[k], "struct") ||
					   api_tok_is(&v[k], "union") || api_tok_is(&v[k], "enum");

				if (tag &&
				    ((k + 2 < close && api_tok_ident(&v[k + 1]) &&
				      api_tok_is(&v[k + 2], "{")) ||
				     (api_tok_is(&v[k], "enum") && api_tok_is(&v[k + 1], "{"))))
					k = record_body(r, k, close, NULL) - 1;
				else if (api_tok_is(&v[k], "__struct_group"))
					k = struct_group_tag(r, k, close) - 1;
			}
			r->nesting--;
		}
		/* attributes after the body (packed, aligned) are part of the layout */
		{
			size_t k = close + 1;
			struct ud_buf attrs = UD_BUF_INIT;

			/* or a macro of this header that stands for them (EPOLL_PACKED) */
			while (k < b &&
			       (api_is_attr(&v[k]) || (r->nesting == 0 && typedef_name == NULL &&
						       api_macro_here(r, &v[k])))) {
				size_t e = k + 1 < b && api_tok_is(&v[k + 1], "(")
						   ? api_match(v, k + 1, b) + 1
						   : k + 1;
				if (attrs.len > 0)
					ud_buf_addch(&attrs, ' ');
				join_add(&attrs, v, k, e);
				k = e;
			}
			if (attrs.len > 0)
				s->text = hbuf(r,
					       &attrs); /* the "" add_sym gave stays in the arena */
			ud_buf_free(&attrs);
		}
	}
	return close + 1;
}

static void
declaration(struct reader *r, size_t a, size_t b)
{
	const struct api_tok *v = r->c->v;
	size_t i, nm, ndecls = 0, adecls = 0;
	bool is_typedef;
	struct ud_api_member *decls = NULL;
	struct ud_api_sym *s;

	while (a < b && (api_tok_is(&v[a], "extern") || api_tok_is(&v[a], "static") ||
			 api_tok_is(&v[a], "__extension__")))
		a++;
	if (a >= b)
		return;
	is_typedef = api_tok_is(&v[a], "typedef");
	/* a struct, union or enum body anywhere in it is recorded on its own */
	for (i = a; i < b; i++) {
		if ((api_tok_is(&v[i], "struct") || api_tok_is(&v[i], "union") ||
		     api_tok_is(&v[i], "enum"))) {
			size_t j = i + 1;

			while (j < b && (api_tok_ident(&v[j]) || api_is_attr(&v[j])) &&
			       !api_tok_is(&v[j], "{")) {
				if (api_is_attr(&v[j]) && j + 1 < b && api_tok_is(&v[j + 1], "("))
					j = api_match(v, j + 1, b);
				j++;
				if (j - i > 2)
					break;
			}
			if (j < b && api_tok_is(&v[j], "{")) {
				char *tname = NULL;

				if (is_typedef) {
					size_t close = api_match(v, j, b),
					       t = api_declared_name(v, close + 1, b);

					if (t < b)
						tname = ud_xstrndup(v[t].p, v[t].n);
				}
				i = record_body(r, i, b, tname) - 1;
				free(tname);
			}
		}
	}
	if (is_typedef) {
		nm = api_declared_name(v, a + 1, b);
		if (nm < b) {
			char *tname = hstrn(r, v[nm].p, v[nm].n); /* the symbol's name */
			struct ud_buf text = UD_BUF_INIT;

			/* the text, with a body replaced by its tag (the body is its own symbol) */
			for (i = a + 1; i < b; i++) {
				if (api_tok_is(&v[i], "{")) {
					i = api_match(v, i, b);
					ud_buf_addstr(&text, " { ... }");
					continue;
				}
				if (i > a + 1)
					ud_buf_addch(&text, ' ');
				ud_buf_add(&text, v[i].p, v[i].n);
			}
			s = api_add_sym_named(r, UD_API_TYPEDEF, tname, v[nm].line, hbuf(r, &text));
			/* its declarator, read as a member is: what the layout of the name is */
			api_member(r, a + 1, b, a, &decls, &ndecls, &adecls);
			for (i = 0; i < ndecls; i++) {
				if (s->decl == NULL && strcmp(decls[i].name, tname) == 0) {
					s->decl = ud_xmalloc(sizeof(*s->decl));
					*s->decl = decls[i];
				} else {
					api_members_free_one(&decls[i]);
				}
			}
			free(decls);
		}
		return;
	}
	/* a bare "struct foo { ... };" or forward declaration: done above or nothing to do */
	for (i = a; i < b && !api_tok_is(&v[i], "("); i++)
		if (api_tok_is(&v[i], "{"))
			return;
	nm = api_declared_name(v, a, b);
	if (nm >= b || api_tok_is(&v[a], "struct") || api_tok_is(&v[a], "union") ||
	    api_tok_is(&v[a], "enum")) {
		if (nm >= b || nm == a + 1)
			return; /* "struct foo;" */
	}
	{
		bool func = nm + 1 < b && api_tok_is(&v[nm + 1], "(");

		api_add_sym_named(r, func ? UD_API_FUNCTION : UD_API_VARIABLE,
				  hstrn(r, v[nm].p, v[nm].n), v[nm].line, hjoin(r, v, a, b));
	}
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

static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull; /* a separator: "ab","c" differs from "a","bc" */
}

/* fnv of s[0..n): the same hash as of a copy of those bytes, with no copy made. */
static uint64_t
fnv_n(uint64_t h, const char *s, size_t n)
{
	const char *end = s + n;

	for (; s < end; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull;
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
	const uint64_t prime = 1099511628211ull;

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
			f = fnv(fnv_n(f, m->type, (size_t)(open - m->type)), close + 1);
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
	uint64_t f = 14695981039346656037ull;
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
	s->fingerprint = fnv_u64(fnv(14695981039346656037ull, s->key), f);
}

void
api_header_fold(struct ud_api_header *h)
{
	size_t i;

	h->fingerprint = 14695981039346656037ull;
	for (i = 0; i < h->n; i++)
		h->fingerprint = (h->fingerprint ^ h->v[i].fingerprint) * 1099511628211ull;
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
			declaration(&r, start, i + 1);
			start = i + 1;
			function_body = false;
		} else if (depth == 0 && api_tok_is(&c.v[i], ";")) {
			if (i > start)
				declaration(&r, start, i);
			start = i + 1;
			function_body = false;
		}
	}
	while (r.depth > 0)
		api_pop_cond(&r);
	late_values(&r);
	api_finish(out);
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
	free(h->v);
	free(h->path);
	memset(h, 0, sizeof(*h));
}
