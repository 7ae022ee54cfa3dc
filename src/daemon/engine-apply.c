// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A batch's results applied, on the loop thread, inside its transaction
 * (engine-int.h): each header's and each installed header's outputs and
 * row as a wave comes back from the pool, then, at the batch's end, each
 * directory's export lists, split/.uapid-removed, the installed headers
 * the plan dropped, and the split's problem.  Outputs are written before
 * the row that names them: a row never says more than what is on disk.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine-int.h"
#include "uapid/proto/json.h"
#include "uapid/io/log.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

/* An event in the store's log (its clock is the engine's now), and path among the changed. */
void
ud_engine_event(struct batch *b, const char *path, const char *kind, const char *detail)
{
	struct ud_engine *e = b->e;
	char *cause = NULL;
	int64_t c = ud_store_event(e->store, path, kind, detail, &cause);

	if (!ud_map_has(&b->changed_set, path)) {
		ud_map_put(&b->changed_set, path, (void *)1);
		ud_strlist_add(&b->rep.changed, path);
	}
	if (c < 0) {
		ud_engine_fault(e, (int)c, cause);
		return;
	}
	e->clock = c;
}

/* Does the header leave its directory's export list (split or moved)? */
static bool
moves(const struct hstate *h)
{
	return h != NULL && h->exported && (h->outcome == OUT_SPLIT || h->outcome == OUT_MOVED);
}

static void
dirty_dir(struct batch *b, const char *path)
{
	char *d = ud_path_dir(path);

	if (!ud_strlist_has(&b->dirty_dirs, d))
		ud_strlist_take(&b->dirty_dirs, d);
	else
		free(d);
}

static char *
split_out(const char *path)
{
	return ud_xasprintf("split/%s", path);
}

/* A header's old outputs that the new state does not keep go. */
static void
drop_header_outputs(struct batch *b, const char *path, const struct hstate *old, bool keep_k,
		    bool keep_u)
{
	char *twin = ud_path_uapi_twin(path);

	if (old->kblob[0] != '\0' && !keep_k) {
		char *o = split_out(path);

		ud_engine_drop_output(b, o);
		free(o);
	}
	if (old->ublob[0] != '\0' && !keep_u && twin != NULL) {
		char *o = split_out(twin);

		ud_engine_drop_output(b, o);
		free(o);
	}
	free(twin);
}

/* The header is gone, or no header any more: its outputs and row go. */
static void
apply_gone(struct batch *b, struct hjob *j)
{
	struct ud_engine *e = b->e;
	struct hstate *old = ud_map_get(&e->headers, j->path);
	char *cause = NULL;

	if (old == NULL)
		return;
	drop_header_outputs(b, j->path, old, false, false);
	if (moves(old))
		dirty_dir(b, j->path);
	if (old->outcome == OUT_MOVED)
		b->removed_dirty = true;
	if (ud_store_del_header(e->store, j->path, &cause) < 0 ||
	    ud_store_set_path_markers(e->store, "source", j->path, NULL, 0, &cause) < 0)
		ud_engine_fault(e, -EIO, cause);
	ud_engine_event(b, j->path, "remove", NULL);
	ud_engine_count_header(e, old, -1);
	free(ud_map_del(&e->headers, j->path));
}

/* Only the stat moved: the row keeps what it says, with the new stat. */
static void
apply_same(struct batch *b, struct hjob *j)
{
	struct ud_engine *e = b->e;
	struct hstate *old = ud_map_get(&e->headers, j->path);
	struct ud_hrow row;
	char *cause = NULL;

	if (old == NULL || (old->size == (int64_t)j->st.size && old->mtime_ns == j->st.mtime_ns &&
			    old->ino == j->st.ino))
		return;
	memset(&row, 0, sizeof(row));
	if (ud_store_header(e->store, j->path, &row, &cause) == 1) {
		row.size = (int64_t)j->st.size;
		row.mtime_ns = j->st.mtime_ns;
		row.ino = j->st.ino;
		if (ud_store_put_header(e->store, &row, &cause) == 0) {
			old->size = row.size;
			old->mtime_ns = row.mtime_ns;
			old->ino = row.ino;
		}
	}
	ud_hrow_free(&row);
	if (cause != NULL)
		ud_engine_fault(e, -EIO, cause);
}

