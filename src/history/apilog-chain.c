// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The api-log's chain and tags (apilog-int.h): where the source's commits
 * and the release tags stand on the first-parent history the index
 * follows.
 *
 * A commit's place is its number of first-parent steps from the oldest
 * commit of the chain; a chain commit contains exactly the chain commits
 * at or before its place, so "which steps does this tag hold" and "which
 * steps are after --since" are comparisons of places.  A commit off the
 * chain (a tag of a stable branch) holds what its merge base with the
 * chain holds.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "apilog-int.h"
#include "uapid/history/apilog.h"
#include "uapid/io/gittree.h"
#include "uapid/util/map.h"
#include "uapid/api/version.h"
#include "uapid/util/xmalloc.h"

#define HEX (GIT_OID_HEXSZ + 1)
/*
 * How far below the chain's oldest commit (in committer time) a walk
 * looks before it gives up: a commit older than that cannot hold a commit
 * of the chain, whatever small clock skew the history has.
 */
#define SKEW_SECONDS (7 * 24 * 3600)

char *
ud_apilog_ref(const char *headers)
{
	return strncmp(headers, "refs/", 5) == 0 ? ud_xstrdup(headers)
						 : ud_xasprintf("refs/heads/%s", headers);
}

char *
ud_apilog_key(git_repository *repo, const char *ref)
{
	return ud_xasprintf("%s %s", git_repository_path(repo), ref);
}

static int64_t
commit_time(git_repository *repo, const git_oid *id)
{
	git_commit *c;
	int64_t t;

	if (git_commit_lookup(&c, repo, id) < 0)
		return INT64_MIN;
	t = (int64_t)git_commit_time(c);
	git_commit_free(c);
	return t;
}

static bool
placed(struct ud_store *st, int64_t id, const git_oid *c, int64_t *pos)
{
	char hex[HEX];

	git_oid_tostr(hex, sizeof(hex), c);
	return ud_store_apilog_pos(st, id, hex, pos) == 1;
}

int
ud_apilog_chain_update(git_repository *repo, struct ud_store *st, int64_t id, const git_oid *head,
		       const git_oid *anchor, int64_t *cut, char **cause)
{
	char *tip = NULL, *first = NULL;
	int64_t last = ud_store_apilog_end_pos(st, id, true, &tip), hit = -1, floor = INT64_MIN;
	git_oid *walked = NULL, at;
	size_t n = 0, alloc = 0, i;
	git_commit *c = NULL;
	int rc = 0;

	*cut = -1;
	if (tip != NULL) {
		git_oid tip_id;
		bool same = git_oid_fromstr(&tip_id, tip) == 0 && git_oid_equal(&tip_id, head);

		free(tip);
		if (same)
			return 0;
	}
	/* how old a commit may be before the walk gives up */
	if (last >= 0 && ud_store_apilog_end_pos(st, id, false, &first) >= 0) {
		git_oid f;

		if (git_oid_fromstr(&f, first) == 0 && commit_time(repo, &f) != INT64_MIN)
			floor = commit_time(repo, &f) - SKEW_SECONDS;
		free(first);
	} else if (anchor != NULL && commit_time(repo, anchor) != INT64_MIN) {
		floor = commit_time(repo, anchor) - SKEW_SECONDS;
	}
	git_oid_cpy(&at, head);
	for (;;) {
		git_commit *p;

		if (last >= 0 && placed(st, id, &at, &hit))
			break;
		if (git_commit_lookup(&c, repo, &at) < 0) {
			*cause = ud_git_error("the source history");
			rc = -EIO;
			goto out;
		}
		if ((int64_t)git_commit_time(c) < floor)
			break;
		walked = ud_xgrow(walked, &alloc, n + 1, sizeof(*walked));
		git_oid_cpy(&walked[n++], &at);
		if (last < 0 && anchor != NULL && git_oid_equal(&at, anchor))
			break;
		if (git_commit_parentcount(c) == 0 || git_commit_parent(&p, c, 0) < 0)
			break;
		git_oid_cpy(&at, git_commit_id(p));
		git_commit_free(p);
		git_commit_free(c);
		c = NULL;
	}
	if (last >= 0 && hit < 0) {
		*cut = -2; /* nothing in common: the caller starts anew */
		goto out;
	}
	if (last >= 0) {
		/* places after the shared commit change; tags at it may hold more now */
		if ((rc = ud_store_apilog_cut(st, id, hit, cause)) < 0)
			goto out;
		if (hit < last)
			*cut = hit;
	}
	for (i = 0; i < n && rc == 0; i++) {
		char hex[HEX];

		git_oid_tostr(hex, sizeof(hex), &walked[n - 1 - i]);
		rc = ud_store_apilog_put_pos(st, id, hex, hit + 1 + (int64_t)i, cause);
	}
out:
	git_commit_free(c);
	free(walked);
	return rc;
}

