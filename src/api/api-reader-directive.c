// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header reader's directives (api-reader.h): #define (a macro, its
 * value, an ioctl request's parts), #undef, the conditional stack of
 * #if/#ifdef/#elif/#else/#endif and the include guard, #pragma pack and
 * #include.  Apart from the declarations because directives are read from
 * every token and set the state (the current conditions, the macros so
 * far) that the declarations then read through api_macro_here and
 * api_defined_here.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-reader.h"
#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/* Whether cond has an " && " outside parentheses. */
static bool
conjunction(const char *cond)
{
	int depth = 0;

	for (; *cond != '\0'; cond++) {
		if (*cond == '(')
			depth++;
		else if (*cond == ')')
			depth--;
		else if (depth == 0 && strncmp(cond, " && ", 4) == 0)
			return true;
	}
	return false;
}

/* The negation of a branch's condition, as an #else or #elif sees it. */
static char *
negate(const char *cond)
{
	if (cond[0] == '\0')
		return ud_xstrdup("");
	if (conjunction(cond))
		return ud_xasprintf("!(%s)", cond);
	if (cond[0] == '!')
		return ud_xstrdup(cond + 1); /* "!defined(X)" or "!(...)": one term */
	return ud_xasprintf("!%s", cond);
}

/* Enters a branch whose own test is own (NULL: #else) after earlier ones (not_before); takes both.
 */
static void
push_cond(struct reader *r, char *own, char *not_before)
{
	char *text = not_before == NULL ? ud_xstrdup(own != NULL ? own : "")
		     : own == NULL	? ud_xstrdup(not_before)
					: ud_xasprintf("%s && %s", not_before, own);

	if (r->depth < ARRAY_SIZE(r->stack)) {
		r->stack[r->depth].len = r->cond.len;
		r->stack[r->depth].text = text;
		r->stack[r->depth].own = own;
		r->stack[r->depth].not_before = not_before;
		if (r->cond.len > 0 && text[0] != '\0')
			ud_buf_addstr(&r->cond, " && ");
		ud_buf_addstr(&r->cond, text);
	} else {
		free(text);
		free(own);
		free(not_before);
	}
	r->depth++;
}

void
api_pop_cond(struct reader *r)
{
	if (r->depth == 0)
		return;
	r->depth--;
	if (r->depth < ARRAY_SIZE(r->stack)) {
		ud_buf_setlen(&r->cond, r->stack[r->depth].len);
		free(r->stack[r->depth].text);
		free(r->stack[r->depth].own);
		free(r->stack[r->depth].not_before);
	}
}

/* An ioctl request macro's body: _IOR(type, nr, arg) and friends. */
static void
decode_ioctl(struct reader *r, struct ud_api_sym *s, const struct api_tok *v, size_t a, size_t b)
{
	static const char *const dirs[] = {"_IO", "_IOR", "_IOW", "_IOWR"};
	size_t args[4], nargs = 0, i, depth = 0, d;

	for (d = 0; d < 4 && !(b > a && api_tok_is(&v[a], dirs[d])); d++)
		;
	if (d == 4 || b - a < 4 || !api_tok_is(&v[a + 1], "(") || !api_tok_is(&v[b - 1], ")"))
		return;
	args[nargs++] = a + 2;
	for (i = a + 2; i < b - 1; i++) {
		if (api_tok_is(&v[i], "(") || api_tok_is(&v[i], "["))
			depth++;
		else if (api_tok_is(&v[i], ")") || api_tok_is(&v[i], "]"))
			depth--;
		else if (depth == 0 && api_tok_is(&v[i], ",") && nargs < 4)
			args[nargs++] = i + 1;
	}
	if ((d == 0 && nargs != 2) || (d > 0 && nargs != 3))
		return;
	args[nargs] = b; /* one past the last argument's comma position + 1 */
	s->is_ioctl = true;
	/* a few symbols in a hundred: the others carry no room for it */
	s->ioctl = ud_strarena_alloc_aligned(&r->h->strs, sizeof(*s->ioctl),
					     alignof(struct ud_api_ioctl));
	snprintf(s->ioctl->dir, sizeof(s->ioctl->dir), "%s", dirs[d]);
	s->ioctl->type = hjoin(r, v, args[0], args[1] - 1);
	s->ioctl->nr = hjoin(r, v, args[1], nargs > 2 ? args[2] - 1 : b - 1);
	s->ioctl->arg = nargs > 2 ? hjoin(r, v, args[2], b - 1) : NULL;
	if (s->ioctl->type[0] == '\'' && strlen(s->ioctl->type) == 3) {
		s->ioctl->typev = (unsigned char)s->ioctl->type[1];
		s->ioctl->known = api_evaluate(r, s->ioctl->nr, &s->ioctl->nrv);
	} else {
		s->ioctl->known = api_evaluate(r, s->ioctl->type, &s->ioctl->typev) &&
				  api_evaluate(r, s->ioctl->nr, &s->ioctl->nrv);
	}
}

