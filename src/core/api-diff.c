// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Differences between two versions of a header's API model, with verdicts
 * (api.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/api.h"
#include "uapid/buf.h"
#include "uapid/map.h"
#include "uapid/xmalloc.h"

/* The reason of a record that grew at its end (what its embedders inherit as breaking). */
static const char grew_reason[] = "grew at its end";

static const char *const verdict_names[UD_API__VERDICTS] = {"compatible", "review", "breaking"};

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

static void __attribute__((format(printf, 8, 9)))
add(struct ud_api_diff *d, const char *header, const struct ud_api_sym *s, enum ud_api_what what,
    enum ud_api_verdict verdict, unsigned old_line, unsigned new_line, const char *fmt, ...)
{
	struct ud_api_change *c;
	struct ud_buf b = UD_BUF_INIT;
	va_list ap;

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
	c->old_line = old_line;
	c->new_line = new_line;
	va_start(ap, fmt);
	ud_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	c->reason = ud_buf_detach(&b, NULL);
	d->verdicts[verdict]++;
}

/* A sentinel: a *_MAX, *_CNT, *_LAST or *_NR style bound that moves when the set grows. */
static bool
sentinel(const char *name)
{
	static const char *const ends[] = {"_MAX", "_CNT", "_COUNT", "_LAST", "_NR", "_NUM", "MAX"};
	size_t n = strlen(name), i;

	if (strncmp(name, "NUM_", 4) == 0 || strstr(name, "_NUM_") != NULL ||
	    strstr(name, "_NR_") != NULL)
		return true;

	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t m = strlen(ends[i]);

		if (n >= m && strcmp(name + n - m, ends[i]) == 0)
			return true;
	}
	return false;
}

/* A member whose name says it holds nothing yet: reserved, padding, unused, spare. */
static bool
placeholder(const char *name)
{
	static const char *const words[] = {"reserved", "resv",	 "rsvd",  "pad",
					    "unused",	"spare", "__rsv", "__res"};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(name, words[i]) != NULL)
			return true;
	return false;
}

static bool
flexible(const char *array)
{
	return array != NULL && (strcmp(array, "[]") == 0 || strcmp(array, "[0]") == 0);
}

static bool
streq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const char *
or_none(const char *s)
{
	return s != NULL ? s : "";
}

static long
find_member(const struct ud_api_sym *s, const char *name)
{
	size_t i;

	if (name[0] == '\0')
		return -1; /* anonymous members are matched by position */
	for (i = 0; i < s->nmembers; i++)
		if (strcmp(s->members[i].name, name) == 0)
			return (long)i;
	return -1;
}

static char *
describe(const struct ud_api_member *m)
{
	if (m->bits >= 0)
		return ud_xasprintf("%s%s%s : %d", m->type, m->name[0] ? " " : "", m->name,
				    m->bits);
	return ud_xasprintf("%s%s%s%s", m->type, m->name[0] ? " " : "", m->name, or_none(m->array));
}

/*
 * text with every flexible array spelled one way: "__DECLARE_FLEX_ARRAY(T,
 * n)" and "n[0]" as "T n[]" (the kernel moved from one to the other).
 */
static char *
flex_canonical(const char *text)
{
	static const char macro[] = "__DECLARE_FLEX_ARRAY(";
	struct ud_buf b = UD_BUF_INIT;
	const char *p = text;

	while (*p != '\0') {
		if (strncmp(p, macro, sizeof(macro) - 1) == 0) {
			const char *t = p + sizeof(macro) - 1, *comma = NULL, *q;
			int depth = 0;

			for (q = t; *q != '\0' && !(depth == 0 && *q == ')'); q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')')
					depth--;
				else if (*q == ',' && depth == 0)
					comma = q;
			}
			if (*q == ')' && comma != NULL) {
				const char *n = comma + 1;

				while (*n == ' ')
					n++;
				ud_buf_add(&b, t, (size_t)(comma - t));
				ud_buf_addch(&b, ' ');
				ud_buf_add(&b, n, (size_t)(q - n));
				ud_buf_addstr(&b, "[]");
				p = q + 1;
				continue;
			}
		}
		if (strncmp(p, "[0]", 3) == 0) {
			ud_buf_addstr(&b, "[]");
			p += 3;
			continue;
		}
		ud_buf_addch(&b, *p++);
	}
	return ud_buf_detach(&b, NULL);
}

/* text with __aligned_u64 (be64, le64) spelled as __u64: what an 8-byte alignment respells. */
static char *
unaligned(const char *text)
{
	static const char pre[] = "__aligned_";
	struct ud_buf b = UD_BUF_INIT;
	const char *p = text;

	while (*p != '\0') {
		if (strncmp(p, pre, sizeof(pre) - 1) == 0 &&
		    (p == text || p[-1] == ' ' || p[-1] == '{' || p[-1] == '(')) {
			ud_buf_addstr(&b, "__");
			p += sizeof(pre) - 1;
			continue;
		}
		ud_buf_addch(&b, *p++);
	}
	return ud_buf_detach(&b, NULL);
}

