// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preprocessor of the API model (api-internal.h): macros expanded as
 * C expands them (object-like and function-like, # and ##, variadic
 * arguments, each expansion hiding its own name from its rescan), in a
 * header's view of the version (api-resolve.c's look-ups), with the
 * target's predefined macros; defined() answered in conditions.  An
 * object-like macro whose value is known stands as one number (the
 * _IOC_* macros under each ioctl are evaluated once).  api-eval.c
 * evaluates what comes out.
 *
 * Bounded: expansion stops after API_MAX_STEPS tokens, nesting after
 * API_MAX_DEPTH; either fails the expansion.  Pure.
 *
 * Cheap because it runs 26,000 times a diff: what does not change during
 * a context's life is kept in its arena (api_ctx's spare, api-macro-keep.c
 * keeps it): emptied token vectors for reuse, each text's tokens, each
 * identifier's ABI answer and the macro look-ups api_lookup itself
 * memoizes; and here each function-like macro's parameters
 * (api_symstate's form).  Nothing kept depends on a value or condition
 * still being worked out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

#define API_MAX_STEPS 200000

/* The macros whose expansion produced a token: it is not expanded by them again. */
struct api_hide {
	const char *name;
	size_t n;
	const struct api_hide *next;
};

/* Whether t is an identifier (api_tok_ident, inline: asked of every token expanded). */
static inline bool
tok_ident(const struct api_tok *t)
{
	return t->n > 0 && ud_is_ident_start((unsigned char)t->p[0]);
}

static bool
hidden(const struct api_tok *t)
{
	const struct api_hide *h;

	for (h = t->hide; h != NULL; h = h->next)
		if (h->n == t->n && memcmp(h->name, t->p, t->n) == 0)
			return true;
	return false;
}

static const struct api_hide *
hide_add(struct api_ctx *c, const struct api_hide *set, const char *name, size_t n)
{
	struct api_hide *h = ud_arena_alloc(&c->arena, sizeof(*h));

	h->name = name;
	h->n = n;
	h->next = set;
	return h;
}

/* A token made of text (copied into the arena). */
static struct api_tok
made(struct api_ctx *c, const char *text, size_t n, const struct api_hide *hide)
{
	struct api_tok t;

	memset(&t, 0, sizeof(t));
	t.p = ud_arena_strndup(&c->arena, text, n);
	t.n = n;
	t.hide = hide;
	return t;
}

struct expander {
	struct api_ctx *c;
	unsigned h; /* the header whose view expands */
	bool pp;    /* a preprocessor condition: defined() answered, no global look-ups */
	size_t steps;
	bool failed; /* a bound was reached */
};

static void expand(struct expander *x, const struct api_tok *in, size_t n, struct tv *out,
		   unsigned depth);

/* The truth of defined(name) for a condition: 1, 0, or -1 when unknown. */
static int
defined_in(struct expander *x, const struct api_tok *t)
{
	const char *value;
	struct api_ref r;
	bool undecided = false;

	switch (api_abi_macro(x->c, t->p, t->n, &value)) {
	case UD_ABI_MACRO_DEFINED:
		return 1;
	case UD_ABI_MACRO_UNDEFINED:
		return 0;
	default:
		break;
	}
	if (api_lookup(x->c, x->h, API_NS_MACRO, t->p, t->n, false, &r, &undecided))
		return 1;
	if (undecided)
		return x->c->alone ? 0 : -1;
	/* the kernel's headers define it, but not where this header looks: undefined here */
	if (api_lookup(x->c, x->h, API_NS_MACRO, t->p, t->n, true, &r, &undecided))
		return 0;
	return x->c->alone ? 0 : -1;
}

/*
 * The macro sym t names in x's view, or NULL (also for undecided: *undecided set).
 * A look-up api_lookup memoizes itself (outside a condition's evaluation,
 * not alone) is kept in t's word w (from api_word_of): the same question has the same answer.
 */
static const struct ud_api_sym *
macro_of(struct expander *x, const struct api_tok *t, struct word *w, bool *undecided,
	 struct api_ref *r)
{
	struct api_ctx *c = x->c;
	bool memo = c->cur_h == UINT32_MAX && !c->alone, global = !x->pp, found;
	struct word_seen *ws;
	size_t k;

	for (k = 0; memo && k < WORD_SEEN; k++) {
		ws = &w->seen[k];
		if (ws->looked && ws->h == x->h && ws->global == global) {
			*undecided = ws->undecided;
			if (!ws->found)
				return NULL;
			*r = ws->r;
			return api_sym(c, *r);
		}
	}
	*undecided = false;
	found = api_lookup(c, x->h, API_NS_MACRO, t->p, t->n, global, r, undecided);
	if (memo) {
		w = api_word_of(c, t); /* the look-up may have expanded: the table may have moved */
		ws = &w->seen[w->next_seen];
		w->next_seen = (w->next_seen + 1) % WORD_SEEN;
		ws->looked = true;
		ws->h = x->h;
		ws->global = global;
		ws->found = found;
		ws->undecided = *undecided;
		if (found)
			ws->r = *r;
	}
	return found ? api_sym(c, *r) : NULL;
}

/* A parameter list "a, b, rest..." or "..." split into names; the variadic one is last. */
struct params {
	const char *name[32];
	size_t len[32];
	size_t n;
	bool variadic; /* the last parameter takes the rest ("..." is __VA_ARGS__) */
};

static bool
parse_params(const char *text, struct params *p)
{
	const char *s = text;

	memset(p, 0, sizeof(*p));
	while (*s != '\0') {
		const char *b;

		while (*s == ' ' || *s == ',')
			s++;
		if (*s == '\0')
			break;
		if (p->n >= 32)
			return false;
		if (strncmp(s, "...", 3) == 0) {
			p->name[p->n] = "__VA_ARGS__";
			p->len[p->n++] = 11;
			p->variadic = true;
			s += 3;
			continue;
		}
		b = s;
		while (ud_is_ident((unsigned char)*s))
			s++;
		if (s == b)
			return false;
		p->name[p->n] = b;
		p->len[p->n++] = (size_t)(s - b);
		while (*s == ' ')
			s++;
		if (strncmp(s, "...", 3) == 0) {
			p->variadic = true;
			s += 3;
		}
	}
	return true;
}

static long
param_index(const struct params *p, const struct api_tok *t)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->len[i] == t->n && memcmp(p->name[i], t->p, t->n) == 0)
			return (long)i;
	if (p->variadic && t->n == 11 && memcmp(t->p, "__VA_ARGS__", 11) == 0)
		return (long)p->n - 1;
	return -1;
}

