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
 * The declared name in declarator tokens [a, b): the identifier of a
 * function pointer "(*name)", else the last identifier before an array
 * bound, parameter list, bit-field or the end.  Its index, or b.
 */
static size_t
declared_name(const struct api_tok *v, size_t a, size_t b)
{
	size_t i, last = b;

	for (i = a; i < b; i++) {
		if (api_tok_is(&v[i], "(") && i + 1 < b && api_tok_is(&v[i + 1], "*")) {
			size_t j = i + 1;

			while (j < b && (api_tok_is(&v[j], "*") || api_tok_is(&v[j], "const")))
				j++;
			if (j < b && api_tok_ident(&v[j]))
				return j;
		}
		if (api_is_attr(&v[i]) && i + 1 < b && api_tok_is(&v[i + 1], "(")) {
			i = api_match(v, i + 1, b);
			continue;
		}
		if (api_tok_is(&v[i], "[") || api_tok_is(&v[i], ":") || api_tok_is(&v[i], "=") ||
		    (api_tok_is(&v[i], "(") && last != b))
			break;
		if (api_tok_is(&v[i], "{")) {
			i = api_match(v, i, b);
			continue;
		}
		if (api_tok_ident(&v[i]) && !api_tok_is(&v[i], "struct") &&
		    !api_tok_is(&v[i], "union") && !api_tok_is(&v[i], "enum") &&
		    !api_tok_is(&v[i], "const") && !api_tok_is(&v[i], "volatile"))
			last = i;
	}
	return last;
}

static void parse_members(struct reader *r, size_t a, size_t b, struct ud_api_member **out,
			  size_t *n);

/* Appends the value of the bound in [open, close] ("[" ... "]") to dims as "[N]" ("[]" when empty).
 */
static void
dims_add(struct reader *r, const struct api_tok *v, size_t open, size_t close, struct ud_buf *dims,
	 bool *ok)
{
	long long n;
	char *e;

	if (close <= open + 1) {
		ud_buf_addstr(dims, "[]");
		return;
	}
	e = api_join(v, open + 1, close);
	if (api_evaluate(r, e, &n))
		ud_buf_addf(dims, "[%lld]", n);
	else
		*ok = false;
	free(e);
}

/* The conditions of code token i, "" at top level. */
static const char *
cond_at(const struct reader *r, size_t i)
{
	size_t lo = 0, hi = r->npoints;

	/* the last change point at or before i */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->points[mid].at <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? r->points[lo - 1].cond : "";
}

/*
 * The conditions of code token i inside a record opened at token open: what it adds
 * (in the header's arena).
 */
static char *
relative_cond(struct reader *r, size_t open, size_t i)
{
	const char *rc = cond_at(r, open), *mc = cond_at(r, i);
	size_t n = strlen(rc);

	if (strcmp(mc, rc) == 0)
		return hstrn(r, "", 0);
	if (n > 0 && strncmp(mc, rc, n) == 0 && strncmp(mc + n, " && ", 4) == 0)
		return hstr(r, mc + n + 4);
	return hstr(r, mc);
}

/* The attribute tokens at [*i, b) (an attribute word and its parenthesised list), appended to
 * out; *i moves past them. */
static void
take_attrs(const struct api_tok *v, size_t *i, size_t b, struct ud_buf *out)
{
	while (*i < b && api_is_attr(&v[*i])) {
		size_t e = *i + 1 < b && api_tok_is(&v[*i + 1], "(") ? api_match(v, *i + 1, b) + 1
								     : *i + 1;
		if (out->len > 0)
			ud_buf_addch(out, ' ');
		join_add(out, v, *i, e < b ? e : b);
		*i = e;
	}
}

/*
 * An inline body in a member's type tokens [a, e): "struct { ... }",
 * "union tag { ... } __attribute__((packed))", "enum { ... }".  Reads
 * its members into m->sub (the attributes after it stay in the type).
 */
