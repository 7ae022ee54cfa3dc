// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Differences between two versions of a header's API model, with verdicts
 * (api.h): symbols added and removed, macros and enum constants compared
 * by value (after expansion, on the target, when the versions were read
 * with ud_api_resolve), a macro that became an enum constant paired with
 * it, bounds and versions that grow with the API told apart from values
 * that changed, typedefs compared after resolution.  Records are compared
 * in api-record.c, changes through other types in api-through.c.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

/* The reason of a record that grew at its end (what its embedders inherit as breaking). */
const char api_grew_reason[] = "grew at its end";

static const char *const verdict_names[UD_API__VERDICTS] = {"compatible", "review", "breaking"};

static const char *const rule_names[] = {
	[UD_API_RULE_ADDED] = "added",
	[UD_API_RULE_REMOVED] = "removed",
	[UD_API_RULE_VALUE] = "value",
	[UD_API_RULE_SAME_VALUE] = "same-value",
	[UD_API_RULE_SENTINEL] = "sentinel",
	[UD_API_RULE_VERSION] = "version",
	[UD_API_RULE_FLAGS_ADDED] = "flags-added",
	[UD_API_RULE_MACRO_ENUM] = "macro-enum",
	[UD_API_RULE_PARAMS] = "parameters",
	[UD_API_RULE_IOCTL] = "ioctl",
	[UD_API_RULE_MEMBER_REMOVED] = "member-removed",
	[UD_API_RULE_MEMBER_MOVED] = "member-moved",
	[UD_API_RULE_MEMBER_RESIZED] = "member-resized",
	[UD_API_RULE_MEMBER_RETYPED] = "member-retyped",
	[UD_API_RULE_SIGNEDNESS] = "signedness",
	[UD_API_RULE_MEMBER_ADDED] = "member-added",
	[UD_API_RULE_GREW] = "grew",
	[UD_API_RULE_SIZE] = "size",
	[UD_API_RULE_ALIGN] = "alignment",
	[UD_API_RULE_RESERVED] = "reserved",
	[UD_API_RULE_FLEX] = "flexible-array",
	[UD_API_RULE_SPELLING] = "spelling",
	[UD_API_RULE_ENUM] = "enum",
	[UD_API_RULE_TYPEDEF] = "typedef",
	[UD_API_RULE_CONDITION] = "condition",
	[UD_API_RULE_THROUGH] = "through",
	[UD_API_RULE_MOVED] = "moved",
	[UD_API_RULE_INCLUDES] = "includes",
	[UD_API_RULE_DECLARATION] = "declaration",
	[UD_API_RULE_TEXT] = "text",
	[UD_API_RULE_ENUM_SENTINEL] = "enum-sentinel",
	[UD_API_RULE_CONST_TYPE] = "constant-type",
	[UD_API_RULE_IOCTL_ARG] = "ioctl-undeclared",
	[UD_API_RULE_IOCTL_GREW] = "ioctl-grew",
};
_Static_assert(ARRAY_SIZE(rule_names) == UD_API__RULES,
	       "rule_names must name every enum ud_api_rule member");

const char *
ud_api_verdict_name(enum ud_api_verdict v)
{
	return v < UD_API__VERDICTS ? verdict_names[v] : "?";
}

const char *
ud_api_what_name(enum ud_api_what w)
{
	return w == UD_API_ADDED ? "added" : w == UD_API_REMOVED ? "removed" : "changed";
}

const char *
ud_api_rule_name(enum ud_api_rule r)
{
	return r < UD_API__RULES ? rule_names[r] : "?";
}

const char *
ud_api_axis_name(enum ud_api_axis a)
{
	return a == UD_API_BINARY ? "binary" : a == UD_API_SOURCE ? "source" : "?";
}

void
ud_api_change_axes(struct ud_api_change *c)
{
	enum ud_api_verdict v = c->verdict, bin = v, src = v;

	switch (c->rule) {
	/* a built program holds the old value, size or offset; a rebuilt one the new */
	case UD_API_RULE_VALUE:
	case UD_API_RULE_SENTINEL:
	case UD_API_RULE_VERSION:
	case UD_API_RULE_FLAGS_ADDED:
	case UD_API_RULE_IOCTL:
	case UD_API_RULE_IOCTL_GREW:
	case UD_API_RULE_MEMBER_MOVED:
	case UD_API_RULE_GREW:
	case UD_API_RULE_SIZE:
	case UD_API_RULE_ALIGN:
	case UD_API_RULE_ENUM:
	case UD_API_RULE_ENUM_SENTINEL:
		src = UD_API_COMPATIBLE;
		break;
	case UD_API_RULE_MEMBER_RESIZED:
		/* a rebuilt program may truncate what it stores there */
		src = v < UD_API_REVIEW ? v : UD_API_REVIEW;
		break;
	/* the bytes are the same: what a compiler sees is not */
	case UD_API_RULE_MACRO_ENUM:
	case UD_API_RULE_MEMBER_RETYPED:
	case UD_API_RULE_SIGNEDNESS:
	case UD_API_RULE_RESERVED:
	case UD_API_RULE_FLEX:
	case UD_API_RULE_CONDITION:
	case UD_API_RULE_INCLUDES:
	case UD_API_RULE_CONST_TYPE:
	case UD_API_RULE_IOCTL_ARG:
	/* a function or variable in a uapi header: a name the program may clash with */
	case UD_API_RULE_DECLARATION:
		bin = UD_API_COMPATIBLE;
		break;
	case UD_API_RULE_REMOVED:
		/* a built program keeps what it compiled in; the kernel may have dropped it */
		bin = v < UD_API_REVIEW ? v : UD_API_REVIEW;
		break;
	default:
		break;
	}
	c->axis[UD_API_BINARY] = bin;
	c->axis[UD_API_SOURCE] = src;
	c->axis_rule[UD_API_BINARY] = c->axis_rule[UD_API_SOURCE] = c->rule;
}