/* The header's planned install is made again when its text changed (or when forced). */
static void
reinstall_source(struct batch *b, const char *path, bool force)
{
	const struct plan_ref *p = b->snap->plan;
	const struct ud_hdr_file *f = p != NULL ? ud_headers_plan_source(&p->plan, path) : NULL;
	struct istate *s;

	if (f == NULL)
		return;
	s = ud_map_get(&b->e->installed, f->dst);
	if (force || s == NULL || s->blob[0] == '\0' ||
	    strcmp(s->src_blob, ((struct hstate *)ud_map_get(&b->e->headers, path))->blob) != 0)
		ud_engine_add_ijob(b, (size_t)(f - p->plan.v));
}

/* Writes the split's outputs (uapi first); false when one could not be written. */
static bool
put_split(struct batch *b, struct hjob *j, struct hstate *nw, bool *want_k, bool *want_u)
{
	const struct ud_split_result *r = &j->h.res;
	char *o;
	bool ok;

	*want_u = true;
	o = split_out(j->h.twin);
	ok = ud_engine_put_output(b, o, j->path, ud_buf_str(&r->uapi), r->uapi.len) == 0;
	free(o);
	ud_engine_blob(ud_buf_str(&r->uapi), r->uapi.len, nw->ublob);
	if (ok && r->outcome == UD_SPLIT_SPLIT) {
		*want_k = true;
		o = split_out(j->path);
		ok = ud_engine_put_output(b, o, j->path, ud_buf_str(&r->kernel), r->kernel.len) ==
		     0;
		free(o);
		ud_engine_blob(ud_buf_str(&r->kernel), r->kernel.len, nw->kblob);
	}
	return ok;
}

/* The header's row, as nw and the job say. */
static void
put_row(struct batch *b, struct hjob *j, struct hstate *nw, const struct hstate *old)
{
	struct ud_engine *e = b->e;
	struct ud_hrow row;
	char *cause = NULL;
	bool changed;

	memset(&row, 0, sizeof(row));
	row.path = j->path;
	row.size = nw->size;
	row.mtime_ns = nw->mtime_ns;
	row.ino = nw->ino;
	row.blob = nw->blob;
	row.exported = nw->exported;
	row.outcome = (char *)(uintptr_t)outcome_name(nw->outcome);
	row.blocks = j->blocks;
	if (j->unreadable) {
		struct ud_diags d = UD_DIAGS_INIT;

		ud_diags_add(&d, 0, UD_SEV_ERROR, "%s", j->cause);
		free(j->diags);
		j->diags = ud_json_take_dump(ud_json_diags(&d));
		ud_diags_free(&d);
		ud_log(LOG_WARNING, "%s", j->cause);
	}
	row.diagnostics = j->diags;
	row.kernel_blob = nw->kblob[0] ? nw->kblob : NULL;
	row.uapi_blob = nw->ublob[0] ? nw->ublob : NULL;
	row.split_key = nw->key;
	changed = old == NULL || old->outcome != nw->outcome ||
		  strcmp(old->kblob, nw->kblob) != 0 || strcmp(old->ublob, nw->ublob) != 0 ||
		  old->exported != nw->exported;
	ud_engine_event(b, j->path, changed ? "split" : "header", outcome_name(nw->outcome));
	row.clock = e->clock;
	if (ud_store_put_header(e->store, &row, &cause) < 0 ||
	    ud_store_set_path_markers(e->store, "source", j->path, j->in_source.v, j->in_source.n,
				      &cause) < 0)
		ud_engine_fault(e, -EIO, cause);
}

