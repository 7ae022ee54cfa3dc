// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The branch writer's split branch (branch.h): the scripted split of the
 * source commit as a series of commits, one per split directory.
 */
#include "branch-int.h"

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
	struct ud_strlist needs;   /* the headers left whole: they need coaching */
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

	if (!ud_branch_blob_at(tree, rel, &blob)) {
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
				rc = ud_branch_git_fail(cause, rel);
			else
				git_oid_tostr(ub, sizeof(ub), &uid);
			if (rc == 0 && h.res.outcome == UD_SPLIT_SPLIT) {
				if (git_blob_create_from_buffer(
					    &kid, s->repo,
					    h.res.kernel.data ? h.res.kernel.data : "",
					    h.res.kernel.len) < 0)
					rc = ud_branch_git_fail(cause, rel);
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
	if (strcmp(outcome, ud_split_outcome_name(UD_SPLIT_REFUSED)) == 0)
		ud_strlist_add(&s->needs, rel);
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
	if ((rc = ud_branch_sink_finish(&sink, &cur, cause)) < 0)
		return rc;
	/* the export lists, directory by directory, each reading what the last left */
	for (i = 0; i < s->ndirs && rc == 0; i++) {
		struct ud_kbuild_edit k, u;
		struct ud_diags d = UD_DIAGS_INIT;
		git_tree *t;

		if (git_tree_lookup(&t, s->repo, &cur) < 0)
			return ud_branch_git_fail(cause, "tree");
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
				rc = ud_branch_sink_finish(&sink, &cur, cause);
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
	ud_buf_addf(&m, "\nSource-commit: %s\n" UD_BRANCH_TRAILER ": uapid (split)\n", source_hex);
	free(twin);
	free(udir);
	return ud_buf_detach(&m, NULL);
}

/* A "Needs-coaching: PATH" trailer for each header the split left whole, appended to m. */
static void
needs_trailers(const struct split_run *s, struct ud_buf *m)
{
	size_t i;

	for (i = 0; i < s->needs.n; i++)
		ud_buf_addf(m, "Needs-coaching: %s\n", s->needs.v[i]);
}

/* The Needs-coaching: trailers of commit id's message, into out. */
static void
needs_of(git_repository *repo, const git_oid *id, struct ud_strlist *out)
{
	git_message_trailer_array tr;
	git_commit *c;
	size_t i;

	if (git_commit_lookup(&c, repo, id) < 0)
		return;
	if (git_message_trailers(&tr, git_commit_message(c)) == 0) {
		for (i = 0; i < tr.count; i++)
			if (strcmp(tr.trailers[i].key, "Needs-coaching") == 0)
				ud_strlist_add(out, tr.trailers[i].value);
		git_message_trailer_array_free(&tr);
	}
	git_commit_free(c);
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

	if ((rc = ud_branch_make_sig(&sig, git_commit_committer(source), s->o->identity, cause)) <
	    0)
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
		ud_buf_addf(&m, "\nSource-commit: %s\n" UD_BRANCH_TRAILER ": uapid (split)\n",
			    src_hex);
		needs_trailers(s, &m);
		rc = ud_branch_commit_tree(s->repo, &last, final, source, sig, sig, ud_buf_str(&m),
					   cause);
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
			rc = ud_branch_git_fail(cause, "tree");
			break;
		}
		ud_gittree_sink_open(&sink, s->repo, base, "split", NULL);
		/* each path takes its final content in the commit of the directory that changed it
		 * last */
		for (j = 0; j < d->paths.n; j++) {
			git_oid id;

			if ((uintptr_t)ud_map_get(&s->dir_of_path, d->paths.v[j]) != i + 1)
				continue;
			if (ud_branch_blob_at(fin, d->paths.v[j], &id))
				ud_gittree_sink_put_blob(&sink, d->paths.v[j], &id);
			else
				ud_sink_remove(&sink, d->paths.v[j], NULL);
		}
		rc = ud_branch_sink_finish(&sink, &tree_id, cause);
		git_tree_free(base);
		git_tree_free(fin);
		if (rc < 0)
			break;
		if (git_commit_lookup(&parent, s->repo, &last) < 0) {
			rc = ud_branch_git_fail(cause, "commit");
			break;
		}
		msg = dir_message(d, src_hex);
		if (i + 1 == s->ndirs) {
			/* the series' last commit says what it left whole */
			struct ud_buf m = UD_BUF_INIT;

			ud_buf_addstr(&m, msg);
			needs_trailers(s, &m);
			free(msg);
			msg = ud_buf_detach(&m, NULL);
		}
		rc = ud_branch_commit_tree(s->repo, &last, &tree_id, parent, sig, sig, msg, cause);
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
	ud_strlist_free(&s->needs);
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

int
ud_branch_update_split(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
		       git_commit *source, struct ud_branch_result *r, struct ref_pending *pend,
		       char **cause)
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
	ud_branch_ref_state_load(repo, st, o->split, &rs);
	ud_branch_ref_adopt(repo, &rs, "uapid (split)");
	key = ud_xasprintf("%s %s %d %s %s", r->source, o->one_commit ? "one" : "dirs",
			   UD_SPLIT_VERSION, o->markers_hash != NULL ? o->markers_hash : "-",
			   o->identity != NULL ? o->identity : "-");
	cached = ud_store_cache_get(st, "split-commit", key);
	if (cached != NULL && git_oid_fromstr(&head, cached) == 0 && commit_exists(repo, &head)) {
		/* this source was split before: the series is in the object database */
	} else {
		snprintf(label, sizeof(label), "%.12s", r->source);
		if (git_commit_tree(&t0, source) < 0) {
			rc = ud_branch_git_fail(cause, "source tree");
			goto out;
		}
		if ((rc = split_tree(&s, t0, label, &final, cause)) < 0)
			goto out;
		if ((rc = split_series(&s, source, &final, &head, cause)) < 0)
			goto out;
		{
			char *hex = ud_branch_oid_hex(&head);

			rc = ud_store_cache_put(st, "split-commit", key, hex, cause);
			free(hex);
			if (rc < 0)
				goto out;
		}
	}
	git_oid_tostr(r->split, sizeof(r->split), &head);
	/* what the split left whole: this run's, or what the cached series says */
	if (s.needs.n > 0 || git_oid_equal(&head, git_commit_id(source))) {
		size_t i;

		for (i = 0; i < s.needs.n; i++)
			ud_strlist_add(&r->needs_coaching, s.needs.v[i]);
	} else {
		needs_of(repo, &head, &r->needs_coaching);
	}
	if ((r->split_refused = ud_branch_ref_foreign(&rs, &head)) != NULL) {
		if (rs.exists)
			git_oid_tostr(r->split, sizeof(r->split), &rs.cur);
		ud_log(LOG_WARNING, "branch: %s", r->split_refused);
		goto out;
	}
	r->split_changed = !rs.exists || !git_oid_equal(&rs.cur, &head);
	ud_branch_ref_defer(pend, &rs, &head, ud_xasprintf("uapid: split of %.12s", r->source));
out:
	git_tree_free(t0);
	free(cached);
	free(key);
	ud_branch_ref_state_free(&rs);
	split_run_free(&s);
	return rc;
}
