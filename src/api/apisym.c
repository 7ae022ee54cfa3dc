// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols as people name them, and their changes in words (apisym.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/api/apisym.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

/* ---- reading a symbol ---- */

static bool
is_ident(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !ud_is_ident_start((unsigned char)s[0]))
		return false;
	for (i = 1; i < n; i++)
		if (!ud_is_ident((unsigned char)s[i]))
			return false;
	return true;
}

/* Strips "prefix" from *p when it is there. */
static bool
strip(const char **p, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(*p, prefix, n) != 0)
		return false;
	*p += n;
	return true;
}

/*
 * The installed name of a header path: a tree's include/uapi/...,
 * arch/ARCH/include/uapi/..., their generated/ twins, an install's
 * usr/include/... or include/..., or the installed name itself.
 */
static char *
installed_name(const char *path)
{
	const char *p = path;

	while (strip(&p, "./"))
		;
	strip(&p, "usr/");
	if (strncmp(p, "arch/", 5) == 0) {
		const char *slash = strchr(p + 5, '/');

		if (slash != NULL && strncmp(slash, "/include/", 9) == 0)
			p = slash + 1;
	}
	if (strip(&p, "include/")) {
		strip(&p, "generated/");
		strip(&p, "uapi/");
	}
	return ud_xstrdup(p);
}

int
ud_apisym_parse(const char *text, struct ud_apisym_query *q, char **cause)
{
	const char *b = text, *e, *dot, *sp;
	size_t n;

	memset(q, 0, sizeof(*q));
	while (ud_is_space((unsigned char)*b))
		b++;
	e = b + strlen(b);
	while (e > b && ud_is_space((unsigned char)e[-1]))
		e--;
	n = (size_t)(e - b);
	if (n == 0) {
		*cause = ud_xstrdup("an empty symbol");
		return -EINVAL;
	}
	if (memchr(b, '/', n) != NULL || (n > 2 && strncmp(e - 2, ".h", 2) == 0)) {
		char *path = ud_xstrndup(b, n);

		q->form = UD_APISYM_HEADER;
		q->header = installed_name(path);
		free(path);
		n = strlen(q->header);
		if (n < 3 || strcmp(q->header + n - 2, ".h") != 0 || q->header[0] == '/' ||
		    strstr(q->header, "..") != NULL) {
			*cause = ud_xasprintf("'%.*s': not a header (linux/foo.h) nor a symbol",
					      (int)(e - b), b);
			ud_apisym_query_free(q);
			return -EINVAL;
		}
		return 0;
	}
	dot = memchr(b, '.', n);
	sp = b;
	while (sp < (dot != NULL ? dot : e) && !ud_is_space((unsigned char)*sp))
		sp++;
	{
		const char *tag_end = sp, *id = sp, *id_end = dot != NULL ? dot : e;
		size_t tn = (size_t)(tag_end - b);
		bool tagged = (tn == 6 && strncmp(b, "struct", 6) == 0) ||
			      (tn == 5 && strncmp(b, "union", 5) == 0) ||
			      (tn == 4 && strncmp(b, "enum", 4) == 0);

		while (id < id_end && ud_is_space((unsigned char)*id))
			id++;
		while (id_end > id && ud_is_space((unsigned char)id_end[-1]))
			id_end--;
		if (!tagged) {
			id = b;
			tn = 0;
		}
		if (!is_ident(id, (size_t)(id_end - id)) || (tagged && id == tag_end)) {
			*cause = ud_xasprintf("'%.*s': not a symbol (NAME, struct NAME, "
					      "struct NAME.MEMBER, enum NAME, or a header)",
					      (int)n, b);
			return -EINVAL;
		}
		if (tagged)
			ud_strlist_take(&q->names, ud_xasprintf("%.*s %.*s", (int)tn, b,
								(int)(id_end - id), id));
		else
			ud_strlist_addn(&q->names, id, (size_t)(id_end - id));
		if (dot != NULL) {
			const char *m = dot + 1;

			while (ud_is_space((unsigned char)*m))
				m++;
			if (!tagged || tn == 4 || !is_ident(m, (size_t)(e - m))) {
				*cause = ud_xasprintf(
					"'%.*s': a member is named as struct NAME.MEMBER or union "
					"NAME.MEMBER",
					(int)n, b);
				ud_apisym_query_free(q);
				return -EINVAL;
			}
			q->form = UD_APISYM_MEMBER;
			q->member = ud_xstrndup(m, (size_t)(e - m));
			return 0;
		}
		q->form = UD_APISYM_NAME;
		if (!tagged) {
			/* a typedef's untagged body is named after the typedef */
			static const char *const tags[] = {"struct", "union", "enum"};
			size_t i;

			for (i = 0; i < ARRAY_SIZE(tags); i++)
				ud_strlist_take(&q->names,
						ud_xasprintf("%s (typedef %.*s)", tags[i],
							     (int)(id_end - id), id));
		}
	}
	return 0;
}

