// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's output files (engine-int.h): split/ and install/include/
 * in the state directory, each recorded in the outputs table with the
 * blob it must hold and the owner that made it (a header's path,
 * "install", "kbuild:DIR", "removed").
 *
 * Outputs are not flushed to the disk one by one: every start compares
 * each output with the blob the store says it must hold, removes the
 * files the store does not know, and re-makes what differs, which repairs
 * both a kill -9 between the writes and the commit and a power loss that
 * took back writes the commit outlived.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine-int.h"
#include "uapid/api/api.h"
#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/log.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

void
ud_engine_ostate_free(void *v)
{
	struct ostate *o = v;

	if (o != NULL)
		free(o->owner);
	free(o);
}

/* Removes the directories a removal left empty, up to split/ or install/include/. */
static void
prune_dirs(struct ud_engine *e, const char *rel)
{
	char *dir = ud_path_dir(rel);

	while (strchr(dir, '/') != NULL && strcmp(dir, "install/include") != 0) {
		char *abs = ud_xasprintf("%s/%s", e->state_dir, dir);
		char *up;
		int rc = rmdir(abs);

		free(abs);
		if (rc < 0)
			break; /* not empty (or gone): stop */
		up = ud_path_dir(dir);
		free(dir);
		dir = up;
	}
	free(dir);
}

/* Does the file at rel hold something else than data (asked to split again: it may be damaged)? */
static bool
damaged_on_disk(struct ud_engine *e, const char *rel, const char *data, size_t len)
{
	struct ud_buf there = UD_BUF_INIT;
	bool damaged = ud_sink_read(&e->out, rel, &there, NULL) != 0 || there.len != len ||
		       (len > 0 && memcmp(there.data, data, len) != 0);

	ud_buf_free(&there);
	return damaged;
}

/* The batch is about to change the output at rel, made by owner (see struct batch). */
static void
touch(struct batch *b, const char *rel, const char *owner)
{
	if (!ud_map_has(&b->touched, rel))
		ud_map_put(&b->touched, rel, ud_xstrdup(owner));
}

#ifdef UD_TEST_HOOKS
/*
 * UAPID_TEST_FAIL_WRITES=FILE: while FILE exists, writing an output whose
 * path holds the text in it fails with EIO (empty: every output), as a
 * failing disk would.  For the cases a tmpfs cannot make: EIO, and an
 * output failing while the store is fine.
 */
static bool
fail_write(struct ud_engine *e, const char *rel, int *rc, char **cause)
{
	const char *f = getenv("UAPID_TEST_FAIL_WRITES");
	struct ud_buf what = UD_BUF_INIT;
	bool fails;

	(void)e;
	if (f == NULL || ud_read_file(f, &what, NULL) < 0)
		return false;
	while (what.len > 0 && (what.data[what.len - 1] == '\n' || what.data[what.len - 1] == ' '))
		what.len--;
	if (what.data != NULL)
		what.data[what.len] = '\0';
	fails = what.len == 0 || strstr(rel, ud_buf_str(&what)) != NULL;
	if (fails) {
		*rc = -EIO;
		*cause = ud_xasprintf("%s/%s: cannot write: %s (UAPID_TEST_FAIL_WRITES)",
				      e->state_dir, rel, strerror(EIO));
	}
	ud_buf_free(&what);
	return fails;
}
#endif

/*
 * Writes an output of the batch b (when its blob differs from what is
 * there, or it is damaged) and records it; 0 or a negative errno (then
 * the batch has failed: ud_engine_fault).
 */
int
ud_engine_put_output(struct batch *b, const char *rel, const char *owner, const char *data,
		     size_t len)
{
	struct ud_engine *e = b->e;
	struct ostate *o = ud_map_get(&e->outputs, rel);
	char blob[BLOB_HEX], *cause = NULL;
	bool damaged;
	int rc;

	ud_engine_blob(data, len, blob);
	damaged = b->verify_disk && o != NULL && strcmp(o->blob, blob) == 0 &&
		  damaged_on_disk(e, rel, data, len);
	if (!damaged && o != NULL && strcmp(o->blob, blob) == 0 && strcmp(o->owner, owner) == 0)
		return 0;
	if (ud_engine_failed(b)) {
		b->rep.failed++;
		return -EIO; /* rolled back: writing more would only take the space it lacks */
	}
	if (damaged || o == NULL || strcmp(o->blob, blob) != 0) {
#ifdef UD_TEST_HOOKS
		if (e->crash_after > 0 && --e->crash_after == 0)
			raise(SIGKILL); /* killed between the writes and the commit */
		if (fail_write(e, rel, &rc, &cause)) {
			ud_engine_fault(e, rc, cause);
			b->rep.failed++;
			return rc;
		}
#endif
		touch(b, rel, owner);
		if ((rc = ud_sink_write(&e->out, rel, data, len, &cause)) < 0) {
			ud_engine_fault(e, rc, cause);
			b->rep.failed++;
			return rc;
		}
		b->rep.written++;
	}
	if ((rc = ud_store_put_output(e->store, rel, blob, owner, &cause)) < 0) {
		ud_engine_fault(e, rc, cause);
		return rc;
	}
	if (o == NULL) {
		o = ud_xcalloc(1, sizeof(*o));
		ud_map_put(&e->outputs, rel, o);
	}
	copy_str(o->blob, sizeof(o->blob), blob);
	free(o->owner);
	o->owner = ud_xstrdup(owner);
	return 0;
}

