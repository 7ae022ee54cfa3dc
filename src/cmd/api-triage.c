// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * api-diff's triage: filters, the roll-up per header, accepted breaks and
 * the text report (api-triage.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api-triage.h"
#include "cmd.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"
#include "uapid/util/buf.h"
#include "uapid/util/hash.h"
#include "uapid/util/xmalloc.h"

const char *const triage_verdicts[4] = {"compatible", "review", "breaking", "accepted"};

/* A reason longer than this is cut in the text report (--json has it whole). */
#define REASON_MAX 160

static int
verdict_index(const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(triage_verdicts); i++)
		if (strlen(triage_verdicts[i]) == n && strncmp(triage_verdicts[i], v, n) == 0)
			return (int)i;
	return -1;
}

bool
triage_opts_take(struct triage_opts *t, int opt, const char *arg)
{
	const char *p, *comma;
	int v;

	switch (opt) {
	case TRIAGE_OPT_VERDICT:
		for (p = arg;; p = comma + 1) {
			comma = strchr(p, ',');
			v = verdict_index(p, comma != NULL ? (size_t)(comma - p) : strlen(p));
			if (v < 0) {
				report_error("--verdict %s: want breaking, review, compatible or "
					     "accepted (comma-separated)",
					     arg);
				t->bad = true;
			} else {
				t->verdicts |= 1u << v;
			}
			if (comma == NULL)
				break;
		}
		return true;
	case TRIAGE_OPT_HEADER:
		ud_strlist_add(&t->headers, arg);
		return true;
	case TRIAGE_OPT_SYMBOL:
		ud_strlist_add(&t->symbols, arg);
		return true;
	case TRIAGE_OPT_SUMMARY:
		t->summary = true;
		return true;
	case TRIAGE_OPT_ACCEPT:
		t->accept_file = arg;
		return true;
	case TRIAGE_OPT_HTML:
		t->html = arg;
		return true;
	default:
		return false;
	}
}

int
triage_prepare(struct triage_opts *t)
{
	struct ud_buf b = UD_BUF_INIT;
	char *cause = NULL;

	if (t->accept_file == NULL)
		return 0;
	if (ud_read_file(t->accept_file, &b, &cause) < 0 ||
	    ud_accept_parse(&t->accept, t->accept_file, b.len > 0 ? b.data : "", b.len, &cause) <
		    0) {
		report_error("%s", cause);
		free(cause);
		ud_buf_free(&b);
		return -1;
	}
	ud_buf_free(&b);
	t->have_accept = true;
	return 0;
}

void
triage_opts_free(struct triage_opts *t)
{
	ud_strlist_free(&t->headers);
	ud_strlist_free(&t->symbols);
	if (t->have_accept)
		ud_accept_free(&t->accept);
}

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

char *
triage_bare_symbol(json_t *c)
{
	const char *s = str(c, "symbol"), *cond = strstr(s, " [if ");

	return cond != NULL ? ud_xstrndup(s, (size_t)(cond - s)) : ud_xstrdup(s);
}

static bool
any_match(const struct ud_strlist *globs, const char *s)
{
	size_t i;

	if (globs->n == 0)
		return true;
	for (i = 0; i < globs->n; i++)
		if (fnmatch(globs->v[i], s, 0) == 0)
			return true;
	return false;
}

bool
triage_selects(const struct triage_opts *t, json_t *c, bool with_verdict)
{
	char *sym;
	bool ok;
	int v;

	if (with_verdict && t->verdicts != 0) {
		const char *vs = str(c, "verdict");

		v = verdict_index(vs, strlen(vs));
		if (v < 0 || (t->verdicts & (1u << v)) == 0)
			return false;
	}
	if (!any_match(&t->headers, str(c, "header")))
		return false;
	if (t->symbols.n == 0)
		return true;
	sym = triage_bare_symbol(c);
	ok = any_match(&t->symbols, sym);
	free(sym);
	return ok;
}

/* --- definitions, for the page ----------------------------------------------------------- */

static void
indent(struct ud_buf *b, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		ud_buf_addstr(b, "\t");
}

