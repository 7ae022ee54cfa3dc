// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows of an api-log step (apilog-int.h): api-diff's changes between
 * two versions of the installed headers, one row per symbol (and per
 * member of a record) with the verdict and a change in words, the symbols
 * of headers added or removed whole, and moves paired.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apilog-int.h"
#include "uapid/api/apisym.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

static struct ud_apilog_draft *
row_new(struct ud_apilog_rows *rs, const char *what, const char *header, unsigned line)
{
	struct ud_apilog_draft *r;

	rs->v = ud_xgrow(rs->v, &rs->alloc, rs->n + 1, sizeof(*rs->v));
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->what = what;
	r->header = ud_xstrdup(header);
	r->line = line;
	r->member = ud_xstrdup("");
	r->verdict = -1;
	return r;
}

void
ud_apilog_rows_free(struct ud_apilog_rows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		struct ud_apilog_draft *r = &rs->v[i];

		free(r->name);
		free(r->member);
		free(r->symbol);
		free(r->header);
		free(r->moved_to);
		free(r->change);
		free(r->reason);
		free(r->members);
	}
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

static char *
display(const struct ud_api_sym *s)
{
	return s->cond[0] != '\0' ? ud_xasprintf("%s [if %s]", s->name, s->cond)
				  : ud_xstrdup(s->name);
}

static bool
has_members(const struct ud_api_sym *s)
{
	return s->kind == UD_API_STRUCT || s->kind == UD_API_UNION || s->kind == UD_API_ENUM;
}

/* A row for symbol s of header h: present, or added or removed with the header. */
static struct ud_apilog_draft *
sym_row(struct ud_apilog_rows *rs, const char *what, const char *header, const struct ud_api_sym *s)
{
	struct ud_apilog_draft *r = row_new(rs, what, header, s->line);

	r->name = ud_xstrdup(s->name);
	r->symbol = display(s);
	r->kind = ud_api_kind_name(s->kind);
	if (has_members(s))
		r->members = ud_apisym_members(s);
	return r;
}

void
ud_apilog_present_rows(struct ud_apilog_rows *rs, const struct ud_api_header *h)
{
	struct ud_apilog_draft *r = row_new(rs, "present", h->path, 1);
	size_t j;

	r->name = ud_xstrdup("");
	r->symbol = ud_xstrdup("");
	r->kind = "header";
	r->change = ud_xasprintf("present (%zu symbol%s)", h->n, h->n == 1 ? "" : "s");
	for (j = 0; j < h->n; j++) {
		r = sym_row(rs, "present", h->path, &h->v[j]);
		r->change = ud_xstrdup("present");
	}
}

/* Does symbol s display as the change's symbol ("NAME [if COND]")? */
static bool
same_display(const struct ud_api_sym *s, const char *symbol)
{
	size_t n = strlen(s->name);

	if (strncmp(symbol, s->name, n) != 0)
		return false;
	if (s->cond[0] == '\0')
		return symbol[n] == '\0';
	return strncmp(symbol + n, " [if ", 5) == 0 &&
	       strncmp(symbol + n + 5, s->cond, strlen(s->cond)) == 0 &&
	       strcmp(symbol + n + 5 + strlen(s->cond), "]") == 0;
}

/* The symbol of h a change is about: its name and kind and conditions, else its name. */
static const struct ud_api_sym *
find_sym(const struct ud_api_header *h, const struct ud_api_change *c)
{
	const struct ud_api_sym *kind = NULL, *name = NULL;
	size_t i;

	if (h == NULL)
		return NULL;
	for (i = 0; i < h->n; i++) {
		const struct ud_api_sym *s = &h->v[i];

		if (strcmp(s->name, c->name) != 0)
			continue;
		if (s->kind == c->kind && same_display(s, c->symbol))
			return s;
		if (s->kind == c->kind && kind == NULL)
			kind = s;
		if (name == NULL)
			name = s;
	}
	return kind != NULL ? kind : name;
}