void
ud_engine_drop_output(struct batch *b, const char *rel)
{
	struct ud_engine *e = b->e;
	struct ostate *o = ud_map_get(&e->outputs, rel);
	char *cause = NULL;
	int rc;

	if (ud_engine_failed(b)) {
		b->rep.failed++;
		return; /* rolled back: the output stays, as the store says */
	}
	touch(b, rel, o != NULL ? o->owner : "");
	if ((rc = ud_sink_remove(&e->out, rel, &cause)) < 0) {
		ud_engine_fault(e, rc, cause);
		b->rep.failed++;
		return;
	}
	b->rep.removed++;
	prune_dirs(e, rel);
	if ((rc = ud_store_del_output(e->store, rel, &cause)) < 0)
		ud_engine_fault(e, rc, cause);
	ud_engine_ostate_free(ud_map_del(&e->outputs, rel));
}

/* Every output of owner that is not in keep (may be NULL) goes. */
void
ud_engine_drop_owned(struct batch *b, const char *owner, const struct ud_strlist *keep)
{
	struct ud_strlist gone = UD_STRLIST_INIT;
	const char *k;
	void *v;
	size_t i = 0;

	while (ud_map_next(&b->e->outputs, &i, &k, &v))
		if (strcmp(((struct ostate *)v)->owner, owner) == 0 &&
		    (keep == NULL || !ud_strlist_has(keep, k)))
			ud_strlist_add(&gone, k);
	ud_strlist_sort(&gone); /* the store's and the disk's order: the paths', not the map's */
	for (i = 0; i < gone.n; i++)
		ud_engine_drop_output(b, gone.v[i]);
	ud_strlist_free(&gone);
}

/*
 * A batch was recorded: the outputs that batches before it wrote or
 * removed without being recorded are what the store says now (their
 * owners were made again), or, when it does not know them, removed.
 */
void
ud_engine_tidy_unrecorded(struct ud_engine *e)
{
	struct ud_map keep = UD_MAP_INIT;
	const char *k;
	void *v;
	size_t i = 0, removed = 0;
	char *cause = NULL;

	while (ud_map_next(&e->unrecorded, &i, &k, &v)) {
		if (ud_map_has(&e->outputs, k)) {
			free(v);
			continue;
		}
		if (ud_sink_remove(&e->out, k, &cause) < 0) {
			ud_log(LOG_ERR, "%s", cause); /* kept: removed after the next batch */
			free(cause);
			cause = NULL;
			ud_map_put(&keep, k, v);
			continue;
		}
		free(v);
		prune_dirs(e, k);
		removed++;
	}
	ud_map_free(&e->unrecorded, NULL);
	e->unrecorded = keep;
	if (removed > 0)
		ud_log(LOG_INFO, "outputs: %zu written by batches not recorded removed", removed);
}

/* The batch could not be recorded: what it changed on the disk is remembered. */
void
ud_engine_keep_unrecorded(struct batch *b)
{
	struct ud_engine *e = b->e;
	const char *k;
	void *v;
	size_t i = 0;

	while (ud_map_next(&b->touched, &i, &k, &v))
		if (!ud_map_has(&e->unrecorded, k))
			ud_map_put(&e->unrecorded, k, ud_xstrdup(v));
}

/* --- the start-up check of the outputs ------------------------------------------ */

struct verify {
	struct ud_engine *e;
	struct ud_map seen;
	size_t strays, damaged;
};

