// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The branch writer (branch.h): the split branch and the headers branch,
 * from git objects through the same source/sink pipeline as the batch
 * commands (gittree.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/api.h"
#include "uapid/branch.h"
#include "uapid/gittree.h"
#include "uapid/headers.h"
#include "uapid/hsplit.h"
#include "uapid/install.h"
#include "uapid/log.h"
#include "uapid/map.h"
#include "uapid/path.h"
#include "uapid/split.h"
#include "uapid/tindex.h"
#include "uapid/xmalloc.h"

#define HEX (GIT_OID_HEXSZ + 1)

static char *
oid_hex(const git_oid *id)
{
	char *s = ud_xmalloc(HEX);

	git_oid_tostr(s, HEX, id);
	return s;
}

static int
git_fail(char **cause, const char *what)
{
	*cause = ud_git_error(what);
	return -EIO;
}

static char *
full_ref(const char *name)
{
	return strncmp(name, "refs/", 5) == 0 ? ud_xstrdup(name)
					      : ud_xasprintf("refs/heads/%s", name);
}

/* The blob id at rel in tree, as hex into out; false when there is none. */
static bool
blob_at(const git_tree *tree, const char *rel, git_oid *out)
{
	git_tree_entry *e;
	bool ok;

	if (git_tree_entry_bypath(&e, tree, rel) < 0)
		return false;
	ok = git_tree_entry_type(e) == GIT_OBJECT_BLOB;
	if (ok)
		git_oid_cpy(out, git_tree_entry_id(e));
	git_tree_entry_free(e);
	return ok;
}

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

/* ---- refs: compare-and-swap against what uapid last wrote ---- */

struct ref_state {
	char *name;	/* refs/heads/... */
	char *key;	/* the cache key: repository and ref */
	bool exists;	/* the ref is there */
	git_oid cur;	/* its value */
	char *recorded; /* what uapid last wrote there (NULL: nothing) */
};

static void
ref_state_load(git_repository *repo, struct ud_store *st, const char *branch, struct ref_state *rs)
{
	git_oid id;

	memset(rs, 0, sizeof(*rs));
	rs->name = full_ref(branch);
	rs->key = ud_xasprintf("%s %s", git_repository_path(repo), rs->name);
	rs->exists = git_reference_name_to_id(&id, repo, rs->name) == 0;
	if (rs->exists)
		git_oid_cpy(&rs->cur, &id);
	rs->recorded = ud_store_cache_get(st, "ref", rs->key);
}

static void
ref_state_free(struct ref_state *rs)
{
	free(rs->name);
	free(rs->key);
	free(rs->recorded);
}

/*
 * Was the ref moved by someone else since uapid wrote it (or made by
 * someone else before uapid ever did)?  A message saying so, or NULL.
 */
static char *
ref_foreign(const struct ref_state *rs, const git_oid *would_write)
{
	char cur[HEX];

	if (!rs->exists)
		return NULL;
	git_oid_tostr(cur, sizeof(cur), &rs->cur);
	if (rs->recorded != NULL && strcmp(rs->recorded, cur) == 0)
		return NULL;
	if (would_write != NULL && git_oid_equal(would_write, &rs->cur))
		return NULL; /* it holds what uapid would write: adopted */
	if (rs->recorded == NULL)
		return ud_xasprintf("%s exists (at %.12s) and was not written by uapid: left alone "
				    "(delete it, or name another branch)",
				    rs->name, cur);
	return ud_xasprintf("%s was moved by someone else (to %.12s; uapid last wrote %.12s): "
			    "left alone, no longer updated (delete it to let uapid make it again)",
			    rs->name, cur, rs->recorded);
}

/* Sets the ref to id, only if it still holds what ref_state_load saw; records it. */
static int
ref_write(git_repository *repo, struct ud_store *st, struct ref_state *rs, const git_oid *id,
	  const char *log, char **cause)
{
	git_reference *ref = NULL;
	char *hex = oid_hex(id);
	int rc;

	if (rs->exists && git_oid_equal(&rs->cur, id)) {
		rc = 0; /* already there */
	} else if (rs->exists) {
		rc = git_reference_create_matching(&ref, repo, rs->name, id, 1, &rs->cur, log);
	} else {
		rc = git_reference_create(&ref, repo, rs->name, id, 0, log);
	}
	git_reference_free(ref);
	if (rc < 0) {
		char *what = ud_xasprintf("updating %s (it moved meanwhile?)", rs->name);

		git_fail(cause, what);
		free(what);
		free(hex);
		return -EAGAIN;
	}
	rc = ud_store_cache_put(st, "ref", rs->key, hex, cause);
	free(hex);
	return rc;
}

/* ---- signatures ---- */

/* identity "Name <email>" (or from's), at from's time: deterministic commits. */
static int
make_sig(git_signature **out, const git_signature *from, const char *identity, char **cause)
{
	const char *lt, *gt;
	char *name, *email;
	int rc;

	if (identity == NULL)
		return git_signature_new(out, from->name, from->email, from->when.time,
					 from->when.offset) < 0
			       ? git_fail(cause, "signature")
			       : 0;
	lt = strchr(identity, '<');
	gt = lt != NULL ? strchr(lt, '>') : NULL;
	if (lt == NULL || gt == NULL || lt == identity) {
		*cause = ud_xasprintf("identity '%s': give it as \"Name <email>\"", identity);
		return -EINVAL;
	}
	name = ud_xstrndup(identity, (size_t)(lt - identity));
	while (name[0] != '\0' && name[strlen(name) - 1] == ' ')
		name[strlen(name) - 1] = '\0';
	email = ud_xstrndup(lt + 1, (size_t)(gt - lt - 1));
	rc = git_signature_new(out, name, email, from->when.time, from->when.offset) < 0
		     ? git_fail(cause, "signature")
		     : 0;
	free(name);
	free(email);
	return rc;
}

static int
commit_tree(git_repository *repo, git_oid *out, const git_oid *tree_id, const git_commit *parent,
	    const git_signature *author, const git_signature *committer, const char *message,
	    char **cause)
{
	git_tree *tree;
	const git_commit *parents[1] = {parent};
	int rc;

	if (git_tree_lookup(&tree, repo, tree_id) < 0)
		return git_fail(cause, "tree");
	rc = git_commit_create(out, repo, NULL, author, committer, "UTF-8", message, tree,
			       parent != NULL ? 1 : 0, parents);
	git_tree_free(tree);
	return rc < 0 ? git_fail(cause, "commit") : 0;
}

/* ---- the split series ---- */

struct split_dir {
	char *dir;		 /* include/linux */
	struct ud_strlist names; /* headers that leave its export list, in order met */
	struct ud_strlist split; /* ... of them split */
	struct ud_strlist moved; /* ... of them moved whole */
	struct ud_strlist paths; /* the paths its commit changes */
};

struct split_run {
	git_repository *repo;
	struct ud_store *st;
	const struct ud_branch_opts *o;
	struct ud_branch_result *r;
	struct split_dir *dirs;
	size_t ndirs;
	struct ud_map dir_of_path; /* changed path -> index + 1 of the dir that changed it last */
};

static struct split_dir *
split_dir(struct split_run *s, const char *dir)
{
	size_t i;

	for (i = 0; i < s->ndirs; i++)
		if (strcmp(s->dirs[i].dir, dir) == 0)
			return &s->dirs[i];
	s->dirs = ud_xrealloc(s->dirs, (s->ndirs + 1) * sizeof(*s->dirs));
	memset(&s->dirs[s->ndirs], 0, sizeof(*s->dirs));
	s->dirs[s->ndirs].dir = ud_xstrdup(dir);
	return &s->dirs[s->ndirs++];
}

static void
touched(struct split_run *s, struct split_dir *d, const char *path)
{
	ud_map_put(&s->dir_of_path, path, (void *)(uintptr_t)(d - s->dirs + 1));
	if (!ud_strlist_has(&d->paths, path))
		ud_strlist_add(&d->paths, path);
}

/*
 * One header: its split from the cache or computed, applied to sink.
 * Returns 0 or a negative errno with *cause.
 */
static int
split_header(struct split_run *s, struct ud_source *src, const git_tree *tree, struct ud_sink *sink,
	     const char *rel, char **cause)
{
	char *key, *v, outcome[32] = "", kb[HEX] = "", ub[HEX] = "", twin[4096] = "";
	git_oid blob, kid, uid;
	struct split_dir *d;
	bool moves;
	int rc = 0;

	if (!blob_at(tree, rel, &blob)) {
		*cause = ud_xasprintf("%s: not a file in the source tree", rel);
		return -ENOENT;
	}
	{
		char hex[HEX];

		git_oid_tostr(hex, sizeof(hex), &blob);
		key = ud_xasprintf("%s %d %s %s", hex, UD_SPLIT_VERSION,
				   s->o->markers_hash != NULL ? s->o->markers_hash : "-", rel);
	}
	v = ud_store_cache_get(s->st, "split", key);
	if (v != NULL && sscanf(v, "%31s %40s %40s %4095s", outcome, kb, ub, twin) == 4) {
		s->r->cache_hits++;
	} else {
		struct ud_hsplit h;

		s->r->cache_misses++;
		ud_hsplit_compute(src, rel, s->o->markers, &h);
		if (h.unreadable || h.twin == NULL) {
			*cause = ud_xasprintf("%s: %s", rel,
					      h.res.diags.n > 0 ? h.res.diags.v[0].message
								: "cannot be read");
			ud_hsplit_free(&h);
			free(v);
			free(key);
			return -EIO;
		}
		snprintf(outcome, sizeof(outcome), "%s", ud_split_outcome_name(h.res.outcome));
		snprintf(twin, sizeof(twin), "%s", h.twin);
		strcpy(kb, "-");
		strcpy(ub, "-");
		if (ud_hsplit_moves(&h)) {
			if (git_blob_create_from_buffer(&uid, s->repo,
							h.res.uapi.data ? h.res.uapi.data : "",
							h.res.uapi.len) < 0)
				rc = git_fail(cause, rel);
			else
				git_oid_tostr(ub, sizeof(ub), &uid);
			if (rc == 0 && h.res.outcome == UD_SPLIT_SPLIT) {
				if (git_blob_create_from_buffer(
					    &kid, s->repo,
					    h.res.kernel.data ? h.res.kernel.data : "",
					    h.res.kernel.len) < 0)
					rc = git_fail(cause, rel);
				else
					git_oid_tostr(kb, sizeof(kb), &kid);
			}
		}
		ud_hsplit_free(&h);
		if (rc == 0) {
			char *val = ud_xasprintf("%s %s %s %s", outcome, kb, ub, twin);

			rc = ud_store_cache_put(s->st, "split", key, val, cause);
			free(val);
		}
	}
	free(v);
	free(key);
	if (rc < 0)
		return rc;
	moves = strcmp(outcome, "split") == 0 || strcmp(outcome, "moved") == 0;
	if (!moves)
		return 0;
	{
		char *dir = ud_path_dir(rel);

		d = split_dir(s, dir);
		free(dir);
	}
	ud_strlist_add(&d->names, strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);
	git_oid_fromstr(&uid, ub);
	ud_gittree_sink_put_blob(sink, twin, &uid);
	touched(s, d, twin);
	if (strcmp(outcome, "split") == 0) {
		git_oid_fromstr(&kid, kb);
		ud_gittree_sink_put_blob(sink, rel, &kid);
		ud_strlist_add(&d->split, rel);
	} else {
		ud_sink_remove(sink, rel, NULL);
		ud_strlist_add(&d->moved, rel);
	}
	touched(s, d, rel);
	s->r->split_headers++;
	return 0;
}

/* Writes the tree the sink holds, into *out, and closes the sink. */
static int
sink_finish(struct ud_sink *sink, git_oid *out, char **cause)
{
	int rc = ud_gittree_sink_write_tree(sink, out, cause);

	ud_sink_close(sink);
	return rc;
}

/*
 * The whole split of tree t0, as `uapid split --in-place` gives it: every
 * header applied, then each directory's export lists, read from the tree
 * as the earlier directories left it.  The final tree in *final.
 */
static int
split_tree(struct split_run *s, git_tree *t0, const char *label, git_oid *final, char **cause)
{
	struct ud_source src;
	struct ud_sink sink;
	struct ud_tindex *idx = NULL;
	struct ud_strlist list = UD_STRLIST_INIT;
	git_oid cur;
	size_t i;
	int rc;

	ud_gittree_source_open(&src, s->repo, t0, label, NULL);
	if (ud_tindex_build_whole(&idx, &src, cause) < 0) {
		ud_source_close(&src);
		return -EINVAL;
	}
	ud_tindex_exported_under(idx, "", &list);
	ud_gittree_sink_open(&sink, s->repo, t0, label, NULL);
	rc = 0;
	for (i = 0; i < list.n && rc == 0; i++) {
		ud_progress_report(&s->o->split_progress, i, list.n);
		rc = split_header(s, &src, t0, &sink, list.v[i], cause);
	}
	ud_progress_report(&s->o->split_progress, list.n, list.n);
	ud_strlist_free(&list);
	ud_tindex_free(idx);
	ud_source_close(&src);
	if (rc < 0) {
		ud_sink_close(&sink);
		return rc;
	}
	if ((rc = sink_finish(&sink, &cur, cause)) < 0)
		return rc;
	/* the export lists, directory by directory, each reading what the last left */
	for (i = 0; i < s->ndirs && rc == 0; i++) {
		struct ud_kbuild_edit k, u;
		struct ud_diags d = UD_DIAGS_INIT;
		git_tree *t;

		if (git_tree_lookup(&t, s->repo, &cur) < 0)
			return git_fail(cause, "tree");
		ud_gittree_source_open(&src, s->repo, t, label, NULL);
		rc = ud_hsplit_kbuilds(&src, s->dirs[i].dir, &s->dirs[i].names, &k, &u, &d);
		if (rc < 0) {
			*cause = ud_xasprintf("%s: %s", s->dirs[i].dir,
					      d.n > 0 ? d.v[0].message : "export lists unreadable");
		} else if (k.changed || u.changed) {
			ud_gittree_sink_open(&sink, s->repo, t, label, NULL);
			if (k.changed) {
				rc = ud_sink_write(&sink, k.rel, k.text.data ? k.text.data : "",
						   k.text.len, cause);
				touched(s, &s->dirs[i], k.rel);
			}
			if (rc == 0 && u.changed) {
				rc = ud_sink_write(&sink, u.rel, u.text.data ? u.text.data : "",
						   u.text.len, cause);
				touched(s, &s->dirs[i], u.rel);
			}
			if (rc == 0)
				rc = sink_finish(&sink, &cur, cause);
			else
				ud_sink_close(&sink);
		}
		ud_diags_free(&d);
		ud_kbuild_edit_free(&k);
		ud_kbuild_edit_free(&u);
		ud_source_close(&src);
		git_tree_free(t);
	}
	git_oid_cpy(final, &cur);
	return rc;
}

static char *
dir_message(const struct split_dir *d, const char *source_hex)
{
	struct ud_buf m = UD_BUF_INIT;
	char *twin = ud_path_uapi_twin(
		d->paths.n > 0 ? d->split.n > 0 ? d->split.v[0] : d->moved.v[0] : d->dir);
	char *udir = twin != NULL ? ud_path_dir(twin) : ud_xstrdup("uapi");
	size_t i;

	ud_buf_addf(&m, "UAPI: (Scripted) Disintegrate %s\n\n", d->dir);
	ud_buf_addf(&m,
		    "The userspace API of the exported headers in %s\n"
		    "moves to %s, as `uapid split --in-place` does it\n"
		    "(split rules %d).\n",
		    d->dir, udir, UD_SPLIT_VERSION);
	if (d->split.n > 0) {
		ud_buf_addstr(&m, "\nSplit into kernel and uapi parts:\n");
		for (i = 0; i < d->split.n; i++)
			ud_buf_addf(&m, "\t%s\n", d->split.v[i]);
	}
	if (d->moved.n > 0) {
		ud_buf_addstr(&m, "\nMoved whole (no kernel-only part):\n");
		for (i = 0; i < d->moved.n; i++)
			ud_buf_addf(&m, "\t%s\n", d->moved.v[i]);
	}
	ud_buf_addf(&m, "\nSource-commit: %s\n", source_hex);
	free(twin);
	free(udir);
	return ud_buf_detach(&m, NULL);
}

/* The series on top of source: one commit per directory (or one); its head in *head. */
static int
split_series(struct split_run *s, git_commit *source, const git_oid *final, git_oid *head,
	     char **cause)
{
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	const char *src_hex = s->r->source;
	git_oid tree_id, last;
	size_t i;
	int rc;

	if ((rc = make_sig(&sig, git_commit_committer(source), s->o->identity, cause)) < 0)
		return rc;
	git_oid_cpy(&tree_id, git_commit_tree_id(source));
	git_oid_cpy(&last, git_commit_id(source));
	if (s->o->one_commit) {
		struct ud_buf m = UD_BUF_INIT;

		ud_buf_addstr(&m, "UAPI: (Scripted) Disintegrate the exported headers\n\n");
		ud_buf_addf(&m,
			    "The userspace API of every exported header moves to include/uapi and\n"
			    "arch/*/include/uapi, as `uapid split --in-place` does it (split\n"
			    "rules %d).\n\n",
			    UD_SPLIT_VERSION);
		for (i = 0; i < s->ndirs; i++)
			ud_buf_addf(&m, "\t%s: %zu split, %zu moved\n", s->dirs[i].dir,
				    s->dirs[i].split.n, s->dirs[i].moved.n);
		ud_buf_addf(&m, "\nSource-commit: %s\n", src_hex);
		rc = commit_tree(s->repo, &last, final, source, sig, sig, ud_buf_str(&m), cause);
		ud_buf_free(&m);
		s->r->split_commits = rc == 0;
		goto out;
	}
	for (i = 0; i < s->ndirs && rc == 0; i++) {
		struct split_dir *d = &s->dirs[i];
		struct ud_sink sink;
		git_tree *base, *fin;
		char *msg;
		size_t j;

		if (git_tree_lookup(&base, s->repo, &tree_id) < 0 ||
		    git_tree_lookup(&fin, s->repo, final) < 0) {
			rc = git_fail(cause, "tree");
			break;
		}
		ud_gittree_sink_open(&sink, s->repo, base, "split", NULL);
		/* each path takes its final content in the commit of the directory that changed it
		 * last */
		for (j = 0; j < d->paths.n; j++) {
			git_oid id;

			if ((uintptr_t)ud_map_get(&s->dir_of_path, d->paths.v[j]) != i + 1)
				continue;
			if (blob_at(fin, d->paths.v[j], &id))
				ud_gittree_sink_put_blob(&sink, d->paths.v[j], &id);
			else
				ud_sink_remove(&sink, d->paths.v[j], NULL);
		}
		rc = sink_finish(&sink, &tree_id, cause);
		git_tree_free(base);
		git_tree_free(fin);
		if (rc < 0)
			break;
		if (git_commit_lookup(&parent, s->repo, &last) < 0) {
			rc = git_fail(cause, "commit");
			break;
		}
		msg = dir_message(d, src_hex);
		rc = commit_tree(s->repo, &last, &tree_id, parent, sig, sig, msg, cause);
		free(msg);
		git_commit_free(parent);
		parent = NULL;
		s->r->split_commits++;
	}
	if (rc == 0 && !git_oid_equal(&tree_id, final)) {
		*cause = ud_xstrdup("internal error: the series does not end in the split tree");
		rc = -EPROTO;
	}
out:
	git_signature_free(sig);
	if (rc == 0)
		git_oid_cpy(head, &last);
	return rc;
}

static void
split_run_free(struct split_run *s)
{
	size_t i;

	for (i = 0; i < s->ndirs; i++) {
		free(s->dirs[i].dir);
		ud_strlist_free(&s->dirs[i].names);
		ud_strlist_free(&s->dirs[i].split);
		ud_strlist_free(&s->dirs[i].moved);
		ud_strlist_free(&s->dirs[i].paths);
	}
	free(s->dirs);
	ud_map_free(&s->dir_of_path, NULL);
}

static bool
commit_exists(git_repository *repo, const git_oid *id)
{
	git_commit *c;

	if (git_commit_lookup(&c, repo, id) < 0)
		return false;
	git_commit_free(c);
	return true;
}

static int
update_split(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
	     git_commit *source, struct ud_branch_result *r, char **cause)
{
	struct split_run s;
	struct ref_state rs;
	char *key, *cached, label[HEX + 8];
	git_oid head, final;
	git_tree *t0 = NULL;
	int rc = 0;

	memset(&s, 0, sizeof(s));
	s.repo = repo;
	s.st = st;
	s.o = o;
	s.r = r;
	ref_state_load(repo, st, o->split, &rs);
	key = ud_xasprintf("%s %s %d %s %s", r->source, o->one_commit ? "one" : "dirs",
			   UD_SPLIT_VERSION, o->markers_hash != NULL ? o->markers_hash : "-",
			   o->identity != NULL ? o->identity : "-");
	cached = ud_store_cache_get(st, "split-commit", key);
	if (cached != NULL && git_oid_fromstr(&head, cached) == 0 && commit_exists(repo, &head)) {
		/* this source was split before: the series is in the object database */
	} else {
		snprintf(label, sizeof(label), "%.12s", r->source);
		if (git_commit_tree(&t0, source) < 0) {
			rc = git_fail(cause, "source tree");
			goto out;
		}
		if ((rc = split_tree(&s, t0, label, &final, cause)) < 0)
			goto out;
		if ((rc = split_series(&s, source, &final, &head, cause)) < 0)
			goto out;
		{
			char *hex = oid_hex(&head);

			rc = ud_store_cache_put(st, "split-commit", key, hex, cause);
			free(hex);
			if (rc < 0)
				goto out;
		}
	}
	git_oid_tostr(r->split, sizeof(r->split), &head);
	if ((r->split_refused = ref_foreign(&rs, &head)) != NULL) {
		if (rs.exists)
			git_oid_tostr(r->split, sizeof(r->split), &rs.cur);
		ud_log(LOG_WARNING, "branch: %s", r->split_refused);
		goto out;
	}
	r->split_changed = !rs.exists || !git_oid_equal(&rs.cur, &head);
	{
		char *log = ud_xasprintf("uapid: split of %.12s", r->source);

		rc = ref_write(repo, st, &rs, &head, log, cause);
		free(log);
	}
out:
	git_tree_free(t0);
	free(cached);
	free(key);
	ref_state_free(&rs);
	split_run_free(&s);
	return rc;
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

struct install_run {
	const char *ref; /* the headers branch (refs/heads/...): its history is its own */
	git_repository *repo;
	struct ud_store *st;
	const struct ud_branch_opts *o;
	struct ud_branch_result *r;
	struct inc_state inc;
};

/* The rules that decide an installed text besides its source: for the cache key. */
static char *
rules_key(const git_tree *t, const struct ud_hdr_plan *plan)
{
	git_oid id;
	char sh[HEX] = "-", pl[HEX] = "-", uf[HEX + 1] = "";

	if (blob_at(t, "scripts/headers_install.sh", &id))
		git_oid_tostr(sh, sizeof(sh), &id);
	if (blob_at(t, "scripts/headers_install.pl", &id))
		git_oid_tostr(pl, sizeof(pl), &id);
	/* before the split the tree's own unifdef decides the bytes too */
	if (plan->style == UD_INSTALL_PL26) {
		uf[0] = '/';
		uf[1] = '-';
		uf[2] = '\0';
		if (blob_at(t, "scripts/unifdef.c", &id))
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
	} else if (blob_at(t, f->src, id)) {
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
			rc = git_fail(cause, f->dst);
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
	char *rules = NULL;
	size_t i;
	int rc;

	inc_reset(&ir->inc);
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
		rc = sink_finish(&sink, out, cause);
	else
		ud_sink_close(&sink);
	if (rc == 0)
		inc_keep(&ir->inc, t, &plan, &rules, &reads, &looks);
out:
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

	if (!inc->valid || base == NULL)
		return 1;
	/* a tree that cannot be read this way is the whole install's to report */
	rc = ud_gittree_changed_paths(ir->repo, inc->src, t, &modified, &other, NULL) < 0 ? 1 : 0;
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
		rc = sink_finish(&sink, out, cause);
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
	if (blob_at(l->tree, rel, &id) && git_blob_lookup(&b, l->repo, &id) == 0) {
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

		c->has_old = blob_at(a, p, &c->old);
		c->has_new = blob_at(b, p, &c->new_);
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

/*
 * The "API-change:" trailer of a headers commit: the verdicts of the
 * symbol-level changes from base to the new installed tree (api.h); NULL
 * for the first commit.
 */
static char *
api_trailer(git_repository *repo, git_tree *base, const git_oid *new_id)
{
	struct api_lookup l = {repo, NULL, UD_MAP_INIT};
	const struct ud_api_lookup nl = {api_lookup_header, NULL, &l};
	struct ud_api_diff d;
	struct ud_api_header *olds = NULL, *news = NULL; /* the changed headers' versions */
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
	olds = ud_xcalloc(n + 1, sizeof(*olds));
	news = ud_xcalloc(n + 1, sizeof(*news));
	changed = ud_xcalloc(n + 1, sizeof(*changed));
	for (i = 0; i < n; i++) {
		const char *p = tc[i].path;

		if (strncmp(p, "include/", 8) != 0)
			continue;
		p += 8;
		if (tc[i].has_old) {
			parse_blob(repo, &tc[i].old, p, &olds[k]);
			changed[k].old = &olds[k];
		}
		if (tc[i].has_new) {
			parse_blob(repo, &tc[i].new_, p, &news[k]);
			changed[k].new_ = &news[k];
		}
		k++;
	}
	ud_api_diff_changed(changed, k, &nl, &d);
	t = ud_xasprintf("API-change: %u breaking, %u review, %u compatible",
			 d.verdicts[UD_API_BREAKING], d.verdicts[UD_API_REVIEW],
			 d.verdicts[UD_API_COMPATIBLE]);
	ud_api_diff_free(&d);
	for (i = 0; i < k; i++) {
		ud_api_header_free(&olds[i]);
		ud_api_header_free(&news[i]);
	}
	for (i = 0; i < n; i++)
		free(tc[i].path);
	free(tc);
	free(olds);
	free(news);
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
			return git_fail(cause, ir->o->since);
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

static int
update_headers(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
	       git_commit *head, struct ud_branch_result *r, char **cause)
{
	struct install_run ir = {.repo = repo, .st = st, .o = o, .r = r};
	struct ref_state rs;
	git_oid *todo = NULL, tip;
	bool have_tip;
	size_t n = 0, i;
	int rc = 0;

	ref_state_load(repo, st, o->headers, &rs);
	ir.ref = rs.name;
	if ((r->headers_refused = ref_foreign(&rs, NULL)) != NULL) {
		git_oid_tostr(r->headers, sizeof(r->headers), &rs.cur);
		ud_log(LOG_WARNING, "branch: %s", r->headers_refused);
		ref_state_free(&rs);
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
			rc = git_fail(cause, hex);
			git_commit_free(c);
			break;
		}
		if (have_tip && (git_commit_lookup(&parent, repo, &tip) < 0 ||
				 git_commit_tree(&base, parent) < 0)) {
			rc = git_fail(cause, "the headers branch");
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

			char *api = api_trailer(repo, base, &tree_id);

			ud_buf_addf(&m, "%s\n\nSource-commit: %s\n", subject, hex);
			if (api != NULL)
				ud_buf_addf(&m, "%s\n", api);
			free(api);
			rc = commit_tree(repo, &tip, &tree_id, parent, git_commit_author(c),
					 git_commit_committer(c), ud_buf_str(&m), cause);
			free(subject);
			ud_buf_free(&m);
			if (rc == 0) {
				have_tip = true;
				r->headers_added++;
			}
		}
		if (rc == 0) {
			key = ud_xasprintf("%s %s %s", rs.name, hex, o->arch);
			tiphex = oid_hex(&tip);
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
		char *log = ud_xasprintf("uapid: installed headers up to %.12s", r->source);

		git_oid_tostr(r->headers, sizeof(r->headers), &tip);
		rc = ref_write(repo, st, &rs, &tip, log, cause);
		free(log);
	}
out:
	inc_reset(&ir.inc);
	free(todo);
	ref_state_free(&rs);
	return rc;
}

/* ---- both ---- */

static int
resolve_source(git_repository *repo, const char *rev, git_commit **out, char **cause)
{
	git_object *obj = NULL;
	int rc;

	if (rev == NULL) {
		git_reference *head;

		if (git_repository_head(&head, repo) < 0)
			return git_fail(cause, "HEAD");
		rc = git_reference_peel(&obj, head, GIT_OBJECT_COMMIT);
		git_reference_free(head);
	} else {
		git_object *any;

		rc = git_revparse_single(&any, repo, rev);
		if (rc == 0) {
			rc = git_object_peel(&obj, any, GIT_OBJECT_COMMIT);
			git_object_free(any);
		}
	}
	if (rc < 0) {
		char *what = ud_xasprintf("source %s", rev != NULL ? rev : "HEAD");

		git_fail(cause, what);
		free(what);
		return -ENOENT;
	}
	*out = (git_commit *)obj;
	return 0;
}

bool
ud_branch_headers_current(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o)
{
	git_commit *source;
	char *ref, *key, *v, hex[HEX];
	git_oid tip;
	bool current;

	if (resolve_source(repo, o->source, &source, &key) < 0) {
		free(key);
		return false;
	}
	git_oid_tostr(hex, sizeof(hex), git_commit_id(source));
	git_commit_free(source);
	ref = full_ref(o->headers);
	/* the source commit was looked at, and the branch is still where uapid left it */
	key = ud_xasprintf("%s %s %s", ref, hex, o->arch);
	v = git_reference_name_to_id(&tip, repo, ref) == 0
		    ? ud_store_cache_get(st, "headers-tip", key)
		    : NULL;
	free(key);
	current = v != NULL;
	free(v);
	if (current) {
		struct ref_state rs;
		char *foreign;

		ref_state_load(repo, st, o->headers, &rs);
		foreign = ref_foreign(&rs, NULL);
		current = foreign == NULL && rs.exists;
		free(foreign);
		ref_state_free(&rs);
	}
	free(ref);
	return current;
}

int
ud_branch_update(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
		 struct ud_branch_result *r, char **cause)
{
	git_commit *source;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = resolve_source(repo, o->source, &source, cause)) < 0)
		return rc;
	git_oid_tostr(r->source, sizeof(r->source), git_commit_id(source));
	/* one transaction a branch: a ref written is recorded with its results */
	if (o->split != NULL && (rc = ud_store_begin(st, cause)) == 0) {
		rc = update_split(repo, st, o, source, r, cause);
		if (rc == 0)
			rc = ud_store_commit(st, cause);
		else
			ud_store_rollback(st);
	}
	if (rc == 0 && o->headers != NULL && (rc = ud_store_begin(st, cause)) == 0) {
		rc = update_headers(repo, st, o, source, r, cause);
		if (rc == 0)
			rc = ud_store_commit(st, cause);
		else
			ud_store_rollback(st);
	}
	git_commit_free(source);
	return rc;
}

void
ud_branch_result_free(struct ud_branch_result *r)
{
	free(r->split_refused);
	free(r->headers_refused);
	free(r->headers_skipped_why);
	r->split_refused = r->headers_refused = r->headers_skipped_why = NULL;
}
