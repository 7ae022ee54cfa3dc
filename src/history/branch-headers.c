// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The branch writer's headers branch (branch.h): one commit of installed
 * headers for each source commit whose install differs, installed in
 * full or incrementally from the previous commit's changes.
 */
#include "branch-int.h"

/* Does tree (or NULL) hold blob id at rel, as a sink puts it (a regular file)? */
static bool
same_blob_at(const git_tree *tree, const char *rel, const git_oid *id)
{
	git_tree_entry *e;
	bool same;

	if (tree == NULL || git_tree_entry_bypath(&e, tree, rel) < 0)
		return false;
	same = git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB &&
	       git_oid_equal(git_tree_entry_id(e), id);
	git_tree_entry_free(e);
	return same;
}

/* ---- the headers branch ---- */

/*
 * The last tree installed in full or from its changes, while the next
 * commit of the chain can start from it: its install is the headers
 * branch's tip.
 */
struct inc_state {
	bool valid;
	git_tree *src;		 /* the source tree */
	struct ud_hdr_plan plan; /* its plan */
	char *rules;		 /* its rules key */
	struct ud_map reads;	 /* the files the plan read (path -> 1) */
	struct ud_map looks;	 /* the paths it stat'd or listed (path -> 1) */
};

/*
 * Parsed installed headers by "blob-id path", kept from one commit's
 * trailer to the next: a commit's old versions are mostly the last one's
 * new versions, parsed already.
 */
struct api_cache {
	struct ud_map last; /* the last trailer's new versions: struct ud_api_header * (owned) */
	struct ud_map cur;  /* this trailer's, the next one's last */
};

struct install_run {
	const char *ref; /* the headers branch (refs/heads/...): its history is its own */
	git_repository *repo;
	struct ud_store *st;
	const struct ud_branch_opts *o;
	struct ud_branch_result *r;
	struct inc_state inc;
	/*
	 * The paths that differ from inc.src to the tree install_tree_changed
	 * gave up on (path -> 1), for install_tree to reuse what they leave
	 * alone; changed_valid says they are there.
	 */
	struct ud_map changed;
	bool changed_valid;
	const git_tree *changed_of; /* the tree they lead to */
	struct api_cache api;
};

/* The rules that decide an installed text besides its source: for the cache key. */
static char *
rules_key(const git_tree *t, const struct ud_hdr_plan *plan)
{
	git_oid id;
	char sh[HEX] = "-", pl[HEX] = "-", uf[HEX + 1] = "";

	if (ud_branch_blob_at(t, "scripts/headers_install.sh", &id))
		git_oid_tostr(sh, sizeof(sh), &id);
	if (ud_branch_blob_at(t, "scripts/headers_install.pl", &id))
		git_oid_tostr(pl, sizeof(pl), &id);
	/* before the split the tree's own unifdef decides the bytes too */
	if (plan->style == UD_INSTALL_PL26) {
		uf[0] = '/';
		uf[1] = '-';
		uf[2] = '\0';
		if (ud_branch_blob_at(t, "scripts/unifdef.c", &id))
			git_oid_tostr(uf + 1, sizeof(uf) - 1, &id);
	}
	return ud_xasprintf("%d/%d/%s/%s/%s%s", UD_INSTALL_VERSION, (int)plan->style, plan->arch,
			    sh, pl, uf);
}

/* Collects the blob paths of a tree (a walk callback). */
static int
collect_blob(const char *root, const git_tree_entry *e, void *payload)
{
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
		ud_strlist_take(payload, ud_xasprintf("%s%s", root, git_tree_entry_name(e)));
	return 0;
}

/*
 * The installed blob of plan file f of tree t (read through src): from the
 * cache, or installed and stored.  Returns 0 with *id, -EINVAL with *cause
 * when the header cannot be installed, another negative errno.
 */