/*
 * A member whose spelling changed but not its layout (on this ABI): the
 * verdict and the reason's tail, or false.
 */
static bool
respelled(const struct ud_api_member *om, const struct ud_api_member *nm, enum ud_api_verdict *v,
	  const char **why)
{
	char *a, *b, *ua, *ub, *fa, *fb;
	bool aligned, flex;

	if (om->bits != nm->bits)
		return false;
	if (strcmp(om->type, nm->type) == 0 && om->dims != NULL && nm->dims != NULL &&
	    strcmp(om->dims, nm->dims) == 0) {
		*v = UD_API_COMPATIBLE;
		*why = " (the same bounds, spelled differently)";
		return true;
	}
	a = describe(om);
	b = describe(nm);
	ua = unaligned(a);
	ub = unaligned(b);
	fa = flex_canonical(ua);
	fb = flex_canonical(ub);
	aligned = strcmp(ua, ub) == 0;
	flex = !aligned && strcmp(fa, fb) == 0;
	if (aligned || flex) {
		bool both = flex && strcmp(a, ua) != 0;

		*v = UD_API_REVIEW;
		*why = aligned ? " (aligned to 8 bytes on every ABI now; i386 aligned it to 4: "
				 "layouts there may move)"
		       : both  ? " (flexible arrays respelled, and an 8-byte alignment on every "
				 "ABI now: layouts on i386 may move)"
			       : " (flexible arrays respelled: [0], [] and __DECLARE_FLEX_ARRAY "
				 "lay out the same)";
	}
	free(a);
	free(b);
	free(ua);
	free(ub);
	free(fa);
	free(fb);
	return aligned || flex;
}

static void
diff_record(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	    const struct ud_api_sym *n)
{
	size_t i, common = 0;
	long last_new = -1;
	bool any = false;

	/* members of the old one: removed, moved, retyped */
	for (i = 0; i < o->nmembers; i++) {
		const struct ud_api_member *om = &o->members[i];
		long j =
			om->name[0] != '\0'
				? find_member(n, om->name)
				: (i < n->nmembers && n->members[i].name[0] == '\0' ? (long)i : -1);

		if (j < 0) {
			const struct ud_api_member *at = i < n->nmembers ? &n->members[i] : NULL;

			if (at != NULL && find_member(o, at->name) < 0 && placeholder(om->name) &&
			    strcmp(at->type, om->type) == 0 && streq(at->array, om->array) &&
			    at->bits == om->bits) {
				add(d, header, o, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
				    "reserved member %s renamed to %s (same type and place)",
				    om->name, at->name);
			} else {
				char *was = describe(om);

				add(d, header, o, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
				    "member %s removed (was %s)",
				    om->name[0] ? om->name : "(anonymous)", was);
				free(was);
			}
			any = true;
			continue;
		}
		common++;
		if (j < last_new) {
			add(d, header, o, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "member %s moved before %s: the layout changes", om->name,
			    n->members[last_new].name);
			any = true;
		}
		last_new = j > last_new ? j : last_new;
		{
			const struct ud_api_member *nm = &n->members[j];

			enum ud_api_verdict rv;
			const char *why;

			if ((strcmp(nm->type, om->type) != 0 || nm->bits != om->bits ||
			     !streq(nm->array, om->array)) &&
			    respelled(om, nm, &rv, &why)) {
				char *a = describe(om), *b = describe(nm);

				add(d, header, o, UD_API_CHANGED, rv, o->line, n->line,
				    "member %s: %s -> %s%s", om->name[0] ? om->name : "(anonymous)",
				    a, b, why);
				free(a);
				free(b);
				any = true;
			} else if (strcmp(nm->type, om->type) != 0 || nm->bits != om->bits ||
				   !streq(nm->array, om->array)) {
				char *a = describe(om), *b = describe(nm);
				bool flex = (flexible(om->array) || flexible(nm->array)) &&
					    (size_t)j == n->nmembers - 1 && i == o->nmembers - 1 &&
					    strcmp(nm->type, om->type) == 0;
				bool pad = placeholder(om->name);

				add(d, header, o, UD_API_CHANGED,
				    flex || pad ? UD_API_REVIEW : UD_API_BREAKING, o->line, n->line,
				    "%s %s: %s -> %s%s",
				    flex  ? "flexible array member"
				    : pad ? "reserved member"
					  : "member",
				    om->name[0] ? om->name : "(anonymous)", a, b,
				    pad ? " (new members took its room? check the total size)"
					: "");
				free(a);
				free(b);
				any = true;
			}
		}
	}
	/* members of the new one the old did not have */
	for (i = 0; i < n->nmembers; i++) {
		const struct ud_api_member *nm = &n->members[i];
		bool at_end = true;
		size_t k;

		if (nm->name[0] == '\0' ? i < o->nmembers && o->members[i].name[0] == '\0'
					: find_member(o, nm->name) >= 0)
			continue;
		/* a renamed placeholder was reported above */
		if (i < o->nmembers && placeholder(o->members[i].name) &&
		    find_member(n, o->members[i].name) < 0 &&
		    strcmp(o->members[i].type, nm->type) == 0 &&
		    streq(o->members[i].array, nm->array) && o->members[i].bits == nm->bits)
			continue;
		for (k = i + 1; k < n->nmembers; k++)
			if (find_member(o, n->members[k].name) >= 0)
				at_end = false;
		/* the next member the old one had: a reserved one gives up its room */
		for (k = i + 1; k < n->nmembers && find_member(o, n->members[k].name) < 0; k++)
			;
		{
			char *b = describe(nm);

			if (!at_end && k < n->nmembers && placeholder(n->members[k].name))
				add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
				    "member %s takes room from reserved member %s (check the total "
				    "size)",
				    b, n->members[k].name);
			else if (at_end)
				add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
				    "%s: %s (old binaries pass the smaller size)", grew_reason, b);
			else
				add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
				    "member %s inserted before others: their offsets move", b);
			free(b);
		}
		any = true;
	}
	if (!any && strcmp(o->text, n->text) != 0) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
		    "layout attributes: '%s' -> '%s'", o->text, n->text);
		any = true;
	}
	(void)common;
	if (!any)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
		    "spelled differently, same members");
}