static void
inline_body(struct reader *r, size_t a, size_t e, struct ud_api_member *m)
{
	const struct api_tok *v = r->c->v;
	size_t i, open, close;

	for (i = a; i < e && !api_tok_is(&v[i], "{"); i++)
		;
	if (i >= e || i == a)
		return;
	open = i;
	for (i = a; i < open; i++)
		if (api_tok_is(&v[i], "struct") || api_tok_is(&v[i], "union") ||
		    api_tok_is(&v[i], "enum"))
			break;
	if (i >= open)
		return;
	m->sub_kind = api_tok_is(&v[i], "struct")  ? UD_API_STRUCT
		      : api_tok_is(&v[i], "union") ? UD_API_UNION
						   : UD_API_ENUM;
	close = api_match(v, open, e);
	if (m->sub_kind != UD_API_ENUM && r->nesting < 32) {
		r->nesting++;
		parse_members(r, open + 1, close, &m->sub, &m->nsub);
		r->nesting--;
	}
}

/* A word of a base type's name: "unsigned int :3" has no member name. */
static bool
type_word(const struct api_tok *t)
{
	static const char *const words[] = {"int",    "char",	  "short", "long",
					    "signed", "unsigned", "_Bool", "__signed__"};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (api_tok_is(t, words[i]))
			return true;
	return false;
}

/* Spelled as a macro is: capitals, digits and '_' ("__ATM_API_ALIGN", "EPOLL_PACKED"). */
static bool
macro_like(const struct api_tok *t)
{
	size_t i;
	bool capital = false;

	for (i = 0; i < t->n; i++) {
		if (t->p[i] >= 'A' && t->p[i] <= 'Z')
			capital = true;
		else if (t->p[i] != '_' && !(t->p[i] >= '0' && t->p[i] <= '9'))
			return false;
	}
	return capital;
}

