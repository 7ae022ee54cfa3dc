// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The branch writer (branch.h): the split branch and the headers branch,
 * from git objects through the same source/sink pipeline as the batch
 * commands (gittree.h).  This file holds the helpers both branches share
 * (refs, signatures) and the public entry points; the split series is in
 * branch-split.c, the headers branch in branch-headers.c.
 */
#include "branch-int.h"
#include "uapid/util/hash.h"

char *
ud_branch_oid_hex(const git_oid *id)
{
	char *s = ud_xmalloc(HEX);

	git_oid_tostr(s, HEX, id);
	return s;
}

int
ud_branch_git_fail(char **cause, const char *what)
{
	*cause = ud_git_error(what);
	return -EIO;
}

char *
ud_branch_full_ref(const char *name)
{
	return strncmp(name, "refs/", 5) == 0 ? ud_xstrdup(name)
					      : ud_xasprintf("refs/heads/%s", name);
}

/* The blob id at rel in tree, as hex into out; false when there is none. */
bool
ud_branch_blob_at(const git_tree *tree, const char *rel, git_oid *out)
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

/* Writes the tree the sink holds, into *out, and closes the sink. */
int
ud_branch_sink_finish(struct ud_sink *sink, git_oid *out, char **cause)
{
	int rc = ud_gittree_sink_write_tree(sink, out, cause);

	ud_sink_close(sink);
	return rc;
}

/* ---- refs: compare-and-swap against what uapid last wrote ---- */

void
ud_branch_ref_state_load(git_repository *repo, struct ud_store *st, const char *branch,
			 struct ref_state *rs)
{
	git_oid id;

	memset(rs, 0, sizeof(*rs));
	rs->name = ud_branch_full_ref(branch);
	rs->key = ud_xasprintf("%s %s", git_repository_path(repo), rs->name);
	rs->exists = git_reference_name_to_id(&id, repo, rs->name) == 0;
	if (rs->exists)
		git_oid_cpy(&rs->cur, &id);
	rs->recorded = ud_store_cache_get(st, "ref", rs->key);
}

void
ud_branch_ref_state_free(struct ref_state *rs)
{
	free(rs->name);
	free(rs->key);
	free(rs->recorded);
	free(rs->holds);
}

char *
ud_branch_written_by(const char *headers_arch)
{
	return headers_arch != NULL ? ud_xasprintf("uapid (headers, %s)", headers_arch)
				    : ud_xstrdup("uapid (split)");
}

char *
ud_branch_commit_trailer(git_repository *repo, const git_oid *id, const char *key)
{
	git_message_trailer_array tr;
	git_commit *c;
	char *v = NULL;
	size_t i;

	if (git_commit_lookup(&c, repo, id) < 0)
		return NULL;
	if (git_message_trailers(&tr, git_commit_message(c)) == 0) {
		for (i = 0; i < tr.count && v == NULL; i++)
			if (strcmp(tr.trailers[i].key, key) == 0)
				v = ud_xstrdup(tr.trailers[i].value);
		git_message_trailer_array_free(&tr);
	}
	git_commit_free(c);
	return v;
}

void
ud_branch_ref_adopt(git_repository *repo, struct ref_state *rs, const char *want)
{
	char *v;

	/* recorded here: compare-and-swap against it as before (a move is someone's) */
	if (!rs->exists || rs->recorded != NULL)
		return;
	v = ud_branch_commit_trailer(repo, &rs->cur, UD_BRANCH_TRAILER);
	if (v != NULL && strcmp(v, want) == 0) {
		rs->recorded = ud_branch_oid_hex(&rs->cur);
		rs->adopted = true;
		free(v);
	} else if (v != NULL && strncmp(v, "uapid (", 7) == 0) {
		rs->holds = v;
	} else {
		free(v);
	}
}

/*
 * Was the ref moved by someone else since uapid wrote it (or made by
 * someone else before uapid ever did)?  A message saying so, or NULL.
 */