void
ud_engine_apply_header(struct batch *b, struct hjob *j)
{
	struct ud_engine *e = b->e;
	struct hstate *old = ud_map_get(&e->headers, j->path), nw;
	bool want_k = false, want_u = false;

	if (j->failed) {
		/* not looked at: the row and the outputs stay; tried again later */
		if (j->cause != NULL)
			ud_engine_fail_path(e, j->path, j->cause, false);
		j->cause = NULL;
		if (j->force)
			ud_map_put(&e->force_headers, j->path, (void *)1);
		return;
	}
	ud_engine_path_ok(e, j->path, false);
	if (j->gone) {
		apply_gone(b, j);
		return;
	}
	if (j->same) {
		apply_same(b, j);
		return;
	}
	b->rep.resplit++;
	memset(&nw, 0, sizeof(nw));
	nw.size = (int64_t)j->st.size;
	nw.mtime_ns = j->st.mtime_ns;
	nw.ino = j->st.ino;
	copy_str(nw.blob, sizeof(nw.blob), j->blob);
	copy_str(nw.key, sizeof(nw.key), j->key);
	nw.exported = j->exported;
	nw.outcome = j->outcome;
	/* the outputs first: a row never says more than what is on disk */
	if (j->split && ud_hsplit_moves(&j->h) && !put_split(b, j, &nw, &want_k, &want_u))
		return; /* the row stays as it was: the next look at this header tries again */
	if (old != NULL)
		drop_header_outputs(b, j->path, old, want_k, want_u);
	put_row(b, j, &nw, old);
	if (j->split && j->h.res.outcome == UD_SPLIT_REFUSED &&
	    (old == NULL || old->outcome != OUT_NEEDS_COACHING))
		ud_log(LOG_WARNING, "%s: needs coaching (see its diagnostics)", j->path);
	if (moves(old) != moves(&nw))
		dirty_dir(b, j->path);
	if ((old != NULL && old->outcome == OUT_MOVED && old->exported) !=
	    (nw.outcome == OUT_MOVED && nw.exported))
		b->removed_dirty = true;
	if (old == NULL) {
		old = ud_xmalloc(sizeof(*old));
		ud_map_put(&e->headers, j->path, old);
	} else {
		ud_engine_count_header(e, old, -1);
	}
	*old = nw;
	ud_engine_count_header(e, old, 1);
	if (strcmp(j->blob, j->old.blob) != 0 || !j->had_row || j->force)
		reinstall_source(b, j->path, j->force);
}

/* --- the export lists ------------------------------------------------------------------ */

/*
 * One directory's export-list edit.  Computed on the pool (a directory
 * listing 20,000 headers takes the loop a good part of a second): the job
 * reads only what it holds, the snapshot's source, its directory and its
 * names (copies); the outputs are written on the loop after it.
 */
struct kbuild_dir {
	char *dir;
	struct ud_strlist *names; /* its moving headers' names; NULL: none moves */
	int rc;
	struct ud_kbuild_edit kside, uside;
	struct ud_diags problems;
};

struct kbuild_job {
	uv_work_t req;
	struct batch *b;       /* for the loop's half only */
	struct ud_source *src; /* the batch's snapshot's: read only, no wave is out */
	struct kbuild_dir *v;  /* sorted by directory */
	size_t n;
	/* the batch's uninstall list's API history (its names: the list, not written meanwhile) */
	const struct ud_strlist *uninstall;
	struct api_job *api;
	void (*done)(struct batch *b);
	bool queued; /* on the pool: counted in the batch's chunks_out */
};

static void
compute_kbuild_dir(struct ud_source *src, struct kbuild_dir *d)
{
	if (d->names == NULL)
		return;
	/* in the order a batch meets them: sorted, as the tree index lists */
	ud_strlist_sort(d->names);
	d->rc = ud_hsplit_kbuilds(src, d->dir, d->names, &d->kside, &d->uside, &d->problems);
}

/* One directory's export lists as its moving headers leave them (the edit computed). */
static void
put_kbuild_dir(struct batch *b, struct kbuild_dir *d)
{
	struct ud_strlist keep = UD_STRLIST_INIT;
	char *owner = ud_xasprintf("kbuild:%s", d->dir);
	size_t x;

	if (d->names != NULL && d->rc < 0) {
		for (x = 0; x < d->problems.n; x++)
			ud_log(LOG_WARNING, "%s: %s",
			       d->problems.v[x].path ? d->problems.v[x].path : d->dir,
			       d->problems.v[x].message);
		ud_strlist_add(&keep, "*"); /* keep what is there: nothing known better */
	} else if (d->names != NULL) {
		const struct ud_kbuild_edit *ed[2] = {&d->kside, &d->uside};

		for (x = 0; x < 2; x++) {
			char *o;

			if (!ed[x]->changed)
				continue;
			o = split_out(ed[x]->rel);
			if (ud_engine_put_output(b, o, owner, ud_buf_str(&ed[x]->text),
						 ed[x]->text.len) == 0)
				ud_strlist_add(&keep, o);
			free(o);
		}
	}
	if (!ud_strlist_has(&keep, "*"))
		ud_engine_drop_owned(b, owner, &keep);
	ud_strlist_free(&keep);
	free(owner);
}