static void
members_text(struct ud_buf *b, const struct ud_api_member *m, size_t n, int depth)
{
	size_t i;

	for (i = 0; i < n; i++, m++) {
		indent(b, depth);
		if (m->sub != NULL && m->nsub > 0) {
			ud_buf_addf(b, "%s {\n", ud_api_kind_name(m->sub_kind));
			members_text(b, m->sub, m->nsub, depth + 1);
			indent(b, depth);
			ud_buf_addstr(b, "}");
		} else {
			ud_buf_addstr(b, m->type != NULL ? m->type : "");
		}
		if (m->name != NULL && m->name[0] != '\0')
			ud_buf_addf(b, "%s%s", b->len > 0 && b->data[b->len - 1] == '*' ? "" : " ",
				    m->name);
		if (m->array != NULL)
			ud_buf_addstr(b, m->array);
		if (m->bits >= 0)
			ud_buf_addf(b, " : %s", m->width != NULL ? m->width : "?");
		if (m->attrs != NULL)
			ud_buf_addf(b, " %s", m->attrs);
		ud_buf_addstr(b, ";");
		if (m->cond != NULL && m->cond[0] != '\0')
			ud_buf_addf(b, " /* if %s */", m->cond);
		ud_buf_addstr(b, "\n");
	}
}

/* A symbol as its header defines it, more or less as written (malloc'd). */
static char *
definition(const struct ud_api_sym *s)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	switch (s->kind) {
	case UD_API_MACRO:
		ud_buf_addf(&b, "#define %s", s->name);
		if (s->params != NULL)
			ud_buf_addf(&b, s->params[0] == '(' ? "%s" : "(%s)", s->params);
		if (s->text != NULL && s->text[0] != '\0')
			ud_buf_addf(&b, " %s", s->text);
		break;
	case UD_API_ENUM_CONST:
		ud_buf_addstr(&b, s->name);
		if (s->text != NULL && s->text[0] != '\0')
			ud_buf_addf(&b, " = %s", s->text);
		break;
	case UD_API_ENUM:
		if (s->source != NULL) {
			ud_buf_addf(&b, "%s { %s }", s->name, s->source);
			break;
		}
		ud_buf_addf(&b, "%s {\n", s->name);
		for (i = 0; i < s->nmembers; i++)
			ud_buf_addf(&b, "\t%s,\n", s->members[i].name);
		ud_buf_addstr(&b, "}");
		break;
	case UD_API_STRUCT:
	case UD_API_UNION:
		ud_buf_addf(&b, "%s {\n", s->name);
		members_text(&b, s->members, s->nmembers, 1);
		ud_buf_addstr(&b, "}");
		break;
	default:
		ud_buf_addstr(&b, s->text != NULL ? s->text : s->name);
		break;
	}
	if ((s->kind == UD_API_MACRO || s->kind == UD_API_ENUM_CONST) && s->has_value) {
		char v[32];

		snprintf(v, sizeof(v), s->value_unsigned ? "%llu" : "%lld", s->value);
		if (s->text == NULL || strcmp(s->text, v) != 0)
			ud_buf_addf(&b, "  /* = %s */", v);
	}
	if (s->layout != NULL && (s->kind == UD_API_STRUCT || s->kind == UD_API_UNION))
		ud_buf_addf(&b, "  /* size %llu, align %llu */",
			    (unsigned long long)s->layout->size,
			    (unsigned long long)s->layout->align);
	if (s->cond[0] != '\0')
		ud_buf_addf(&b, "\n/* if %s */", s->cond);
	return ud_buf_detach(&b, NULL);
}

/* The symbol of a change in one version's header, or NULL. */
static const struct ud_api_sym *
find_sym(const struct ud_api_version *side, const struct ud_api_change *c, const char *cond)
{
	const struct ud_api_header *h = ud_api_version_header(side, c->header);
	size_t i;

	if (h == NULL || c->name[0] == '\0')
		return NULL;
	for (i = 0; i < h->n; i++) {
		const struct ud_api_sym *s = &h->v[i];

		if (s->kind == c->kind && strcmp(s->name, c->name) == 0 &&
		    strcmp(s->cond, cond) == 0)
			return s;
	}
	return NULL;
}

/* s as a JSON string, s freed */
static json_t *
take_string(char *s)
{
	json_t *j = json_string_nocheck(s);

	free(s);
	return j;
}