char *
ud_branch_ref_foreign(const struct ref_state *rs, const git_oid *would_write)
{
	char cur[HEX];

	if (!rs->exists)
		return NULL;
	git_oid_tostr(cur, sizeof(cur), &rs->cur);
	if (rs->recorded != NULL && strcmp(rs->recorded, cur) == 0)
		return NULL;
	if (would_write != NULL && git_oid_equal(would_write, &rs->cur))
		return NULL; /* it holds what uapid would write: adopted */
	if (rs->recorded == NULL && rs->holds != NULL)
		return ud_xasprintf("%s (at %.12s) holds what %s wrote, another use than this "
				    "one: left alone (give the options that made it, or name "
				    "another branch)",
				    rs->name, cur, rs->holds);
	if (rs->recorded == NULL)
		return ud_xasprintf("%s exists (at %.12s) and was not written by uapid (its commit "
				    "has no '" UD_BRANCH_TRAILER ": uapid' trailer): left alone "
				    "(name another branch, or move this one away)",
				    rs->name, cur);
	return ud_xasprintf("%s was moved by someone else (to %.12s; uapid last wrote %.12s): "
			    "left alone, no longer updated (move it back to %.12s to go on from "
			    "there, or delete it to let uapid make it again)",
			    rs->name, cur, rs->recorded, rs->recorded);
}

void
ud_branch_ref_defer(struct ref_pending *p, struct ref_state *rs, const git_oid *id, char *log)
{
	p->rs = *rs;
	memset(rs, 0, sizeof(*rs));
	git_oid_cpy(&p->id, id);
	p->log = log;
	p->set = true;
}

static void
ref_pending_free(struct ref_pending *p)
{
	if (!p->set)
		return;
	ud_branch_ref_state_free(&p->rs);
	free(p->log);
	memset(p, 0, sizeof(*p));
}

/*
 * Moves the pending refs together, in one git transaction (each locked,
 * checked to hold still what was loaded: compare-and-swap), and records
 * each in the store (whose transaction the caller commits).  Nothing is
 * moved when one cannot be: -EAGAIN with *cause.
 */
static int
refs_commit(git_repository *repo, struct ud_store *st, struct ref_pending *p, size_t n,
	    char **cause)
{
	git_transaction *tx = NULL;
	size_t i;
	int rc = 0;

	if (git_transaction_new(&tx, repo) < 0)
		return ud_branch_git_fail(cause, "ref transaction");
	for (i = 0; i < n && rc == 0; i++) {
		git_oid now;
		bool exists;

		if (!p[i].set || (p[i].rs.exists && git_oid_equal(&p[i].rs.cur, &p[i].id)))
			continue; /* nothing to move: already there */
		if ((rc = git_transaction_lock_ref(tx, p[i].rs.name)) < 0) {
			if (rc == GIT_ELOCKED) {
				/* a stale lock says what it is, not "(it moved meanwhile?)" */
				*cause = ud_xasprintf(
					"updating %s: %s%s.lock exists (a git command "
					"holds it, or one that died left it: remove "
					"it if no git runs)",
					p[i].rs.name, git_repository_commondir(repo), p[i].rs.name);
				rc = -EAGAIN;
			} else {
				rc = ud_branch_git_fail(cause, p[i].rs.name);
			}
			break;
		}
		exists = git_reference_name_to_id(&now, repo, p[i].rs.name) == 0;
		if (exists != p[i].rs.exists || (exists && !git_oid_equal(&now, &p[i].rs.cur))) {
			*cause = ud_xasprintf("%s moved while uapid worked: nothing written (run "
					      "again)",
					      p[i].rs.name);
			rc = -EAGAIN;
			break;
		}
		if (git_transaction_set_target(tx, p[i].rs.name, &p[i].id, NULL, p[i].log) < 0)
			rc = ud_branch_git_fail(cause, p[i].rs.name);
	}
	if (rc == 0 && git_transaction_commit(tx) < 0) {
		ud_branch_git_fail(cause, "moving the refs");
		rc = -EAGAIN;
	}
	git_transaction_free(tx); /* unlocks what was locked and not committed */
	for (i = 0; i < n && rc == 0; i++) {
		char *hex;

		if (!p[i].set)
			continue;
		hex = ud_branch_oid_hex(&p[i].id);
		rc = ud_store_cache_put(st, "ref", p[i].rs.key, hex, cause);
		free(hex);
	}
	return rc;
}