void
api_diff_add(struct ud_api_diff *d, const char *header, const struct ud_api_sym *s,
	     enum ud_api_what what, enum ud_api_verdict verdict, enum ud_api_rule rule,
	     unsigned old_line, unsigned new_line, const char *fmt, ...)
{
	struct ud_api_change *c;
	char small[512];
	va_list ap, cp;
	int len;

	d->v = ud_xgrow(d->v, &d->alloc, d->n + 1, sizeof(*d->v));
	c = &d->v[d->n++];
	memset(c, 0, sizeof(*c));
	c->header = ud_xstrdup(header);
	c->symbol = s != NULL ? (s->cond[0] != '\0' ? ud_xasprintf("%s [if %s]", s->name, s->cond)
						    : ud_xstrdup(s->name))
			      : ud_xstrdup("");
	c->name = ud_xstrdup(s != NULL ? s->name : "");
	c->kind = s != NULL ? s->kind : UD_API_MACRO;
	c->what = what;
	c->verdict = verdict;
	c->rule = rule;
	c->old_line = old_line;
	c->new_line = new_line;
	ud_api_change_axes(c);
	/* one printf for a reason that fits (nearly all): a diff adds thousands */
	va_start(ap, fmt);
	va_copy(cp, ap);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (len >= 0 && (size_t)len < sizeof(small)) {
		c->reason = ud_xstrndup(small, (size_t)len);
	} else {
		struct ud_buf b = UD_BUF_INIT;

		ud_buf_vaddf(&b, fmt, cp);
		c->reason = ud_buf_detach(&b, NULL);
	}
	va_end(cp);
	d->verdicts[verdict]++;
}

#define add api_diff_add

static bool
ends_with(const char *name, const char *end)
{
	size_t n = strlen(name), m = strlen(end);

	return n >= m && strcmp(name + n - m, end) == 0;
}

/*
 * The families of names whose values grow as the API grows: bounds and
 * counts (*_MAX, __*_MAX, MAX_*, *_CNT, *_COUNT, __*_LAST, *_NR, NUM_*),
 * masks of every valid bit (*_MASK), and versions (*_VERSION*).
 */
static enum ud_api_rule
family(const char *name)
{
	/* with check-uapi's own list of sentinels (scripts/check-uapi.sh) */
	static const char *const ends[] = {"_MAX",    "_CNT",	     "_COUNT",	  "_LAST",
					   "_NR",     "_NUM",	     "MAX",	  "_MASK",
					   "_END",    "_AFTER_LAST", "_NBITS",	  "_MAX_BIT",
					   "_MAX_ID", "_MAX_SHIFT",  "_NUM_ELEMS"};
	static const char *const starts[] = {"MAX_", "__MAX_", "NUM_", "__NUM_"};
	static const char *const inner[] = {"_NUM_", "_NR_", "_MAX_", "_LAST_"};
	size_t i;

	if (strstr(name, "VERSION") != NULL)
		return UD_API_RULE_VERSION;
	for (i = 0; i < ARRAY_SIZE(ends); i++)
		if (ends_with(name, ends[i]))
			return UD_API_RULE_SENTINEL;
	for (i = 0; i < ARRAY_SIZE(starts); i++)
		if (strncmp(name, starts[i], strlen(starts[i])) == 0)
			return UD_API_RULE_SENTINEL;
	for (i = 0; i < ARRAY_SIZE(inner); i++)
		if (strstr(name, inner[i]) != NULL)
			return UD_API_RULE_SENTINEL;
	return UD_API_RULE_VALUE;
}

static bool
is_mask(const char *name)
{
	return ends_with(name, "_MASK");
}

/* A value for people: as written when it is small, in hex when it is a mask of bits. */
static void
value_text(char *buf, size_t n, const struct ud_api_sym *s)
{
	unsigned long long u = (unsigned long long)s->value;

	if (s->value_unsigned || s->value >= 0)
		snprintf(buf, n, u >= 0x10000 && (u & (u - 1)) != 0 ? "%#llx" : "%llu", u);
	else
		snprintf(buf, n, "%lld", s->value);
}

/* ---- macros and enum constants ---- */

/*
 * Whether two function-like macros' replacements are the same but for
 * the names of their parameters (a parameter matches its counterpart by
 * position); with suffixes, integer suffixes (4 vs 4U) are ignored too.
 */
