// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header reader's declarations (api-reader.h): a top-level
 * declaration recognised by its shape (typedef, struct/union/enum body,
 * function, variable), and the bodies it defines: an enum's constants and
 * their values, a record's members (api-reader-member.c) and the
 * attributes after it, the tagged records nested in it and those
 * __struct_group defines.  Apart from api.c, which splits the code into
 * these declarations and finishes the header they build.
 */
#include <stdlib.h>
#include <string.h>

#include "api-reader.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

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

/* "(BASE) + N", an implicit enumerator's value after one not known here, in the arena. */
static char *
implicit_after(struct reader *r, const char *base, long long offset)
{
	char *t = ud_xasprintf("(%s) + %lld", base, offset), *own = hstr(r, t);

	free(t);
	return own;
}

/* text: in the header's arena (or NULL: ""). */
static struct ud_api_sym *
add_sym(struct reader *r, enum ud_api_kind kind, const char *name, unsigned line, char *text)
{
	return api_add_sym_named(r, kind, hstr(r, name), line, text);
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

/* Whether v[k], the last word of a declaration [.., b), is spelled as a macro's name (upper case).
 */
static bool
macro_named_last(const struct api_tok *v, size_t k, size_t b)
{
	size_t i;
	bool upper = false;

	if (!api_tok_ident(&v[k]) || !(k + 1 == b || api_tok_is(&v[k + 1], ";")))
		return false;
	for (i = 0; i < v[k].n; i++) {
		if (v[k].p[i] >= 'a' && v[k].p[i] <= 'z')
			return false;
		upper |= v[k].p[i] >= 'A' && v[k].p[i] <= 'Z';
	}
	return upper;
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

			/*
			 * or a macro of this header that stands for them
			 * (EPOLL_PACKED), or a macro's name that ends the
			 * declaration (linux/atmsap.h's __ATM_API_ALIGN, of
			 * linux/atmapi.h): no header declares an object there;
			 * or before a typedef's name, the only name of its record
			 * (linux/atmapi.h's atm_kptr_t)
			 */
			while (k < b &&
			       (api_is_attr(&v[k]) ||
				(r->nesting == 0 && typedef_name == NULL &&
				 (api_macro_here(r, &v[k]) || macro_named_last(v, k, b))) ||
				(r->nesting == 0 && typedef_name != NULL && k + 1 < b &&
				 api_tok_is(&v[k + 1], typedef_name) &&
				 macro_named_last(v, k, k + 1)))) {
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

void
api_declaration(struct reader *r, size_t a, size_t b)
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
					/* the first declarator's name: "} t_x, *p_x;" is t_x */
					size_t close = api_match(v, j, b), end = close + 1, t;
					int depth = 0;

					for (; end < b; end++) {
						if (api_tok_is(&v[end], "("))
							depth++;
						else if (api_tok_is(&v[end], ")"))
							depth--;
						else if (depth == 0 && api_tok_is(&v[end], ","))
							break;
					}
					t = api_declared_name(v, close + 1, end);
					if (t < end)
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