/* ---- signatures ---- */

/* identity "Name <email>" (or from's), at from's time: deterministic commits. */
int
ud_branch_make_sig(git_signature **out, const git_signature *from, const char *identity,
		   char **cause)
{
	const char *lt, *gt;
	char *name, *email;
	int rc;

	if (identity == NULL)
		return git_signature_new(out, from->name, from->email, from->when.time,
					 from->when.offset) < 0
			       ? ud_branch_git_fail(cause, "signature")
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
		     ? ud_branch_git_fail(cause, "signature")
		     : 0;
	free(name);
	free(email);
	return rc;
}

int
ud_branch_commit_tree(git_repository *repo, git_oid *out, const git_oid *tree_id,
		      const git_commit *parent, const git_signature *author,
		      const git_signature *committer, const char *message, char **cause)
{
	git_tree *tree;
	const git_commit *parents[1] = {parent};
	int rc;

	if (git_tree_lookup(&tree, repo, tree_id) < 0)
		return ud_branch_git_fail(cause, "tree");
	rc = git_commit_create(out, repo, NULL, author, committer, "UTF-8", message, tree,
			       parent != NULL ? 1 : 0, parents);
	git_tree_free(tree);
	return rc < 0 ? ud_branch_git_fail(cause, "commit") : 0;
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
			return ud_branch_git_fail(cause, "HEAD");
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

		ud_branch_git_fail(cause, what);
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
	ref = ud_branch_full_ref(o->headers);
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

		char *want = ud_branch_written_by(o->arch);

		ud_branch_ref_state_load(repo, st, o->headers, &rs);
		ud_branch_ref_adopt(repo, &rs, want);
		free(want);
		foreign = ud_branch_ref_foreign(&rs, NULL);
		current = foreign == NULL && rs.exists;
		free(foreign);
		ud_branch_ref_state_free(&rs);
	}
	free(ref);
	return current;
}

int
ud_branch_update(git_repository *repo, struct ud_store *st, const struct ud_branch_opts *o,
		 struct ud_branch_result *r, char **cause)
{
	git_commit *source;
	struct ref_pending pend[2]; /* split, headers */
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = resolve_source(repo, o->source, &source, cause)) < 0)
		return rc;
	git_oid_tostr(r->source, sizeof(r->source), git_commit_id(source));
	/*
	 * One store transaction for both branches, the refs moved last and
	 * together: a failure of either (a tree that cannot be installed)
	 * writes no ref and records nothing (the objects made are garbage
	 * for git gc).
	 */
	memset(pend, 0, sizeof(pend));
	if ((rc = ud_store_begin(st, cause)) == 0) {
		if (o->split != NULL)
			rc = ud_branch_update_split(repo, st, o, source, r, &pend[0], cause);
		if (rc == 0 && o->headers != NULL)
			rc = ud_branch_update_headers(repo, st, o, source, r, &pend[1], cause);
		if (rc == 0)
			rc = refs_commit(repo, st, pend, ARRAY_SIZE(pend), cause);
		if (rc == 0)
			rc = ud_store_commit(st, cause);
		else
			ud_store_rollback(st);
	}
	if (rc < 0)
		r->split_changed = false;
	ref_pending_free(&pend[0]);
	ref_pending_free(&pend[1]);
	git_commit_free(source);
	return rc;
}

void
ud_branch_result_free(struct ud_branch_result *r)
{
	free(r->split_refused);
	free(r->headers_refused);
	free(r->headers_skipped_why);
	ud_strlist_free(&r->needs_coaching);
	r->split_refused = r->headers_refused = r->headers_skipped_why = NULL;
}