static bool
same_body(const struct ud_api_sym *o, const struct ud_api_sym *n, bool suffixes)
{
	struct api_toks po = {NULL, 0, 0}, pn = {NULL, 0, 0}, bo = {NULL, 0, 0}, bn = {NULL, 0, 0};
	size_t i, k;
	bool same;

	api_tokenize(o->params, strlen(o->params), &po);
	api_tokenize(n->params, strlen(n->params), &pn);
	api_tokenize(o->text, strlen(o->text), &bo);
	api_tokenize(n->text, strlen(n->text), &bn);
	same = po.n == pn.n && bo.n == bn.n;
	for (i = 0; same && i < bo.n; i++) {
		const struct api_tok *a = &bo.v[i], *b = &bn.v[i];
		long pa = -1, pb = -1;

		for (k = 0; k < po.n; k++) {
			if (api_tok_ident(&po.v[k]) && a->n == po.v[k].n &&
			    memcmp(a->p, po.v[k].p, a->n) == 0)
				pa = (long)k;
			if (api_tok_ident(&pn.v[k]) && b->n == pn.v[k].n &&
			    memcmp(b->p, pn.v[k].p, b->n) == 0)
				pb = (long)k;
		}
		if (pa >= 0 || pb >= 0) {
			same = pa == pb;
		} else if (suffixes && ud_is_digit((unsigned char)a->p[0]) &&
			   ud_is_digit((unsigned char)b->p[0])) {
			size_t la = a->n, lb = b->n;

			while (la > 0 && strchr("uUlL", a->p[la - 1]) != NULL)
				la--;
			while (lb > 0 && strchr("uUlL", b->p[lb - 1]) != NULL)
				lb--;
			same = la == lb && memcmp(a->p, b->p, la) == 0;
		} else {
			same = a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
		}
	}
	free(po.v);
	free(pn.v);
	free(bo.v);
	free(bn.v);
	return same;
}

/* The "a | b | c" terms of a flags expression, or NULL when it is not one. */
static bool
terms_kept(const char *old_text, const char *new_text)
{
	struct api_toks a = {NULL, 0, 0}, b = {NULL, 0, 0};
	size_t i, k;
	bool kept = strchr(new_text, '|') != NULL;

	api_tokenize(old_text, strlen(old_text), &a);
	api_tokenize(new_text, strlen(new_text), &b);
	/* every name of the old expression is still in the new one */
	for (i = 0; kept && i < a.n; i++) {
		bool found = !api_tok_ident(&a.v[i]);

		for (k = 0; !found && k < b.n; k++)
			found = a.v[i].n == b.v[k].n && memcmp(a.v[i].p, b.v[k].p, a.v[i].n) == 0;
		kept = found;
	}
	free(a.v);
	free(b.v);
	return kept;
}

static void
diff_ioctl(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	   const struct ud_api_sym *n)
{
	if (o->has_value && n->has_value) {
		/* read for the target: the request numbers themselves */
		struct ud_buf why = UD_BUF_INIT;

		if (o->value == n->value) {
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_IOCTL,
			    o->line, n->line, "same request number %#llx, spelled differently",
			    (unsigned long long)n->value);
			return;
		}
		if (strcmp(o->ioctl->dir, n->ioctl->dir) != 0)
			ud_buf_addf(&why, ", direction %s -> %s", o->ioctl->dir, n->ioctl->dir);
		if (o->ioctl->known && n->ioctl->known &&
		    (o->ioctl->typev != n->ioctl->typev || o->ioctl->nrv != n->ioctl->nrv))
			ud_buf_addf(&why, ", number %s/%lld -> %s/%lld", o->ioctl->type,
				    o->ioctl->nrv, n->ioctl->type, n->ioctl->nrv);
		if (o->ioctl->size_known && n->ioctl->size_known &&
		    o->ioctl->size != n->ioctl->size)
			ud_buf_addf(&why, ", size %llu -> %llu (sizeof(%s))",
				    (unsigned long long)o->ioctl->size,
				    (unsigned long long)n->ioctl->size, api_or_none(n->ioctl->arg));
		else if (!api_streq(o->ioctl->arg, n->ioctl->arg))
			ud_buf_addf(&why, ", argument %s -> %s", api_or_none(o->ioctl->arg),
				    api_or_none(n->ioctl->arg));
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL, o->line,
		    n->line, "request number %#llx -> %#llx%s", (unsigned long long)o->value,
		    (unsigned long long)n->value, ud_buf_str(&why));
		ud_buf_free(&why);
		return;
	}
	if (strcmp(o->ioctl->dir, n->ioctl->dir) != 0)
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL, o->line,
		    n->line, "ioctl direction %s -> %s: the request number changes", o->ioctl->dir,
		    n->ioctl->dir);
	else if (o->ioctl->known && n->ioctl->known &&
		 (o->ioctl->typev != n->ioctl->typev || o->ioctl->nrv != n->ioctl->nrv))
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL, o->line,
		    n->line, "ioctl number %s/%lld -> %s/%lld", o->ioctl->type, o->ioctl->nrv,
		    n->ioctl->type, n->ioctl->nrv);
	else if (!(o->ioctl->known && n->ioctl->known) &&
		 (strcmp(o->ioctl->type, n->ioctl->type) != 0 ||
		  strcmp(o->ioctl->nr, n->ioctl->nr) != 0))
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL, o->line,
		    n->line, "ioctl number %s, %s -> %s, %s", o->ioctl->type, o->ioctl->nr,
		    n->ioctl->type, n->ioctl->nr);
	else if (!api_streq(o->ioctl->arg, n->ioctl->arg))
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL, o->line,
		    n->line, "ioctl argument type %s -> %s: its size is in the request number",
		    api_or_none(o->ioctl->arg), api_or_none(n->ioctl->arg));
	else if (o->ioctl->size_known && !n->ioctl->size_known && n->ioctl->arg != NULL)
		/* a request number that cannot be computed any more is not the same request */
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_IOCTL_ARG, o->line,
		    n->line,
		    "its argument type %s is no longer declared here: a program using it stops "
		    "building",
		    n->ioctl->arg);
	else
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_IOCTL, o->line,
		    n->line, "same request, spelled differently");
}

