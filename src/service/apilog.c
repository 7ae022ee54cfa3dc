// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The api-log index's writer (apilog.h): the headers branch read commit by
 * commit into per-symbol changes.
 *
 * The installed headers of the last step are kept parsed in memory while
 * the index grows, so each step parses only the headers its commit
 * changed, and compares them as api-diff compares two versions: each
 * changed header (ud_api_diff_header), symbols that moved to a header the
 * old one includes (ud_api_diff_moves), and the users of a changed type in
 * every header (ud_api_diff_through).  Only the visibility of types through
 * #includes (ud_api_diff_includes) is left out: it is a fact about the
 * including header, not about the symbol.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apilog-int.h"
#include "uapid/api.h"
#include "uapid/apilog.h"
#include "uapid/apisym.h"
#include "uapid/buf.h"
#include "uapid/gittree.h"
#include "uapid/map.h"
#include "uapid/xmalloc.h"

#define HEX (GIT_OID_HEXSZ + 1)

/* ---- the installed headers of one headers commit ---- */

/*
 * A header of the set: its blob, and its model once something asked for
 * it.  Parsing every header costs a third of a second on a kernel, and a
 * step that changes a macro needs only the headers it changed.
 */
struct hent {
	char *path; /* installed name */
	git_oid blob;
	struct ud_api_header *h; /* NULL until asked for */
};

/* Headers by installed name, sorted. */
struct hset {
	git_repository *repo;
	struct hent *v;
	size_t n, alloc;
};

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct hent *)a)->path, ((const struct hent *)b)->path);
}

static struct hent *
hset_entry(const struct hset *s, const char *path)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->v[mid].path, path);

		if (c == 0)
			return &s->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct ud_api_header *
parse_blob(git_repository *repo, const git_oid *id, const char *path)
{
	struct ud_api_header *h = ud_xcalloc(1, sizeof(*h));
	git_blob *b;

	if (git_blob_lookup(&b, repo, id) < 0) {
		ud_api_parse(path, "", 0, h);
		return h;
	}
	ud_api_parse(path, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), h);
	git_blob_free(b);
	return h;
}

/* The model of path in the set, parsed now if it was not; NULL when the set has no such header. */
static struct ud_api_header *
hset_get(const struct hset *s, const char *path)
{
	struct hent *e = hset_entry(s, path);

	if (e == NULL)
		return NULL;
	if (e->h == NULL)
		e->h = parse_blob(s->repo, &e->blob, e->path);
	return e->h;
}

static void
hset_add(struct hset *s, const char *path, const git_oid *blob, struct ud_api_header *h)
{
	s->v = ud_xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	s->v[s->n].path = ud_xstrdup(path);
	git_oid_cpy(&s->v[s->n].blob, blob);
	s->v[s->n].h = h;
	s->n++;
}

static void
header_free(struct ud_api_header *h)
{
	if (h != NULL)
		ud_api_header_free(h);
	free(h);
}

static void
hset_free(struct hset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].path);
		header_free(s->v[i].h);
	}
	free(s->v);
	s->v = NULL;
	s->n = s->alloc = 0;
}

static int
list_each(const char *root, const git_tree_entry *e, void *payload)
{
	struct hset *s = payload;
	const char *name = git_tree_entry_name(e);
	size_t n = strlen(name);
	char *path;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || n < 3 || strcmp(name + n - 2, ".h") != 0 ||
	    strncmp(root, "include/", 8) != 0)
		return 0;
	path = ud_xasprintf("%s%s", root + 8, name);
	hset_add(s, path, git_tree_entry_id(e), NULL);
	free(path);
	return 0;
}

/* The installed headers of a headers commit's tree (include/...), none parsed yet. */
static void
hset_read(git_repository *repo, git_tree *t, struct hset *out)
{
	memset(out, 0, sizeof(*out));
	out->repo = repo;
	git_tree_walk(t, GIT_TREEWALK_PRE, list_each, out);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), by_path);
}