static void
add_definitions(json_t *changes, const struct ud_api_version *o, const struct ud_api_version *n,
		const struct ud_api_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		const char *cond = strstr(c->symbol, " [if ");
		char *cnd =
			cond != NULL ? ud_xstrndup(cond + 5, strlen(cond + 5) - 1) : ud_xstrdup("");
		const struct ud_api_sym *os = c->what != UD_API_ADDED ? find_sym(o, c, cnd) : NULL;
		const struct ud_api_sym *ns =
			c->what != UD_API_REMOVED ? find_sym(n, c, cnd) : NULL;
		json_t *j = json_array_get(changes, i);

		if (os != NULL)
			json_object_set_new(j, "old_definition", take_string(definition(os)));
		if (ns != NULL)
			json_object_set_new(j, "new_definition", take_string(definition(ns)));
		free(cnd);
	}
}

json_t *
triage_make(struct triage_opts *t, const struct ud_api_version *o, const struct ud_api_version *n,
	    const struct ud_api_diff *d)
{
	json_t *j = ud_json_api_diff(d);

	json_object_set_new(j, "old", json_string(o->what));
	json_object_set_new(j, "new", json_string(n->what));
	json_object_set_new(j, "old_headers", json_integer((json_int_t)o->n));
	json_object_set_new(j, "new_headers", json_integer((json_int_t)n->n));
	if (t->html != NULL)
		add_definitions(json_object_get(j, "changes"), o, n, d);
	if (t->have_accept)
		ud_accept_apply(&t->accept, j);
	return j;
}

/* --- the text report ---------------------------------------------------------------------- */

/* One selected change and where it sorts. */
struct pick {
	json_t *c;
	char *sym; /* its symbol without its condition */
	size_t i;  /* its place in the diff */
};

static int
pick_cmp(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	int r = strcmp(str(x->c, "header"), str(y->c, "header"));

	if (r == 0 && x->sym[0] != '\0' && y->sym[0] != '\0')
		r = strcmp(x->sym, y->sym);
	if (r == 0 && x->sym[0] != '\0' && y->sym[0] != '\0')
		r = strcmp(str(x->c, "kind"), str(y->c, "kind"));
	if (r == 0)
		r = x->i < y->i ? -1 : x->i > y->i;
	return r;
}

/* Same symbol (a header's own changes are each their own entry). */
static bool
same_symbol(const struct pick *a, const struct pick *b)
{
	return a->sym[0] != '\0' && strcmp(str(a->c, "header"), str(b->c, "header")) == 0 &&
	       strcmp(a->sym, b->sym) == 0 && strcmp(str(a->c, "kind"), str(b->c, "kind")) == 0;
}

static int
severity(json_t *c)
{
	const char *v = str(c, "verdict");

	return verdict_index(v, strlen(v));
}

/* "linux/foo.h:15 (old 12)": the new file's line, the old one's beside it or alone. */
static void
add_where(struct ud_buf *b, json_t *c)
{
	json_int_t o = json_integer_value(json_object_get(c, "old_line"));
	json_int_t n = json_integer_value(json_object_get(c, "new_line"));

	ud_buf_addstr(b, str(c, "header"));
	if (n > 0 && o > 0 && o != n)
		ud_buf_addf(b, ":%lld (old %lld)", (long long)n, (long long)o);
	else if (n > 0 || o > 0)
		ud_buf_addf(b, ":%lld", (long long)(n > 0 ? n : o));
}

/* s, cut to max bytes with "..." (never inside a UTF-8 sequence) */
static void
add_cut(struct ud_buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max) {
		ud_buf_addstr(b, s);
		return;
	}
	n = max - 3;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	ud_buf_add(b, s, n);
	ud_buf_addstr(b, "...");
}

/* The reason, then what an accepted or two-axis verdict adds. */
static void
add_reason(struct ud_buf *b, json_t *c)
{
	add_cut(b, str(c, "reason"), REASON_MAX);
	if (json_object_get(c, "accepted_from") != NULL)
		ud_buf_addf(b, " [accepted %s, %s: %s]", str(c, "accepted_from"),
			    str(c, "accepted_at"), str(c, "accepted_because"));
	/* which axis a change that is not compatible is on: a program as built, or rebuilt */
	if (json_is_string(json_object_get(c, "binary")) &&
	    json_is_string(json_object_get(c, "source")) &&
	    strcmp(str(c, "verdict"), "compatible") != 0)
		ud_buf_addf(b, " [binary: %s, source: %s]", str(c, "binary"), str(c, "source"));
}