static void
kbuild_dir_free(struct kbuild_dir *d)
{
	free(d->dir);
	if (d->names != NULL) {
		ud_strlist_free(d->names);
		free(d->names);
	}
	ud_diags_free(&d->problems);
	ud_kbuild_edit_free(&d->kside);
	ud_kbuild_edit_free(&d->uside);
}

/*
 * The directories whose export lists the batch remakes (sorted), each with
 * its moving headers' names.
 */
static struct kbuild_dir *
kbuild_dirs(struct batch *b, size_t *n)
{
	struct ud_engine *e = b->e;
	struct ud_map by_dir = UD_MAP_INIT; /* dir -> struct ud_strlist * of moving names */
	struct ud_strlist dirs = UD_STRLIST_INIT;
	struct kbuild_dir *v;
	const char *k;
	void *val;
	size_t i = 0;

	*n = 0;
	if (!b->kbuild_all && b->dirty_dirs.n == 0)
		return NULL;
	while (ud_map_next(&e->headers, &i, &k, &val)) {
		struct ud_strlist *names;
		char *dir;

		if (!moves(val))
			continue;
		dir = ud_path_dir(k);
		if ((names = ud_map_get(&by_dir, dir)) == NULL) {
			names = ud_xcalloc(1, sizeof(*names));
			ud_map_put(&by_dir, dir, names);
		}
		ud_strlist_add(names, strrchr(k, '/') + 1);
		free(dir);
	}
	if (b->kbuild_all) {
		i = 0;
		while (ud_map_next(&by_dir, &i, &k, NULL))
			ud_strlist_add(&dirs, k);
		i = 0;
		while (ud_map_next(&e->outputs, &i, &k, &val)) {
			const char *owner = ((struct ostate *)val)->owner;

			if (strncmp(owner, "kbuild:", 7) == 0 && !ud_strlist_has(&dirs, owner + 7))
				ud_strlist_add(&dirs, owner + 7);
		}
	} else {
		for (i = 0; i < b->dirty_dirs.n; i++)
			ud_strlist_add(&dirs, b->dirty_dirs.v[i]);
	}
	ud_strlist_sort(&dirs);
	v = ud_xcalloc(dirs.n > 0 ? dirs.n : 1, sizeof(*v));
	for (i = 0; i < dirs.n; i++) {
		v[i].dir = ud_xstrdup(dirs.v[i]);
		v[i].names = ud_map_del(&by_dir, dirs.v[i]); /* taken: the job's own */
	}
	*n = dirs.n;
	i = 0;
	while (ud_map_next(&by_dir, &i, &k, &val)) { /* moving names of no directory listed */
		ud_strlist_free(val);
		free(val);
	}
	ud_map_free(&by_dir, NULL);
	ud_strlist_free(&dirs);
	return v;
}

/* split/.uapid-removed: the headers that moved whole, as uapid split --output lists them. */
static void
apply_removed(struct batch *b)
{
	struct ud_engine *e = b->e;
	struct ud_strlist moved = UD_STRLIST_INIT;
	struct ud_buf text = UD_BUF_INIT;
	const char *k;
	void *v;
	size_t i = 0;

	if (!b->removed_dirty)
		return;
	while (ud_map_next(&e->headers, &i, &k, &v))
		if (((struct hstate *)v)->exported && ((struct hstate *)v)->outcome == OUT_MOVED)
			ud_strlist_add(&moved, k);
	ud_strlist_sort(&moved);
	for (i = 0; i < moved.n; i++)
		ud_buf_addf(&text, "%s\n", moved.v[i]);
	if (moved.n > 0)
		ud_engine_put_output(b, "split/.uapid-removed", "removed", text.data, text.len);
	else if (ud_map_has(&e->outputs, "split/.uapid-removed"))
		ud_engine_drop_output(b, "split/.uapid-removed");
	ud_buf_free(&text);
	ud_strlist_free(&moved);
}

/* --- the installed headers ----------------------------------------------------------------- */

void
ud_engine_prepare_ijob(struct batch *b, struct ijob *j)
{
	const char *dst = b->snap->plan->plan.v[j->fi].dst;
	const struct istate *s = ud_map_get(&b->e->installed, dst);

	copy_str(j->old_blob, sizeof(j->old_blob), s != NULL ? s->blob : "");
	ud_engine_api_take(b->e, dst, &j->api);
}