void
ud_apisym_query_free(struct ud_apisym_query *q)
{
	ud_strlist_free(&q->names);
	free(q->member);
	free(q->header);
	memset(q, 0, sizeof(*q));
}

/* ---- describing a change ---- */

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const char *
or_empty(const char *s)
{
	return s != NULL ? s : "";
}

static void
item(struct ud_buf *b, struct ud_apisym_items *items, const char *member, char *text)
{
	if (b->len > 0)
		ud_buf_addstr(b, "; ");
	ud_buf_addstr(b, text);
	if (items != NULL) {
		items->v = ud_xgrow(items->v, &items->alloc, items->n + 1, sizeof(*items->v));
		items->v[items->n].member = ud_xstrdup(member);
		items->v[items->n].text = text;
		items->n++;
	} else {
		free(text);
	}
}

static bool
hex_literal(const char *t)
{
	return t != NULL && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

static void
describe_value(struct ud_buf *b, const struct ud_api_sym *o, const struct ud_api_sym *n)
{
	const char *ot = or_empty(o->text), *nt = or_empty(n->text);

	if (!same(o->params, n->params)) {
		ud_buf_addf(b, "parameters (%s) -> (%s)", or_empty(o->params), or_empty(n->params));
		if (strcmp(ot, nt) != 0)
			ud_buf_addf(b, "; replacement '%s' -> '%s'", ot, nt);
		return;
	}
	if (o->is_ioctl && n->is_ioctl) {
		size_t start = b->len;

		if (strcmp(o->ioctl->dir, n->ioctl->dir) != 0)
			ud_buf_addf(b, "ioctl %s -> %s", o->ioctl->dir, n->ioctl->dir);
		if (o->ioctl->known && n->ioctl->known
			    ? o->ioctl->typev != n->ioctl->typev || o->ioctl->nrv != n->ioctl->nrv
			    : !same(o->ioctl->type, n->ioctl->type) ||
				      !same(o->ioctl->nr, n->ioctl->nr))
			ud_buf_addf(b, "%sioctl number %s, %s -> %s, %s",
				    b->len > start ? "; " : "", or_empty(o->ioctl->type),
				    or_empty(o->ioctl->nr), or_empty(n->ioctl->type),
				    or_empty(n->ioctl->nr));
		if (!same(o->ioctl->arg, n->ioctl->arg))
			ud_buf_addf(b, "%sioctl argument %s -> %s", b->len > start ? "; " : "",
				    o->ioctl->arg != NULL ? o->ioctl->arg : "(none)",
				    n->ioctl->arg != NULL ? n->ioctl->arg : "(none)");
		if (b->len == start && strcmp(ot, nt) != 0)
			ud_buf_addf(b, "respelled '%s' -> '%s'", ot, nt);
		return;
	}
	if (o->has_value && n->has_value && o->value != n->value) {
		if (hex_literal(ot) && hex_literal(nt))
			ud_buf_addf(b, "value %#llx -> %#llx", (unsigned long long)o->value,
				    (unsigned long long)n->value);
		else
			ud_buf_addf(b, "value %lld -> %lld", o->value, n->value);
	} else if (strcmp(ot, nt) != 0) {
		if (o->has_value && n->has_value)
			ud_buf_addf(b, "respelled '%s' -> '%s' (value %lld)", ot, nt, n->value);
		else
			ud_buf_addf(b, "'%s' -> '%s'", ot, nt);
	}
}

/* Where a member of o is in n: by name, an anonymous one by its place; -1 when gone. */
static long
counterpart(const struct ud_api_sym *o, size_t i, const struct ud_api_sym *n)
{
	const char *name = o->members[i].name;
	size_t j;

	if (name[0] == '\0')
		return i < n->nmembers && n->members[i].name[0] == '\0' ? (long)i : -1;
	for (j = 0; j < n->nmembers; j++)
		if (strcmp(n->members[j].name, name) == 0)
			return (long)j;
	return -1;
}

static const char *
member_name(const struct ud_api_member *m)
{
	return m->name[0] != '\0' ? m->name : "(anonymous)";
}

/* A member's type as C spells it around its name: "__u8 [16]", "__u32 : 3". */
static char *
spelled_type(const struct ud_api_member *m)
{
	if (m->bits >= 0)
		return ud_xasprintf("%s : %d", m->type, m->bits);
	return ud_xasprintf("%s%s%s", m->type, m->array != NULL ? " " : "", or_empty(m->array));
}

static void
describe_record(struct ud_buf *b, struct ud_apisym_items *items, const struct ud_api_sym *o,
		const struct ud_api_sym *n)
{
	bool *matched = ud_xcalloc(n->nmembers + 1, sizeof(*matched));
	long last = -1;
	size_t i;

	for (i = 0; i < o->nmembers; i++) {
		const struct ud_api_member *om = &o->members[i];
		long j = counterpart(o, i, n);

		if (j < 0) {
			item(b, items, om->name,
			     ud_xasprintf("member %s removed", member_name(om)));
			continue;
		}
		matched[j] = true;
		if (j < last)
			item(b, items, om->name, ud_xasprintf("member %s moved", member_name(om)));
		else
			last = j;
		{
			const struct ud_api_member *nm = &n->members[j];

			if (strcmp(om->type, nm->type) != 0 || om->bits != nm->bits ||
			    !same(om->array, nm->array)) {
				char *a = spelled_type(om), *c = spelled_type(nm);
				bool resized = strcmp(om->type, nm->type) == 0 &&
					       om->bits == nm->bits && om->array != NULL &&
					       nm->array != NULL;

				item(b, items, om->name,
				     ud_xasprintf("member %s %s %s -> %s", member_name(om),
						  resized ? "resized" : "retyped",
						  resized ? or_empty(om->array) : a,
						  resized ? or_empty(nm->array) : c));
				free(a);
				free(c);
			}
		}
	}
	for (i = 0; i < n->nmembers; i++) {
		size_t k;
		bool at_end = true;

		if (matched[i])
			continue;
		for (k = i + 1; k < n->nmembers; k++)
			if (matched[k])
				at_end = false;
		item(b, items, n->members[i].name,
		     ud_xasprintf("member %s added%s", member_name(&n->members[i]),
				  at_end && o->nmembers > 0 ? " at the end" : ""));
	}
	free(matched);
	if (!same(o->text, n->text))
		item(b, items, "",
		     ud_xasprintf("attributes '%s' -> '%s'", or_empty(o->text), or_empty(n->text)));
}

static bool
has_constant(const struct ud_api_sym *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nmembers; i++)
		if (strcmp(s->members[i].name, name) == 0)
			return true;
	return false;
}