int64_t
ud_apilog_place(git_repository *repo, struct ud_store *st, int64_t id, const git_oid *commit)
{
	char *first = NULL, *last = NULL;
	int64_t pos = -1, oldest;
	git_oid f, t, mb, at;

	if (placed(st, id, commit, &pos))
		return pos;
	pos = -1;
	if (ud_store_apilog_end_pos(st, id, false, &first) < 0 ||
	    ud_store_apilog_end_pos(st, id, true, &last) < 0 || git_oid_fromstr(&f, first) < 0 ||
	    git_oid_fromstr(&t, last) < 0)
		goto out;
	oldest = commit_time(repo, &f);
	/* older than the chain's first commit: it holds none of it */
	if (commit_time(repo, commit) < oldest)
		goto out;
	/*
	 * libgit2 1.5's merge base leaks 64 bytes each time its walk meets a
	 * shallow clone's boundary (a parent that is not there).  In a shallow
	 * clone the walk starts at commit itself: its first parents meet the
	 * same chain commit whenever commit is in the chain end's history (as
	 * the tags placed are).
	 */
	if (git_repository_is_shallow(repo) == 1)
		git_oid_cpy(&mb, commit);
	else if (git_merge_base(&mb, repo, commit, &t) < 0)
		goto out;
	/* the merge base, or the chain commit its first parents meet */
	git_oid_cpy(&at, &mb);
	for (;;) {
		git_commit *c, *p;
		bool more;

		if (placed(st, id, &at, &pos))
			break;
		pos = -1;
		if (git_commit_lookup(&c, repo, &at) < 0)
			break;
		more = (int64_t)git_commit_time(c) >= oldest - SKEW_SECONDS &&
		       git_commit_parentcount(c) > 0 && git_commit_parent(&p, c, 0) == 0;
		git_commit_free(c);
		if (!more)
			break;
		git_oid_cpy(&at, git_commit_id(p));
		git_commit_free(p);
	}
out:
	free(first);
	free(last);
	return pos;
}

/* ---- tags ---- */

struct cached {
	git_oid target;
	int64_t pos;
};

static int
load_cached(const char *name, const char *target, int64_t pos, void *ctx)
{
	struct cached *c = ud_xmalloc(sizeof(*c));

	if (git_oid_fromstr(&c->target, target) < 0) {
		free(c);
		return 0;
	}
	c->pos = pos;
	ud_map_put(ctx, name, c);
	return 0;
}

static int
by_version(const void *a, const void *b)
{
	const struct ud_apilog_tag *x = a, *y = b;

	return ud_version_cmp(x->name, y->name);
}

int
ud_apilog_tags(git_repository *repo, struct ud_store *st, int64_t id, const char *glob,
	       struct ud_apilog_tag **out, size_t *n, size_t *fresh, char **cause)
{
	struct ud_map cache = UD_MAP_INIT;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = *fresh = 0;
	if ((rc = ud_store_apilog_each_tag(st, id, load_cached, &cache, cause)) < 0)
		goto out;
	if (git_reference_iterator_new(&it, repo) < 0) {
		*cause = ud_git_error("the tags");
		rc = -EIO;
		goto out;
	}
	while (git_reference_next(&ref, it) == 0) {
		const char *name = git_reference_name(ref);
		git_object *obj = NULL;
		struct cached *c;
		struct ud_apilog_tag *t;

		if (strncmp(name, "refs/tags/", 10) != 0 || fnmatch(glob, name + 10, 0) != 0 ||
		    git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) < 0) {
			git_reference_free(ref);
			continue; /* another ref, or a tag of a blob or tree */
		}
		*out = ud_xgrow(*out, &alloc, *n + 1, sizeof(**out));
		t = &(*out)[(*n)++];
		t->name = ud_xstrdup(name + 10);
		git_oid_cpy(&t->target, git_object_id(obj));
		c = ud_map_get(&cache, t->name);
		if (c != NULL && git_oid_equal(&c->target, &t->target)) {
			t->pos = c->pos;
		} else {
			t->pos = ud_apilog_place(repo, st, id, &t->target);
			(*fresh)++;
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), by_version);
	rc = 0;
