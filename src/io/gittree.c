// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git trees as a source and a sink (gittree.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/io/gittree.h"
#include "uapid/core/lex.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

char *
ud_git_error(const char *what)
{
	const git_error *e = git_error_last();

	return ud_xasprintf("%s: %s", what,
			    e != NULL && e->message != NULL ? e->message : "libgit2 error");
}

void
ud_git_init_caching_trees(void)
{
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)4 << 20);
}

/* ---- the source ---- */

struct gsrc {
	git_repository *repo;
	const git_tree *tree;
	/*
	 * Directory trees looked up so far, by path: a tree index walks every
	 * directory and stats every entry, and libgit2 neither caches large
	 * trees nor skips the hash check when it reads one again.
	 */
	struct ud_map dirs; /* rel -> git_tree * (owned) */
	pthread_mutex_t lock;
};

/* The tree of directory dir ("" the top), or NULL when dir is not one. */
static const git_tree *
tree_of(struct gsrc *g, const char *dir)
{
	const git_tree *parent;
	const git_tree_entry *e;
	git_tree *t = NULL;
	const char *slash;
	char *up;

	if (dir[0] == '\0')
		return g->tree;
	if ((t = ud_map_get(&g->dirs, dir)) != NULL)
		return t;
	slash = strrchr(dir, '/');
	up = slash != NULL ? ud_xstrndup(dir, (size_t)(slash - dir)) : ud_xstrdup("");
	parent = tree_of(g, up);
	free(up);
	if (parent == NULL)
		return NULL;
	e = git_tree_entry_byname(parent, slash != NULL ? slash + 1 : dir);
	if (e == NULL || git_tree_entry_type(e) != GIT_OBJECT_TREE ||
	    git_tree_lookup(&t, g->repo, git_tree_entry_id(e)) < 0)
		return NULL;
	ud_map_put(&g->dirs, dir, t);
	return t;
}

/* The entry at rel (a new reference in *e), or -ENOENT. */
static int
entry_at(struct gsrc *g, const char *rel, git_tree_entry **e)
{
	const char *slash = strrchr(rel, '/');
	char *dir = slash != NULL ? ud_xstrndup(rel, (size_t)(slash - rel)) : ud_xstrdup("");
	const git_tree *t = tree_of(g, dir);
	const git_tree_entry *found =
		t != NULL ? git_tree_entry_byname(t, slash != NULL ? slash + 1 : rel) : NULL;

	free(dir);
	if (found == NULL || git_tree_entry_dup(e, found) < 0)
		return -ENOENT;
	return 0;
}

static void
free_tree(void *t)
{
	git_tree_free(t);
}

static int
gsrc_stat(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause)
{
	struct gsrc *g = s->impl;
	git_tree_entry *e;
	int rc = 0;

	(void)cause;
	memset(st, 0, sizeof(*st));
	if (rel[0] == '\0') {
		st->type = UD_FT_DIR;
		return 0;
	}
	pthread_mutex_lock(&g->lock);
	if (entry_at(g, rel, &e) < 0) {
		st->type = UD_FT_NONE;
		rc = -ENOENT;
	} else {
		switch (git_tree_entry_filemode(e)) {
		case GIT_FILEMODE_TREE:
			st->type = UD_FT_DIR;
			break;
		case GIT_FILEMODE_BLOB:
		case GIT_FILEMODE_BLOB_EXECUTABLE:
			/* size stays 0: reading it costs an object header per file, and
			 * nothing that reads a git tree needs it */
			st->type = UD_FT_FILE;
			break;
		default:
			/* a symlink or a submodule: not followed, as a directory source does with
			 * links leading out */
			st->type = UD_FT_OTHER;
			st->symlink = git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
			st->other = st->symlink ? "a symlink" : "a submodule";
			break;
		}
		git_tree_entry_free(e);
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

static int
read_blob(git_repository *repo, const git_oid *id, const char *label, const char *rel,
	  struct ud_buf *out, char **cause)
{
	git_blob *b;
	size_t n;

	if (git_blob_lookup(&b, repo, id) < 0) {
		char *what = ud_xasprintf("%s:%s", label, rel);

		if (cause != NULL)
			*cause = ud_git_error(what);
		free(what);
		return -EIO;
	}
	n = (size_t)git_blob_rawsize(b);
	if (n > UD_LEX_MAX_SIZE) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s:%s: larger than %zu bytes", label, rel,
					      (size_t)UD_LEX_MAX_SIZE);
		git_blob_free(b);
		return -EFBIG;
	}
	ud_buf_reset(out);
	ud_buf_add(out, git_blob_rawcontent(b), n);
	git_blob_free(b);
	return 0;
}