static void
diff_enum(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	  const struct ud_api_sym *n)
{
	size_t i;
	bool removed = false, prefix = o->nmembers <= n->nmembers;

	for (i = 0; i < o->nmembers; i++) {
		if (find_member(n, o->members[i].name) < 0) {
			removed = true;
			add(d, header, o, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "constant %s removed", o->members[i].name);
		}
		if (i >= n->nmembers || strcmp(o->members[i].name, n->members[i].name) != 0)
			prefix = false;
	}
	if (prefix)
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
		    "%zu constant%s added at the end", n->nmembers - o->nmembers,
		    n->nmembers - o->nmembers == 1 ? "" : "s");
	else if (!removed)
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
		    "constants inserted or reordered (their values are checked one by one)");
}

static void
diff_value(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	   const struct ud_api_sym *n)
{
	const char *what = o->kind == UD_API_ENUM_CONST ? "value" : "replacement";

	if (o->is_ioctl && n->is_ioctl) {
		if (strcmp(o->ioctl.dir, n->ioctl.dir) != 0)
			add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "ioctl direction %s -> %s: the request number changes", o->ioctl.dir,
			    n->ioctl.dir);
		else if (o->ioctl.known && n->ioctl.known &&
			 (o->ioctl.typev != n->ioctl.typev || o->ioctl.nrv != n->ioctl.nrv))
			add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "ioctl number %s/%lld -> %s/%lld", o->ioctl.type, o->ioctl.nrv,
			    n->ioctl.type, n->ioctl.nrv);
		else if (!(o->ioctl.known && n->ioctl.known) &&
			 (strcmp(o->ioctl.type, n->ioctl.type) != 0 ||
			  strcmp(o->ioctl.nr, n->ioctl.nr) != 0))
			add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "ioctl number %s, %s -> %s, %s", o->ioctl.type, o->ioctl.nr,
			    n->ioctl.type, n->ioctl.nr);
		else if (!streq(o->ioctl.arg, n->ioctl.arg))
			add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
			    "ioctl argument type %s -> %s: its size is in the request number",
			    or_none(o->ioctl.arg), or_none(n->ioctl.arg));
		else
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
			    "same request, spelled differently");
		return;
	}
	if (!streq(o->params, n->params)) {
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
		    "parameters (%s) -> (%s)", or_none(o->params), or_none(n->params));
		return;
	}
	if (strcmp(o->text, n->text) == 0 && o->has_value != n->has_value) {
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
		    "same expression '%s' (what it names is compared on its own)", n->text);
		return;
	}
	if (o->has_value && n->has_value) {
		if (o->value == n->value)
			add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
			    "same value %lld, spelled differently", o->value);
		else
			add(d, header, n, UD_API_CHANGED,
			    sentinel(o->name) ? UD_API_REVIEW : UD_API_BREAKING, o->line, n->line,
			    "%s%s %lld -> %lld", sentinel(o->name) ? "sentinel moved: " : "", what,
			    o->value, n->value);
		return;
	}
	add(d, header, n, UD_API_CHANGED, sentinel(o->name) ? UD_API_REVIEW : UD_API_BREAKING,
	    o->line, n->line, "%s%s '%s' -> '%s'", sentinel(o->name) ? "sentinel moved: " : "",
	    what, o->text, n->text);
}

static void
diff_sym(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
	 const struct ud_api_sym *n)
{
	switch (o->kind) {
	case UD_API_MACRO:
	case UD_API_ENUM_CONST:
		diff_value(d, header, o, n);
		break;
	case UD_API_ENUM:
		diff_enum(d, header, o, n);
		break;
	case UD_API_STRUCT:
	case UD_API_UNION:
		diff_record(d, header, o, n);
		break;
	case UD_API_TYPEDEF:
		add(d, header, n, UD_API_CHANGED, UD_API_BREAKING, o->line, n->line,
		    "typedef '%s' -> '%s'", o->text, n->text);
		break;
	default:
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
		    "declaration '%s' -> '%s' (functions and variables do not belong in uapi "
		    "headers)",
		    o->text, n->text);
		break;
	}
}