void
ud_engine_apply_install(struct batch *b, struct ijob *j)
{
	struct ud_engine *e = b->e;
	const struct ud_hdr_file *f = &b->snap->plan->plan.v[j->fi];
	struct istate *s = ud_map_get(&e->installed, f->dst);
	char *o = ud_xasprintf("install/include/%s", f->dst), *cause = NULL, *diags;
	bool changed;

	b->rep.reinstalled++;
	if (j->in.ok) {
		if (ud_engine_put_output(b, o, "install", ud_buf_str(&j->in.text), j->in.text.len) <
		    0) {
			free(o);
			return; /* the row stays: the next start finds the output and repairs it */
		}
	} else {
		j->blob[0] = '\0';
		if (ud_map_has(&e->outputs, o))
			ud_engine_drop_output(b, o);
		if (s == NULL || s->blob[0] != '\0' || strcmp(s->src_blob, j->src_blob) != 0) {
			struct ud_diag *g = j->in.diags.n > 0 ? &j->in.diags.v[0] : NULL;

			ud_log(LOG_WARNING, "install/include/%s: not installed: %s%s%s", f->dst,
			       g != NULL && g->path ? g->path : f->src, g != NULL ? ": " : "",
			       g != NULL ? g->message : "");
		}
	}
	diags = ud_json_take_dump(ud_json_diags(&j->in.diags));
	changed = s == NULL || strcmp(s->blob, j->blob) != 0;
	if (changed)
		ud_engine_event(b, f->dst, "install", j->in.ok ? "installed" : "failed");
	if (changed && j->in.ok) /* its API model was read on the pool */
		ud_engine_api_record(b, f->dst, ud_buf_str(&j->in.text), j->in.text.len, &j->api);
	if (ud_store_put_installed(e->store, f->dst, f->src, j->src_blob, j->blob, diags, e->clock,
				   &cause) < 0)
		ud_engine_fault(e, -EIO, cause);
	free(diags);
	if (s == NULL) {
		s = ud_xcalloc(1, sizeof(*s));
		ud_map_put(&e->installed, f->dst, s);
	} else {
		ud_engine_count_installed(e, s->blob, -1);
	}
	free(s->src);
	s->src = ud_xstrdup(f->src);
	copy_str(s->src_blob, sizeof(s->src_blob), j->src_blob);
	copy_str(s->blob, sizeof(s->blob), j->blob);
	ud_engine_count_installed(e, s->blob, 1);
	free(o);
}

/* The installed headers the plan no longer has go (api: their API history's, computed). */
static void
apply_uninstall(struct batch *b, struct api_job *api)
{
	struct ud_engine *e = b->e;
	struct istate *s;
	size_t i;
	char *cause = NULL;

	for (i = 0; i < b->uninstall.n; i++) {
		char *o = ud_xasprintf("install/include/%s", b->uninstall.v[i]);

		if (ud_map_has(&e->outputs, o))
			ud_engine_drop_output(b, o);
		if (ud_store_del_installed(e->store, b->uninstall.v[i], &cause) < 0) {
			ud_engine_fault(e, -EIO, cause);
			cause = NULL;
		}
		ud_engine_event(b, b->uninstall.v[i], "install", "removed");
		ud_engine_api_record(b, b->uninstall.v[i], NULL, 0, &api[i]);
		s = ud_map_del(&e->installed, b->uninstall.v[i]);
		if (s != NULL)
			ud_engine_count_installed(e, s->blob, -1);
		ud_engine_istate_free(s);
		free(o);
	}
}

/* The split's problem: the headers that need coaching, the first of them named. */
static void
update_split_problem(struct ud_engine *e)
{
	const char *k, *first = NULL;
	size_t i = 0, n = e->counts.needs_coaching;
	void *v;
	char *why;

	if (n == 0) {
		ud_engine_set_problem(e, &e->problem_split, "split", NULL);
		return;
	}
	if (n == e->problem_split_count && e->problem_split != NULL)
		return; /* said already (the first one named may be another now: no matter) */
	e->problem_split_count = n;
	while (ud_map_next(&e->headers, &i, &k, &v))
		if (((struct hstate *)v)->outcome == OUT_NEEDS_COACHING &&
		    (first == NULL || strcmp(k, first) < 0))
			first = k;
	why = ud_xasprintf("%zu header%s need%s coaching (%s%s): give markers with --markers, or "
			   "over the socket",
			   n, n == 1 ? "" : "s", n == 1 ? "s" : "", first, n > 1 ? ", ..." : "");
	ud_engine_set_problem(e, &e->problem_split, "split", why);
	free(why);
}