/*
 * An object-like macro this header defined before token t that stands for
 * attributes ("#define EPOLL_PACKED __attribute__((packed))", or nothing).
 */
bool
api_macro_here(const struct reader *r, const struct api_tok *t)
{
	char name[128];

	if (!api_tok_ident(t) || t->n >= sizeof(name) || r->attr_macros.n == 0)
		return false;
	memcpy(name, t->p, t->n);
	name[t->n] = '\0';
	return ud_map_has(&r->attr_macros, name);
}

/* Whether token t names a macro this header defined (one not just naming itself). */
bool
api_defined_here(const struct reader *r, const struct api_tok *t)
{
	char name[128];

	if (t->n >= sizeof(name) || r->macros.n == 0)
		return false;
	memcpy(name, t->p, t->n);
	name[t->n] = '\0';
	return ud_map_get(&r->macros, name) != NULL;
}

/*
 * The header an #include "name" in the header at path names: name in
 * path's own directory, as a compiler looks there first ("drm.h" from
 * drm/i915_drm.h is drm/drm.h), its "./" and "../" steps taken.
 */
static void
quoted_include(const char *path, const char *name, size_t n, struct ud_buf *out)
{
	const char *slash = strrchr(path, '/');
	const char *end = name + n;

	if (slash != NULL)
		ud_buf_add(out, path, (size_t)(slash - path));
	while (name < end) {
		const char *step = memchr(name, '/', (size_t)(end - name));
		size_t len = (size_t)((step != NULL ? step : end) - name);

		if (len == 2 && name[0] == '.' && name[1] == '.') {
			const char *up = memrchr(ud_buf_str(out), '/', out->len);

			ud_buf_setlen(out, up != NULL ? (size_t)(up - ud_buf_str(out)) : 0);
		} else if (len > 0 && !(len == 1 && name[0] == '.')) {
			if (out->len > 0)
				ud_buf_add(out, "/", 1);
			ud_buf_add(out, name, len);
		}
		name += len + (step != NULL);
	}
}

/* #pragma pack(N), pack(), pack(push[, N]), pack(pop): the members' alignment cap. */
static void
pragma_pack(struct reader *r, const struct api_tok *v, size_t a, size_t b)
{
	size_t i;
	unsigned n = 0;
	bool push = false, pop = false, any = false;

	for (i = a; i < b && !api_tok_is(&v[i], ")"); i++) {
		if (api_tok_is(&v[i], "push"))
			push = true;
		else if (api_tok_is(&v[i], "pop"))
			pop = true;
		else if (v[i].n > 0 && ud_is_digit((unsigned char)v[i].p[0])) {
			n = (unsigned)strtoul(v[i].p, NULL, 0);
			any = true;
		}
	}
	if (push && r->npacks < ARRAY_SIZE(r->packs))
		r->packs[r->npacks++] = r->pack;
	if (pop) {
		r->pack = r->npacks > 0 ? r->packs[--r->npacks] : 0;
		if (!any)
			return;
	}
	if (any || !push)
		r->pack = any ? n : 0;
}