/* cond without its "!defined(__ASSEMBLY__)" terms: what C code always has. */
static char *
c_condition(const char *cond)
{
	static const char term[] = "!defined(__ASSEMBLY__)";
	struct ud_buf b = UD_BUF_INIT;
	const char *p = cond;

	while (*p != '\0') {
		const char *e = strstr(p, " && ");
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (!(n == sizeof(term) - 1 && strncmp(p, term, n) == 0)) {
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
		add(d, header, n, UD_API_CHANGED, UD_API_COMPATIBLE, o->line, n->line,
		    "conditions '%s' -> '%s': the same for C (only __ASSEMBLY__ differs)", o->cond,
		    n->cond);
	else
		add(d, header, n, UD_API_CHANGED, UD_API_REVIEW, o->line, n->line,
		    "conditions '%s' -> '%s': seen by other configurations", o->cond, n->cond);
	free(co);
	free(cn);
	if (o->body != n->body) {
		struct ud_api_sym as_now = *o; /* its changes named as it is now */

		as_now.cond = n->cond;
		diff_sym(d, header, &as_now, n);
	}
}

/* The one symbol of v[0..n) with this kind and name that is not in the other version; or -1. */
static long
only_one(const struct ud_api_sym *v, const bool *unmatched, size_t n, const struct ud_api_sym *like)
{
	long found = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (unmatched[i] && v[i].kind == like->kind && strcmp(v[i].name, like->name) == 0) {
			if (found >= 0)
				return -1;
			found = (long)i;
		}
	return found;
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
		add(d, header, NULL, UD_API_ADDED, UD_API_COMPATIBLE, 0, 1,
		    "new header, %zu symbol%s", new_->n, new_->n == 1 ? "" : "s");
		d->symbols_added += (unsigned)new_->n;
		return;
	}
	if (new_ == NULL) {
		d->headers_removed++;
		add(d, header, NULL, UD_API_REMOVED, UD_API_BREAKING, 1, 0,
		    "header removed: programs that include it stop building (%zu symbol%s)", old->n,
		    old->n == 1 ? "" : "s");
		d->symbols_removed += (unsigned)old->n;
		return;
	}
	if (old->fingerprint == new_->fingerprint)
		return;
	d->headers_changed++;
	/* which keys are in one version only, and which of those pair up across conditions */
	old_only = ud_xcalloc(old->n + 1, sizeof(*old_only));
	new_only = ud_xcalloc(new_->n + 1, sizeof(*new_only));
	pair = ud_xcalloc(old->n + 1, sizeof(*pair));
	paired_new = ud_xcalloc(new_->n + 1, sizeof(*paired_new));
	while (i < old->n || j < new_->n) {
		int c = i >= old->n ? 1 : j >= new_->n ? -1 : strcmp(old->v[i].key, new_->v[j].key);

		if (c <= 0)
			old_only[i++] = c < 0;
		if (c >= 0)
			new_only[j++] = c > 0;
	}
	for (i = 0; i < old->n; i++) {
		long k = old_only[i] ? only_one(new_->v, new_only, new_->n, &old->v[i]) : -1;

		pair[i] = k >= 0 && only_one(old->v, old_only, old->n, &old->v[i]) == (long)i ? k
											      : -1;
		if (pair[i] >= 0)
			paired_new[pair[i]] = 1;
	}
	/* both lists are sorted by key: a merge */
	i = j = 0;
	while (i < old->n || j < new_->n) {
		int c = i >= old->n ? 1 : j >= new_->n ? -1 : strcmp(old->v[i].key, new_->v[j].key);

		if (c < 0 && pair[i] >= 0) {
			d->symbols_changed++;
			diff_moved_condition(d, header, &old->v[i], &new_->v[pair[i]]);
			i++;
		} else if (c > 0 && paired_new[j]) {
			j++;
		} else if (c < 0) {
			const struct ud_api_sym *s = &old->v[i++];

			d->symbols_removed++;
			add(d, header, s, UD_API_REMOVED, UD_API_BREAKING, s->line, 0, "%s removed",
			    ud_api_kind_name(s->kind));
		} else if (c > 0) {
			const struct ud_api_sym *s = &new_->v[j++];
			bool decl = s->kind == UD_API_FUNCTION || s->kind == UD_API_VARIABLE;

			d->symbols_added++;
			add(d, header, s, UD_API_ADDED, decl ? UD_API_REVIEW : UD_API_COMPATIBLE, 0,
			    s->line, "%s added%s", ud_api_kind_name(s->kind),
			    decl ? ": functions and variables do not belong in uapi headers" : "");
		} else {
			if (old->v[i].fingerprint != new_->v[j].fingerprint) {
				d->symbols_changed++;
				diff_sym(d, header, &old->v[i], &new_->v[j]);
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

/*
 * The header among those from (new version) includes, directly or not,
 * that defines a symbol of this kind and name; NULL when none does.
 */
static const char *
included_definer(const char *from, enum ud_api_kind kind, const char *name,
		 const struct ud_api_header *(*new_header)(const char *path, void *ctx), void *ctx)
{
	const char *queue[256];
	size_t head = 0, tail = 0, i, k;

	queue[tail++] = from;
	while (head < tail) {
		const struct ud_api_header *h = new_header(queue[head], ctx);

		if (head > 0 && h != NULL)
			for (k = 0; k < h->n; k++)
				if (h->v[k].kind == kind && strcmp(h->v[k].name, name) == 0)
					return h->path;
		head++;
		for (i = 0; h != NULL && i < h->nincludes; i++) {
			bool seen = false;

			for (k = 0; k < tail && !seen; k++)
				seen = strcmp(queue[k], h->includes[i]) == 0;
			if (!seen && tail < sizeof(queue) / sizeof(queue[0]))
				queue[tail++] = h->includes[i];
		}
	}
	return NULL;
}

void
ud_api_diff_moves(struct ud_api_diff *d,
		  const struct ud_api_header *(*new_header)(const char *path, void *ctx), void *ctx)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct ud_api_change *r = &d->v[i];
		const char *to;

		if (r->what != UD_API_REMOVED || r->name[0] == '\0' ||
		    new_header(r->header, ctx) == NULL)
			continue;
		to = included_definer(r->header, r->kind, r->name, new_header, ctx);
		if (to == NULL)
			continue;
		d->verdicts[r->verdict]--;
		r->verdict = UD_API_COMPATIBLE;
		d->verdicts[r->verdict]++;
		free(r->reason);
		r->reason = ud_xasprintf("moved to %s, which %s includes", to, r->header);
	}
}

/* ---- changes that come through a changed type ---- */

/* A type whose definition changed: what its users inherit. */
struct root {
	char *name; /* as users spell it: "struct foo", "union bar", "enum baz", "foo_t" */
	char *header;
	enum ud_api_verdict verdict;
	bool grew; /* it grew at its end: what follows it in an embedder moves */
};

static bool
is_type_kind(enum ud_api_kind k)
{
	return k == UD_API_STRUCT || k == UD_API_UNION || k == UD_API_ENUM || k == UD_API_TYPEDEF;
}

/*
 * The name users spell a changed type with: a record defined in a typedef
 * ("struct (typedef foo_t)") is used through the typedef's name.
 */
static char *
spelled(const char *name)
{
	const char *t = strstr(name, " (typedef ");

	if (t != NULL) {
		const char *e = strchr(t, ')');

		t += strlen(" (typedef ");
		return ud_xstrndup(t, e != NULL ? (size_t)(e - t) : strlen(t));
	}
	return ud_xstrdup(name);
}

/* Records r (or raises the verdict of the root of the same name); true when it is new. */
static bool
add_root(struct ud_map *roots, const char *name, const char *header, enum ud_api_verdict v,
	 bool grew)
{
	struct root *r = ud_map_get(roots, name);

	if (r != NULL) {
		if (v > r->verdict)
			r->verdict = v;
		r->grew |= grew;
		return false;
	}
	r = ud_xmalloc(sizeof(*r));
	r->name = ud_xstrdup(name);
	r->header = ud_xstrdup(header);
	r->verdict = v;
	r->grew = grew;
	ud_map_put(roots, name, r);
	return true;
}

static void
root_free(void *p)
{
	struct root *r = p;

	free(r->name);
	free(r->header);
	free(r);
}

static bool
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * The most severe changed type that text (a member's type, a typedef, a
 * macro's replacement) names, skipping self (a record pointing at its own
 * kind); *by_value is false when it is only reached through a pointer (its
 * layout is then not part of the user's).
 */
static const struct root *
uses(const struct ud_map *roots, const char *text, const char *self, bool *by_value)
{
	const struct root *best = NULL;
	const char *p = text;
	bool in_fnptr = false;

	*by_value = false;
	while (*p != '\0') {
		const char *w = p, *e;
		char *name;
		const struct root *r;

		if (p[0] == '(' && p[1] == '*')
			in_fnptr = true;
		else if (p[0] == ';')
			in_fnptr = false; /* the next member of an inline body */
		if (!ident_char(*p) || (p > text && ident_char(p[-1]))) {
			p++;
			continue;
		}
		for (e = p; ident_char(*e); e++)
			;
		if ((e - w == 6 && (strncmp(w, "struct", 6) == 0)) ||
		    (e - w == 5 && (strncmp(w, "union", 5) == 0)) ||
		    (e - w == 4 && strncmp(w, "enum", 4) == 0)) {
			const char *t = e;

			while (*t == ' ')
				t++;
			if (ident_char(*t))
				for (e = t; ident_char(*e); e++)
					;
		}
		name = ud_xstrndup(w, (size_t)(e - w));
		/* a tag's word alone ("struct {") is not a name */
		r = strcmp(name, self) != 0 ? ud_map_get(roots, name) : NULL;
		free(name);
		if (r != NULL) {
			const char *t = e;
			bool value;

			while (*t == ' ')
				t++;
			value = *t != '*' && !in_fnptr;
			if (best == NULL || (value && !*by_value) ||
			    (value == *by_value && r->verdict > best->verdict)) {
				best = r;
				*by_value = value;
			}
		}
		p = e;
	}
	return best;
}

/* "FOO [if cond]", as add() spells a symbol, after header and a newline: a change's identity. */
static char *
change_id(const char *header, const char *symbol)
{
	return ud_xasprintf("%s\n%s", header, symbol);
}

static char *
sym_id(const char *header, const struct ud_api_sym *s)
{
	return s->cond[0] != '\0' ? ud_xasprintf("%s\n%s [if %s]", header, s->name, s->cond)
				  : change_id(header, s->name);
}

/*
 * What symbol s of header h inherits from the changed types it uses:
 * records and typedefs through their members and text, macros and enum
 * constants through a sizeof or an ioctl argument.  Appends the change
 * to out and returns its verdict, or -1 when s uses no changed type;
 * *grew: s grew at its end too (a grown type is its last member).
 */
static int
inherit(struct ud_api_diff *out, const struct ud_map *roots, const char *header,
	const struct ud_api_sym *s, bool *grew)
{
	const struct root *r = NULL;
	enum ud_api_verdict v = UD_API_COMPATIBLE;
	bool value = false;

	if (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION) {
		size_t i, at = 0;

		for (i = 0; i < s->nmembers; i++) {
			bool mv;
			const struct root *m = uses(roots, s->members[i].type, s->name, &mv);

			if (m != NULL && (r == NULL || (mv && !value) ||
					  (mv == value && m->verdict > r->verdict))) {
				r = m;
				value = mv;
				at = i;
			}
		}
		if (r == NULL)
			return -1;
		if (!value) {
			add(out, header, s, UD_API_CHANGED, UD_API_COMPATIBLE, s->line, s->line,
			    "member %s points to %s, which changed (%s): its own layout does not",
			    s->members[at].name[0] ? s->members[at].name : "(anonymous)", r->name,
			    r->header);
			return UD_API_COMPATIBLE;
		}
		v = r->verdict;
		/* an embedded type that grew moves whatever follows it */
		if (r->grew && v == UD_API_REVIEW && at + 1 < s->nmembers)
			v = UD_API_BREAKING;
		*grew = r->grew && at + 1 == s->nmembers;
		add(out, header, s, UD_API_CHANGED, v, s->line, s->line,
		    "member %s is a %s, which changed (%s, %s)%s",
		    s->members[at].name[0] ? s->members[at].name : "(anonymous)", r->name,
		    r->header, ud_api_verdict_name(r->verdict),
		    v == UD_API_BREAKING && r->verdict != UD_API_BREAKING
			    ? ": the members after it move"
			    : "");
		return (int)v;
	}
	if (s->text == NULL || s->text[0] == '\0')
		return -1;
	r = uses(roots, s->text, s->kind == UD_API_TYPEDEF ? s->name : "", &value);
	/* a macro that casts to a pointer of a changed type changes nothing */
	if (r == NULL || (!value && s->kind != UD_API_TYPEDEF))
		return -1;
	v = value ? r->verdict : UD_API_COMPATIBLE;
	*grew = value && r->grew;
	if (s->kind == UD_API_TYPEDEF)
		add(out, header, s, UD_API_CHANGED, v, s->line, s->line,
		    "names %s%s, which changed (%s, %s)", value ? "" : "a pointer to ", r->name,
		    r->header, ud_api_verdict_name(r->verdict));
	else if (s->is_ioctl)
		add(out, header, s, UD_API_CHANGED, v, s->line, s->line,
		    "the request number encodes sizeof(%s), which changed (%s, %s)", r->name,
		    r->header, ud_api_verdict_name(r->verdict));
	else
		add(out, header, s, UD_API_CHANGED, v, s->line, s->line,
		    "%s %s, which changed (%s, %s)",
		    strstr(s->text, "sizeof") != NULL ? "its value holds the size of"
						      : "its replacement uses",
		    r->name, r->header, ud_api_verdict_name(r->verdict));
	return (int)v;
}

static int
by_header_then_symbol(const void *a, const void *b)
{
	const struct ud_api_change *x = a, *y = b;
	int c = strcmp(x->header, y->header);

	return c != 0 ? c : strcmp(x->symbol, y->symbol);
}

/*
 * Moves the changes of more into d (more is left empty): by header, after
 * each header's own changes, by symbol; a header with none before counts
 * as changed.
 */
static void
merge(struct ud_api_diff *d, struct ud_api_diff *more)
{
	struct ud_api_change *merged;
	size_t a = 0, b = 0, k, i, n = d->n + more->n;

	if (more->n == 0)
		return;
	qsort(more->v, more->n, sizeof(*more->v), by_header_then_symbol);
	merged = ud_xmalloc(n * sizeof(*merged));
	for (k = 0; k < n; k++) {
		bool take_old = b >= more->n ||
				(a < d->n && strcmp(d->v[a].header, more->v[b].header) <= 0);

		if (!take_old && (a == 0 || strcmp(d->v[a - 1].header, more->v[b].header) != 0) &&
		    (b == 0 || strcmp(more->v[b - 1].header, more->v[b].header) != 0))
			d->headers_changed++; /* the first change of a header that had none */
		merged[k] = take_old ? d->v[a++] : more->v[b++];
	}
	for (i = 0; i < UD_API__VERDICTS; i++)
		d->verdicts[i] += more->verdicts[i];
	free(d->v);
	d->v = merged;
	d->n = d->alloc = n;
	free(more->v);
	memset(more, 0, sizeof(*more));
}

void
ud_api_diff_through(struct ud_api_diff *d, const struct ud_api_header *nw, size_t nn)
{
	struct ud_map roots = UD_MAP_INIT, reported = UD_MAP_INIT, added_headers = UD_MAP_INIT;
	struct ud_api_diff more;
	size_t i, j;
	bool more_roots = true;

	memset(&more, 0, sizeof(more));
	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		char *id = change_id(c->header, c->symbol);

		ud_map_put(&reported, id, NULL);
		free(id);
		if (c->symbol[0] == '\0' && c->what == UD_API_ADDED)
			ud_map_put(&added_headers, c->header, NULL);
		/* a type whose own definition changed: not one only spelled otherwise or moved */
		if (c->symbol[0] != '\0' && is_type_kind(c->kind) && c->what != UD_API_ADDED &&
		    (c->verdict != UD_API_COMPATIBLE ||
		     (c->kind == UD_API_ENUM && c->what == UD_API_CHANGED))) {
			char *name = spelled(c->name);

			add_root(&roots, name, c->header, c->verdict,
				 strncmp(c->reason, grew_reason, strlen(grew_reason)) == 0);
			free(name);
		}
	}
	/* users of users: until nothing new is found (each symbol is reported once) */
	while (more_roots && roots.n > 0) {
		more_roots = false;
		for (i = 0; i < nn; i++) {
			if (ud_map_has(&added_headers, nw[i].path))
				continue;
			for (j = 0; j < nw[i].n; j++) {
				const struct ud_api_sym *s = &nw[i].v[j];
				char *id;
				bool grew = false;
				int v;

				if (s->kind == UD_API_ENUM || s->kind == UD_API_FUNCTION ||
				    s->kind == UD_API_VARIABLE)
					continue;
				id = sym_id(nw[i].path, s);
				if (ud_map_has(&reported, id)) {
					free(id);
					continue;
				}
				v = inherit(&more, &roots, nw[i].path, s, &grew);
				if (v >= 0) {
					ud_map_put(&reported, id, NULL);
					if (is_type_kind(s->kind)) {
						char *name = spelled(s->name);

						more_roots |=
							add_root(&roots, name, nw[i].path,
								 (enum ud_api_verdict)v, grew);
						free(name);
					}
				}
				free(id);
			}
		}
	}
	d->symbols_changed += (unsigned)more.n;
	merge(d, &more);
	ud_map_free(&roots, root_free);
	ud_map_free(&reported, NULL);
	ud_map_free(&added_headers, NULL);
}

/* ---- types a header lost or gained with its #includes ---- */

static const struct ud_api_header *
find_in(const struct ud_api_header *v, size_t n, const char *path)
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

/* The headers h includes, directly or not (h first), in the set v (sorted by path). */
static void
closure(const struct ud_api_header *v, size_t n, const struct ud_api_header *h,
	const struct ud_api_header ***out, size_t *nout)
{
	struct ud_map seen = UD_MAP_INIT;
	size_t head = 0, alloc = 0, i;

	*out = NULL;
	*nout = 0;
	*out = ud_xgrow(*out, &alloc, 1, sizeof(**out));
	(*out)[(*nout)++] = h;
	ud_map_put(&seen, h->path, NULL);
	for (; head < *nout; head++)
		for (i = 0; i < (*out)[head]->nincludes; i++) {
			const char *inc = (*out)[head]->includes[i];
			const struct ud_api_header *g;

			if (ud_map_has(&seen, inc))
				continue;
			ud_map_put(&seen, inc, NULL);
			if ((g = find_in(v, n, inc)) != NULL) {
				*out = ud_xgrow(*out, &alloc, *nout + 1, sizeof(**out));
				(*out)[(*nout)++] = g;
			}
		}
	ud_map_free(&seen, NULL);
}

/* Type name (kind and name) -> the first header of the closure that defines it. */
static void
visible_types(const struct ud_api_header *const *hs, size_t n, struct ud_map *out)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < hs[i]->n; j++) {
			const struct ud_api_sym *s = &hs[i]->v[j];
			char *k;

			if (!is_type_kind(s->kind))
				continue;
			k = ud_xasprintf("%d %s", (int)s->kind, s->name);
			if (!ud_map_has(out, k))
				ud_map_put(out, k, (void *)(uintptr_t)hs[i]->path);
			free(k);
		}
}

/* A hash of the names of the types v[i] defines (not their bodies: those do not change what is
 * seen). */
static uint64_t *
type_names_hashes(const struct ud_api_header *v, size_t n)
{
	uint64_t *h = ud_xcalloc(n + 1, sizeof(*h));
	size_t i, j;

	for (i = 0; i < n; i++) {
		uint64_t f = 14695981039346656037ull;

		for (j = 0; j < v[i].n; j++)
			if (is_type_kind(v[i].v[j].kind)) {
				const char *p;

				f = (f ^ (uint64_t)v[i].v[j].kind) * 1099511628211ull;
				for (p = v[i].v[j].name; *p != '\0'; p++)
					f = (f ^ (unsigned char)*p) * 1099511628211ull;
			}
		h[i] = f;
	}
	return h;
}

/* The two closures hold the same headers, each defining the same type names. */
static bool
same_closure(const struct ud_api_header *const *a, size_t na, const struct ud_api_header *va,
	     const uint64_t *ha, const struct ud_api_header *const *b, size_t nb,
	     const struct ud_api_header *vb, const uint64_t *hb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i]->path, b[i]->path) != 0 || ha[a[i] - va] != hb[b[i] - vb])
			return false;
	return true;
}