/*
 * Two values of a name: the same (compatible), grown as a bound, version
 * or set of flags grows (review), or changed (breaking).  what names them
 * ("value", "replacement"); prefix goes before the reason.
 */
static void
compare_values(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	       const struct ud_api_sym *n, const char *prefix)
{
	const char *what = o->kind == UD_API_ENUM_CONST ? "value" : "replacement";
	enum ud_api_rule fam = family(n->name);
	char a[40], b[40];
	/* the same value under another kind: an #ifdef no longer sees an enum constant */
	enum ud_api_verdict same = o->kind == UD_API_MACRO && n->kind == UD_API_ENUM_CONST
					   ? UD_API_REVIEW
					   : UD_API_COMPATIBLE;
	enum ud_api_rule same_rule =
		o->kind != n->kind ? UD_API_RULE_MACRO_ENUM : UD_API_RULE_SAME_VALUE;

	if (o->has_value && n->has_value) {
		unsigned long long ou = (unsigned long long)o->value,
				   nu = (unsigned long long)n->value;

		value_text(a, sizeof(a), o);
		value_text(b, sizeof(b), n);
		if (o->value == n->value && o->kind == n->kind &&
		    o->value_unsigned != n->value_unsigned) {
			/* 16 -> _BITUL(4): sizeof and (FLAG > -1) are not what they were */
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_CONST_TYPE,
			    o->line, n->line,
			    "%ssame value %s with another type (now %s): sizeof and comparisons "
			    "with negative numbers may differ",
			    prefix, b, n->value_unsigned ? "unsigned" : "signed");
			return;
		}
		if (o->value == n->value) {
			add(d, header, n, UD_API_CHANGED, same, same_rule, o->line, n->line,
			    "%ssame value %s%s", prefix, b,
			    o->kind != n->kind ? ""
			    : o->value_unsigned != n->value_unsigned
				    ? (n->value_unsigned ? ", spelled differently (now unsigned)"
							 : ", spelled differently (now signed)")
				    : ", spelled differently");
			return;
		}
		/* a bound grows with the API, a mask keeps its bits, a version just moves */
		if (fam == UD_API_RULE_VERSION ||
		    (fam != UD_API_RULE_VALUE && (is_mask(n->name) ? (ou & nu) == ou : nu > ou))) {
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, fam, o->line, n->line,
			    "%s%s %s %s -> %s", prefix,
			    fam == UD_API_RULE_VERSION ? "version moved:" : "sentinel moved:", what,
			    a, b);
			return;
		}
		if ((ou & nu) == ou && terms_kept(o->text, n->text)) {
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_FLAGS_ADDED,
			    o->line, n->line,
			    "%sflags added to the set: %s -> %s (every old one kept)", prefix, a,
			    b);
			return;
		}
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_VALUE, o->line,
		    n->line, "%s%s %s -> %s", prefix, what, a, b);
		return;
	}
	if (strcmp(o->text, n->text) == 0) {
		add(d, header, n, UD_API_CHANGED, same, same_rule, o->line, n->line,
		    "%ssame expression '%s' (what it names is compared on its own)", prefix,
		    n->text);
		return;
	}
	add(d, header, n, UD_API_CHANGED,
	    fam != UD_API_RULE_VALUE ? UD_API_REVIEW : UD_API_BREAKING,
	    fam != UD_API_RULE_VALUE ? fam : UD_API_RULE_TEXT, o->line, n->line,
	    "%s%s%s '%s' -> '%s'", prefix,
	    fam == UD_API_RULE_VERSION	  ? "version moved: "
	    : fam == UD_API_RULE_SENTINEL ? "sentinel moved: "
					  : "",
	    what, o->text, n->text);
}

/* Whether new is old's list continued: "F(a), F(b)," -> "F(a), F(b), F(c),". */
static bool
list_grew(const char *old, const char *new_)
{
	size_t n = strlen(old);

	while (n > 0 && (old[n - 1] == ',' || old[n - 1] == ' '))
		n--;
	return n > 0 && strlen(new_) > n && strncmp(old, new_, n) == 0 &&
	       strchr(",", new_[n + strspn(new_ + n, " ")]) != NULL &&
	       new_[n + strspn(new_ + n, " ")] != '\0';
}

static void
diff_value(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	   const struct ud_api_sym *n)
{
	if (o->is_ioctl && n->is_ioctl) {
		diff_ioctl(d, header, o, n);
		return;
	}
	if (o->params != NULL || n->params != NULL) {
		if (o->params != NULL && n->params != NULL && same_body(o, n, false))
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_PARAMS,
			    o->line, n->line,
			    "parameters renamed (%s) -> (%s), the same replacement", o->params,
			    n->params);
		else if (o->params != NULL && n->params != NULL && same_body(o, n, true))
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_PARAMS,
			    o->line, n->line,
			    "the same replacement but for integer suffixes: '%s' -> '%s' (the values "
			    "are the same, their types may not be)",
			    o->text, n->text);
		else if (o->expansion != NULL && n->expansion != NULL &&
			 strcmp(o->expansion, n->expansion) == 0)
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_PARAMS,
			    o->line, n->line, "replacement '%s' -> '%s': the same expansion '%s'",
			    o->text, n->text, n->expansion);
		else if (o->expansion != NULL && n->expansion != NULL &&
			 list_grew(o->expansion, n->expansion))
			add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_PARAMS,
			    o->line, n->line,
			    "replacement '%s' -> '%s': the list it expands to gained entries at its end, "
			    "every old one kept",
			    o->text, n->text);
		else if (!api_streq(o->params, n->params))
			add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_PARAMS,
			    o->line, n->line, "parameters (%s) -> (%s)", api_or_none(o->params),
			    api_or_none(n->params));
		else
			add(d, header, n, UD_API_CHANGED,
			    family(n->name) != UD_API_RULE_VALUE ? UD_API_REVIEW : UD_API_BREAKING,
			    UD_API_RULE_PARAMS, o->line, n->line, "replacement '%s' -> '%s'",
			    o->text, n->text);
		return;
	}
	compare_values(d, header, o, n, "");
}