/* What one token of a function-like macro's replacement is. */
struct form_tok {
	int param;	    /* the parameter it names, or -1 */
	int str;	    /* a '#' before a token: the parameter that token names, or -1 */
	bool paste;	    /* it is ## */
	bool before, after; /* a ## follows it, precedes it */
};

/*
 * A function-like macro read once (api_symstate's form): its parameter
 * list, and per token of its replacement what substitute() asks of it.
 * Read at every call before, some 19,000 a diff, for a few hundred macros.
 */
struct api_form {
	bool ok; /* its parameter list was read */
	struct params p;
	struct form_tok *t; /* when ok: per replacement token */
};

/* The form of function-like macro m (r), made on first use (in the arena). */
static const struct api_form *
form_of(struct api_ctx *c, struct api_ref r, const struct ud_api_sym *m)
{
	struct api_form *f = c->hd[r.h].st[r.i].form;
	const struct api_tok *b;
	size_t i, n;

	if (f != NULL)
		return f;
	f = ud_arena_alloc(&c->arena, sizeof(*f));
	f->ok = parse_params(m->params, &f->p);
	if (f->ok) {
		b = api_macro_body(c, r, &n);
		f->t = ud_arena_alloc(&c->arena, (n + 1) * sizeof(*f->t));
		for (i = 0; i < n; i++) {
			struct form_tok *ft = &f->t[i];

			ft->param = tok_ident(&b[i]) ? (int)param_index(&f->p, &b[i]) : -1;
			ft->str = api_tok_is(&b[i], "#") && i + 1 < n
					  ? (int)param_index(&f->p, &b[i + 1])
					  : -1;
			ft->paste = api_tok_is(&b[i], "##");
			ft->before = i + 1 < n && api_tok_is(&b[i + 1], "##");
			ft->after = i > 0 && api_tok_is(&b[i - 1], "##");
		}
	}
	c->hd[r.h].st[r.i].form = f;
	return f;
}