static int
install_one(struct install_run *ir, const struct ud_hdr_plan *plan, const char *rules,
	    const struct ud_hdr_file *f, const git_tree *t, struct ud_source *src,
	    const char *label, git_oid *id, char **cause)
{
	char hex[HEX] = "", *key = NULL, *v = NULL;
	int rc = 0;

	if (f->generated) {
		if (git_odb_hash(id, f->gen.data ? f->gen.data : "", f->gen.len, GIT_OBJECT_BLOB) ==
		    0)
			git_oid_tostr(hex, sizeof(hex), id);
	} else if (ud_branch_blob_at(t, f->src, id)) {
		git_oid_tostr(hex, sizeof(hex), id);
	}
	if (hex[0] != '\0') {
		key = ud_xasprintf("%s %s %s", hex, rules, f->dst);
		v = ud_store_cache_get(ir->st, "install", key);
	}
	if (v != NULL && git_oid_fromstr(id, v) == 0) {
		ir->r->cache_hits++;
	} else {
		struct ud_installed in;

		ir->r->cache_misses++;
		ud_headers_install_file(plan, f, src, &in);
		if (!in.ok) {
			*cause = ud_xasprintf("%s: %s cannot be installed: %s", label, f->dst,
					      in.diags.n > 0 ? in.diags.v[0].message
							     : "unknown reason");
			rc = -EINVAL;
		} else if (git_blob_create_from_buffer(id, ir->repo,
						       in.text.data ? in.text.data : "",
						       in.text.len) < 0) {
			rc = ud_branch_git_fail(cause, f->dst);
		} else if (key != NULL) {
			char idhex[HEX];

			git_oid_tostr(idhex, sizeof(idhex), id);
			rc = ud_store_cache_put(ir->st, "install", key, idhex, cause);
		}
		ud_installed_free(&in);
	}
	free(v);
	free(key);
	return rc;
}

static void
inc_reset(struct inc_state *inc)
{
	git_tree_free(inc->src);
	inc->src = NULL;
	ud_headers_plan_free(&inc->plan);
	memset(&inc->plan, 0, sizeof(inc->plan));
	free(inc->rules);
	inc->rules = NULL;
	ud_map_free(&inc->reads, NULL);
	ud_map_free(&inc->looks, NULL);
	inc->valid = false;
}

/* What the next commit's install starts from: t, its plan (taken), rules (taken), what it read. */
static void
inc_keep(struct inc_state *inc, git_tree *t, struct ud_hdr_plan *plan, char **rules,
	 const struct ud_strlist *reads, const struct ud_strlist *looks)
{
	size_t i;

	inc_reset(inc);
	git_object_dup((git_object **)&inc->src, (git_object *)t);
	inc->plan = *plan;
	memset(plan, 0, sizeof(*plan));
	inc->rules = *rules;
	*rules = NULL;
	for (i = 0; i < reads->n; i++)
		ud_map_put(&inc->reads, reads->v[i], (void *)1);
	for (i = 0; i < looks->n; i++)
		ud_map_put(&inc->looks, looks->v[i], (void *)1);
	inc->valid = true;
}

static void
changed_drop(struct install_run *ir)
{
	ud_map_free(&ir->changed, NULL);
	ir->changed_valid = false;
	ir->changed_of = NULL;
}

/*
 * Is plan file f's install the one base holds already?  prev is the last
 * install (valid: base is its tree), ir->changed what differs from its
 * source tree to this one.  When f installs the same unchanged source to
 * the same name under the same rules as prev did, its install is the
 * blob install_one would find in the cache (it put it there, or found it),
 * and base has it.  A plan that names a file twice is left to install_one.
 */
static bool
reuses(const struct install_run *ir, const struct inc_state *prev, const struct ud_hdr_plan *plan,
       const char *rules, const struct ud_hdr_file *f)
{
	uintptr_t k;
	const struct ud_hdr_file *pf;

	if (!prev->valid || f->generated || f->problems.n > 0 || strcmp(prev->rules, rules) != 0 ||
	    plan->by_dst.n != plan->n || prev->plan.by_dst.n != prev->plan.n ||
	    ud_map_has(&ir->changed, f->src))
		return false;
	k = (uintptr_t)ud_map_get(&prev->plan.by_dst, f->dst);
	if (k == 0)
		return false;
	pf = &prev->plan.v[k - 1];
	return !pf->generated && pf->problems.n == 0 && strcmp(pf->src, f->src) == 0;
}

