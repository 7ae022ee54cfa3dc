// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The api-log index's reader (apilog.h): one symbol's history, from a few
 * indexed reads, with each change attributed to the earliest release that
 * contains it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apilog-int.h"
#include "uapid/history/apilog.h"
#include "uapid/api/apisym.h"
#include "uapid/util/buf.h"
#include "uapid/io/gittree.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

/* A row of the index, copied out of the store. */
struct lrow {
	struct ud_apilog_step s;
	char *name, *member, *symbol, *kind, *header, *moved_to, *what, *verdict, *change, *reason,
		*members;
	unsigned line, moved_line;
	bool implied;
	size_t seq; /* the order it was read in: ties of a step keep it */
};

struct lrows {
	struct lrow *v;
	size_t n, alloc;
};

static char *
dup_or_null(const char *s)
{
	return s != NULL ? ud_xstrdup(s) : NULL;
}

static int
take_row(const struct ud_apilog_row *r, const struct ud_apilog_step *s, void *ctx)
{
	struct lrows *rs = ctx;
	struct lrow *l;

	rs->v = ud_xgrow(rs->v, &rs->alloc, rs->n + 1, sizeof(*rs->v));
	l = &rs->v[rs->n];
	l->seq = rs->n++;
	l->s = *s;
	l->name = ud_xstrdup(r->name);
	l->member = ud_xstrdup(r->member);
	l->symbol = ud_xstrdup(r->symbol);
	l->kind = ud_xstrdup(r->kind);
	l->header = ud_xstrdup(r->header);
	l->moved_to = dup_or_null(r->moved_to);
	l->what = ud_xstrdup(r->what);
	l->verdict = dup_or_null(r->verdict);
	l->change = ud_xstrdup(r->change);
	l->reason = ud_xstrdup(r->reason);
	l->members = dup_or_null(r->members);
	l->line = r->line;
	l->moved_line = r->moved_line;
	l->implied = r->implied;
	return 0;
}

static void
lrows_free(struct lrows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		struct lrow *l = &rs->v[i];

		free(l->name);
		free(l->member);
		free(l->symbol);
		free(l->kind);
		free(l->header);
		free(l->moved_to);
		free(l->what);
		free(l->verdict);
		free(l->change);
		free(l->reason);
		free(l->members);
	}
	free(rs->v);
}

/* In step order; in a step, a header's own row first, then as read. */
static int
by_step(const void *a, const void *b)
{
	const struct lrow *x = a, *y = b;
	bool hx = x->name[0] == '\0', hy = y->name[0] == '\0';

	if (x->s.step != y->s.step)
		return x->s.step < y->s.step ? -1 : 1;
	if (hx != hy)
		return hx ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One line of the history: a row as the question sees it. */
struct event {
	const struct lrow *r;
	const char *what;   /* present, added, removed, changed, moved */
	char *change;	    /* NULL: the row's */
	const char *header; /* where */
	const char *symbol; /* as shown: NULL for the row's */
	unsigned line;
	bool lifecycle; /* it appears or goes (else it changes) */
};

struct events {
	struct event *v;
	size_t n, alloc;
};

static struct event *
event_add(struct events *es, const struct lrow *r, const char *what, bool lifecycle)
{
	struct event *e;

	es->v = ud_xgrow(es->v, &es->alloc, es->n + 1, sizeof(*es->v));
	e = &es->v[es->n++];
	memset(e, 0, sizeof(*e));
	e->r = r;
	e->what = what;
	e->header = r->header;
	e->line = r->line;
	e->lifecycle = lifecycle;
	return e;
}

static bool
is(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* The history of a symbol: its own rows. */
static void
name_events(const struct lrows *rs, struct events *es)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct lrow *r = &rs->v[i];

		if (r->member[0] != '\0' || r->name[0] == '\0')
			continue;
		event_add(es, r, r->what, !is(r->what, "changed") && !is(r->what, "moved"));
	}
}

static bool
word_in(const char *list, const char *word)
{
	return list != NULL && ud_apisym_mentions(list, word);
}