/*
 * A macro and an enum constant of the same name in the same header, one in
 * each version: the same value is review at most (an #ifdef test no
 * longer sees an enum constant; the other way it now sees a macro), a
 * changed value keeps its verdict.
 */
static void
diff_kind_changed(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		  const struct ud_api_sym *n)
{
	const char *prefix = o->kind == UD_API_MACRO
				     ? "macro became an enum constant (#ifdef no longer sees it), "
				     : "enum constant became a macro, ";

	if (o->is_ioctl && n->is_ioctl && o->has_value && n->has_value && o->value != n->value) {
		diff_ioctl(d, header, o, n);
		return;
	}
	compare_values(d, header, o, n, prefix);
}

/* ---- enums, typedefs, declarations ---- */

long
api_find_member(const struct ud_api_sym *s, const char *name)
{
	size_t i;

	if (name[0] == '\0')
		return -1; /* anonymous members are matched by position */
	for (i = 0; i < s->nmembers; i++)
		if (strcmp(s->members[i].name, name) == 0)
			return (long)i;
	return -1;
}

static void
diff_enum(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	  const struct ud_api_sym *n)
{
	size_t i, no = 0, nn = 0, next = 0;
	bool removed = false, prefix = true;

	for (i = 0; i < o->nmembers; i++) {
		const char *name = o->members[i].name;
		long at;

		if (o->members[i].expands)
			continue; /* a macro call the reading could not expand */
		/* where the last one was found, one further: most constants keep their order */
		if (name[0] != '\0' && next < n->nmembers &&
		    strcmp(n->members[next].name, name) == 0)
			at = (long)next;
		else
			at = api_find_member(n, name);
		if (at >= 0)
			next = (size_t)at + 1;
		if (at < 0) {
			/*
			 * The constant itself is compared on its own: removed
			 * (breaking) or become a macro of the same value.
			 */
			removed = true;
			add(d, header, o, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_ENUM, o->line,
			    n->line, "constant %s no longer in the enum (compared on its own)",
			    o->members[i].name);
		}
	}
	/*
	 * The old constants, in order, are the first of the new ones, but for
	 * a sentinel they both end with (__FOO_MAX, which new ones go before).
	 */
	no = o->nmembers;
	nn = n->nmembers;
	while (no > 0 && nn > 0 && strcmp(o->members[no - 1].name, n->members[nn - 1].name) == 0 &&
	       family(o->members[no - 1].name) == UD_API_RULE_SENTINEL) {
		no--;
		nn--;
	}
	for (i = 0; i < no && i < nn; i++)
		if (strcmp(o->members[i].name, n->members[i].name) != 0)
			prefix = false;
	if (no > nn)
		prefix = false;
	if (prefix && nn > no && no < o->nmembers)
		/* the count sentinel grows wherever the new constants sit */
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_ENUM_SENTINEL, o->line,
		    n->line, "%zu constant%s inserted before its count sentinel %s, which grows",
		    nn - no, nn - no == 1 ? "" : "s", o->members[no].name);
	else if (prefix && nn > no)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_ENUM, o->line,
		    n->line, "%zu constant%s added at the end", nn - no, nn - no == 1 ? "" : "s");
	else if (prefix)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING, o->line,
		    n->line, "the same constants, spelled differently");
	else if (!removed)
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_ENUM, o->line, n->line,
		    "constants inserted or reordered (their values are checked one by one)");
}

static bool
record_type(const char *spelled)
{
	return (strncmp(spelled, "struct", 6) == 0 || strncmp(spelled, "union", 5) == 0) &&
	       strchr(spelled, '*') == NULL;
}

static void
diff_typedef(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	     const struct ud_api_sym *n)
{
	const struct ud_api_layout *ol = o->layout, *nl = n->layout;
	bool body = (o->decl != NULL &&
		     (o->decl->sub_kind == UD_API_STRUCT || o->decl->sub_kind == UD_API_UNION)) ||
		    (n->decl != NULL &&
		     (n->decl->sub_kind == UD_API_STRUCT || n->decl->sub_kind == UD_API_UNION));

	if (ol == NULL || nl == NULL || ol->type == NULL || nl->type == NULL) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_TEXT, o->line,
		    n->line, "typedef '%s' -> '%s'", o->text, n->text);
		return;
	}
	if (ol->size != nl->size || ol->align != nl->align) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_TYPEDEF, o->line,
		    n->line, "typedef '%s' -> '%s': size %llu -> %llu, alignment %llu -> %llu",
		    o->text, n->text, (unsigned long long)ol->size, (unsigned long long)nl->size,
		    (unsigned long long)ol->align, (unsigned long long)nl->align);
	} else if (body && record_type(ol->type) && record_type(nl->type)) {
		/* "typedef struct [tag] { ... } foo_t": the body is its own symbol */
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING, o->line,
		    n->line,
		    "typedef '%s' -> '%s': the same size (%llu); its body is compared on its own",
		    o->text, n->text, (unsigned long long)nl->size);
	} else if (strcmp(ol->type, nl->type) == 0) {
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_SPELLING, o->line,
		    n->line, "typedef '%s' -> '%s': the same type after typedefs (%s)", o->text,
		    n->text, nl->type);
	} else if (ol->integer && nl->integer) {
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_SIGNEDNESS, o->line,
		    n->line, "typedef '%s' -> '%s': %s -> %s, the same size", o->text, n->text,
		    ol->type, nl->type);
	} else {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, UD_API_RULE_TYPEDEF, o->line,
		    n->line, "typedef '%s' -> '%s': %s -> %s", o->text, n->text, ol->type,
		    nl->type);
	}
}