static void
describe_enum(struct ud_buf *b, struct ud_apisym_items *items, const struct ud_api_sym *o,
	      const struct ud_api_sym *n)
{
	size_t i, common = 0, k = 0;
	bool reordered = false;

	for (i = 0; i < o->nmembers; i++) {
		if (!has_constant(n, o->members[i].name)) {
			item(b, items, o->members[i].name,
			     ud_xasprintf("constant %s removed", o->members[i].name));
			continue;
		}
		common++;
		/* the common constants, in the same order in both? */
		while (k < n->nmembers && !has_constant(o, n->members[k].name))
			k++;
		if (k < n->nmembers && strcmp(n->members[k].name, o->members[i].name) != 0)
			reordered = true;
		k++;
	}
	for (i = 0; i < n->nmembers; i++)
		if (!has_constant(o, n->members[i].name)) {
			size_t j;
			bool at_end = true;

			for (j = i + 1; j < n->nmembers; j++)
				if (has_constant(o, n->members[j].name))
					at_end = false;
			item(b, items, n->members[i].name,
			     ud_xasprintf("constant %s added%s", n->members[i].name,
					  at_end && common > 0 ? " at the end" : ""));
		}
	if (reordered)
		item(b, items, "", ud_xstrdup("constants reordered"));
}