/* The changes of one symbol at one step: one row, and one per member it concerns. */
struct group {
	const char *header, *symbol;
	const struct ud_api_change **v;
	size_t n, alloc;
};

static void
group_rows(struct ud_apilog_rows *rs, const struct group *g, const struct ud_api_header *oh,
	   const struct ud_api_header *nh)
{
	const struct ud_api_change *c0 = g->v[0];
	const struct ud_api_sym *o = find_sym(oh, c0), *n = find_sym(nh, c0);
	struct ud_apisym_items items = {NULL, 0, 0};
	struct ud_buf reasons = UD_BUF_INIT;
	struct ud_apilog_draft *r;
	char *change = NULL;
	const char *kind;
	unsigned line;
	int verdict = 0;
	size_t i, j;

	for (i = 0; i < g->n; i++) {
		ud_buf_addf(&reasons, "%s%s", i > 0 ? "; " : "", g->v[i]->reason);
		if ((int)g->v[i]->verdict > verdict)
			verdict = (int)g->v[i]->verdict;
	}
	if (o != NULL && n != NULL)
		change = ud_apisym_describe(o, n, &items);
	line = c0->new_line != 0 ? c0->new_line : c0->old_line;
	kind = ud_api_kind_name(n != NULL ? n->kind : c0->kind);
	r = row_new(rs, "changed", g->header, line);
	r->name = ud_xstrdup(c0->name);
	r->symbol = ud_xstrdup(c0->symbol);
	r->kind = kind;
	r->verdict = verdict;
	r->reason = ud_xstrdup(ud_buf_str(&reasons));
	r->change = change != NULL ? change : ud_xstrdup(r->reason);
	if (n != NULL && has_members(n) && n->kind != UD_API_ENUM && items.n == 0) {
		/* a change through a member's type: the members its reasons name */
		for (j = 0; j < n->nmembers; j++)
			if (n->members[j].name[0] != '\0' &&
			    ud_apisym_mentions(ud_buf_str(&reasons), n->members[j].name)) {
				items.v = ud_xgrow(items.v, &items.alloc, items.n + 1,
						   sizeof(*items.v));
				items.v[items.n].member = ud_xstrdup(n->members[j].name);
				items.v[items.n].text = ud_xstrdup(ud_buf_str(&reasons));
				items.n++;
			}
	}
	for (j = 0; j < items.n; j++) {
		const struct ud_apisym_item *it = &items.v[j];
		struct ud_apilog_draft *m;
		int mv = -1;

		if (it->member[0] == '\0')
			continue;
		/* the verdict of the changes that name this member, else the symbol's */
		for (i = 0; i < g->n; i++)
			if (ud_apisym_mentions(g->v[i]->reason, it->member) &&
			    (int)g->v[i]->verdict > mv)
				mv = (int)g->v[i]->verdict;
		m = row_new(rs, "changed", g->header, line);
		m->name = ud_xstrdup(c0->name);
		free(m->member);
		m->member = ud_xstrdup(it->member);
		m->symbol = ud_xstrdup(c0->symbol);
		m->kind = kind;
		m->verdict = mv >= 0 ? mv : verdict;
		m->change = ud_xstrdup(it->text);
		m->reason = ud_xstrdup(ud_buf_str(&reasons));
	}
	ud_apisym_items_free(&items);
	ud_buf_free(&reasons);
}

static int
verdict_max(int a, int b)
{
	return a > b ? a : b;
}

/*
 * A symbol removed from one header and added to another at the same step
 * moved: one row, where it was, with the verdict of both.
 */