static int
gsrc_read(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause)
{
	struct gsrc *g = s->impl;
	git_tree_entry *e;
	int rc;

	pthread_mutex_lock(&g->lock);
	if (entry_at(g, rel, &e) < 0) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s:%s: no such file", s->label, rel);
		rc = -ENOENT;
	} else if (git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
		   git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s:%s: not a regular file", s->label, rel);
		rc = -EISDIR;
		git_tree_entry_free(e);
	} else {
		rc = read_blob(g->repo, git_tree_entry_id(e), s->label, rel, out, cause);
		git_tree_entry_free(e);
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

static int
gsrc_list(struct ud_source *s, const char *rel, struct ud_strlist *names, char **cause)
{
	struct gsrc *g = s->impl;
	git_tree *t;
	int rc = 0;

	pthread_mutex_lock(&g->lock);
	t = (git_tree *)(uintptr_t)tree_of(g, rel);
	if (t == NULL) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s:%s: not a directory", s->label, rel);
		rc = -ENOTDIR;
	}
	if (t != NULL) {
		size_t i, n = git_tree_entrycount(t);

		for (i = 0; i < n; i++) {
			const git_tree_entry *c = git_tree_entry_byindex(t, i);
			git_filemode_t m = git_tree_entry_filemode(c);

			if (m == GIT_FILEMODE_TREE)
				ud_strlist_take(names, ud_xasprintf("%s/", git_tree_entry_name(c)));
			else if (m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE)
				ud_strlist_add(names, git_tree_entry_name(c));
		}
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

static void
gsrc_close(struct ud_source *s)
{
	struct gsrc *g = s->impl;

	ud_map_free(&g->dirs, free_tree);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

static const struct ud_source_ops gsrc_ops = {gsrc_stat, gsrc_read, gsrc_list, gsrc_close};

int
ud_gittree_source_open(struct ud_source *s, git_repository *repo, const git_tree *tree,
		       const char *label, char **cause)
{
	struct gsrc *g = ud_xcalloc(1, sizeof(*g));

	(void)cause;
	g->repo = repo;
	g->tree = tree;
	pthread_mutex_init(&g->lock, NULL);
	s->ops = &gsrc_ops;
	s->label = ud_xstrdup(label);
	s->impl = g;
	return 0;
}

/* ---- the sink ---- */

struct change {
	bool remove;
	git_oid id;
};

struct gsink {
	git_repository *repo;
	const git_tree *base;
	struct ud_map changes; /* path -> struct change */
};

static bool
in_base(struct gsink *g, const char *rel)
{
	git_tree_entry *e;

	if (g->base == NULL || git_tree_entry_bypath(&e, g->base, rel) < 0)
		return false;
	git_tree_entry_free(e);
	return true;
}

static int
gsink_write(struct ud_sink *s, const char *rel, const void *data, size_t len, char **cause)
{
	struct gsink *g = s->impl;
	struct change *c = ud_xcalloc(1, sizeof(*c));

	if (git_blob_create_from_buffer(&c->id, g->repo, data, len) < 0) {
		char *what = ud_xasprintf("%s:%s", s->label, rel);

		if (cause != NULL)
			*cause = ud_git_error(what);
		free(what);
		free(c);
		return -EIO;
	}
	free(ud_map_put(&g->changes, rel, c));
	return 0;
}

static int
gsink_remove(struct ud_sink *s, const char *rel, char **cause)
{
	struct gsink *g = s->impl;
	struct change *c;

	(void)cause;
	if (!in_base(g, rel)) {
		free(ud_map_del(&g->changes, rel)); /* written in this run only */
		return 0;
	}
	c = ud_xcalloc(1, sizeof(*c));
	c->remove = true;
	free(ud_map_put(&g->changes, rel, c));
	return 0;
}

static int
gsink_read(struct ud_sink *s, const char *rel, struct ud_buf *out, char **cause)
{
	struct gsink *g = s->impl;
	struct change *c = ud_map_get(&g->changes, rel);
	git_tree_entry *e;
	int rc;

	if (c != NULL)
		return c->remove ? 1 : read_blob(g->repo, &c->id, s->label, rel, out, cause);
	if (g->base == NULL || git_tree_entry_bypath(&e, g->base, rel) < 0)
		return 1;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		git_tree_entry_free(e);
		return 1;
	}
	rc = read_blob(g->repo, git_tree_entry_id(e), s->label, rel, out, cause);
	git_tree_entry_free(e);
	return rc;
}

static void
gsink_close(struct ud_sink *s)
{
	struct gsink *g = s->impl;

	ud_map_free(&g->changes, free);
	free(g);
}

static const struct ud_sink_ops gsink_ops = {gsink_write, gsink_remove, gsink_read, gsink_close};

int
ud_gittree_sink_open(struct ud_sink *s, git_repository *repo, const git_tree *baseline,
		     const char *label, char **cause)
{
	struct gsink *g = ud_xcalloc(1, sizeof(*g));

	(void)cause;
	g->repo = repo;
	g->base = baseline;
	memset(s, 0, sizeof(*s));
	s->ops = &gsink_ops;
	s->label = ud_xstrdup(label);
	s->impl = g;
	return 0;
}

void
ud_gittree_sink_put_blob(struct ud_sink *s, const char *rel, const git_oid *blob)
{
	struct gsink *g = s->impl;
	struct change *c = ud_xcalloc(1, sizeof(*c));

	git_oid_cpy(&c->id, blob);
	free(ud_map_put(&g->changes, rel, c));
}

size_t
ud_gittree_sink_changes(const struct ud_sink *s)
{
	const struct gsink *g = s->impl;

	return g->changes.n;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const git_tree_update *)a)->path, ((const git_tree_update *)b)->path);
}