void
api_diff_sym(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	     const struct ud_api_sym *n)
{
	switch (o->kind) {
	case UD_API_MACRO:
	case UD_API_ENUM_CONST:
		if (o->kind != n->kind)
			diff_kind_changed(d, header, o, n);
		else
			diff_value(d, header, o, n);
		break;
	case UD_API_ENUM:
		diff_enum(d, header, o, n);
		break;
	case UD_API_STRUCT:
	case UD_API_UNION:
		api_diff_record(d, header, o, n);
		break;
	case UD_API_TYPEDEF:
		diff_typedef(d, header, o, n);
		break;
	default:
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_DECLARATION, o->line,
		    n->line,
		    "declaration '%s' -> '%s' (functions and variables do not belong in uapi "
		    "headers)",
		    o->text, n->text);
		break;
	}
}

/* ---- conditions ---- */

/* cond without its "!defined(__ASSEMBLY__)" terms: what C code always has. */
static char *
c_condition(const char *cond)
{
	static const char *const terms[] = {"!defined(__ASSEMBLY__)", "!defined(__ASSEMBLER__)"};
	struct ud_buf b = UD_BUF_INIT;
	const char *p = cond;
	size_t k;

	while (*p != '\0') {
		const char *e = strstr(p, " && ");
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		bool c_has = false;

		for (k = 0; k < ARRAY_SIZE(terms); k++)
			c_has |= n == strlen(terms[k]) && strncmp(p, terms[k], n) == 0;
		if (!c_has) {
			if (b.len > 0)
				ud_buf_addstr(&b, " && ");
			ud_buf_add(&b, p, n);
		}
		p += n;
		if (e != NULL)
			p += 4;
	}
	return ud_buf_detach(&b, NULL);
}

/*
 * A symbol only in old paired with one only in new of the same kind and
 * name, under other conditions (a header wrapping its types in #ifndef
 * __ASSEMBLY__): one symbol that moved, its bodies compared.
 */
static void
diff_moved_condition(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		     const struct ud_api_sym *n)
{
	char *co = c_condition(o->cond), *cn = c_condition(n->cond);

	if (strcmp(co, cn) == 0)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, UD_API_RULE_CONDITION, o->line,
		    n->line, "conditions '%s' -> '%s': the same for C (only __ASSEMBLY__ differs)",
		    o->cond, n->cond);
	else
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, UD_API_RULE_CONDITION, o->line,
		    n->line, "conditions '%s' -> '%s': seen by other configurations", o->cond,
		    n->cond);
	free(co);
	free(cn);
	if (o->body != n->body) {
		struct ud_api_sym as_now = *o; /* its changes named as it is now */

		as_now.cond = n->cond;
		api_diff_sym(d, header, &as_now, n);
	}
}

/*
 * The one symbol of v[0..n) of kind k and like's name that is not in the
 * other version; or -1.
 */
static long
only_one(const struct ud_api_sym *v, const bool *unmatched, size_t n, const struct ud_api_sym *like,
	 enum ud_api_kind k)
{
	long found = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (unmatched[i] && v[i].kind == k && strcmp(v[i].name, like->name) == 0) {
			if (found >= 0)
				return -1;
			found = (long)i;
		}
	return found;
}

/*
 * Pairs symbol i of old (only in old) with the one symbol of new (only in
 * new) of kind k and the same name, itself alone of its name and kind in
 * old; -1 when there is none.
 */
static long
pair_of(const struct ud_api_header *old, const bool *old_only, const struct ud_api_header *new_,
	const bool *new_only, size_t i, enum ud_api_kind k)
{
	long j = only_one(new_->v, new_only, new_->n, &old->v[i], k);

	if (j < 0 || only_one(old->v, old_only, old->n, &old->v[i], old->v[i].kind) != (long)i)
		return -1;
	return j;
}

/*
 * What the model keeps that is no API of its own: a macro the header
 * #undefs (an X-macro's helper), an anonymous enum macros write (its
 * constants are compared one by one).
 */
static bool
not_api(const struct ud_api_sym *s)
{
	return s->undef_line != 0 ||
	       (s->kind == UD_API_ENUM && strncmp(s->name, "enum (anonymous, ", 17) == 0);
}

void
ud_api_diff_header(const struct ud_api_header *old, const struct ud_api_header *new_,
		   struct ud_api_diff *d)
{
	const char *header = old != NULL ? old->path : new_->path;
	size_t i = 0, j = 0;
	bool *old_only, *new_only;
	long *pair, *paired_new;