/* Pastes a and b into one token (or keeps both when they do not make one). */
static void
paste(struct api_ctx *c, struct tv *out, const struct api_tok *b, const struct api_hide *hide)
{
	struct api_tok *a;
	char *joined;
	struct api_toks t = {NULL, 0, 0};

	if (out->n == 0) {
		tv_push(out, *b);
		return;
	}
	a = &out->v[out->n - 1];
	joined = ud_xasprintf("%.*s%.*s", (int)a->n, a->p, (int)b->n, b->p);
	api_tokenize(joined, strlen(joined), &t);
	if (t.n == 1)
		*a = made(c, joined, strlen(joined), hide);
	else
		tv_push(out, *b);
	free(t.v);
	free(joined);
}

/* The tokens of a string literal spelling arg's tokens, as # makes it. */
static struct api_tok
stringize(struct api_ctx *c, const struct api_tok *v, size_t n, const struct api_hide *hide)
{
	struct ud_buf b = UD_BUF_INIT;
	char *text = api_join(v, 0, n);
	const char *p;
	struct api_tok t;

	ud_buf_addch(&b, '"');
	for (p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			ud_buf_addch(&b, '\\');
		ud_buf_addch(&b, *p);
	}
	ud_buf_addch(&b, '"');
	t = made(c, b.data, b.len, hide);
	ud_buf_free(&b);
	free(text);
	return t;
}

/*
 * The replacement of a function-like macro s for args (raw token ranges
 * of in[]), its tokens marked with hide, appended to out.
 */
static bool
substitute(struct expander *x, struct api_ref mr, const struct api_form *f,
	   const struct api_tok *args, const size_t *astart, const size_t *aend, size_t nargs,
	   const struct api_hide *hide, struct tv *out, unsigned depth)
{
	const struct params *p = &f->p;
	struct api_toks body = {NULL, 0, 0};
	struct tv expanded[33]; /* an argument macro-expanded, once done[] */
	bool done[33];
	size_t i, k;

	memset(done, 0, (nargs + 1) * sizeof(*done));

	body.v = (struct api_tok *)(uintptr_t)api_macro_body(x->c, mr, &body.n);
	for (i = 0; i < body.n; i++) {
		const struct api_tok *t = &body.v[i];
		long pi = f->t[i].param;
		bool before_paste = f->t[i].before;
		bool after_paste = f->t[i].after;

		if (f->t[i].str >= 0) {
			long q = f->t[i++].str;

			tv_push(out, (size_t)q < nargs ? stringize(x->c, args + astart[q],
								   aend[q] - astart[q], hide)
						       : made(x->c, "\"\"", 2, hide));
			continue;
		}
		if (f->t[i].paste)
			continue;
		if (pi >= 0) {
			size_t q = (size_t)pi;

			if (q >= nargs) {
				/* an empty variadic part: GNU's ", ## __VA_ARGS__" drops the comma
				 */
				if (after_paste && out->n > 0 &&
				    api_tok_is(&out->v[out->n - 1], ","))
					out->n--;
				continue;
			}
			if (before_paste || after_paste) {
				/* operands of ## are the arguments as written */
				if (after_paste && aend[q] > astart[q]) {
					struct api_tok first = args[astart[q]];

					first.hide = hide;
					paste(x->c, out, &first, hide);
					k = astart[q] + 1;
				} else {
					if (after_paste && aend[q] == astart[q] && p->variadic &&
					    q == p->n - 1 && out->n > 0 &&
					    api_tok_is(&out->v[out->n - 1], ","))
						out->n--;
					k = astart[q];
				}
				for (; k < aend[q]; k++) {
					struct api_tok a = args[k];

					a.hide = hide;
					tv_push(out, a);
				}
				continue;
			}
			if (!done[q]) {
				expanded[q] = tv_get(x->c);
				expand(x, args + astart[q], aend[q] - astart[q], &expanded[q],
				       depth + 1);
				done[q] = true;
			}
			tv_reserve(out, expanded[q].n);
			for (k = 0; k < expanded[q].n; k++) {
				struct api_tok a = expanded[q].v[k];

				/* an argument keeps its own hide set, and gains this one */
				if (a.hide == NULL)
					a.hide = hide;
				tv_push(out, a);
			}
			continue;
		}
		{
			struct api_tok b = *t;

			b.hide = hide;
			if (after_paste)
				paste(x->c, out, &b, hide);
			else
				tv_push(out, b);
		}
	}
	for (i = 0; i < nargs; i++)
		if (done[i])
			api_tv_put(x->c, &expanded[i]);
	return true;
}