/*
 * The installed headers of tree t, as a tree (include/...) built on base
 * (the previous installed tree, or NULL), in *out: the whole install, its
 * plan computed anew.  The plan, what it read and t are kept for the next
 * commit's install_tree_changed.
 */
static int
install_tree(struct install_run *ir, git_tree *t, const char *label, git_tree *base, git_oid *out,
	     char **cause)
{
	struct ud_source src, rec;
	struct ud_sink sink;
	struct ud_hdr_plan plan;
	struct ud_map planned = UD_MAP_INIT;
	struct ud_strlist old = UD_STRLIST_INIT, reads = UD_STRLIST_INIT, looks = UD_STRLIST_INIT;
	struct inc_state prev = ir->inc; /* the last install, to reuse what t leaves alone */
	char *rules = NULL;
	size_t i;
	int rc;

	memset(&ir->inc, 0, sizeof(ir->inc));
	if (!ir->changed_valid || ir->changed_of != t || base == NULL)
		inc_reset(&prev);
	memset(&plan, 0, sizeof(plan));
	ud_gittree_source_open(&src, ir->repo, t, label, NULL);
	/*
	 * What the plan reads decides when the next commit needs a new one.
	 * No tree index: the plan lists the uapi directories itself, as
	 * `uapid install` has it, instead of an index of every include
	 * directory of every architecture built for each commit.
	 */
	ud_source_open_recorder_split(&rec, &src, &reads, &looks);
	rc = ud_headers_plan(&rec, NULL, ir->o->arch, &plan, cause);
	ud_source_close(&rec);
	if (rc < 0)
		goto out;
	rules = rules_key(t, &plan);
	ud_gittree_sink_open(&sink, ir->repo, base, label, NULL);
	for (i = 0; i < plan.n && rc == 0; i++) {
		const struct ud_hdr_file *f = &plan.v[i];
		char *dst = ud_xasprintf("include/%s", f->dst);
		git_oid id;

		if (reuses(ir, &prev, &plan, rules, f)) {
			/* base holds its install already: the same as a cache hit, no change */
			ir->r->cache_hits++;
			ud_map_put(&planned, dst, (void *)1);
			free(dst);
			continue;
		}
		rc = install_one(ir, &plan, rules, f, t, &src, label, &id, cause);
		if (rc == 0) {
			/* what base has already is no change: the tree is the same without it */
			if (!same_blob_at(base, dst, &id))
				ud_gittree_sink_put_blob(&sink, dst, &id);
			ud_map_put(&planned, dst, (void *)1);
		}
		free(dst);
	}
	/* what the last installed tree had and this one does not */
	if (rc == 0 && base != NULL) {
		git_tree_walk(base, GIT_TREEWALK_PRE, collect_blob, &old);
		for (i = 0; i < old.n; i++)
			if (!ud_map_has(&planned, old.v[i]))
				ud_sink_remove(&sink, old.v[i], NULL);
	}
	if (rc == 0)
		rc = ud_branch_sink_finish(&sink, out, cause);
	else
		ud_sink_close(&sink);
	if (rc == 0)
		inc_keep(&ir->inc, t, &plan, &rules, &reads, &looks);
out:
	inc_reset(&prev);
	changed_drop(ir);
	free(rules);
	ud_strlist_free(&old);
	ud_strlist_free(&reads);
	ud_strlist_free(&looks);
	ud_map_free(&planned, NULL);
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	return rc;
}

/* Is path dir or below it? */
static bool
is_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * Could a change at path (modified: a regular file's contents, else a name
 * that came, went or changed kind) give the tree another plan or other
 * install rules?  A file the plan read; a path it stat'd or listed, or a
 * name in a directory it listed; besides, to be safe, a name in the
 * directories the plan takes sources from (the 4.x-on install's uapi
 * directories; for the older ones any include directory); the scripts,
 * whose blob ids are in the rules key.
 */