/* Every header of the set parsed, as one array (shallow copies: the set owns them). */
static struct ud_api_header *
hset_flat(const struct hset *s)
{
	struct ud_api_header *flat = ud_xcalloc(s->n + 1, sizeof(*flat));
	size_t i;

	for (i = 0; i < s->n; i++)
		flat[i] = *hset_get(s, s->v[i].path);
	return flat;
}

/* ---- the rows of a step ---- */

/* A row on its way to the store; strings owned. */
struct row {
	char *name, *member, *symbol, *header, *moved_to, *change, *reason, *members;
	const char *kind, *what;
	unsigned line, moved_line;
	int verdict; /* enum ud_api_verdict, or -1 for present */
	bool implied, dropped;
};

struct rows {
	struct row *v;
	size_t n, alloc;
};

static struct row *
row_new(struct rows *rs, const char *what, const char *header, unsigned line)
{
	struct row *r;

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

static void
rows_free(struct rows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		struct row *r = &rs->v[i];

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
static struct row *
sym_row(struct rows *rs, const char *what, const char *header, const struct ud_api_sym *s)
{
	struct row *r = row_new(rs, what, header, s->line);

	r->name = ud_xstrdup(s->name);
	r->symbol = display(s);
	r->kind = ud_api_kind_name(s->kind);
	if (has_members(s))
		r->members = ud_apisym_members(s);
	return r;
}

/* Every symbol of every header, as the history's first step finds them. */
static void
present_rows(struct rows *rs, const struct hset *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		const struct ud_api_header *h = hset_get(set, set->v[i].path);
		struct row *r = row_new(rs, "present", h->path, 1);

		r->name = ud_xstrdup("");
		r->symbol = ud_xstrdup("");
		r->kind = "header";
		r->change = ud_xasprintf("present (%zu symbol%s)", h->n, h->n == 1 ? "" : "s");
		for (j = 0; j < h->n; j++) {
			r = sym_row(rs, "present", h->path, &h->v[j]);
			r->change = ud_xstrdup("present");
		}
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
group_rows(struct rows *rs, const struct group *g, const struct ud_api_header *oh,
	   const struct ud_api_header *nh)
{
	const struct ud_api_change *c0 = g->v[0];
	const struct ud_api_sym *o = find_sym(oh, c0), *n = find_sym(nh, c0);
	struct ud_apisym_items items = {NULL, 0, 0};
	struct ud_buf reasons = UD_BUF_INIT;
	struct row *r;
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
		struct row *m;
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
pair_moves(struct rows *rs)
{
	size_t i, j;

	for (i = 0; i < rs->n; i++) {
		struct row *a = &rs->v[i];

		if (strcmp(a->what, "removed") != 0 || a->name[0] == '\0' || a->member[0] != '\0')
			continue;
		for (j = 0; j < rs->n; j++) {
			struct row *b = &rs->v[j];

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

/*
 * The old version of header path: the one olds holds for a header the
 * step changed (NULL: added), else the same as the new one.
 */
static const struct ud_api_header *
old_version(const struct ud_map *olds, const struct hset *new_, const char *path)
{
	return ud_map_has(olds, path) ? ud_map_get(olds, path) : hset_get(new_, path);
}

/* The rows of api-diff's changes d, from the old versions of the changed headers to new_. */
static void
diff_rows(struct rows *rs, const struct ud_api_diff *d, const struct ud_map *olds,
	  const struct hset *new_)
{
	struct ud_map groups = UD_MAP_INIT;
	struct group *gv = NULL;
	size_t ng = 0, ag = 0, i, j;

	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		const struct ud_api_header *oh = old_version(olds, new_, c->header),
					   *nh = hset_get(new_, c->header);

		if (c->symbol[0] == '\0') {
			/* a header added or removed: it, and each of its symbols with it */
			const struct ud_api_header *h = c->what == UD_API_ADDED ? nh : oh;
			const char *what = c->what == UD_API_ADDED ? "added" : "removed";
			struct row *r = row_new(rs, what, c->header,
						c->new_line != 0 ? c->new_line : c->old_line);

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
			struct row *r = row_new(rs, added ? "added" : "removed", c->header,
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
		group_rows(rs, &gv[i], old_version(olds, new_, gv[i].header),
			   hset_get(new_, gv[i].header));
		free(gv[i].v);
	}
	free(gv);
	ud_map_free(&groups, NULL);
	pair_moves(rs);
}

/* ---- one step ---- */

struct build {
	git_repository *repo;
	struct ud_store *st;
	int64_t id;
	struct hset cur; /* the installed headers of the last step */
	bool have_cur;
	struct ud_apilog_result *r;
};

static const struct ud_api_header *
lookup_new(const char *path, void *ctx)
{
	return hset_get(ctx, path);
}

/*
 * Can a change of d make others through a type (what ud_api_diff_through
 * looks for)?  Only a change of a struct, union, enum or typedef that was
 * there before: without one it finds nothing, and no header needs parsing.
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

/* The rows from the last step's headers to tree t's, which become the last step's. */
static int
step_diff(struct build *b, git_tree *old_tree, git_tree *t, struct rows *rs, char **cause)
{
	struct ud_map olds = UD_MAP_INIT; /* changed path -> its old model (NULL: added) */
	struct ud_api_header **gone = NULL;
	struct {
		struct hent *e; /* its entry in the set (NULL: a new header) */
		const char *path;
		git_oid id;
		struct ud_api_header *nw; /* the new model (NULL: removed) */
		bool del;
	} * ch;
	struct ud_api_diff d;
	git_diff *diff = NULL;
	size_t ngone = 0, agone = 0, i, k, nd;

	if (git_diff_tree_to_tree(&diff, b->repo, old_tree, t, NULL) < 0) {
		*cause = ud_git_error("comparing two headers commits");
		return -EIO;
	}
	memset(&d, 0, sizeof(d));
	nd = git_diff_num_deltas(diff);
	ch = ud_xcalloc(nd + 1, sizeof(*ch));
	/* git's deltas come in path order, as ud_api_diff_header wants them */
	for (i = 0; i < nd; i++) {
		const git_diff_delta *dd = git_diff_get_delta(diff, i);
		bool del = dd->status == GIT_DELTA_DELETED, add = dd->status == GIT_DELTA_ADDED;
		const char *p = del ? dd->old_file.path : dd->new_file.path;
		struct ud_api_header *old;

		if (strncmp(p, "include/", 8) != 0 || strlen(p) < 11 ||
		    strcmp(p + strlen(p) - 2, ".h") != 0)
			continue;
		p += 8;
		old = add ? NULL : hset_get(&b->cur, p);
		ch[i].nw = del ? NULL : parse_blob(b->repo, &dd->new_file.id, p);
		ch[i].e = hset_entry(&b->cur, p);
		ch[i].path = p;
		ch[i].del = del;
		git_oid_cpy(&ch[i].id, &dd->new_file.id);
		ud_api_diff_header(old, ch[i].nw, &d);
		ud_map_put(&olds, p, old);
	}
	/*
	 * The set becomes the new version (the old models wait until the rows
	 * are made): entries changed or dropped first, then new ones (which
	 * may move the array).
	 */
	for (i = 0; i < nd; i++) {
		struct hent *e = ch[i].e;

		if (e == NULL)
			continue;
		gone = ud_xgrow(gone, &agone, ngone + 1, sizeof(*gone));
		gone[ngone++] = e->h;
		e->h = ch[i].nw;
		if (ch[i].del) {
			free(e->path);
			e->path = NULL; /* dropped below */
		} else {
			git_oid_cpy(&e->blob, &ch[i].id);
		}
	}
	for (i = 0; i < nd; i++)
		if (ch[i].e == NULL && ch[i].nw != NULL)
			hset_add(&b->cur, ch[i].path, &ch[i].id, ch[i].nw);
	for (i = k = 0; i < b->cur.n; i++)
		if (b->cur.v[i].path != NULL)
			b->cur.v[k++] = b->cur.v[i];
	b->cur.n = k;
	if (b->cur.n > 1)
		qsort(b->cur.v, b->cur.n, sizeof(*b->cur.v), by_path);
	ud_api_diff_moves(&d, lookup_new, &b->cur);
	/* users of a changed type anywhere, as api-diff looks for them */
	if (type_changed(&d)) {
		struct ud_api_header *flat = hset_flat(&b->cur);

		ud_api_diff_through(&d, flat, b->cur.n);
		free(flat);
	}
	diff_rows(rs, &d, &olds, &b->cur);
	ud_api_diff_free(&d);
	git_diff_free(diff);
	for (i = 0; i < ngone; i++)
		header_free(gone[i]);
	free(gone);
	free(ch);
	ud_map_free(&olds, NULL);
	return 0;
}

static int
write_rows(struct build *b, int64_t step, const struct rows *rs, char **cause)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < rs->n && rc == 0; i++) {
		const struct row *r = &rs->v[i];
		struct ud_apilog_row w;

		if (r->dropped)
			continue;
		memset(&w, 0, sizeof(w));
		w.step = step;
		w.name = r->name;
		w.member = r->member;
		w.symbol = r->symbol;
		w.kind = r->kind;
		w.header = r->header;
		w.line = r->line;
		w.moved_to = r->moved_to;
		w.moved_line = r->moved_line;
		w.what = r->what;
		w.verdict = r->verdict >= 0 ? ud_api_verdict_name((enum ud_api_verdict)r->verdict)
					    : NULL;
		w.change = r->change != NULL ? r->change : "";
		w.reason = r->reason;
		w.members = r->members;
		w.implied = r->implied;
		rc = ud_store_apilog_put_row(b->st, b->id, &w, cause);
		b->r->rows++;
	}
	return rc;
}

/* ---- the headers branch ---- */

/* A headers commit and its source. */
struct hcommit {
	git_oid id, source;
	bool has_source;
};

/* The Source-commit: trailer of a headers commit. */
static bool
source_of(const git_commit *c, git_oid *out)
{
	git_message_trailer_array tr;
	bool found = false;
	size_t i;

	if (git_message_trailers(&tr, git_commit_message(c)) < 0)
		return false;
	for (i = 0; i < tr.count && !found; i++)
		found = strcmp(tr.trailers[i].key, "Source-commit") == 0 &&
			git_oid_fromstrp(out, tr.trailers[i].value) == 0;
	git_message_trailer_array_free(&tr);
	return found;
}

/*
 * The headers commits from tip back to stop (exclusive; NULL: the root),
 * oldest first.  *reached: stop was met (false when the branch no longer
 * holds it: it was made anew).
 */
static int
headers_since(git_repository *repo, const git_oid *tip, const git_oid *stop, struct hcommit **out,
	      size_t *n, bool *reached, char **cause)
{
	size_t alloc = 0, i;
	git_oid at;

	*out = NULL;
	*n = 0;
	*reached = false;
	git_oid_cpy(&at, tip);
	for (;;) {
		git_commit *c;
		struct hcommit *h;

		if (stop != NULL && git_oid_equal(&at, stop)) {
			*reached = true;
			break;
		}
		if (git_commit_lookup(&c, repo, &at) < 0) {
			*cause = ud_git_error("the headers branch");
			return -EIO;
		}
		*out = ud_xgrow(*out, &alloc, *n + 1, sizeof(**out));
		h = &(*out)[(*n)++];
		git_oid_cpy(&h->id, &at);
		h->has_source = source_of(c, &h->source);
		if (git_commit_parentcount(c) == 0) {
			git_commit_free(c);
			break;
		}
		git_oid_cpy(&at, git_commit_parent_id(c, 0));
		git_commit_free(c);
	}
	for (i = 0; i < *n / 2; i++) {
		struct hcommit t = (*out)[i];

		(*out)[i] = (*out)[*n - 1 - i];
		(*out)[*n - 1 - i] = t;
	}
	return 0;
}

static int
tree_of(git_repository *repo, const git_oid *commit, git_tree **out, char **cause)
{
	git_commit *c;
	int rc;

	if (git_commit_lookup(&c, repo, commit) < 0) {
		*cause = ud_git_error("a headers commit");
		return -EIO;
	}
	rc = git_commit_tree(out, c);
	git_commit_free(c);
	if (rc < 0) {
		*cause = ud_git_error("a headers commit's tree");
		return -EIO;
	}
	return 0;
}

/* The steps of the headers commits hs whose sources are on the chain after the last step. */
static int
add_steps(struct build *b, const struct hcommit *hs, size_t n, const struct ud_apilog_opts *o,
	  char **cause)
{
	struct ud_apilog_step last;
	git_tree *base = NULL;
	bool have_last = ud_store_apilog_last_step(b->st, b->id, INT64_MAX, &last) == 1;
	int64_t step = have_last ? last.step : 0, after = have_last ? last.pos : -1;
	size_t i;
	int rc = 0;

	if (have_last) {
		git_oid id;

		if (git_oid_fromstr(&id, last.headers) < 0 ||
		    (rc = tree_of(b->repo, &id, &base, cause)) < 0)
			return rc < 0 ? rc : -EIO;
	}
	for (i = 0; i < n && rc == 0; i++) {
		struct ud_apilog_step s;
		struct rows rs = {NULL, 0, 0};
		git_commit *src = NULL;
		git_tree *t = NULL;
		char hex[HEX];
		int64_t pos;

		ud_progress_report(&o->progress, i, n);
		b->r->commits++;
		git_oid_tostr(hex, sizeof(hex), &hs[i].source);
		if (!hs[i].has_source || ud_store_apilog_pos(b->st, b->id, hex, &pos) != 1 ||
		    pos <= after)
			continue; /* a source rewritten away, or one this index has */
		if (git_commit_lookup(&src, b->repo, &hs[i].source) < 0) {
			*cause = ud_git_error("a source commit");
			rc = -EIO;
			break;
		}
		if ((rc = tree_of(b->repo, &hs[i].id, &t, cause)) < 0) {
			git_commit_free(src);
			break;
		}
		if (!b->have_cur && base != NULL) {
			hset_read(b->repo, base, &b->cur);
			b->have_cur = true;
		}
		if (base == NULL) {
			hset_read(b->repo, t, &b->cur);
			b->have_cur = true;
			present_rows(&rs, &b->cur);
		} else {
			rc = step_diff(b, base, t, &rs, cause);
		}
		memset(&s, 0, sizeof(s));
		s.step = ++step;
		s.pos = pos;
		snprintf(s.source, sizeof(s.source), "%s", hex);
		git_oid_tostr(s.headers, sizeof(s.headers), &hs[i].id);
		s.time = (int64_t)git_commit_time(src);
		s.tz = git_commit_time_offset(src);
		if (rc == 0)
			rc = ud_store_apilog_put_step(b->st, b->id, &s, cause);
		if (rc == 0)
			rc = write_rows(b, step, &rs, cause);
		rows_free(&rs);
		git_commit_free(src);
		git_tree_free(base);
		base = t;
		after = pos;
		b->r->steps++;
	}
	if (rc == 0)
		ud_progress_report(&o->progress, n, n);
	b->r->steps_total = (unsigned)step;
	git_tree_free(base);
	return rc;
}

static int
update(git_repository *repo, struct ud_store *st, const struct ud_apilog_opts *o,
       struct ud_apilog_result *r, const char *key, const git_oid *tip, char **cause)
{
	struct build b;
	struct ud_apilog_state s;
	struct hcommit *hs = NULL;
	size_t n = 0;
	bool reached;
	int rc, round;
	char tiphex[HEX];

	memset(&b, 0, sizeof(b));
	b.repo = repo;
	b.st = st;
	b.r = r;
	git_oid_tostr(tiphex, sizeof(tiphex), tip);
	if ((rc = ud_store_apilog_open(st, key, UD_APILOG_VERSION, &s, cause)) < 0)
		return rc;
	/* at most twice: once more after the index was made anew */
	for (round = 0; round < 2; round++) {
		git_oid stop, head;
		int64_t cut;

		b.id = s.id;
		if (s.headers != NULL && strcmp(s.headers, tiphex) == 0)
			break; /* nothing new */
		if ((rc = headers_since(repo, tip,
					s.headers != NULL && git_oid_fromstr(&stop, s.headers) == 0
						? &stop
						: NULL,
					&hs, &n, &reached, cause)) < 0)
			break;
		if ((s.headers != NULL && !reached) || n == 0 || !hs[n - 1].has_source) {
			if (s.headers == NULL && (n == 0 || !hs[n - 1].has_source)) {
				*cause = ud_xasprintf("the headers branch's tip %.12s has no "
						      "Source-commit: trailer: not made by uapid "
						      "branch?",
						      tiphex);
				rc = -EINVAL;
				break;
			}
			goto anew; /* the branch was made anew */
		}
		git_oid_cpy(&head, &hs[n - 1].source);
		if ((rc = ud_apilog_chain_update(repo, st, s.id, &head,
						 s.source == NULL ? &hs[0].source : NULL, &cut,
						 cause)) < 0)
			break;
		if (cut == -2)
			goto anew;
		if (cut >= 0) {
			/* history rewritten: the steps after the shared commit are gone */
			struct ud_apilog_step last;

			r->rewound = cut;
			free(s.headers);
			s.headers = ud_store_apilog_last_step(st, s.id, INT64_MAX, &last) == 1
					    ? ud_xstrdup(last.headers)
					    : NULL;
			free(hs);
			if ((rc = headers_since(
				     repo, tip,
				     s.headers != NULL && git_oid_fromstr(&stop, s.headers) == 0
					     ? &stop
					     : NULL,
				     &hs, &n, &reached, cause)) < 0)
				break;
		}
		if ((rc = add_steps(&b, hs, n, o, cause)) < 0)
			break;
		{
			char headhex[HEX];

			git_oid_tostr(headhex, sizeof(headhex), &head);
			rc = ud_store_apilog_set(st, s.id, tiphex, headhex, cause);
		}
		break;
	anew:
		r->rebuilt = true;
		free(hs);
		hs = NULL;
		if ((rc = ud_store_apilog_drop(st, s.id, cause)) < 0)
			break;
		ud_apilog_state_free(&s);
		if ((rc = ud_store_apilog_open(st, key, UD_APILOG_VERSION, &s, cause)) < 0)
			break;
	}
	free(hs);
	hset_free(&b.cur);
	ud_apilog_state_free(&s);
	return rc;
}

int
ud_apilog_update(git_repository *repo, struct ud_store *st, const struct ud_apilog_opts *o,
		 struct ud_apilog_result *r, char **cause)
{
	char *ref = ud_apilog_ref(o->headers), *key = ud_apilog_key(repo, ref);
	git_oid tip;
	int rc;

	memset(r, 0, sizeof(*r));
	r->rewound = -1;
	if (git_reference_name_to_id(&tip, repo, ref) < 0) {
		*cause = ud_xasprintf("%s: no such branch", ref);
		rc = -ENOENT;
	} else if ((rc = ud_store_begin(st, cause)) == 0) {
		rc = update(repo, st, o, r, key, &tip, cause);
		if (rc == 0)
			rc = ud_store_commit(st, cause);
		else
			ud_store_rollback(st);
	}
	free(ref);
	free(key);
	return rc;
}