char *
ud_apisym_describe(const struct ud_api_sym *o, const struct ud_api_sym *n,
		   struct ud_apisym_items *items)
{
	struct ud_buf b = UD_BUF_INIT;

	if (strcmp(o->cond, n->cond) != 0)
		ud_buf_addf(&b, "conditions '%s' -> '%s'", o->cond[0] ? o->cond : "(none)",
			    n->cond[0] ? n->cond : "(none)");
	if (o->kind != n->kind) {
		ud_buf_addf(&b, "%s%s -> %s", b.len > 0 ? "; " : "", ud_api_kind_name(o->kind),
			    ud_api_kind_name(n->kind));
		if (o->has_value && n->has_value)
			ud_buf_addf(&b,
				    o->value == n->value ? " (value %lld)"
							 : " (value %lld -> %lld)",
				    o->value, n->value);
		return ud_buf_detach(&b, NULL);
	}
	switch (n->kind) {
	case UD_API_MACRO:
	case UD_API_ENUM_CONST: {
		struct ud_buf v = UD_BUF_INIT;

		describe_value(&v, o, n);
		if (v.len > 0)
			ud_buf_addf(&b, "%s%s", b.len > 0 ? "; " : "", ud_buf_str(&v));
		ud_buf_free(&v);
		break;
	}
	case UD_API_STRUCT:
	case UD_API_UNION:
	case UD_API_ENUM: {
		struct ud_buf r = UD_BUF_INIT;

		if (n->kind == UD_API_ENUM)
			describe_enum(&r, items, o, n);
		else
			describe_record(&r, items, o, n);
		if (r.len > 0)
			ud_buf_addf(&b, "%s%s", b.len > 0 ? "; " : "", ud_buf_str(&r));
		ud_buf_free(&r);
		break;
	}
	default:
		if (!same(o->text, n->text))
			ud_buf_addf(&b, "%s'%s' -> '%s'", b.len > 0 ? "; " : "", or_empty(o->text),
				    or_empty(n->text));
		break;
	}
	if (b.len == 0) {
		ud_buf_free(&b);
		return NULL;
	}
	return ud_buf_detach(&b, NULL);
}

void
ud_apisym_items_free(struct ud_apisym_items *items)
{
	size_t i;

	for (i = 0; i < items->n; i++) {
		free(items->v[i].member);
		free(items->v[i].text);
	}
	free(items->v);
	memset(items, 0, sizeof(*items));
}

char *
ud_apisym_members(const struct ud_api_sym *s)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < s->nmembers; i++)
		if (s->members[i].name[0] != '\0')
			ud_buf_addf(&b, "%s%s", b.len > 0 ? " " : "", s->members[i].name);
	return b.len > 0 ? ud_buf_detach(&b, NULL) : (ud_buf_free(&b), ud_xstrdup(""));
}

bool
ud_apisym_mentions(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	if (n == 0)
		return false;
	while ((p = strstr(p, word)) != NULL) {
		bool before = p > text && ud_is_ident((unsigned char)p[-1]);
		bool after = ud_is_ident((unsigned char)p[n]);

		if (!before && !after)
			return true;
		p++;
	}
	return false;
}