static bool
changes_plan(const struct inc_state *inc, const char *path, bool modified)
{
	char *dir;
	bool hit;

	if (ud_map_has(&inc->reads, path) || strncmp(path, "scripts/", 8) == 0)
		return true;
	if (modified)
		return false;
	if (ud_map_has(&inc->looks, path))
		return true;
	if (inc->plan.style != UD_INSTALL_SH) {
		hit = ud_tindex_scope(path) != UD_TINDEX_OUTSIDE;
	} else {
		char *archdir = ud_xasprintf("arch/%s/include/uapi", inc->plan.srcarch);

		hit = is_below(path, "include/uapi") || is_below(path, archdir);
		free(archdir);
	}
	if (hit)
		return true;
	dir = ud_path_dir(path);
	hit = ud_map_has(&inc->looks, dir);
	free(dir);
	return hit;
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * install_tree for a tree t whose installed headers differ from those of
 * the last tree installed (inc->src, whose install base is) only where its
 * changed paths are planned sources: the plan kept, those headers alone
 * installed (in plan order, as install_tree meets them), base with them
 * replaced in *out.  1 when a change may give t another plan: install_tree
 * must do it.
 */
static int
install_tree_changed(struct install_run *ir, git_tree *t, const char *label, git_tree *base,
		     git_oid *out, char **cause)
{
	struct inc_state *inc = &ir->inc;
	struct ud_strlist modified = UD_STRLIST_INIT, other = UD_STRLIST_INIT;
	struct ud_source src;
	struct ud_sink sink;
	size_t *todo = NULL, ntodo = 0, i;
	int rc;

	changed_drop(ir);
	if (!inc->valid || base == NULL)
		return 1;
	/* a tree that cannot be read this way is the whole install's to report */
	if (ud_gittree_changed_paths(ir->repo, inc->src, t, &modified, &other, NULL) < 0) {
		ud_strlist_free(&modified);
		ud_strlist_free(&other);
		return 1;
	}
	/* for install_tree, should a change give t another plan */
	for (i = 0; i < modified.n + other.n; i++)
		ud_map_put(&ir->changed, i < modified.n ? modified.v[i] : other.v[i - modified.n],
			   (void *)1);
	ir->changed_valid = true;
	ir->changed_of = t;
	rc = 0;
	for (i = 0; rc == 0 && i < modified.n + other.n; i++) {
		bool mod = i < modified.n;
		const char *p = mod ? modified.v[i] : other.v[i - modified.n];
		const struct ud_hdr_file *f;

		if (changes_plan(inc, p, mod)) {
			rc = 1;
		} else if ((f = ud_headers_plan_source(&inc->plan, p)) != NULL) {
			todo = ud_xrealloc(todo, (ntodo + 1) * sizeof(*todo));
			todo[ntodo++] = (size_t)(f - inc->plan.v);
		}
	}
	ud_strlist_free(&modified);
	ud_strlist_free(&other);
	if (rc != 0) {
		free(todo);
		return rc;
	}
	changed_drop(ir);
	if (ntodo > 1)
		qsort(todo, ntodo, sizeof(*todo), cmp_size);
	ud_gittree_source_open(&src, ir->repo, t, label, NULL);
	ud_gittree_sink_open(&sink, ir->repo, base, label, NULL);
	for (i = 0; i < ntodo && rc == 0; i++) {
		const struct ud_hdr_file *f = &inc->plan.v[todo[i]];
		char *dst = ud_xasprintf("include/%s", f->dst);
		git_oid id;

		rc = install_one(ir, &inc->plan, inc->rules, f, t, &src, label, &id, cause);
		if (rc == 0)
			ud_gittree_sink_put_blob(&sink, dst, &id);
		free(dst);
	}
	if (rc == 0)
		rc = ud_branch_sink_finish(&sink, out, cause);
	else
		ud_sink_close(&sink);
	ud_source_close(&src);
	free(todo);
	if (rc == 0) {
		git_tree_free(inc->src);
		git_object_dup((git_object **)&inc->src, (git_object *)t);
	} else {
		inc_reset(inc);
	}
	return rc;
}

/* The new tree's headers, parsed when the diff's move check asks for them. */
struct api_lookup {
	git_repository *repo;
	git_tree *tree;
	struct ud_map parsed; /* installed name -> struct ud_api_header * (NULL: none) */
};

static const struct ud_api_header *
api_lookup_header(const char *path, void *ctx)
{
	struct api_lookup *l = ctx;
	struct ud_api_header *h;
	char *rel;
	git_oid id;
	git_blob *b;

	if (ud_map_has(&l->parsed, path))
		return ud_map_get(&l->parsed, path);
	rel = ud_xasprintf("include/%s", path);
	h = NULL;
	if (ud_branch_blob_at(l->tree, rel, &id) && git_blob_lookup(&b, l->repo, &id) == 0) {
		h = ud_xcalloc(1, sizeof(*h));
		ud_api_parse(path, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), h);
		git_blob_free(b);
	}
	free(rel);
	ud_map_put(&l->parsed, path, h);
	return h;
}