/* "macro FOO", "struct foo": the kind unless the name says it */
static void
add_symbol(struct ud_buf *b, json_t *c, const char *sym)
{
	const char *kind = ud_api_kind_shown(str(c, "kind"), sym);

	ud_buf_addf(b, "%s%s%s", kind, kind[0] != '\0' ? " " : "", sym);
}

static const char *
cond_of(json_t *c)
{
	const char *s = json_string_value(json_object_get(c, "condition"));

	return s != NULL ? s : "";
}

/*
 * One entry: a symbol's changes (p[0..n)).  The same change under each of
 * its conditions (a macro defined alike in both branches of an #ifdef) is
 * one line with the conditions listed; other changes keep a line each, so
 * that every line still says what it is about.
 */
static void
print_entry(const struct pick *p, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;
	bool alike = true, seen;
	size_t k, m;

	for (k = 1; k < n; k++)
		alike &= strcmp(str(p[k].c, "verdict"), str(p[0].c, "verdict")) == 0 &&
			 strcmp(str(p[k].c, "reason"), str(p[0].c, "reason")) == 0 &&
			 strcmp(cond_of(p[k].c), cond_of(p[0].c)) != 0;
	if (n == 1 || !alike || p[0].sym[0] == '\0') {
		for (k = 0; k < n; k++) {
			ud_buf_reset(&b);
			triage_change_line(&b, p[k].c);
			puts(b.data);
		}
		ud_buf_free(&b);
		return;
	}
	add_where(&b, p[0].c);
	ud_buf_addf(&b, ": %s: ", str(p[0].c, "verdict"));
	add_symbol(&b, p[0].c, p[0].sym);
	for (k = 0; k < n; k++) {
		for (seen = false, m = 0; m < k && !seen; m++)
			seen = strcmp(cond_of(p[m].c), cond_of(p[k].c)) == 0;
		if (!seen)
			ud_buf_addf(&b, cond_of(p[k].c)[0] ? " [if %s]" : " [unconditionally]",
				    cond_of(p[k].c));
	}
	ud_buf_addstr(&b, ": ");
	add_reason(&b, p[0].c);
	puts(b.data);
	ud_buf_free(&b);
}

void
triage_change_line(struct ud_buf *b, json_t *c)
{
	add_where(b, c);
	ud_buf_addf(b, ": %s: ", str(c, "verdict"));
	if (str(c, "symbol")[0] != '\0') {
		add_symbol(b, c, str(c, "symbol"));
		ud_buf_addstr(b, ": ");
	}
	add_reason(b, c);
}

static json_int_t
count(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void
print_head(json_t *r)
{
	json_t *s = json_object_get(r, "summary");

	printf("old: %s, %lld headers\nnew: %s, %lld headers\n", str(r, "old"),
	       (long long)count(r, "old_headers"), str(r, "new"),
	       (long long)count(r, "new_headers"));
	printf("headers: %lld changed, %lld added, %lld removed; symbols: %lld added, %lld removed, "
	       "%lld changed\n",
	       (long long)count(s, "headers_changed"), (long long)count(s, "headers_added"),
	       (long long)count(s, "headers_removed"), (long long)count(s, "symbols_added"),
	       (long long)count(s, "symbols_removed"), (long long)count(s, "symbols_changed"));
	printf("verdicts: %lld breaking, %lld review, %lld compatible",
	       (long long)count(s, "breaking"), (long long)count(s, "review"),
	       (long long)count(s, "compatible"));
	if (json_object_get(s, "accepted") != NULL)
		printf(", %lld accepted", (long long)count(s, "accepted"));
	putchar('\n');
}

json_t *
triage_rollup(const struct triage_opts *t, json_t *changes)
{
	json_t *by = json_object(), *c, *h, *out = json_array();
	struct ud_strlist names = UD_STRLIST_INIT;
	size_t i;

	json_array_foreach(changes, i, c)
	{
		const char *hdr = str(c, "header");
		int v = severity(c);

		if (!triage_selects(t, c, true))
			continue;
		if ((h = json_object_get(by, hdr)) == NULL) {
			h = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}", "header", hdr, "changes", 0,
				      "breaking", 0, "review", 0, "compatible", 0, "accepted", 0);
			json_object_set_new(by, hdr, h);
			ud_strlist_add(&names, hdr);
		}
		json_object_set_new(h, "changes", json_integer(count(h, "changes") + 1));
		if (v >= 0)
			json_object_set_new(h, triage_verdicts[v],
					    json_integer(count(h, triage_verdicts[v]) + 1));
	}
	ud_strlist_sort(&names);
	for (i = 0; i < names.n; i++)
		json_array_append(out, json_object_get(by, names.v[i]));
	ud_strlist_free(&names);
	json_decref(by);
	return out;
}