int
ud_gittree_sink_write_tree(struct ud_sink *s, git_oid *out, char **cause)
{
	struct gsink *g = s->impl;
	git_tree_update *u = ud_xcalloc(g->changes.n + 1, sizeof(*u));
	git_treebuilder *empty = NULL;
	git_tree *base = (git_tree *)(uintptr_t)g->base, *owned = NULL;
	const char *key;
	void *value;
	size_t i = 0, n = 0;
	int rc = 0;

	while (ud_map_next(&g->changes, &i, &key, &value)) {
		const struct change *c = value;

		u[n].action = c->remove ? GIT_TREE_UPDATE_REMOVE : GIT_TREE_UPDATE_UPSERT;
		u[n].id = c->id;
		u[n].filemode = GIT_FILEMODE_BLOB;
		u[n].path = key;
		n++;
	}
	/* a fixed order: the same changes make the same tree, whatever the map did */
	if (n > 1)
		qsort(u, n, sizeof(*u), by_path);
	if (base == NULL) {
		git_oid eid;

		if (git_treebuilder_new(&empty, g->repo, NULL) < 0 ||
		    git_treebuilder_write(&eid, empty) < 0 ||
		    git_tree_lookup(&owned, g->repo, &eid) < 0)
			rc = -EIO;
		git_treebuilder_free(empty);
		base = owned;
	}
	if (rc == 0 && git_tree_create_updated(out, g->repo, base, n, u) < 0)
		rc = -EIO;
	if (rc < 0 && cause != NULL)
		*cause = ud_git_error(s->label);
	git_tree_free(owned);
	free(u);
	return rc;
}