static void
free_api_header(void *h)
{
	if (h != NULL)
		ud_api_header_free(h);
	free(h);
}

static void
parse_blob(git_repository *repo, const git_oid *id, const char *path, struct ud_api_header *h)
{
	git_blob *b;

	if (git_blob_lookup(&b, repo, id) < 0) {
		ud_api_parse(path, "", 0, h);
		return;
	}
	ud_api_parse(path, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), h);
	git_blob_free(b);
}

/* A file that differs between two installed trees: its path and ids (zero: not there). */
struct tree_change {
	char *path;
	git_oid old, new_;
	bool has_old, has_new;
};

static int
by_change_path(const void *a, const void *b)
{
	return strcmp(((const struct tree_change *)a)->path, ((const struct tree_change *)b)->path);
}

/*
 * The files that differ from tree a to tree b, in path order (as
 * git_diff_tree_to_tree gives them: a file's deletion and a directory's
 * addition of its name are the file and the directory's files), into *out
 * and *count; -1 when a tree cannot be read.  ud_gittree_changed_paths does
 * the walk: only the subtrees that differ are read.
 */
static int
tree_changes(git_repository *repo, git_tree *a, git_tree *b, struct tree_change **out,
	     size_t *count)
{
	struct ud_strlist modified = UD_STRLIST_INIT, other = UD_STRLIST_INIT;
	struct tree_change *v;
	size_t i, n = 0;

	*out = NULL;
	*count = 0;
	if (ud_gittree_changed_paths(repo, a, b, &modified, &other, NULL) < 0) {
		ud_strlist_free(&modified);
		ud_strlist_free(&other);
		return -1;
	}
	v = ud_xcalloc(modified.n + other.n + 1, sizeof(*v));
	for (i = 0; i < modified.n + other.n; i++) {
		struct tree_change *c = &v[n];
		const char *p = i < modified.n ? modified.v[i] : other.v[i - modified.n];

		c->has_old = ud_branch_blob_at(a, p, &c->old);
		c->has_new = ud_branch_blob_at(b, p, &c->new_);
		if (!c->has_old && !c->has_new)
			continue; /* a directory */
		c->path = ud_xstrdup(p);
		n++;
	}
	qsort(v, n, sizeof(*v), by_change_path);
	/* a name that is a file on one side and a directory on the other is met twice */
	for (i = 1; i < n; i++) {
		if (strcmp(v[i].path, v[i - 1].path) == 0) {
			free(v[i].path);
			memmove(&v[i], &v[i + 1], (n - i - 1) * sizeof(*v));
			n--;
			i--;
		}
	}
	ud_strlist_free(&modified);
	ud_strlist_free(&other);
	*out = v;
	*count = n;
	return 0;
}

static void
api_cache_free(struct api_cache *c)
{
	ud_map_free(&c->last, free_api_header);
	ud_map_free(&c->cur, free_api_header);
}

/* The parsed blob id at path: from the last trailer's, or parsed into a new one, kept in keep. */
static struct ud_api_header *
api_cached(git_repository *repo, struct ud_map *from, struct ud_map *keep, const git_oid *id,
	   const char *path)
{
	char hex[HEX], *key;
	struct ud_api_header *h;

	git_oid_tostr(hex, sizeof(hex), id);
	key = ud_xasprintf("%s %s", hex, path);
	h = from != NULL ? ud_map_get(from, key) : NULL;
	if (h == NULL) {
		h = ud_xcalloc(1, sizeof(*h));
		parse_blob(repo, id, path, h);
		free_api_header(ud_map_put(keep, key, h));
	}
	free(key);
	return h;
}