/*
 * The decimal digits of u then suffix into buf (room for 20 digits, the
 * suffix and a NUL); its length.  snprintf's "%llu%s" without its cost:
 * it runs at every use of a macro whose value is known.
 */
static int
utoa_suffix(char *buf, unsigned long long u, const char *suffix)
{
	char digits[24];
	size_t n = 0, k, len = strlen(suffix);

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	for (k = 0; k < n; k++)
		buf[k] = digits[n - 1 - k];
	memcpy(buf + n, suffix, len + 1);
	return (int)(n + len);
}

/*
 * An object-like macro whose value is known: one number token with the
 * suffix of its type pushed onto out, instead of its expansion read again
 * at every use (the header's _IOC_* macros under each ioctl).
 */
static bool
value_token(struct expander *x, struct api_ref mr, const struct api_tok *t, struct tv *out)
{
	static const char *const suffix[] = {"", "U", "L", "UL", "LL", "ULL"};
	struct api_symstate *st = &x->c->hd[mr.h].st[mr.i];
	const struct ud_api_sym *s;
	char buf[48];
	int n;

	if (st->value_st == API_TODO)
		api_eval_sym(x->c, mr);
	s = api_sym(x->c, mr);
	if (st->view_dependent)
		return false; /* its value here may not be its header's */
	if (st->value_st != API_DONE || !s->has_value || !st->rank_known || st->rank > API_ULLONG ||
	    (!s->value_unsigned && s->value < 0))
		return false;
	n = utoa_suffix(buf, (unsigned long long)s->value, suffix[st->rank]);
	tv_push(out, made(x->c, buf, (size_t)n, hide_add(x->c, t->hide, t->p, t->n)));
	return true;
}

/* A function-like macro call's arguments: argument i is v.v[start[i]..end[i]). */
struct call_args {
	struct tv v;
	size_t start[33], end[33], n;
};

/*
 * Takes the arguments of a call to a macro with parameters p off the stack,
 * whose top is the call's '(', through its ')', into a (a->v empty); false
 * when no ')' closes it or it has more than 32 arguments.
 */
static bool
collect_args(struct tv *stack, const struct params *p, struct call_args *a)
{
	size_t level = 0;
	bool closed = false;

	a->n = 0;
	stack->n--; /* the '(' */
	a->start[0] = 0;
	while (stack->n > 0) {
		struct api_tok t = stack->v[--stack->n];

		if (api_tok_is(&t, "(")) {
			level++;
		} else if (api_tok_is(&t, ")")) {
			if (level == 0) {
				closed = true;
				break;
			}
			level--;
		} else if (level == 0 && api_tok_is(&t, ",") &&
			   !(p->variadic && a->n + 1 >= p->n)) {
			a->end[a->n] = a->v.n;
			if (++a->n >= 32)
				break;
			a->start[a->n] = a->v.n;
			continue;
		}
		tv_push(&a->v, t);
	}
	if (!closed || a->n >= 32)
		return false;
	a->end[a->n] = a->v.n;
	a->n++;
	/* "F()" of a macro without parameters has no argument */
	if (p->n == 0 && a->n == 1 && a->end[0] == a->start[0])
		a->n = 0;
	return true;
}

/* Whether a replacement has a ## (pasted while it is copied out). */
static bool
has_paste(const struct api_tok *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].n == 2 && v[i].p[0] == '#' && v[i].p[1] == '#')
			return true;
	return false;
}

/* Object-like macro mr named by t: its replacement onto the stack, to be read next. */
static void
object_macro(struct expander *x, struct api_ref mr, const struct api_tok *t, struct tv *stack)
{
	const struct api_hide *hs = hide_add(x->c, t->hide, t->p, t->n);
	struct tv rep;
	size_t i, n;
	const struct api_tok *body = api_macro_body(x->c, mr, &n);

	if (!has_paste(body, n)) {
		/* most: the replacement as it is, reversed straight onto the stack */
		tv_reserve(stack, n);
		for (i = n; i > 0; i--) {
			struct api_tok b = body[i - 1];

			b.hide = hs;
			stack->v[stack->n++] = b;
		}
		return;
	}
	rep = tv_get(x->c);
	for (i = 0; i < n; i++) {
		struct api_tok b = body[i];

		b.hide = hs;
		if (api_tok_is(&b, "##") && i + 1 < n) {
			struct api_tok r = body[++i];

			r.hide = hs;
			paste(x->c, &rep, &r, hs);
			continue;
		}
		tv_push(&rep, b);
	}
	tv_reserve(stack, rep.n);
	for (i = rep.n; i > 0; i--)
		stack->v[stack->n++] = rep.v[i - 1];
	api_tv_put(x->c, &rep);
}