	if (old == NULL) {
		d->headers_added++;
		add(d, header, NULL, UD_API_ADDED, UD_API_COMPATIBLE, UD_API_RULE_ADDED, 0, 1,
		    "new header, %zu symbol%s", new_->n, new_->n == 1 ? "" : "s");
		d->symbols_added += (unsigned)new_->n;
		return;
	}
	if (new_ == NULL) {
		d->headers_removed++;
		add(d, header, NULL, UD_API_REMOVED, UD_API_BREAKING, UD_API_RULE_REMOVED, 1, 0,
		    "header removed: programs that include it stop building (%zu symbol%s)", old->n,
		    old->n == 1 ? "" : "s");
		d->symbols_removed += (unsigned)old->n;
		return;
	}
	if (old->fingerprint == new_->fingerprint)
		return;
	d->headers_changed++;
	/* which keys are in one version only, and which of those pair up */
	old_only = ud_xcalloc(old->n + 1, sizeof(*old_only));
	new_only = ud_xcalloc(new_->n + 1, sizeof(*new_only));
	pair = ud_xcalloc(old->n + 1, sizeof(*pair));
	paired_new = ud_xcalloc(new_->n + 1, sizeof(*paired_new));
	while (i < old->n || j < new_->n) {
		int c;

		/* a macro the header #undefs is not API: neither version has it */
		if (i < old->n && not_api(&old->v[i])) {
			i++;
			continue;
		}
		if (j < new_->n && not_api(&new_->v[j])) {
			j++;
			continue;
		}
		c = i >= old->n ? 1 : j >= new_->n ? -1 : strcmp(old->v[i].key, new_->v[j].key);
		if (c <= 0)
			old_only[i++] = c < 0;
		if (c >= 0)
			new_only[j++] = c > 0;
	}
	for (i = 0; i < old->n; i++) {
		enum ud_api_kind k = old->v[i].kind;
		long p = -1;

		if (old_only[i]) {
			/* the same symbol under other conditions, else a macro <-> enum constant */
			p = pair_of(old, old_only, new_, new_only, i, k);
			if (p < 0 && (k == UD_API_MACRO || k == UD_API_ENUM_CONST))
				p = pair_of(old, old_only, new_, new_only, i,
					    k == UD_API_MACRO ? UD_API_ENUM_CONST : UD_API_MACRO);
			if (p >= 0 && paired_new[p])
				p = -1;
		}
		pair[i] = p;
		if (p >= 0)
			paired_new[p] = 1;
	}
	/* both lists are sorted by key: a merge */
	i = j = 0;
	while (i < old->n || j < new_->n) {
		int c;

		if (i < old->n && not_api(&old->v[i])) {
			i++;
			continue;
		}
		if (j < new_->n && not_api(&new_->v[j])) {
			j++;
			continue;
		}
		c = i >= old->n ? 1 : j >= new_->n ? -1 : strcmp(old->v[i].key, new_->v[j].key);

		if (c < 0 && pair[i] >= 0) {
			const struct ud_api_sym *o = &old->v[i], *n = &new_->v[pair[i]];

			d->symbols_changed++;
			if (o->kind != n->kind)
				api_diff_sym(d, header, o, n);
			else
				diff_moved_condition(d, header, o, n);
			i++;
		} else if (c > 0 && paired_new[j]) {
			j++;
		} else if (c < 0) {
			const struct ud_api_sym *s = &old->v[i++];

			d->symbols_removed++;
			add(d, header, s, UD_API_REMOVED, UD_API_BREAKING, UD_API_RULE_REMOVED,
			    s->line, 0, "%s removed", ud_api_kind_name(s->kind));
		} else if (c > 0) {
			const struct ud_api_sym *s = &new_->v[j++];
			bool decl = s->kind == UD_API_FUNCTION || s->kind == UD_API_VARIABLE;

			d->symbols_added++;
			add(d, header, s, UD_API_ADDED, decl ? UD_API_REVIEW : UD_API_COMPATIBLE,
			    decl ? UD_API_RULE_DECLARATION : UD_API_RULE_ADDED, 0, s->line,
			    "%s added%s", ud_api_kind_name(s->kind),
			    decl ? ": functions and variables do not belong in uapi headers" : "");
		} else {
			if (old->v[i].fingerprint != new_->v[j].fingerprint) {
				d->symbols_changed++;
				api_diff_sym(d, header, &old->v[i], &new_->v[j]);
			}
			i++;
			j++;
		}
	}
	free(old_only);
	free(new_only);
	free(pair);
	free(paired_new);
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct ud_api_header *)a)->path,
		      ((const struct ud_api_header *)b)->path);
}

void
ud_api_sort_headers(struct ud_api_header *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), by_path);
}

void
ud_api_diff_sets(const struct ud_api_header *o, size_t no, const struct ud_api_header *n, size_t nn,
		 struct ud_api_diff *d)
{
	size_t i = 0, j = 0;

	while (i < no || j < nn) {
		int c = i >= no ? 1 : j >= nn ? -1 : strcmp(o[i].path, n[j].path);

		if (c < 0)
			ud_api_diff_header(&o[i++], NULL, d);
		else if (c > 0)
			ud_api_diff_header(NULL, &n[j++], d);
		else
			ud_api_diff_header(&o[i++], &n[j++], d);
	}
}

const struct ud_api_header *
ud_api_find_header(const struct ud_api_header *v, size_t n, const char *path)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid].path, path);

		if (c == 0)
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct set {
	const struct ud_api_header *v;
	size_t n;
};

static const struct ud_api_header *
set_find(const char *path, void *ctx)
{
	const struct set *s = ctx;

	return ud_api_find_header(s->v, s->n, path);
}