/*
 * The "API-change:" trailer of a headers commit: the verdicts of the
 * symbol-level changes from base to the new installed tree (api.h); NULL
 * for the first commit.
 */
static char *
api_trailer(git_repository *repo, struct api_cache *c, git_tree *base, const git_oid *new_id)
{
	struct api_lookup l = {repo, NULL, UD_MAP_INIT};
	const struct ud_api_lookup nl = {api_lookup_header, NULL, &l};
	struct ud_api_diff d;
	struct ud_map olds = UD_MAP_INIT; /* old versions not in c->last */
	struct ud_api_pair *changed = NULL;
	struct tree_change *tc = NULL;
	char *t = NULL;
	size_t i, n, k = 0;

	if (base == NULL || git_tree_lookup(&l.tree, repo, new_id) < 0)
		return NULL;
	if (tree_changes(repo, base, l.tree, &tc, &n) < 0) {
		git_tree_free(l.tree);
		return NULL;
	}
	memset(&d, 0, sizeof(d));
	changed = ud_xcalloc(n + 1, sizeof(*changed));
	for (i = 0; i < n; i++) {
		const char *p = tc[i].path;

		if (strncmp(p, "include/", 8) != 0)
			continue;
		p += 8;
		if (tc[i].has_old)
			changed[k].old = api_cached(repo, &c->last, &olds, &tc[i].old, p);
		if (tc[i].has_new)
			changed[k].new_ = api_cached(repo, NULL, &c->cur, &tc[i].new_, p);
		k++;
	}
	ud_api_diff_changed(changed, k, &nl, &d);
	t = ud_xasprintf("API-change: %u breaking, %u review, %u compatible",
			 d.verdicts[UD_API_BREAKING], d.verdicts[UD_API_REVIEW],
			 d.verdicts[UD_API_COMPATIBLE]);
	ud_api_diff_free(&d);
	/* this trailer's new versions are the next one's old ones */
	ud_map_free(&c->last, free_api_header);
	c->last = c->cur;
	memset(&c->cur, 0, sizeof(c->cur));
	ud_map_free(&olds, free_api_header);
	for (i = 0; i < n; i++)
		free(tc[i].path);
	free(tc);
	free(changed);
	ud_map_free(&l.parsed, free_api_header);
	git_tree_free(l.tree);
	return t;
}

/* The first line of a commit message. */
static char *
subject_of(const git_commit *c)
{
	const char *s = git_commit_summary((git_commit *)(uintptr_t)c);

	return ud_xstrdup(s != NULL ? s : "(no subject)");
}

/*
 * The source commits the headers branch has not seen, oldest first: the
 * first-parent chain back to one it has seen (in the cache), to --since
 * (exclusive), or, the first time without --since, the head alone (the
 * whole chain with whole_history).
 */