out:
	git_reference_iterator_free(it);
	ud_map_free(&cache, free);
	return rc;
}

void
ud_apilog_tags_free(struct ud_apilog_tag *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

struct gone {
	const char *glob;
	struct ud_map *now;
	struct ud_strlist names;
};

static int
collect_gone(const char *name, const char *target, int64_t pos, void *ctx)
{
	struct gone *g = ctx;

	(void)target;
	(void)pos;
	if (fnmatch(g->glob, name, 0) == 0 && !ud_map_has(g->now, name))
		ud_strlist_add(&g->names, name);
	return 0;
}

/*
 * The tags matching glob as ud_apilog_tags gives them, and the names the
 * store keeps for glob that no longer exist (into gone).
 */
static int
tags_state(git_repository *repo, struct ud_store *st, int64_t id, const char *glob,
	   struct ud_apilog_tag **v, size_t *n, size_t *fresh, struct ud_strlist *gone,
	   char **cause)
{
	struct ud_map now = UD_MAP_INIT;
	struct gone g = {glob, &now, UD_STRLIST_INIT};
	size_t i;
	int rc;

	if ((rc = ud_apilog_tags(repo, st, id, glob, v, n, fresh, cause)) < 0)
		return rc;
	for (i = 0; i < *n; i++)
		ud_map_put(&now, (*v)[i].name, &(*v)[i]);
	rc = ud_store_apilog_each_tag(st, id, collect_gone, &g, cause);
	ud_map_free(&now, NULL);
	*gone = g.names;
	return rc < 0 ? rc : 0;
}

int
ud_apilog_update_tags(git_repository *repo, struct ud_store *st, const char *headers,
		      const char *glob, char **cause)
{
	struct ud_apilog_state s;
	struct ud_apilog_tag *v = NULL;
	struct ud_strlist gone = UD_STRLIST_INIT;
	char *ref = ud_apilog_ref(headers), *key = ud_apilog_key(repo, ref);
	size_t n = 0, fresh = 0, i;
	int rc;

	free(ref);
	if (ud_store_apilog_find(st, key, UD_APILOG_VERSION, &s) != 1) {
		free(key);
		return 0; /* no index: nothing to place them on */
	}
	free(key);
	if ((rc = tags_state(repo, st, s.id, glob, &v, &n, &fresh, &gone, cause)) < 0 ||
	    (fresh == 0 && gone.n == 0))
		goto out;
	if ((rc = ud_store_begin(st, cause)) < 0)
		goto out;
	for (i = 0; i < n && rc == 0; i++) {
		char hex[HEX];

		git_oid_tostr(hex, sizeof(hex), &v[i].target);
		rc = ud_store_apilog_put_tag(st, s.id, v[i].name, hex, v[i].pos, cause);
	}
	for (i = 0; i < gone.n && rc == 0; i++)
		rc = ud_store_apilog_del_tag(st, s.id, gone.v[i], cause);
	if (rc == 0)
		rc = ud_store_commit(st, cause);
	else
		ud_store_rollback(st);
out:
	ud_strlist_free(&gone);
	ud_apilog_tags_free(v, n);
	ud_apilog_state_free(&s);
	return rc;
}

bool
ud_apilog_current(git_repository *repo, struct ud_store *st, const char *headers, const char *glob)
{
	struct ud_apilog_state s;
	struct ud_apilog_tag *v = NULL;
	struct ud_strlist gone = UD_STRLIST_INIT;
	char *ref = ud_apilog_ref(headers), *key = ud_apilog_key(repo, ref), *cause = NULL;
	size_t n = 0, fresh = 0;
	bool current = false;
	git_oid tip;
	char hex[HEX];

	if (git_reference_name_to_id(&tip, repo, ref) == 0 &&
	    ud_store_apilog_find(st, key, UD_APILOG_VERSION, &s) == 1) {
		git_oid_tostr(hex, sizeof(hex), &tip);
		current = s.headers != NULL && strcmp(s.headers, hex) == 0 &&
			  tags_state(repo, st, s.id, glob, &v, &n, &fresh, &gone, &cause) == 0 &&
			  fresh == 0 && gone.n == 0;
		ud_apilog_state_free(&s);
	}
	free(cause);
	ud_strlist_free(&gone);
	ud_apilog_tags_free(v, n);
	free(ref);
	free(key);
	return current;
}