/* ---- what changed between two trees ---- */

static bool
is_regular(const git_tree_entry *e)
{
	git_filemode_t m = git_tree_entry_filemode(e);

	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE;
}

static int changed_below(git_repository *repo, const git_tree *a, const git_tree *b,
			 const char *prefix, struct ud_strlist *modified, struct ud_strlist *other,
			 char **cause);

/* A directory on one side only: it and everything below it. */
static int
changed_one_side(git_repository *repo, const git_tree_entry *e, bool in_a, char *path,
		 struct ud_strlist *modified, struct ud_strlist *other, char **cause)
{
	git_tree *t;
	int rc;

	if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
		ud_strlist_take(other, path);
		return 0;
	}
	if (git_tree_lookup(&t, repo, git_tree_entry_id(e)) < 0) {
		if (cause != NULL)
			*cause = ud_git_error(path);
		free(path);
		return -EIO;
	}
	/* the list owns path now; the string stays where it is */
	ud_strlist_take(other, path);
	rc = changed_below(repo, in_a ? t : NULL, in_a ? NULL : t, path, modified, other, cause);
	git_tree_free(t);
	return rc;
}

/* The same name on both sides, differing (both directories, or neither): path is taken. */
static int
changed_pair(git_repository *repo, const git_tree_entry *ea, const git_tree_entry *eb, char *path,
	     struct ud_strlist *modified, struct ud_strlist *other, char **cause)
{
	git_tree *ta = NULL, *tb = NULL;
	int rc = 0;

	if (git_tree_entry_type(ea) != GIT_OBJECT_TREE) {
		ud_strlist_take(is_regular(ea) && is_regular(eb) ? modified : other, path);
		return 0;
	}
	if (git_tree_lookup(&ta, repo, git_tree_entry_id(ea)) < 0 ||
	    git_tree_lookup(&tb, repo, git_tree_entry_id(eb)) < 0) {
		if (cause != NULL)
			*cause = ud_git_error(path);
		rc = -EIO;
	} else {
		rc = changed_below(repo, ta, tb, path, modified, other, cause);
	}
	git_tree_free(ta);
	git_tree_free(tb);
	free(path);
	return rc;
}

/* The changes below two directories (prefix their path, "" the top), merged in tree order. */
static int
changed_below(git_repository *repo, const git_tree *a, const git_tree *b, const char *prefix,
	      struct ud_strlist *modified, struct ud_strlist *other, char **cause)
{
	size_t i = 0, j = 0, na = a != NULL ? git_tree_entrycount(a) : 0,
	       nb = b != NULL ? git_tree_entrycount(b) : 0;
	int rc = 0;

	while (rc == 0 && (i < na || j < nb)) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		/* trees sort as "name/": a file and a directory of one name are two entries */
		int c = ea == NULL ? 1 : eb == NULL ? -1 : git_tree_entry_cmp(ea, eb);
		const git_tree_entry *e = c <= 0 ? ea : eb;
		char *path;

		i += c <= 0;
		j += c >= 0;
		/* most entries are the same: no path made for them */
		if (c == 0 && git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
		    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb))
			continue;
		path = prefix[0] != '\0' ? ud_xasprintf("%s/%s", prefix, git_tree_entry_name(e))
					 : ud_xstrdup(git_tree_entry_name(e));
		if (c == 0)
			rc = changed_pair(repo, ea, eb, path, modified, other, cause);
		else
			rc = changed_one_side(repo, e, c < 0, path, modified, other, cause);
	}
	return rc;
}

int
ud_gittree_changed_paths(git_repository *repo, const git_tree *a, const git_tree *b,
			 struct ud_strlist *modified, struct ud_strlist *other, char **cause)
{
	if (a != NULL && b != NULL && git_oid_equal(git_tree_id(a), git_tree_id(b)))
		return 0;
	return changed_below(repo, a, b, "", modified, other, cause);
}