static int
pending_commits(struct install_run *ir, git_commit *head, git_oid **out, size_t *n, char **cause)
{
	git_oid since;
	bool have_since = false, found = false;
	git_commit *c = head, *p;
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	if (ir->o->since != NULL) {
		git_object *obj;

		git_object *sc;

		if (git_revparse_single(&obj, ir->repo, ir->o->since) < 0)
			return ud_branch_git_fail(cause, ir->o->since);
		/* an annotated tag names its commit */
		if (git_object_peel(&sc, obj, GIT_OBJECT_COMMIT) < 0) {
			git_object_free(obj);
			*cause = ud_xasprintf("--since %s: not a commit", ir->o->since);
			return -EINVAL;
		}
		git_oid_cpy(&since, git_object_id(sc));
		git_object_free(sc);
		git_object_free(obj);
		have_since = true;
	}
	git_commit_dup(&c, head);
	for (;;) {
		char hex[HEX], *key, *v;

		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		/*
		 * What the cache says was seen counts only while the branch is
		 * there: deleted, it is made again (as the foreign-move message
		 * tells the user to do), not left at "nothing to do".
		 */
		key = ud_xasprintf("%s %s %s", ir->ref, hex, ir->o->arch);
		v = ir->r->headers[0] != '\0' ? ud_store_cache_get(ir->st, "headers-tip", key)
					      : NULL;
		free(key);
		if (v != NULL) {
			free(v);
			found = true;
			break;
		}
		if (have_since && git_oid_equal(git_commit_id(c), &since))
			break;
		*out = ud_xgrow(*out, &alloc, *n + 1, sizeof(**out));
		git_oid_cpy(&(*out)[(*n)++], git_commit_id(c));
		if (!have_since && *n == 1 && ir->r->headers[0] == '\0' && !ir->o->whole_history)
			break; /* the first time: the head alone */
		if (git_commit_parentcount(c) == 0 || git_commit_parent(&p, c, 0) < 0)
			break;
		git_commit_free(c);
		c = p;
	}
	git_commit_free(c);
	if (!found && !have_since && *n > 1 && !ir->o->whole_history) {
		/* no seen commit on the chain (history rewritten past it): the head alone */
		git_oid_cpy(&(*out)[0], git_commit_id(head));
		*n = 1;
		return 0;
	}
	/* oldest first */
	for (size_t i = 0; i < *n / 2; i++) {
		git_oid t = (*out)[i];

		(*out)[i] = (*out)[*n - 1 - i];
		(*out)[*n - 1 - i] = t;
	}
	return 0;
}

/*
 * An adopted headers branch: records, for each of its commits (first
 * parents, while they are uapid's for this use), that its Source-commit
 * was seen with that commit as the tip, as the writer records it, so that
 * the next run goes on from there instead of taking the source head alone.
 */
static int
seen_from_history(git_repository *repo, struct ud_store *st, const struct ref_state *rs,
		  const char *want, const char *arch, char **cause)
{
	git_oid id = rs->cur, src;
	int rc = 0;

	for (;;) {
		char *by = ud_branch_commit_trailer(repo, &id, UD_BRANCH_TRAILER),
		     *source = by != NULL && strcmp(by, want) == 0
				       ? ud_branch_commit_trailer(repo, &id, "Source-commit")
				       : NULL;
		git_commit *c = NULL;

		free(by);
		if (source == NULL || git_oid_fromstrp(&src, source) < 0) {
			free(source);
			break;
		}
		{
			char *key = ud_xasprintf("%s %s %s", rs->name, source, arch),
			     *hex = ud_branch_oid_hex(&id);

			rc = ud_store_cache_put(st, "headers-tip", key, hex, cause);
			free(key);
			free(hex);
		}
		free(source);
		if (rc < 0 || git_commit_lookup(&c, repo, &id) < 0 ||
		    git_commit_parentcount(c) == 0) {
			git_commit_free(c);
			break;
		}
		git_oid_cpy(&id, git_commit_parent_id(c, 0));
		git_commit_free(c);
	}
	return rc;
}