/* A qualifier or annotation between a type and a name: "int __bitwise x". */
static bool
qualifier_word(const struct api_tok *t)
{
	static const char *const words[] = {
		"const",    "volatile",	  "__const",	  "__volatile__", "__volatile",
		"restrict", "__restrict", "__restrict__", "__bitwise",	  "__bitwise__",
		"__user",   "__force",	  "__iomem",	  "__kernel",	  "__rcu",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (api_tok_is(t, words[i]))
			return true;
	return false;
}

/* A new member at the end of out[0..*n), zeroed, its bit-field width not evaluated (-1). */
static struct ud_api_member *
member_add(struct ud_api_member **out, size_t *n, size_t *alloc)
{
	struct ud_api_member *m;

	*out = ud_xgrow(*out, alloc, *n + 1, sizeof(**out));
	m = &(*out)[(*n)++];
	memset(m, 0, sizeof(*m));
	m->bits = -1;
	return m;
}

/*
 * Whether member declaration [a, b) is a macro standing for members: a call,
 * "__struct_group(tag, name, attrs, members)", or a name alone, "__SIGINFO".
 */
static bool
members_macro(const struct api_tok *v, size_t a, size_t b)
{
	return ((b - a >= 3 && api_tok_ident(&v[a]) && api_tok_is(&v[a + 1], "(") &&
		 api_match(v, a + 1, b) == b - 1 && !api_tok_is(&v[a], "__DECLARE_FLEX_ARRAY")) ||
		(b - a == 1 && api_tok_ident(&v[a]))) &&
	       !api_is_attr(&v[a]);
}

/* __DECLARE_FLEX_ARRAY(TYPE, NAME) at [start, i), the kernel's spelling of TYPE NAME[], into m. */
static bool
flex_array_member(struct reader *r, size_t start, size_t i, struct ud_api_member *m)
{
	const struct api_tok *v = r->c->v;

	if (i - start < 6 || !api_tok_is(&v[start], "__DECLARE_FLEX_ARRAY") ||
	    !api_tok_is(&v[start + 1], "(") || !api_tok_is(&v[i - 1], ")") ||
	    !api_tok_is(&v[i - 3], ",") || !api_tok_ident(&v[i - 2]))
		return false;
	m->name = hstrn(r, v[i - 2].p, v[i - 2].n);
	m->type = hjoin(r, v, start + 2, i - 3);
	m->array = hstrn(r, "[]", 2);
	m->dims = hstrn(r, "[]", 2);
	inline_body(r, start + 2, i - 3, m);
	return true;
}

/*
 * "struct x rxtp __ATM_API_ALIGN": a word after the name stands for
 * attributes, it is not the name: a macro of this header, or a word spelled
 * as macros are after a whole declarator ("} sap_addr", "char aal", "struct
 * x rxtp"; but in "} __ATM_API_ALIGN atm_kptr_t" the name is the last word).
 * Moves *nm, the name found in declarator [start, i), back over those words;
 * returns where they start, or i.
 */
static size_t
attr_macros_after_name(struct reader *r, size_t start, size_t i, size_t *nm)
{
	const struct api_tok *v = r->c->v;
	size_t attr_macros = i, k = *nm;

	while (k < i && k > start + 1 && api_tok_ident(&v[k - 1]) && !type_word(&v[k - 1]) &&
	       !qualifier_word(&v[k - 1]) && !api_tok_is(&v[k - 2], "struct") &&
	       !api_tok_is(&v[k - 2], "union") && !api_tok_is(&v[k - 2], "enum") &&
	       (api_macro_here(r, &v[k]) ||
		(macro_like(&v[k]) && !macro_like(&v[k - 1]) &&
		 (api_tok_is(&v[k - 2], "}") || type_word(&v[k - 2]) ||
		  (k > start + 2 &&
		   (api_tok_is(&v[k - 3], "struct") || api_tok_is(&v[k - 3], "union") ||
		    api_tok_is(&v[k - 3], "enum"))))))) {
		attr_macros = k;
		k--;
	}
	*nm = k;
	return attr_macros;
}

/* The '(' of a function pointer's "(*name)" in [start, nm), past inline bodies, or i. */
static size_t
function_pointer_paren(const struct api_tok *v, size_t start, size_t nm, size_t i)
{
	size_t j;

	for (j = start; nm < i && j < nm; j++) {
		if (api_tok_is(&v[j], "{")) {
			j = api_match(v, j, nm); /* an inline body's own members */
			continue;
		}
		if (api_tok_is(&v[j], "(") && j + 1 < nm && api_tok_is(&v[j + 1], "*"))
			return j;
	}
	return i;
}

/* What a declarator spells besides its name: its type, array bounds and attributes. */
struct declarator {
	struct ud_buf type, dims, attrs;
	bool dims_ok; /* every bound evaluated */
};

/* A buffer of the reader's spares (or a new one), emptied. */
static void
spare_take(struct ud_buf *spare, struct ud_buf *b)
{
	*b = *spare;
	ud_buf_init(spare);
	ud_buf_reset(b);
}

/* b back to the spares, or freed when the spare is taken already. */
static void
spare_give(struct ud_buf *spare, struct ud_buf *b)
{
	if (spare->alloc == 0)
		*spare = *b;
	else
		ud_buf_free(b);
}

/*
 * d's buffers from the reader's spares: three buffers per member allocated
 * and freed were some 50,000 malloc and free pairs a diff.
 */
static void
declarator_begin(struct reader *r, struct declarator *d)
{
	spare_take(&r->spare.type, &d->type);
	spare_take(&r->spare.dims, &d->dims);
	spare_take(&r->spare.attrs, &d->attrs);
	d->dims_ok = true;
}

/* d's buffers back to the reader (their texts copied out first). */
static void
declarator_end(struct reader *r, struct declarator *d)
{
	spare_give(&r->spare.type, &d->type);
	spare_give(&r->spare.dims, &d->dims);
	spare_give(&r->spare.attrs, &d->attrs);
}

/* The array bound "[...]" at j of declarator [.., i), added to m's; returns its ']'. */
static size_t
declarator_bound(struct reader *r, size_t j, size_t i, struct ud_api_member *m,
		 struct declarator *d)
{
	const struct api_tok *v = r->c->v;
	size_t k = api_match(v, j, i);
	size_t end = k < i ? k + 1 : i;
	size_t had = m->array != NULL ? strlen(m->array) : 0, n = api_join_len(v, j, end);
	/* the bounds so far and this one; the old string stays in the arena */
	char *more = ud_strarena_alloc(&r->h->strs, had + n + 1);

	memcpy(more, m->array != NULL ? m->array : "", had);
	api_join_to(more + had, v, j, end);
	m->array = more;
	dims_add(r, v, j, k < i ? k : i, &d->dims, &d->dims_ok);
	return k;
}

/* The bit-field width after the ':' at j of declarator [.., i), then attributes after it. */
static void
declarator_width(struct reader *r, size_t j, size_t i, struct ud_api_member *m,
		 struct declarator *d)
{
	const struct api_tok *v = r->c->v;
	long long bits;
	size_t k = j + 1, e = j + 1;

	while (e < i && !api_is_attr(&v[e]))
		e++;
	m->width = hjoin(r, v, k, e);
	m->bits = api_evaluate(r, m->width, &bits) ? (int)bits : 0;
	take_attrs(v, &e, i, &d->attrs);
}

/*
 * Declarator [.., i) whose name is at nm: the name, the attribute macros from
 * attr_macros, then array bounds, a bit-field width, attributes, or a function
 * pointer's parameters when its "(*" is at fp < i.
 */
static void
declarator_named(struct reader *r, size_t nm, size_t i, size_t attr_macros, size_t fp,
		 struct ud_api_member *m, struct declarator *d)
{
	const struct api_tok *v = r->c->v;
	size_t after = nm + 1, j;

	/*
	 * "__u8 HINT_UNSAFE_IN_KVM(immediate_exit)": a member is no function,
	 * so a macro wraps its name
	 */
	if (fp == i && nm + 3 < i && api_tok_is(&v[nm + 1], "(") && api_tok_ident(&v[nm + 2]) &&
	    api_tok_is(&v[nm + 3], ")")) {
		m->name = hstrn(r, v[nm + 2].p, v[nm + 2].n);
		after = nm + 4;
	} else {
		m->name = hstrn(r, v[nm].p, v[nm].n);
	}
	for (j = attr_macros; j < i && api_tok_ident(&v[j]); j++)
		ud_buf_addf(&d->attrs, "%s%.*s", d->attrs.len ? " " : "", (int)v[j].n, v[j].p);
	for (j = after; j < i; j++) {
		if (j == attr_macros) {
			while (j < i && api_tok_ident(&v[j]))
				j++;
			if (j >= i)
				break;
		}
		if (api_tok_is(&v[j], "[")) {
			j = declarator_bound(r, j, i, m, d);
		} else if (api_tok_is(&v[j], ":") && j + 1 < i) {
			declarator_width(r, j, i, m, d);
			break;
		} else if (api_tok_is(&v[j], ")") && fp < i) {
			/* a function pointer: "(*)" and its parameters are its type */
			ud_buf_addstr(&d->type, " (*)");
			join_add(&d->type, v, j + 1, i);
			break;
		} else if (api_is_attr(&v[j])) {
			take_attrs(v, &j, i, &d->attrs);
			j--;
		}
	}
}

/* A member declaration [a, b) (no ';'), possibly "int a, b" or "int x:3". */
static void
member(struct reader *r, size_t a, size_t b, size_t open, struct ud_api_member **out, size_t *n,
       size_t *alloc)
{
	const struct api_tok *v = r->c->v;
	size_t start = a, i, depth = 0, type_end = a;
	bool first = true;

	if (members_macro(v, a, b)) {
		struct ud_api_member *m = member_add(out, n, alloc);

		m->name = hstrn(r, "", 0);
		m->type = hjoin(r, v, a, b);
		m->cond = relative_cond(r, open, a);
		m->expands = true;
		m->line = v[a].line;
		return;
	}
	/* the declarators, split at commas outside brackets */
	for (i = a; i <= b; i++) {
		if (i < b &&
		    (api_tok_is(&v[i], "(") || api_tok_is(&v[i], "[") || api_tok_is(&v[i], "{")))
			depth++;
		else if (i < b && (api_tok_is(&v[i], ")") || api_tok_is(&v[i], "]") ||
				   api_tok_is(&v[i], "}")))
			depth--;
		if (i < b && !(depth == 0 && api_tok_is(&v[i], ",")))
			continue;
		{
			size_t nm = declared_name(v, start, i), j, attr_macros;
			struct ud_api_member *m;
			struct declarator d;
			size_t fp; /* "(" of a function pointer's "(*name)", or i */

			m = member_add(out, n, alloc);
			m->cond = relative_cond(r, open, start);
			if (first && flex_array_member(r, start, i, m)) {
				first = false;
				start = i + 1;
				continue;
			}
			attr_macros = attr_macros_after_name(r, start, i, &nm);
			/* "__u32 :3": the only word is the type; the field has no name */
			if (first && nm + 1 < i && (nm == start || type_word(&v[nm])) &&
			    api_tok_is(&v[nm + 1], ":")) {
				type_end = nm + 1;
				m->width = hjoin(r, v, nm + 2, i);
				nm = i;
			} else if (!first && nm >= i && start < i && api_tok_is(&v[start], ":")) {
				m->width = hjoin(r, v, start + 1, i); /* "int a:3, :5" */
			} else if (first) {
				type_end = nm < i ? nm : i;
			}
			fp = function_pointer_paren(v, start, nm, i);
			if (first && fp < i)
				type_end = fp;
			/* an inline body is the type of every declarator: each reads it */
			inline_body(r, a, type_end, m);
			/* after the inline body's members, which take the buffers too */
			declarator_begin(r, &d);
			/* the type: the base (from the first declarator) and this one's stars */
			join_add(&d.type, v, a, type_end);
			if (!first)
				for (j = start; j < nm && j < i; j++)
					if (api_tok_is(&v[j], "*"))
						ud_buf_addstr(&d.type, " *");
			if (nm < i) {
				declarator_named(r, nm, i, attr_macros, fp, m, &d);
			} else {
				/* an anonymous struct or union, or a padding bit-field */
				m->name = hstrn(r, "", 0);
				if (first && m->width == NULL) {
					ud_buf_reset(&d.type);
					join_add(&d.type, v, a, i);
				}
				if (m->width != NULL) {
					long long bits;

					m->bits = api_evaluate(r, m->width, &bits) ? (int)bits : 0;
				}
			}
			m->type = hstrn(r, ud_buf_str(&d.type), d.type.len);
			if (m->array != NULL && d.dims_ok)
				m->dims = hstrn(r, ud_buf_str(&d.dims), d.dims.len);
			if (d.attrs.len > 0)
				m->attrs = hstrn(r, ud_buf_str(&d.attrs), d.attrs.len);
			declarator_end(r, &d);
			first = false;
			start = i + 1;
		}
	}
	(void)parse_members;
}

static void
parse_members(struct reader *r, size_t a, size_t b, struct ud_api_member **out, size_t *n)
{
	const struct api_tok *v = r->c->v;
	size_t alloc = 0, start = a, i;

	*out = NULL;
	*n = 0;
	for (i = a; i < b; i++) {
		if (api_tok_is(&v[i], "{") || api_tok_is(&v[i], "(")) {
			i = api_match(v, i, b);
			continue;
		}
		if (api_tok_is(&v[i], ";")) {
			if (i > start)
				member(r, start, i, a > 0 ? a - 1 : 0, out, n, &alloc);
			start = i + 1;
		}
	}
	if (b > start)
		member(r, start, b, a > 0 ? a - 1 : 0, out, n, &alloc);
	/*
	 * As many as there are: a record has a few members, the array was
	 * grown sixteen at a time, and every record of a version stays in
	 * memory (a fifth of api-diff's peak was these tails).
	 */
	if (*n > 0 && *n < alloc)
		*out = ud_xrealloc(*out, *n * sizeof(**out));
}

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
	parse_members(r, comma[2] + 1, close, &s->members, &s->nmembers);
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
		/* as many as there are, as parse_members leaves a record's */
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
		parse_members(r, open + 1, close, &s->members, &s->nmembers);
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
					       t = declared_name(v, close + 1, b);

					if (t < b)
						tname = ud_xstrndup(v[t].p, v[t].n);
				}
				i = record_body(r, i, b, tname) - 1;
				free(tname);
			}
		}
	}
	if (is_typedef) {
		nm = declared_name(v, a + 1, b);
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
			member(r, a + 1, b, a, &decls, &ndecls, &adecls);
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
	nm = declared_name(v, a, b);
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
	parse_members(&r, 0, t.n, out, n);
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