/* The history of one member: its record's rows, read for that member. */
static void
member_events(const struct lrows *rs, const char *member, const char *asked, struct events *es)
{
	struct ud_map live = UD_MAP_INIT; /* symbol -> (void *)1 while the record has it */
	char *added = ud_xasprintf("member %s added", member),
	     *removed = ud_xasprintf("member %s removed", member);
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct lrow *r = &rs->v[i];
		bool was = ud_map_get(&live, r->symbol) != NULL;

		if (r->name[0] == '\0')
			continue;
		if (r->member[0] == '\0') {
			if (is(r->what, "present") || is(r->what, "added")) {
				bool has = word_in(r->members, member);

				if (has && !was)
					event_add(es, r, r->what, true);
				ud_map_put(&live, r->symbol, has ? (void *)1 : NULL);
			} else if (is(r->what, "removed") && was) {
				event_add(es, r, "removed", true);
				ud_map_put(&live, r->symbol, NULL);
			} else if (is(r->what, "moved") && was) {
				event_add(es, r, "moved", false);
			}
			continue;
		}
		if (!is(r->member, member))
			continue;
		if (strncmp(r->change, added, strlen(added)) == 0) {
			event_add(es, r, "added", true);
			ud_map_put(&live, r->symbol, (void *)1);
		} else if (is(r->change, removed)) {
			event_add(es, r, "removed", true);
			ud_map_put(&live, r->symbol, NULL);
		} else {
			event_add(es, r, "changed", false);
		}
	}
	for (i = 0; i < es->n; i++)
		es->v[i].symbol = asked;
	free(added);
	free(removed);
	ud_map_free(&live, NULL);
}

/* The history of a header: itself, and each of its symbols' own changes. */
static void
header_events(const struct lrows *rs, const char *header, struct events *es)
{
	int64_t arrived = -1; /* the step the header appeared at */
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct lrow *r = &rs->v[i];
		struct event *e;

		if (r->implied || r->member[0] != '\0')
			continue;
		if (r->name[0] == '\0') {
			if (is(r->header, header) &&
			    (is(r->what, "added") || is(r->what, "present")))
				arrived = r->s.step;
			event_add(es, r, r->what, !is(r->what, "changed"));
			continue;
		}
		if (r->s.step == arrived)
			continue; /* its symbols came with it: its own row says so */
		if (r->moved_to != NULL && is(r->moved_to, header) && !is(r->header, header)) {
			/* it came here */
			e = event_add(es, r, "moved", false);
			e->header = r->moved_to;
			e->line = r->moved_line;
			e->change = ud_xasprintf("moved from %s", r->header);
			continue;
		}
		event_add(es, r, r->what, false);
	}
}

/* ---- releases ---- */

/* The earliest release (in version order) that holds place pos, or NULL. */
static const char *
release_of(const struct ud_apilog_tag *tags, size_t n, int64_t pos)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tags[i].pos >= pos)
			return tags[i].name;
	return NULL;
}

static char *
date_of(const struct ud_apilog_step *s)
{
	time_t t = (time_t)(s->time + (int64_t)s->tz * 60);
	struct tm tm;
	char buf[32];

	if (gmtime_r(&t, &tm) == NULL)
		return ud_xstrdup("?");
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	return ud_xstrdup(buf);
}

/* ---- the summary ---- */

struct clause_release {
	const char *release;
	int verdict;
};

struct summary {
	struct ud_buf text;
	/* the "changed in" clause being gathered */
	struct clause_release *changes;
	size_t nchanges, alloc;
};

static int
verdict_rank(const char *v)
{
	return v == NULL ? -1 : is(v, "breaking") ? 2 : is(v, "review") ? 1 : 0;
}

/*
 * "; " then "WHAT in RELEASE" ("WHAT (RELEASE)" when paren), or "WHAT, not
 * yet released" when no release holds it yet ("WHAT" alone when paren).
 */
static void
clause(struct summary *s, const char *what, const char *release, bool paren)
{
	if (s->text.len > 0)
		ud_buf_addstr(&s->text, "; ");
	if (release == NULL)
		ud_buf_addf(&s->text, paren ? "%s" : "%s, not yet released", what);
	else
		ud_buf_addf(&s->text, paren ? "%s (%s)" : "%s in %s", what, release);
}

static void
flush_changes(struct summary *s)
{
	size_t i;

	if (s->nchanges == 0)
		return;
	if (s->text.len > 0)
		ud_buf_addstr(&s->text, "; ");
	ud_buf_addstr(&s->text, "changed in ");
	for (i = 0; i < s->nchanges; i++)
		ud_buf_addf(&s->text, "%s%s%s", i > 0 ? ", " : "",
			    s->changes[i].release != NULL ? s->changes[i].release : "unreleased",
			    s->changes[i].verdict == 2	 ? " (breaking)"
			    : s->changes[i].verdict == 1 ? " (review)"
							 : "");
	s->nchanges = 0;
}

static void
note_change(struct summary *s, const char *release, const char *verdict)
{
	struct clause_release *c = s->nchanges > 0 ? &s->changes[s->nchanges - 1] : NULL;
	int v = verdict_rank(verdict);

	if (c != NULL && ((c->release == NULL && release == NULL) ||
			  (c->release != NULL && release != NULL && is(c->release, release)))) {
		if (v > c->verdict)
			c->verdict = v;
		return;
	}
	s->changes = ud_xgrow(s->changes, &s->alloc, s->nchanges + 1, sizeof(*s->changes));
	s->changes[s->nchanges].release = release;
	s->changes[s->nchanges].verdict = v;
	s->nchanges++;
}