/* The symbol of this kind and name that h defines itself, or NULL. */
static const struct ud_api_sym *
own(const struct ud_api_header *h, int kind, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if ((int)h->v[i].kind == kind && strcmp(h->v[i].name, name) == 0)
			return &h->v[i];
	return NULL;
}

/*
 * Reports the names in a that b lacks, for header h (lost: removed, else
 * added); only types that exist on both sides (in_other: every type of the
 * other version): one removed or added for good is reported where it is
 * defined, not in every includer.
 */
static void
visibility_changes(struct ud_api_diff *out, const struct ud_api_header *h_old,
		   const struct ud_api_header *h_new, const struct ud_map *a,
		   const struct ud_map *b, const struct ud_map *in_other, bool lost)
{
	const char *k;
	void *v;
	size_t it = 0;

	while (ud_map_next(a, &it, &k, &v)) {
		const char *from = v, *name = strchr(k, ' ') + 1;
		int kind = atoi(k);
		struct ud_api_sym s;

		if (ud_map_has(b, k) || !ud_map_has(in_other, k) ||
		    own(lost ? h_old : h_new, kind, name) != NULL)
			continue; /* still seen, gone for good, or its own definition */
		memset(&s, 0, sizeof(s));
		s.kind = (enum ud_api_kind)kind;
		s.name = (char *)(uintptr_t)name;
		s.cond = (char *)(uintptr_t) "";
		if (lost)
			add(out, h_new->path, &s, UD_API_REMOVED, UD_API_REVIEW, 1, 1,
			    "no longer seen through its #includes (%s defines it): a program that "
			    "used it must include that itself",
			    from);
		else
			add(out, h_new->path, &s, UD_API_ADDED, UD_API_COMPATIBLE, 1, 1,
			    "now seen through its #includes (%s defines it)", from);
	}
}

