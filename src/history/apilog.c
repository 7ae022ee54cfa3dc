// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The api-log index's writer (apilog.h): the headers branch read commit by
 * commit into per-symbol changes.
 *
 * The installed headers of the last step are kept parsed in memory while
 * the index grows, so each step parses only the headers its commit
 * changed, and compares them as api-diff compares two versions
 * (ud_api_diff_changed): each changed header, symbols that moved to a
 * header the old one includes, and the users of a changed type in every
 * header.  Only the visibility of types through
 * #includes (ud_api_diff_includes) is left out: it is a fact about the
 * including header, not about the symbol.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apilog-int.h"
#include "uapid/api/api.h"
#include "uapid/history/apilog.h"
#include "uapid/io/gittree.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

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
 * Every header of the step, for the users of a changed type (asked for
 * only when a type changed: the rest are parsed then, not before).
 */
static struct ud_api_header *
all_new(size_t *n, void *ctx)
{
	const struct hset *s = ctx;

	*n = s->n;
	return hset_flat(s);
}

/* The headers a step compares: the old versions of those it changed, and the new set. */
struct versions {
	const struct ud_map *olds; /* changed path -> its old model (NULL: added) */
	const struct hset *now;
};

static const struct ud_api_header *
version_of(const char *path, bool old, void *ctx)
{
	const struct versions *v = ctx;

	if (old && ud_map_has(v->olds, path))
		return ud_map_get(v->olds, path);
	return hset_get(v->now, path); /* unchanged: both versions are the same */
}

/* The rows from the last step's headers to tree t's, which become the last step's. */
static int
step_diff(struct build *b, git_tree *old_tree, git_tree *t, struct ud_apilog_rows *rs, char **cause)
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
	struct ud_api_pair *changed;
	const struct ud_api_lookup now = {lookup_new, all_new, &b->cur};
	struct ud_api_diff d;
	git_diff *diff = NULL;
	size_t ngone = 0, agone = 0, nchanged = 0, i, k, nd;

	if (git_diff_tree_to_tree(&diff, b->repo, old_tree, t, NULL) < 0) {
		*cause = ud_git_error("comparing two headers commits");
		return -EIO;
	}
	memset(&d, 0, sizeof(d));
	nd = git_diff_num_deltas(diff);
	ch = ud_xcalloc(nd + 1, sizeof(*ch));
	changed = ud_xcalloc(nd + 1, sizeof(*changed));
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
		changed[nchanged].old = old;
		changed[nchanged++].new_ = ch[i].nw;
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
	/* users of a changed type anywhere, as api-diff looks for them */
	ud_api_diff_changed(changed, nchanged, &now, &d);
	{
		struct versions v = {&olds, &b->cur};

		ud_apilog_diff_rows(rs, &d, version_of, &v);
	}
	ud_api_diff_free(&d);
	git_diff_free(diff);
	for (i = 0; i < ngone; i++)
		header_free(gone[i]);
	free(gone);
	free(ch);
	free(changed);
	ud_map_free(&olds, NULL);
	return 0;
}

static int
write_rows(struct build *b, int64_t step, const struct ud_apilog_rows *rs, char **cause)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < rs->n && rc == 0; i++) {
		const struct ud_apilog_draft *r = &rs->v[i];
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
		struct ud_apilog_rows rs = {NULL, 0, 0};
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
			size_t k;

			hset_read(b->repo, t, &b->cur);
			b->have_cur = true;
			for (k = 0; k < b->cur.n; k++)
				ud_apilog_present_rows(&rs, hset_get(&b->cur, b->cur.v[k].path));
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
		ud_apilog_rows_free(&rs);
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