/* ---- the answer ---- */

static json_t *
event_json(const struct event *e, const char *release)
{
	const struct lrow *r = e->r;
	char *date = date_of(&r->s);
	json_t *j = json_pack("{s:s?, s:s, s:s, s:s, s:s, s:i, s:s, s:s}", "release", release,
			      "date", date, "commit", r->s.source, "headers_commit", r->s.headers,
			      "header", e->header, "line", (int)e->line, "symbol",
			      e->symbol != NULL	   ? e->symbol
			      : r->name[0] != '\0' ? r->symbol
						   : e->header,
			      "kind", r->kind);

	free(date);
	if (r->member[0] != '\0')
		json_object_set_new(j, "member", json_string(r->member));
	json_object_set_new(j, "what", json_string(e->what));
	json_object_set_new(j, "verdict",
			    r->verdict != NULL && !is(e->what, "present") ? json_string(r->verdict)
									  : json_null());
	json_object_set_new(j, "change", json_string(e->change != NULL ? e->change : r->change));
	json_object_set_new(j, "reason", json_string(r->reason));
	if (is(e->what, "moved") && r->moved_to != NULL)
		json_object_set_new(j, "moved",
				    json_pack("{s:s, s:i, s:s, s:i}", "from", r->header,
					      "from_line", (int)r->line, "to", r->moved_to,
					      "to_line", (int)r->moved_line));
	return j;
}

static json_t *
answer(const char *symbol, const struct events *es, const struct ud_apilog_tag *tags, size_t ntags,
       int64_t since, int64_t until, const char *since_rev)
{
	struct summary s = {UD_BUF_INIT, NULL, 0, 0};
	json_t *history = json_array(), *first = json_null(), *last = json_null(), *r;
	int live = 0;
	bool existed = false, appeared_before = false, started = false;
	size_t i;

	for (i = 0; i < es->n; i++) {
		const struct event *e = &es->v[i];
		int64_t pos = e->r->s.pos;
		const char *rel;
		json_t *j;

		if (pos > until)
			break;
		if (pos <= since) {
			/* before the range: only whether it is there when the range starts */
			if (e->lifecycle)
				live += is(e->what, "removed") ? (live > 0 ? -1 : 0) : 1;
			appeared_before |= e->lifecycle && !is(e->what, "removed");
			continue;
		}
		if (!started) {
			started = true;
			if (live > 0 && since_rev != NULL) {
				ud_buf_addf(&s.text, "%spresent at %s", s.text.len > 0 ? "; " : "",
					    since_rev);
				existed = true;
			}
		}
		rel = release_of(tags, ntags, pos);
		j = event_json(e, rel);
		json_array_append(history, j);
		/*
		 * A symbol with several instances (headers, conditions) appears
		 * when the first comes and goes when the last goes; the others
		 * coming and going change it.
		 */
		if (e->lifecycle && is(e->what, "removed") && live > 1) {
			live--;
			note_change(&s, rel, e->r->verdict);
		} else if (e->lifecycle && is(e->what, "removed")) {
			flush_changes(&s);
			live = 0;
			clause(&s, "removed", rel, false);
		} else if (e->lifecycle && live > 0) {
			live++;
			if (!is(e->what, "present"))
				note_change(&s, rel, e->r->verdict);
		} else if (e->lifecycle) {
			flush_changes(&s);
			live = 1;
			existed = true;
			if (is(e->what, "present"))
				clause(&s, "present from the start of the history", rel, true);
			else if (appeared_before)
				clause(&s, "added again", rel, false);
			else
				clause(&s, "first", rel, false);
			appeared_before = true;
			if (json_is_null(first)) {
				json_decref(first);
				first = json_incref(j);
			}
		} else {
			note_change(&s, rel, e->r->verdict);
			json_decref(last);
			last = json_incref(j);
		}
		json_decref(j);
	}
	flush_changes(&s);
	if (!started && live > 0 && since_rev != NULL) {
		ud_buf_addf(&s.text, "%spresent at %s", s.text.len > 0 ? "; " : "", since_rev);
		existed = true;
	}
	if (s.text.len == 0)
		ud_buf_addstr(&s.text, "not in the userspace API in this range");
	r = json_pack("{s:s, s:b, s:o, s:s, s:o, s:o}", "symbol", symbol, "found", existed,
		      "history", history, "summary", ud_buf_str(&s.text), "first", first,
		      "last_change", last);
	ud_buf_free(&s.text);
	free(s.changes);
	return r;
}