/* An output that is missing or damaged: its owner's next look makes it again. */
static void
mark_damaged(struct ud_engine *e, const char *rel)
{
	struct ostate *o = ud_map_get(&e->outputs, rel);
	char *cause = NULL;

	if (o == NULL)
		return;
	if (strcmp(o->owner, "install") == 0)
		ud_map_put(&e->force_installed, rel + strlen("install/include/"), (void *)1);
	else if (strncmp(o->owner, "kbuild:", 7) != 0 && strcmp(o->owner, "removed") != 0)
		ud_map_put(&e->force_headers, o->owner, (void *)1);
	/* forgotten: the owner's next look writes it whatever its blob */
	if (ud_store_del_output(e->store, rel, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	}
	ud_engine_ostate_free(ud_map_del(&e->outputs, rel));
}

static void
verify_file(struct verify *v, struct ud_source *dir, const char *name, const char *child)
{
	struct ostate *o = ud_map_get(&v->e->outputs, child);
	struct ud_buf b = UD_BUF_INIT;
	char blob[BLOB_HEX];

	if (o == NULL) {
		/* a file the store does not know: a batch that never committed */
		char *p = ud_xasprintf("%s/%s", v->e->state_dir, child);

		if (unlink(p) == 0)
			v->strays++;
		free(p);
		prune_dirs(v->e, child);
		return;
	}
	ud_map_put(&v->seen, child, (void *)1);
	if (ud_source_read(dir, name, &b, NULL) < 0)
		blob[0] = '\0';
	else
		ud_engine_blob(b.data, b.len, blob);
	if (strcmp(blob, o->blob) != 0) {
		mark_damaged(v->e, child);
		v->damaged++;
	}
	ud_buf_free(&b);
}

static void
verify_dir(struct verify *v, const char *rel)
{
	struct ud_strlist names = UD_STRLIST_INIT;
	struct ud_source dir;
	char *abs = ud_xasprintf("%s/%s", v->e->state_dir, rel);
	size_t i;

	memset(&dir, 0, sizeof(dir));
	if (ud_source_open_dir(&dir, abs, NULL) < 0 || ud_source_list(&dir, "", &names, NULL) < 0) {
		ud_source_close(&dir);
		ud_strlist_free(&names);
		free(abs);
		return;
	}
	ud_strlist_sort(&names);
	for (i = 0; i < names.n; i++) {
		size_t n = strlen(names.v[i]);
		char *child;

		if (n > 0 && names.v[i][n - 1] == '/') {
			names.v[i][n - 1] = '\0';
			child = ud_xasprintf("%s/%s", rel, names.v[i]);
			verify_dir(v, child);
		} else {
			child = ud_xasprintf("%s/%s", rel, names.v[i]);
			verify_file(v, &dir, names.v[i], child);
		}
		free(child);
	}
	ud_source_close(&dir);
	ud_strlist_free(&names);
	free(abs);
}

/* Every output against the store: strays removed, missing or damaged ones marked to be made. */
int
ud_engine_verify_outputs(struct ud_engine *e, char **cause)
{
	struct verify v;
	struct ud_strlist missing = UD_STRLIST_INIT;
	const char *k;
	size_t i = 0;
	int rc;

	memset(&v, 0, sizeof(v));
	v.e = e;
	if ((rc = ud_store_begin(e->store, cause)) < 0)
		return rc;
	verify_dir(&v, "split");
	verify_dir(&v, "install");
	while (ud_map_next(&e->outputs, &i, &k, NULL))
		if (!ud_map_has(&v.seen, k))
			ud_strlist_add(&missing, k);
	for (i = 0; i < missing.n; i++)
		mark_damaged(e, missing.v[i]);
	v.damaged += missing.n;
	ud_strlist_free(&missing);
	ud_map_free(&v.seen, NULL);
	if ((rc = ud_store_commit(e->store, cause)) < 0)
		return rc;
	if (v.strays > 0 || v.damaged > 0)
		ud_log(LOG_NOTICE,
		       "outputs repaired: %zu stray files removed, %zu missing or damaged made again",
		       v.strays, v.damaged);
	return 0;
}

/*
 * Installed headers the store has no API version of (a state directory
 * from before the API history, sql/003-api.sql): their text now is their
 * first version, so the next change is compared with something.
 */
void
ud_engine_backfill_api(struct ud_engine *e)
{
	struct ud_buf text = UD_BUF_INIT;
	const char *k;
	void *v;
	size_t i = 0, n = 0;
	char *cause = NULL;

	if (ud_store_begin(e->store, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return;
	}
	while (ud_map_next(&e->installed, &i, &k, &v)) {
		const struct istate *s = v;
		struct ud_api_header h;
		char *path, fp[32];

		if (s->blob[0] == '\0' || ud_store_api_has_version(e->store, k))
			continue;
		path = ud_xasprintf("%s/install/include/%s", e->state_dir, k);
		if (ud_read_file(path, &text, NULL) == 0) {
			ud_api_parse(k, text.data, text.len, &h);
			snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)h.fingerprint);
			if (ud_store_put_api_version(e->store, k, ud_store_clock(e->store), fp,
						     text.data, text.len, NULL) == 0)
				n++;
			ud_api_header_free(&h);
		}
		free(path);
	}
	if (ud_store_commit(e->store, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
	} else if (n > 0) {
		ud_log(LOG_INFO, "API history: %zu installed header%s recorded as they are now", n,
		       n == 1 ? "" : "s");
	}
	ud_buf_free(&text);
}