void
ud_api_diff_versions(const struct ud_api_header *o, size_t no, const struct ud_api_header *n,
		     size_t nn, struct ud_api_diff *d)
{
	ud_api_diff_versions_own(o, no, n, nn, d);
	ud_api_diff_includes(d, o, no, n, nn);
	ud_api_diff_fold(d);
}

void
ud_api_diff_versions_own(const struct ud_api_header *o, size_t no, const struct ud_api_header *n,
			 size_t nn, struct ud_api_diff *d)
{
	struct set os = {o, no}, ns = {n, nn};

	ud_api_diff_sets(o, no, n, nn, d);
	ud_api_diff_moves_from(d, set_find, &os, set_find, &ns);
	ud_api_diff_through_versions(d, o, no, n, nn);
}

/*
 * Can a change of d make others through a type (what ud_api_diff_through
 * looks for)?  Only a change of a struct, union, enum or typedef that was
 * there before: without one it finds nothing, and no user need be looked up.
 */
static bool
type_changed(const struct ud_api_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].symbol[0] != '\0' && d->v[i].what != UD_API_ADDED &&
		    (d->v[i].kind == UD_API_STRUCT || d->v[i].kind == UD_API_UNION ||
		     d->v[i].kind == UD_API_ENUM || d->v[i].kind == UD_API_TYPEDEF))
			return true;
	return false;
}

struct pairs {
	const struct ud_api_pair *v;
	size_t n;
};

/* the old version of a changed header (a symbol moves out of one that changed) */
static const struct ud_api_header *
pairs_old(const char *path, void *ctx)
{
	const struct pairs *p = ctx;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].old != NULL && strcmp(p->v[i].old->path, path) == 0)
			return p->v[i].old;
	return NULL;
}

void
ud_api_diff_changed(const struct ud_api_pair *changed, size_t nchanged,
		    const struct ud_api_lookup *new_, struct ud_api_diff *d)
{
	struct ud_api_header *users; /* shallow copies: the callers own the headers */
	size_t i, n = 0;

	for (i = 0; i < nchanged; i++)
		ud_api_diff_header(changed[i].old, changed[i].new_, d);
	if (new_ != NULL) {
		struct pairs ps = {changed, nchanged};

		ud_api_diff_moves_from(d, pairs_old, &ps, new_->header, new_->ctx);
	}
	if (!type_changed(d)) {
		ud_api_diff_fold(d);
		return;
	}
	if (new_ != NULL && new_->all != NULL) {
		users = new_->all(&n, new_->ctx);
	} else {
		users = ud_xcalloc(nchanged + 1, sizeof(*users));
		for (i = 0; i < nchanged; i++)
			if (changed[i].new_ != NULL)
				users[n++] = *changed[i].new_;
		ud_api_sort_headers(users, n);
	}
	ud_api_diff_through(d, users, n);
	free(users);
	ud_api_diff_fold(d);
}

struct edit {
	const struct ud_api_change *c;
	size_t i;
};

static int
by_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	int c = strcmp(x->c->header, y->c->header);

	if (c == 0)
		c = strcmp(x->c->symbol, y->c->symbol);
	return c != 0 ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* b folded into a: each axis the worse, the worse reason first */
static void
fold_change(struct ud_api_change *a, struct ud_api_change *b)
{
	size_t x;
	char *r;

	for (x = 0; x < UD_API__AXES; x++)
		if (b->axis[x] > a->axis[x]) {
			a->axis[x] = b->axis[x];
			a->axis_rule[x] = b->axis_rule[x];
		}
	if (b->verdict > a->verdict) {
		a->verdict = b->verdict;
		a->rule = b->rule;
		r = ud_xasprintf("%s; %s", b->reason, a->reason);
	} else {
		r = ud_xasprintf("%s; %s", a->reason, b->reason);
	}
	free(a->reason);
	a->reason = r;
}

void
ud_api_diff_fold(struct ud_api_diff *d)
{
	struct edit *e;
	size_t *into, i, k, n = 0, out = 0;

	if (d->n < 2)
		return;
	e = ud_xcalloc(d->n, sizeof(*e));
	into = ud_xcalloc(d->n, sizeof(*into));
	for (i = 0; i < d->n; i++) {
		into[i] = i;
		if (d->v[i].what == UD_API_CHANGED && d->v[i].symbol[0] != '\0')
			e[n++] = (struct edit){&d->v[i], i};
	}
	qsort(e, n, sizeof(*e), by_edit);
	for (i = 0; i < n; i = k) {
		for (k = i + 1; k < n && strcmp(e[k].c->header, e[i].c->header) == 0 &&
				strcmp(e[k].c->symbol, e[i].c->symbol) == 0;
		     k++) {
			into[e[k].i] = e[i].i;
			fold_change(&d->v[e[i].i], &d->v[e[k].i]);
		}
	}
	memset(d->verdicts, 0, sizeof(d->verdicts));
	for (i = 0; i < d->n; i++) {
		struct ud_api_change *c = &d->v[i];

		if (into[i] != i) {
			free(c->header);
			free(c->symbol);
			free(c->name);
			free(c->reason);
			continue;
		}
		d->verdicts[c->verdict]++;
		d->v[out++] = *c;
	}
	d->n = out;
	free(e);
	free(into);
}

void
ud_api_diff_free(struct ud_api_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].header);
		free(d->v[i].symbol);
		free(d->v[i].name);
		free(d->v[i].reason);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