int
ud_branch_update_headers(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
			 git_commit *head, struct ud_branch_result *r, struct ref_pending *pend,
			 char **cause)
{
	struct install_run ir = {.repo = repo, .st = st, .o = o, .r = r};
	struct ref_state rs;
	git_oid *todo = NULL, tip;
	bool have_tip;
	size_t n = 0, i;
	char *want;
	int rc = 0;

	ud_branch_ref_state_load(repo, st, o->headers, &rs);
	ir.ref = rs.name;
	want = ud_branch_written_by(o->arch);
	ud_branch_ref_adopt(repo, &rs, want);
	/* adopted: what this history saw comes from its commits, not from a cache */
	if (rs.adopted && (rc = seen_from_history(repo, st, &rs, want, o->arch, cause)) < 0) {
		free(want);
		ud_branch_ref_state_free(&rs);
		return rc;
	}
	if ((r->headers_refused = ud_branch_ref_foreign(&rs, NULL)) != NULL) {
		free(want);
		git_oid_tostr(r->headers, sizeof(r->headers), &rs.cur);
		ud_log(LOG_WARNING, "branch: %s", r->headers_refused);
		ud_branch_ref_state_free(&rs);
		return 0;
	}
	have_tip = rs.exists;
	if (have_tip) {
		git_oid_cpy(&tip, &rs.cur);
		git_oid_tostr(r->headers, sizeof(r->headers), &tip);
	}
	if ((rc = pending_commits(&ir, head, &todo, &n, cause)) < 0)
		goto out;
	for (i = 0; i < n && rc == 0; i++) {
		git_commit *c = NULL, *parent = NULL;
		git_tree *t = NULL, *base = NULL;
		git_oid tree_id;
		char hex[HEX], label[HEX + 8], *key, *tiphex;

		ud_progress_report(&o->headers_progress, i, n);
		r->headers_scanned++;
		git_oid_tostr(hex, sizeof(hex), &todo[i]);
		snprintf(label, sizeof(label), "%.12s", hex);
		if (git_commit_lookup(&c, repo, &todo[i]) < 0 || git_commit_tree(&t, c) < 0) {
			rc = ud_branch_git_fail(cause, hex);
			git_commit_free(c);
			break;
		}
		if (have_tip && (git_commit_lookup(&parent, repo, &tip) < 0 ||
				 git_commit_tree(&base, parent) < 0)) {
			rc = ud_branch_git_fail(cause, "the headers branch");
		}
		if (rc == 0) {
			/* from the last tree's install when the plan stays, else in full */
			rc = install_tree_changed(&ir, t, label, base, &tree_id, cause);
			if (rc == 1)
				rc = install_tree(&ir, t, label, base, &tree_id, cause);
			if (rc == -EINVAL && have_tip) {
				/*
				 * This commit's headers cannot be installed (the kernel's
				 * install would fail too): it gets no headers commit, and
				 * the history goes on from the next one instead of stopping
				 * here for good.
				 */
				ud_log(LOG_WARNING, "branch: %s: no headers commit: %s", label,
				       *cause);
				free(r->headers_skipped_why);
				r->headers_skipped_why = *cause;
				*cause = NULL;
				r->headers_skipped++;
				git_oid_cpy(&tree_id, git_tree_id(base));
				rc = 0;
			}
		}
		if (rc == 0 && (!have_tip || !git_oid_equal(&tree_id, git_tree_id(base)))) {
			struct ud_buf m = UD_BUF_INIT;
			char *subject = subject_of(c);

			char *api = api_trailer(repo, &ir.api, base, &tree_id);

			ud_buf_addf(&m, "%s\n\nSource-commit: %s\n", subject, hex);
			if (api != NULL)
				ud_buf_addf(&m, "%s\n", api);
			ud_buf_addf(&m, UD_BRANCH_TRAILER ": %s\n", want);
			free(api);
			rc = ud_branch_commit_tree(repo, &tip, &tree_id, parent,
						   git_commit_author(c), git_commit_committer(c),
						   ud_buf_str(&m), cause);
			free(subject);
			ud_buf_free(&m);
			if (rc == 0) {
				have_tip = true;
				r->headers_added++;
			}
		}
		if (rc == 0) {
			key = ud_xasprintf("%s %s %s", rs.name, hex, o->arch);
			tiphex = ud_branch_oid_hex(&tip);
			rc = ud_store_cache_put(st, "headers-tip", key, tiphex, cause);
			free(key);
			free(tiphex);
		}
		git_tree_free(base);
		git_commit_free(parent);
		git_tree_free(t);
		git_commit_free(c);
	}
	if (rc == 0)
		ud_progress_report(&o->headers_progress, n, n);
	if (rc == 0 && have_tip) {
		git_oid_tostr(r->headers, sizeof(r->headers), &tip);
		ud_branch_ref_defer(
			pend, &rs, &tip,
			ud_xasprintf("uapid: installed headers up to %.12s", r->source));
	}
out:
	inc_reset(&ir.inc);
	changed_drop(&ir);
	api_cache_free(&ir.api);
	free(todo);
	free(want);
	ud_branch_ref_state_free(&rs);
	return rc;
}