/*
 * The export lists' problem: entries naming a FIFO, a directory, a symlink
 * loop... (each with its Kbuild file and line; three named, then a count).
 * The index keeps them as it reads the lists: this costs what it finds.
 */
static void
update_exports_problem(struct ud_engine *e)
{
	struct ud_diags odd = UD_DIAGS_INIT;
	struct ud_buf why = UD_BUF_INIT;
	size_t i, n = ud_tindex_odd_exports(e->idx, &odd);

	if (!e->exports_said) {
		/* a row left by a run before this one is not today's word */
		char *cause = NULL;

		if (ud_store_set_problem(e->store, "exports", NULL, e->clock, &cause) < 0) {
			ud_log(LOG_ERR, "%s", cause);
			free(cause);
		}
		e->exports_said = true;
	}
	for (i = 0; i < n && i < 3; i++)
		ud_buf_addf(&why, "%s%s:%u: %s", i > 0 ? "; " : "", odd.v[i].path, odd.v[i].line,
			    odd.v[i].message);
	if (n > 3)
		ud_buf_addf(&why, "; and %zu more", n - 3);
	ud_engine_set_problem(e, &e->problem_exports, "exports", n > 0 ? ud_buf_str(&why) : NULL);
	ud_buf_free(&why);
	ud_diags_free(&odd);
}

/* On a pool thread: every directory's edit. */
static void
kbuild_work_cb(uv_work_t *req)
{
	struct kbuild_job *j = req->data;
	size_t i;

	for (i = 0; i < j->n; i++)
		compute_kbuild_dir(j->src, &j->v[i]);
	for (i = 0; i < j->uninstall->n; i++)
		ud_engine_api_compute(j->uninstall->v[i], NULL, 0, &j->api[i]);
}

/* The batch's end, its export lists computed: what depends on all its headers at once. */
static void
kbuild_after_cb(uv_work_t *req, int status)
{
	struct kbuild_job *j = req->data;
	struct batch *b = j->b;
	void (*done)(struct batch *) = j->done;
	size_t i;

	if (status < 0) /* cancelled (nothing cancels it): computed here after all */
		kbuild_work_cb(req);
	if (j->queued)
		b->chunks_out--;
	for (i = 0; i < j->n; i++) {
		put_kbuild_dir(b, &j->v[i]);
		kbuild_dir_free(&j->v[i]);
	}
	free(j->v);
	apply_removed(b);
	apply_uninstall(b, j->api);
	for (i = 0; i < b->uninstall.n; i++)
		ud_engine_api_free(&j->api[i]);
	free(j->api);
	free(j);
	update_split_problem(b->e);
	update_exports_problem(b->e);
	done(b);
}

void
ud_engine_apply_end(struct batch *b, void (*done)(struct batch *b))
{
	struct kbuild_job *j = ud_xcalloc(1, sizeof(*j));
	size_t i;

	ASSERT_NO_CHUNKS_OUT(b);
	j->req.data = j;
	j->b = b;
	j->src = b->snap->src;
	j->done = done;
	j->v = kbuild_dirs(b, &j->n);
	/* filled from a map: in path order, so that the events do not follow its slots */
	ud_strlist_sort(&b->uninstall);
	j->uninstall = &b->uninstall;
	j->api = ud_xcalloc(b->uninstall.n > 0 ? b->uninstall.n : 1, sizeof(*j->api));
	for (i = 0; i < b->uninstall.n; i++)
		ud_engine_api_take(b->e, b->uninstall.v[i], &j->api[i]);
	if (j->n + b->uninstall.n > 0 &&
	    uv_queue_work(b->e->loop, &j->req, kbuild_work_cb, kbuild_after_cb) == 0) {
		j->queued = true;
		b->chunks_out++; /* nothing the job reads is written meanwhile (rule 3) */
		return;
	}
	/* nothing to edit, or the pool will not take it: done here */
	kbuild_work_cb(&j->req);
	kbuild_after_cb(&j->req, 0);
}