/*
 * A call of function-like macro m (mr) named by t, its '(' on top of the
 * stack: its replacement onto the stack, or API_UNKNOWN_WORD onto out.
 * False when the call is not closed (the expansion fails).
 */
static bool
call_macro(struct expander *x, const struct ud_api_sym *m, struct api_ref mr,
	   const struct api_tok *t, struct tv *stack, struct tv *out, unsigned depth)
{
	const struct api_form *f = form_of(x->c, mr, m);
	struct call_args a;
	struct tv rep;
	size_t i;

	if (!f->ok) {
		tv_push(out, made(x->c, API_UNKNOWN_WORD, strlen(API_UNKNOWN_WORD), NULL));
		return true;
	}
	a.v = tv_get(x->c);
	if (!collect_args(stack, &f->p, &a)) {
		api_tv_put(x->c, &a.v);
		return false;
	}
	/* a variadic macro called without its variadic part */
	if (f->p.variadic && a.n == f->p.n - 1)
		; /* substitute() treats the missing one as empty */
	else if (a.n != f->p.n) {
		api_tv_put(x->c, &a.v);
		tv_push(out, made(x->c, API_UNKNOWN_WORD, strlen(API_UNKNOWN_WORD), NULL));
		return true;
	}
	rep = tv_get(x->c);
	substitute(x, mr, f, a.v.v, a.start, a.end, a.n, hide_add(x->c, t->hide, t->p, t->n), &rep,
		   depth);
	tv_reserve(stack, rep.n);
	for (i = rep.n; i > 0; i--)
		stack->v[stack->n++] = rep.v[i - 1];
	api_tv_put(x->c, &rep);
	api_tv_put(x->c, &a.v);
	return true;
}

/* defined X, defined(X) in a condition, its operand on top of the stack: answered onto out. */
static void
defined_op(struct expander *x, struct tv *stack, struct tv *out)
{
	struct api_tok name;
	bool paren = stack->n > 0 && api_tok_is(&stack->v[stack->n - 1], "(");
	int d;

	if (paren)
		stack->n--;
	if (stack->n == 0 || !tok_ident(&stack->v[stack->n - 1])) {
		tv_push(out, made(x->c, API_UNKNOWN_WORD, strlen(API_UNKNOWN_WORD), NULL));
		return;
	}
	name = stack->v[--stack->n];
	if (paren && stack->n > 0 && api_tok_is(&stack->v[stack->n - 1], ")"))
		stack->n--;
	d = defined_in(x, &name);
	tv_push(out, d < 0 ? made(x->c, API_UNKNOWN_WORD, strlen(API_UNKNOWN_WORD), NULL)
			   : made(x->c, d ? "1" : "0", 1, NULL));
}

/*
 * Expands in[0..n) into out.  The input is a stack of tokens to read
 * (reversed), so that a macro's replacement is rescanned together with
 * the tokens after it (a function-like macro named at the end of a
 * replacement takes its arguments from what follows).
 */
