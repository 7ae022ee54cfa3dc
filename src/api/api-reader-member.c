// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header reader's members (api-reader.h): a record's body split into
 * member declarations, each split into declarators (its name, type, array
 * bounds, bit-field width, attributes, the conditions it adds, an inline
 * body's own members), with the reader's spare buffers behind them.  Apart
 * from the top-level declarations because a typedef's declarator and
 * every record body, however nested, are read through here.
 */
#include <stdlib.h>
#include <string.h>

#include "api-reader.h"
#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

/*
 * The declared name in declarator tokens [a, b): the identifier of a
 * function pointer "(*name)", else the last identifier before an array
 * bound, parameter list, bit-field or the end.  Its index, or b.
 */
size_t
api_declared_name(const struct api_tok *v, size_t a, size_t b)
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
		api_parse_members(r, open + 1, close, &m->sub, &m->nsub);
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

	for (i = 0; i < ARRAY_SIZE(words); i++)
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

	for (i = 0; i < ARRAY_SIZE(words); i++)
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
void
api_member(struct reader *r, size_t a, size_t b, size_t open, struct ud_api_member **out, size_t *n,
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
			size_t nm = api_declared_name(v, start, i), j, attr_macros;
			struct ud_api_member *m;
			struct declarator d;
			size_t fp; /* "(" of a function pointer's "(*name)", or i */

			m = member_add(out, n, alloc);
			/* the name's: an #ifdef may open inside the declarator list (parisc's
			 * pdc.h) */
			m->cond = relative_cond(r, open, nm < i ? nm : start);
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
	(void)api_parse_members;
}

void
api_parse_members(struct reader *r, size_t a, size_t b, struct ud_api_member **out, size_t *n)
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
				api_member(r, start, i, a > 0 ? a - 1 : 0, out, n, &alloc);
			start = i + 1;
		}
	}
	if (b > start)
		api_member(r, start, b, a > 0 ? a - 1 : 0, out, n, &alloc);
	/*
	 * As many as there are: a record has a few members, the array was
	 * grown sixteen at a time, and every record of a version stays in
	 * memory (a fifth of api-diff's peak was these tails).
	 */
	if (*n > 0 && *n < alloc)
		*out = ud_xrealloc(*out, *n * sizeof(**out));
}