void
api_directive(struct reader *r, size_t a, size_t b)
{
	const struct api_tok *v = r->t->v;
	const struct api_tok *name;

	if (b - a < 2)
		return;
	name = &v[a + 1];
	if (api_tok_is(name, "define") && b - a >= 3 && api_tok_ident(&v[a + 2])) {
		const struct api_tok *m = &v[a + 2];
		char *mname;
		size_t body = a + 3;
		char *params = NULL;
		struct ud_api_sym *s;

		if (r->guard != NULL && api_tok_is(m, r->guard) && !r->guard_seen) {
			r->guard_seen = true; /* the include guard is not API */
			return;
		}
		/* the symbol's name itself: one copy, not a temporary and the symbol's */
		mname = hstrn(r, m->p, m->n);
		if (body < b && api_tok_is(&v[body], "(") && v[body].p == m->p + m->n) {
			size_t close = body;

			while (close < b && !api_tok_is(&v[close], ")"))
				close++;
			params = hjoin(r, v, body + 1, close);
			body = close < b ? close + 1 : b;
		}
		s = api_add_sym_named(r, UD_API_MACRO, mname, m->line, hjoin(r, v, body, b));
		s->params = params;
		if (params == NULL &&
		    (s->text[0] == '\0' || strncmp(s->text, "__attribute__", 13) == 0))
			ud_map_put(&r->attr_macros, mname, NULL);
		/* "#define IFLA_COST IFLA_COST" marks an enumerator; it writes none */
		if (strcmp(s->text, mname) != 0)
			ud_map_put(&r->macros, mname, (void *)1);
		if (params == NULL) {
			s->has_value = api_evaluate(r, s->text, &s->value);
			if (s->has_value)
				api_remember(r, mname, s->value);
			decode_ioctl(r, s, v, body, b);
		}
	} else if (api_tok_is(name, "undef") && b - a >= 3 && api_tok_ident(&v[a + 2])) {
		/* the latest definition under the same conditions ends here */
		size_t i;

		for (i = r->h->n; i-- > 0;) {
			struct ud_api_sym *s = &r->h->v[i];

			if (s->kind == UD_API_MACRO && s->undef_line == 0 &&
			    strlen(s->name) == v[a + 2].n &&
			    memcmp(s->name, v[a + 2].p, v[a + 2].n) == 0) {
				if (strcmp(s->cond, ud_buf_str(&r->cond)) == 0)
					s->undef_line = v[a + 2].line;
				break;
			}
		}
	} else if (api_tok_is(name, "ifndef") && r->guard == NULL && r->depth == 0 && b - a == 3 &&
		   a + 1 < r->t->n) {
		/* the include guard: #ifndef X directly followed by #define X */
		size_t nx = b;

		if (nx + 2 < r->t->n && api_tok_is(&v[nx], "#") &&
		    api_tok_is(&v[nx + 1], "define") && v[nx + 2].n == v[a + 2].n &&
		    memcmp(v[nx + 2].p, v[a + 2].p, v[a + 2].n) == 0) {
			r->guard = ud_xstrndup(v[a + 2].p, v[a + 2].n);
			r->depth++;
			r->stack[r->depth - 1].len = r->cond.len;
			r->stack[r->depth - 1].text = NULL;
			r->stack[r->depth - 1].own = NULL;
			r->stack[r->depth - 1].not_before = NULL;
			return;
		}
		push_cond(r, ud_xasprintf("!defined(%.*s)", (int)v[a + 2].n, v[a + 2].p), NULL);
	} else if (api_tok_is(name, "if") || api_tok_is(name, "ifdef") ||
		   api_tok_is(name, "ifndef")) {
		char *expr = api_join(v, a + 2, b);

		if (api_tok_is(name, "ifdef"))
			push_cond(r, ud_xasprintf("defined(%s)", expr), NULL);
		else if (api_tok_is(name, "ifndef"))
			push_cond(r, ud_xasprintf("!defined(%s)", expr), NULL);
		else
			push_cond(r, ud_xasprintf("(%s)", expr), NULL);
		free(expr);
	} else if (api_tok_is(name, "elif") || api_tok_is(name, "else")) {
		/* this branch: none of the earlier ones, and its own test */
		bool stored = r->depth > 0 && r->depth <= 64;
		const char *own = stored ? r->stack[r->depth - 1].own : NULL;
		const char *before = stored ? r->stack[r->depth - 1].not_before : NULL;
		char *not = own != NULL ? negate(own) : NULL;
		char *not_before = before == NULL ? not
				   : not == NULL  ? ud_xstrdup(before)
						  : ud_xasprintf("%s && %s", before, not );
		char *expr = api_tok_is(name, "elif") ? api_join(v, a + 2, b) : NULL;

		if (not_before != not )
			free(not );
		api_pop_cond(r);
		push_cond(r, expr != NULL ? ud_xasprintf("(%s)", expr) : NULL, not_before);
		free(expr);
	} else if (api_tok_is(name, "pragma") && b - a >= 4 && api_tok_is(&v[a + 2], "pack") &&
		   api_tok_is(&v[a + 3], "(")) {
		pragma_pack(r, v, a + 4, b);
	} else if (api_tok_is(name, "endif")) {
		api_pop_cond(r);
	} else if (api_tok_is(name, "include") && b - a >= 3 &&
		   (api_tok_is(&v[a + 2], "<") || (v[a + 2].n > 2 && v[a + 2].p[0] == '"'))) {
		struct ud_buf inc = UD_BUF_INIT;
		size_t k;

		if (v[a + 2].p[0] == '"')
			quoted_include(r->h->path, v[a + 2].p + 1, v[a + 2].n - 2, &inc);
		else
			for (k = a + 3; k < b && !api_tok_is(&v[k], ">"); k++)
				ud_buf_add(&inc, v[k].p, v[k].n);
		r->h->includes = ud_xrealloc(r->h->includes,
					     (r->h->nincludes + 1) * sizeof(*r->h->includes));
		r->h->include_conds = ud_xrealloc(
			r->h->include_conds, (r->h->nincludes + 1) * sizeof(*r->h->include_conds));
		r->h->include_lines = ud_xrealloc(
			r->h->include_lines, (r->h->nincludes + 1) * sizeof(*r->h->include_lines));
		r->h->include_lines[r->h->nincludes] = v[a].line;
		r->h->include_conds[r->h->nincludes] = hstrn(r, ud_buf_str(&r->cond), r->cond.len);
		r->h->includes[r->h->nincludes++] = hbuf(r, &inc);
	}
}