static void
expand(struct expander *x, const struct api_tok *in, size_t n, struct tv *out, unsigned depth)
{
	struct tv stack;
	size_t i;

	if (depth > API_MAX_DEPTH) {
		x->failed = true;
		return;
	}
	stack = tv_get(x->c);
	tv_reserve(&stack, n);
	for (i = n; i > 0; i--)
		stack.v[stack.n++] = in[i - 1];
	while (stack.n > 0) {
		struct api_tok t = stack.v[--stack.n];
		const struct ud_api_sym *m;
		struct api_ref mr;
		bool undecided;
		const char *value;
		struct word *w;

		if (++x->steps > API_MAX_STEPS) {
			x->failed = true;
			break;
		}
		if (x->pp && api_tok_is(&t, "defined")) {
			/* answered before anything expands */
			defined_op(x, &stack, out);
			continue;
		}
		if (!tok_ident(&t) || hidden(&t)) {
			tv_push(out, t);
			continue;
		}
		/* what the compiler predefines: __CHAR_BIT__, __SIZEOF_LONG__ */
		w = api_word_of(x->c, &t);
		if (w->abi == UD_ABI_MACRO_DEFINED && w->value != NULL) {
			value = w->value;
			tv_push(out,
				made(x->c, value, strlen(value), hide_add(x->c, t.hide, t.p, t.n)));
			continue;
		}
		if (w->no_macro) {
			tv_push(out, t);
			continue;
		}
		if (w->many_macros)
			x->c->view_words++;
		m = macro_of(x, &t, w, &undecided, &mr);
		if (m == NULL) {
			tv_push(out, undecided ? made(x->c, API_UNKNOWN_WORD,
						      strlen(API_UNKNOWN_WORD), NULL)
					       : t);
			continue;
		}
		if (m->params == NULL && !x->pp && value_token(x, mr, &t, out))
			continue; /* its value, computed once, stands for its expansion */
		if (m->params == NULL) {
			object_macro(x, mr, &t, &stack);
			continue;
		}
		/* a function-like macro: only when a '(' follows */
		if (stack.n == 0 || !api_tok_is(&stack.v[stack.n - 1], "(")) {
			tv_push(out, t);
			continue;
		}
		if (!call_macro(x, m, mr, &t, &stack, out, depth)) {
			x->failed = true;
			break;
		}
	}
	api_tv_put(x->c, &stack);
}

bool
api_expand_toks(struct api_ctx *c, unsigned h, const struct api_tok *in, size_t n, bool pp,
		struct api_toks *out)
{
	struct expander x;
	struct tv got = tv_get(c);

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.h = h;
	x.pp = pp;
	tv_reserve(&got, n);
	expand(&x, in, n, &got, 0);
	out->v = got.v;
	out->n = got.n;
	out->alloc = got.alloc;
	return !x.failed;
}

bool
api_expand_macro(struct api_ctx *c, struct api_ref r, struct api_toks *out)
{
	const struct ud_api_sym *m = api_sym(c, r);
	struct expander x;
	struct tv stack = tv_get(c), got = tv_get(c);
	struct api_tok name;
	size_t i;

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.h = r.h;
	memset(&name, 0, sizeof(name));
	name.p = m->name;
	name.n = strlen(m->name);
	/* the replacement as a use of the name puts it: reversed, with the name hidden */
	object_macro(&x, r, &name, &stack);
	for (i = 0; i < stack.n / 2; i++) {
		struct api_tok t = stack.v[i];

		stack.v[i] = stack.v[stack.n - 1 - i];
		stack.v[stack.n - 1 - i] = t;
	}
	tv_reserve(&got, stack.n);
	expand(&x, stack.v, stack.n, &got, 0);
	api_tv_put(c, &stack);
	out->v = got.v;
	out->n = got.n;
	out->alloc = got.alloc;
	return !x.failed;
}

bool
api_expand(struct api_ctx *c, unsigned h, const char *text, bool pp, struct api_toks *out)
{
	size_t n;
	const struct api_tok *in = api_text_tokens(c, text, strlen(text), &n);

	return api_expand_toks(c, h, in, n, pp, out);
}

void
api_expand_done(struct api_ctx *c, struct api_toks *out)
{
	struct tv t = {out->v, out->n, out->alloc, &c->arena};

	api_tv_put(c, &t);
	out->v = NULL;
	out->n = out->alloc = 0;
}

char *
api_expand_text(struct api_ctx *c, unsigned h, const char *text)
{
	struct expander x;
	const struct api_tok *in;
	size_t n;
	struct tv out;
	char *s = NULL;

	/* most texts asked are empty (22,000 of 28,000 a diff): nothing to expand */
	if (*text == '\0')
		return c->depth <= API_MAX_DEPTH ? ud_xstrdup("") : NULL;
	out = tv_get(c);
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.h = h;
	in = api_text_tokens(c, text, strlen(text), &n);
	if (c->depth <= API_MAX_DEPTH) {
		c->depth++;
		expand(&x, in, n, &out, 0);
		c->depth--;
		if (!x.failed)
			s = api_join(out.v, 0, out.n);
	}
	api_tv_put(c, &out);
	return s;
}