void
ud_api_diff_includes(struct ud_api_diff *d, const struct ud_api_header *o, size_t no,
		     const struct ud_api_header *n, size_t nn)
{
	struct ud_api_diff more;
	struct ud_map all_old = UD_MAP_INIT, all_new = UD_MAP_INIT;
	uint64_t *ho = type_names_hashes(o, no), *hn = type_names_hashes(n, nn);
	size_t i;

	memset(&more, 0, sizeof(more));
	for (i = 0; i < no; i++) {
		const struct ud_api_header *h = &o[i];

		visible_types(&h, 1, &all_old);
	}
	for (i = 0; i < nn; i++) {
		const struct ud_api_header *h = &n[i];

		visible_types(&h, 1, &all_new);
	}
	for (i = 0; i < nn; i++) {
		const struct ud_api_header *h_old = find_in(o, no, n[i].path);
		const struct ud_api_header **co, **cn;
		size_t nco, ncn;

		if (h_old == NULL)
			continue; /* a new header: reported as such */
		closure(o, no, h_old, &co, &nco);
		closure(n, nn, &n[i], &cn, &ncn);
		if (!same_closure(co, nco, o, ho, cn, ncn, n, hn)) {
			struct ud_map vo = UD_MAP_INIT, vn = UD_MAP_INIT;

			visible_types(co, nco, &vo);
			visible_types(cn, ncn, &vn);
			visibility_changes(&more, h_old, &n[i], &vo, &vn, &all_new, true);
			visibility_changes(&more, h_old, &n[i], &vn, &vo, &all_old, false);
			ud_map_free(&vo, NULL);
			ud_map_free(&vn, NULL);
		}
		free(co);
		free(cn);
	}
	ud_map_free(&all_old, NULL);
	ud_map_free(&all_new, NULL);
	free(ho);
	free(hn);
	merge(d, &more);
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