/* The commit rev names, placed on the chain. */
static int
place_rev(git_repository *repo, struct ud_store *st, int64_t id, const char *what, const char *rev,
	  int64_t *pos, char **cause)
{
	git_object *obj = NULL, *c = NULL;

	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(&c, obj, GIT_OBJECT_COMMIT) < 0) {
		char *w = ud_xasprintf("%s %s", what, rev);

		*cause = ud_git_error(w);
		free(w);
		git_object_free(obj);
		return -EINVAL;
	}
	*pos = ud_apilog_place(repo, st, id, git_object_id(c));
	git_object_free(c);
	git_object_free(obj);
	return 0;
}

int
ud_apilog_lookup(git_repository *repo, struct ud_store *st, const struct ud_apilog_query *q,
		 const char *symbol, json_t **out, char **cause)
{
	struct ud_apisym_query sq;
	struct ud_apilog_state s;
	struct ud_apilog_tag *tags = NULL;
	struct lrows rows = {NULL, 0, 0};
	struct events es = {NULL, 0, 0};
	char *ref = ud_apilog_ref(q->headers), *key = ud_apilog_key(repo, ref);
	int64_t since = -1, until = INT64_MAX;
	size_t ntags = 0, fresh = 0, i;
	int rc;

	*out = NULL;
	memset(&s, 0, sizeof(s));
	if ((rc = ud_apisym_parse(symbol, &sq, cause)) < 0)
		goto out_free;
	if (ud_store_apilog_find(st, key, UD_APILOG_VERSION, &s) != 1) {
		*cause = ud_xasprintf("%s: no api-log index yet (uapid api-log makes it)", ref);
		rc = -ENOENT;
		goto out;
	}
	if ((q->since != NULL &&
	     (rc = place_rev(repo, st, s.id, "--since", q->since, &since, cause)) < 0) ||
	    (q->until != NULL &&
	     (rc = place_rev(repo, st, s.id, "--until", q->until, &until, cause)) < 0))
		goto out;
	if ((rc = ud_apilog_tags(repo, st, s.id, q->tags != NULL ? q->tags : "v*", &tags, &ntags,
				 &fresh, cause)) < 0)
		goto out;
	if (sq.form == UD_APISYM_HEADER) {
		rc = ud_store_apilog_each_row(st, s.id, NULL, sq.header, take_row, &rows, cause);
	} else {
		for (i = 0, rc = 0; i < sq.names.n && rc == 0; i++)
			rc = ud_store_apilog_each_row(st, s.id, sq.names.v[i], NULL, take_row,
						      &rows, cause);
	}
	if (rc < 0)
		goto out;
	if (rows.n > 1)
		qsort(rows.v, rows.n, sizeof(*rows.v), by_step);
	if (sq.form == UD_APISYM_HEADER)
		header_events(&rows, sq.header, &es);
	else if (sq.form == UD_APISYM_MEMBER)
		member_events(&rows, sq.member, symbol, &es);
	else
		name_events(&rows, &es);
	*out = answer(symbol, &es, tags, ntags, since, until, q->since);
out:
	for (i = 0; i < es.n; i++)
		free(es.v[i].change);
	free(es.v);
	lrows_free(&rows);
	ud_apilog_tags_free(tags, ntags);
	ud_apilog_state_free(&s);
	ud_apisym_query_free(&sq);
out_free:
	free(ref);
	free(key);
	return rc;
}

json_t *
ud_apilog_about(git_repository *repo, struct ud_store *st, const char *headers)
{
	struct ud_apilog_state s;
	struct ud_apilog_step last;
	char *ref = ud_apilog_ref(headers), *key = ud_apilog_key(repo, ref), *first = NULL;
	json_t *j = NULL;

	if (ud_store_apilog_find(st, key, UD_APILOG_VERSION, &s) == 1) {
		json_t *start = json_null();
		int64_t steps =
			ud_store_apilog_last_step(st, s.id, INT64_MAX, &last) == 1 ? last.step : 0;

		if (ud_store_apilog_end_pos(st, s.id, false, &first) >= 0) {
			git_oid id;
			git_commit *c;

			if (git_oid_fromstr(&id, first) == 0 &&
			    git_commit_lookup(&c, repo, &id) == 0) {
				struct ud_apilog_step at;
				char *date;

				memset(&at, 0, sizeof(at));
				at.time = (int64_t)git_commit_time(c);
				at.tz = git_commit_time_offset(c);
				date = date_of(&at);
				start = json_pack("{s:s, s:s}", "commit", first, "date", date);
				free(date);
				git_commit_free(c);
			}
		}
		j = json_pack("{s:s, s:s?, s:s?, s:o, s:I}", "headers_branch", ref,
			      "headers_commit", s.headers, "source", s.source, "start", start,
			      "steps", (json_int_t)steps);
	}
	ud_apilog_state_free(&s);
	free(first);
	free(ref);
	free(key);
	return j;
}