static void
pair_moves(struct ud_apilog_rows *rs)
{
	size_t i, j;

	for (i = 0; i < rs->n; i++) {
		struct ud_apilog_draft *a = &rs->v[i];

		if (strcmp(a->what, "removed") != 0 || a->name[0] == '\0' || a->member[0] != '\0')
			continue;
		for (j = 0; j < rs->n; j++) {
			struct ud_apilog_draft *b = &rs->v[j];

			if (b->dropped || strcmp(b->what, "added") != 0 ||
			    strcmp(b->name, a->name) != 0 || b->member[0] != '\0' ||
			    strcmp(b->header, a->header) == 0)
				continue;
			a->what = "moved";
			a->moved_to = ud_xstrdup(b->header);
			a->moved_line = b->line;
			a->verdict = verdict_max(a->verdict, b->verdict);
			a->implied = false;
			a->kind = b->kind;
			free(a->change);
			a->change = ud_xasprintf("moved to %s", b->header);
			free(a->members);
			a->members = b->members;
			b->members = NULL;
			b->dropped = true;
			break;
		}
	}
}

void
ud_apilog_diff_rows(struct ud_apilog_rows *rs, const struct ud_api_diff *d,
		    const struct ud_api_header *(*version)(const char *path, bool old, void *ctx),
		    void *ctx)
{
	struct ud_map groups = UD_MAP_INIT;
	struct group *gv = NULL;
	size_t ng = 0, ag = 0, i, j;

	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		const struct ud_api_header *oh = version(c->header, true, ctx),
					   *nh = version(c->header, false, ctx);

		if (c->symbol[0] == '\0') {
			/* a header added or removed: it, and each of its symbols with it */
			const struct ud_api_header *h = c->what == UD_API_ADDED ? nh : oh;
			const char *what = c->what == UD_API_ADDED ? "added" : "removed";
			struct ud_apilog_draft *r = row_new(
				rs, what, c->header, c->new_line != 0 ? c->new_line : c->old_line);

			r->name = ud_xstrdup("");
			r->symbol = ud_xstrdup("");
			r->kind = "header";
			r->verdict = (int)c->verdict;
			r->reason = ud_xstrdup(c->reason);
			r->change = ud_xasprintf("header %s", what);
			for (j = 0; h != NULL && j < h->n; j++) {
				r = sym_row(rs, what, c->header, &h->v[j]);
				r->verdict = (int)c->verdict;
				r->implied = true;
				r->reason = ud_xstrdup(c->reason);
				r->change = ud_xasprintf("%s with its header", what);
			}
			continue;
		}
		if (c->what != UD_API_CHANGED) {
			bool added = c->what == UD_API_ADDED;
			const struct ud_api_sym *s = find_sym(added ? nh : oh, c);
			struct ud_apilog_draft *r =
				row_new(rs, added ? "added" : "removed", c->header,
					added ? c->new_line : c->old_line);

			r->name = ud_xstrdup(c->name);
			r->symbol = ud_xstrdup(c->symbol);
			r->kind = ud_api_kind_name(s != NULL ? s->kind : c->kind);
			r->verdict = (int)c->verdict;
			r->reason = ud_xstrdup(c->reason);
			r->change = ud_xstrdup(added ? "added" : "removed");
			if (s != NULL && has_members(s))
				r->members = ud_apisym_members(s);
			continue;
		}
		{
			char *k = ud_xasprintf("%s\n%s", c->header, c->symbol);
			size_t gi = (size_t)(uintptr_t)ud_map_get(&groups, k);
			struct group *g;

			if (gi == 0) {
				gv = ud_xgrow(gv, &ag, ng + 1, sizeof(*gv));
				memset(&gv[ng], 0, sizeof(*gv));
				gv[ng].header = c->header;
				gv[ng].symbol = c->symbol;
				gi = ++ng;
				ud_map_put(&groups, k, (void *)(uintptr_t)gi);
			}
			free(k);
			g = &gv[gi - 1];
			g->v = ud_xgrow(g->v, &g->alloc, g->n + 1, sizeof(*g->v));
			g->v[g->n++] = c;
		}
	}
	for (i = 0; i < ng; i++) {
		group_rows(rs, &gv[i], version(gv[i].header, true, ctx),
			   version(gv[i].header, false, ctx));
		free(gv[i].v);
	}
	free(gv);
	ud_map_free(&groups, NULL);
	pair_moves(rs);
}