static void
print_rollup(json_t *heads)
{
	json_t *h;
	size_t i;
	int w = 0;

	json_array_foreach(heads, i, h)
	{
		int n = (int)strlen(str(h, "header"));

		w = n > w ? n : w;
	}
	json_array_foreach(heads, i, h)
	{
		printf("%-*s  %4lld breaking  %4lld review  %4lld compatible", w, str(h, "header"),
		       (long long)count(h, "breaking"), (long long)count(h, "review"),
		       (long long)count(h, "compatible"));
		if (count(h, "accepted") > 0)
			printf("  %4lld accepted", (long long)count(h, "accepted"));
		putchar('\n');
	}
}

static void
print_text(const struct triage_opts *t, json_t *r, size_t total)
{
	json_t *changes = json_object_get(r, "changes"), *c;
	struct pick *p = ud_xcalloc(json_array_size(changes) + 1, sizeof(*p));
	size_t n = 0, i, j;

	json_array_foreach(changes, i, c)
	{
		if (!triage_selects(t, c, true))
			continue;
		p[n].c = c;
		p[n].sym = triage_bare_symbol(c);
		p[n].i = i;
		n++;
	}
	if (n != total)
		printf("selected: %zu of %zu changes\n", n, total);
	printf("lines: the new header's (the old one's for what was removed; \"old N\" beside "
	       "where both)\n");
	qsort(p, n, sizeof(*p), pick_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_symbol(&p[i], &p[j]); j++)
			;
		print_entry(p + i, j - i);
	}
	for (i = 0; i < n; i++)
		free(p[i].sym);
	free(p);
}

/* What the JSON gives: the changes selected, or with --summary the roll-up. */
static void
print_json(const struct triage_opts *t, json_t *r)
{
	json_t *out = json_object(), *changes = json_object_get(r, "changes"), *sel, *c;
	const char *key;
	json_t *v;
	size_t i;
	char *s;

	json_object_set(out, "old", json_object_get(r, "old"));
	json_object_set(out, "new", json_object_get(r, "new"));
	json_object_foreach(r, key, v)
	{
		if (strcmp(key, "changes") != 0 && strcmp(key, "old") != 0 &&
		    strcmp(key, "new") != 0)
			json_object_set(out, key, v);
	}
	if (t->summary) {
		json_object_set_new(out, "headers", triage_rollup(t, changes));
	} else {
		sel = json_array();
		json_array_foreach(changes, i, c)
		{
			if (triage_selects(t, c, true))
				json_array_append(sel, c);
		}
		if (json_array_size(sel) != json_array_size(changes))
			json_object_set_new(out, "selected",
					    json_integer((json_int_t)json_array_size(sel)));
		json_object_set_new(out, "changes", sel);
	}
	s = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(out);
}

int
triage_print(const struct triage_opts *t, json_t *r)
{
	json_t *changes = json_object_get(r, "changes"), *c, *u;
	json_t *unmatched = json_object_get(json_object_get(r, "accept"), "unmatched");
	size_t i, breaking = 0;
	char *cause = NULL;
	int status;

	json_array_foreach(unmatched, i, u)
	{
		report_error("%s:%lld: warning: accepted change matches nothing: %s",
			     t->accept_file, (long long)count(u, "line"), str(u, "text"));
	}
	json_array_foreach(changes, i, c)
	{
		if (triage_selects(t, c, false) && strcmp(str(c, "verdict"), "breaking") == 0)
			breaking++;
	}
	status = breaking > 0 ? EXIT_FINDINGS : EXIT_OK;
	if (t->json) {
		print_json(t, r);
	} else {
		json_t *heads;

		print_head(r);
		if (t->summary) {
			heads = triage_rollup(t, changes);
			print_rollup(heads);
			json_decref(heads);
		} else {
			print_text(t, r, json_array_size(changes));
		}
	}
	fflush(stdout);
	if (t->html != NULL && report_html_diff(t->html, r, t, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		status = EXIT_USAGE;
	}
	return status;
}
