// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The store's rows of the tree's state (see store.h): headers, installed
 * headers, outputs, markers, events and problems.  The database handle,
 * its statements and its transaction are store.c's.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-int.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

void
ud_hrow_free(struct ud_hrow *r)
{
	if (r == NULL)
		return;
	free(r->path);
	free(r->blob);
	free(r->outcome);
	free(r->blocks);
	free(r->diagnostics);
	free(r->kernel_blob);
	free(r->uapi_blob);
	free(r->split_key);
	memset(r, 0, sizeof(*r));
}

static void
read_row(sqlite3_stmt *q, struct ud_hrow *r)
{
	r->path = ud_store_column(q, 0);
	r->size = sqlite3_column_int64(q, 1);
	r->mtime_ns = sqlite3_column_int64(q, 2);
	r->ino = (uint64_t)sqlite3_column_int64(q, 3);
	r->blob = ud_store_column(q, 4);
	r->exported = sqlite3_column_int(q, 5) != 0;
	r->outcome = ud_store_column(q, 6);
	r->blocks = ud_store_column(q, 7);
	r->diagnostics = ud_store_column(q, 8);
	r->kernel_blob = ud_store_column(q, 9);
	r->uapi_blob = ud_store_column(q, 10);
	r->split_key = ud_store_column(q, 11);
	r->clock = sqlite3_column_int64(q, 12);
}

int
ud_store_header(struct ud_store *s, const char *path, struct ud_hrow *r, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_HDR_GET);
	int rc;

	memset(r, 0, sizeof(*r));
	ud_store_bind(q, 1, path);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_row(q, r);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ud_store_fail(s, cause, "reading a header");
	return rc == SQLITE_ROW;
}

int
ud_store_put_header(struct ud_store *s, const struct ud_hrow *r, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_HDR_PUT);

	ud_store_bind(q, 1, r->path);
	sqlite3_bind_int64(q, 2, r->size);
	sqlite3_bind_int64(q, 3, r->mtime_ns);
	sqlite3_bind_int64(q, 4, (sqlite3_int64)r->ino);
	ud_store_bind(q, 5, r->blob != NULL ? r->blob : "");
	sqlite3_bind_int(q, 6, r->exported);
	ud_store_bind(q, 7, r->outcome != NULL ? r->outcome : "");
	ud_store_bind(q, 8, r->blocks);
	ud_store_bind(q, 9, r->diagnostics);
	ud_store_bind(q, 10, r->kernel_blob);
	ud_store_bind(q, 11, r->uapi_blob);
	ud_store_bind(q, 12, r->split_key != NULL ? r->split_key : "");
	sqlite3_bind_int64(q, 13, r->clock);
	return ud_store_run(s, q, cause, "writing a header");
}

int
ud_store_del_header(struct ud_store *s, const char *path, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_HDR_DEL);

	ud_store_bind(q, 1, path);
	return ud_store_run(s, q, cause, "removing a header");
}

static int
each_header(struct ud_store *s, enum stmt which, int (*fn)(const struct ud_hrow *r, void *ctx),
	    void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, which);
	int rc, stop = 0;

	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct ud_hrow r;

		read_row(q, &r);
		stop = fn(&r, ctx);
		ud_hrow_free(&r);
	}
	if (stop == 0 && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return ud_store_fail(s, cause, "reading the headers");
	}
	sqlite3_reset(q);
	return stop;
}

int
ud_store_each_header(struct ud_store *s, int (*fn)(const struct ud_hrow *r, void *ctx), void *ctx,
		     char **cause)
{
	return each_header(s, S_HDR_EACH, fn, ctx, cause);
}

int
ud_store_each_header_state(struct ud_store *s, int (*fn)(const struct ud_hrow *r, void *ctx),
			   void *ctx, char **cause)
{
	return each_header(s, S_HDR_EACH_STATE, fn, ctx, cause);
}

int
ud_store_put_installed(struct ud_store *s, const char *dst, const char *src, const char *src_blob,
		       const char *blob, const char *diagnostics, int64_t clock, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_INST_PUT);

	ud_store_bind(q, 1, dst);
	ud_store_bind(q, 2, src);
	ud_store_bind(q, 3, src_blob != NULL ? src_blob : "");
	ud_store_bind(q, 4, blob);
	ud_store_bind(q, 5, diagnostics);
	sqlite3_bind_int64(q, 6, clock);
	return ud_store_run(s, q, cause, "writing an installed header");
}

int
ud_store_del_installed(struct ud_store *s, const char *dst, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_INST_DEL);

	ud_store_bind(q, 1, dst);
	return ud_store_run(s, q, cause, "removing an installed header");
}

int
ud_store_each_installed(struct ud_store *s,
			int (*fn)(const char *dst, const char *src, const char *src_blob,
				  const char *blob, const char *diagnostics, void *ctx),
			void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_INST_EACH);
	int rc, stop = 0;

	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = fn((const char *)sqlite3_column_text(q, 0),
			  (const char *)sqlite3_column_text(q, 1),
			  (const char *)sqlite3_column_text(q, 2),
			  (const char *)sqlite3_column_text(q, 3),
			  (const char *)sqlite3_column_text(q, 4), ctx);
	if (stop == 0 && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return ud_store_fail(s, cause, "reading the installed headers");
	}
	sqlite3_reset(q);
	return stop;
}

int
ud_store_put_output(struct ud_store *s, const char *path, const char *blob, const char *owner,
		    char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_OUT_PUT);

	ud_store_bind(q, 1, path);
	ud_store_bind(q, 2, blob);
	ud_store_bind(q, 3, owner);
	return ud_store_run(s, q, cause, "recording an output");
}

int
ud_store_del_output(struct ud_store *s, const char *path, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_OUT_DEL);

	ud_store_bind(q, 1, path);
	return ud_store_run(s, q, cause, "forgetting an output");
}

int
ud_store_each_output(struct ud_store *s,
		     int (*fn)(const char *path, const char *blob, const char *owner, void *ctx),
		     void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_OUT_EACH);
	int rc, stop = 0;

	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = fn((const char *)sqlite3_column_text(q, 0),
			  (const char *)sqlite3_column_text(q, 1),
			  (const char *)sqlite3_column_text(q, 2), ctx);
	if (stop == 0 && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return ud_store_fail(s, cause, "reading the outputs");
	}
	sqlite3_reset(q);
	return stop;
}

static int
add_marker(struct ud_store *s, const char *origin, const struct ud_marker *m, int64_t *id,
	   char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_MARK_ADD);
	int rc;

	ud_store_bind(q, 1, m->path);
	ud_store_bind(q, 2, ud_marker_action_name(m->action));
	ud_store_bind(q, 3, m->selector);
	sqlite3_bind_int(q, 4, (int)m->occurrence);
	ud_store_bind(q, 5, m->why);
	ud_store_bind(q, 6, origin);
	sqlite3_bind_int(q, 7, (int)m->line);
	rc = ud_store_run(s, q, cause, "writing a marker");
	if (rc == 0 && id != NULL)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

int
ud_store_set_markers(struct ud_store *s, const char *origin, const struct ud_markers *set,
		     char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_MARK_CLEAR);
	size_t i;
	int rc;

	ud_store_bind(q, 1, origin);
	if ((rc = ud_store_run(s, q, cause, "clearing markers")) < 0)
		return rc;
	for (i = 0; set != NULL && i < set->n && rc == 0; i++)
		rc = add_marker(s, origin, &set->v[i], NULL, cause);
	return rc;
}

int
ud_store_set_path_markers(struct ud_store *s, const char *origin, const char *path,
			  const struct ud_marker *v, size_t n, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_MARK_CLEAR_PATH);
	size_t i;
	int rc;

	ud_store_bind(q, 1, origin);
	ud_store_bind(q, 2, path);
	if ((rc = ud_store_run(s, q, cause, "clearing markers")) < 0)
		return rc;
	for (i = 0; i < n && rc == 0; i++)
		rc = add_marker(s, origin, &v[i], NULL, cause);
	return rc;
}

int
ud_store_add_marker(struct ud_store *s, const char *origin, const struct ud_marker *m, int64_t *id,
		    char **cause)
{
	return add_marker(s, origin, m, id, cause);
}

int
ud_store_del_marker(struct ud_store *s, int64_t id, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_MARK_DEL);

	sqlite3_bind_int64(q, 1, id);
	if (ud_store_run(s, q, cause, "removing a marker") < 0)
		return -EIO;
	return sqlite3_changes(s->db) > 0 ? 0 : -ENOENT;
}

int
ud_store_markers(struct ud_store *s, const char *origin, struct ud_markers *set, int64_t **ids,
		 char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_MARK_EACH);
	size_t alloc = 0, n = 0;
	int rc;

	ud_store_bind(q, 1, origin);
	if (ids != NULL)
		*ids = NULL;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *action = (const char *)sqlite3_column_text(q, 2);
		enum ud_marker_action a;

		for (a = 0; a < UD_MARK__COUNT; a++)
			if (strcmp(ud_marker_action_name(a), action) == 0)
				break;
		if (a == UD_MARK__COUNT)
			continue; /* written by a later uapid: not ours to apply */
		ud_markers_add(set, (const char *)sqlite3_column_text(q, 1), a, NULL,
			       (unsigned)sqlite3_column_int(q, 4),
			       (const char *)sqlite3_column_text(q, 5));
		/* the selector is stored normalised: keep it as it is */
		if (sqlite3_column_text(q, 3) != NULL)
			set->v[set->n - 1].selector =
				ud_xstrdup((const char *)sqlite3_column_text(q, 3));
		set->v[set->n - 1].line = (unsigned)sqlite3_column_int(q, 6);
		if (ids != NULL) {
			*ids = ud_xgrow(*ids, &alloc, n + 1, sizeof(**ids));
			(*ids)[n++] = sqlite3_column_int64(q, 0);
		}
	}
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : ud_store_fail(s, cause, "reading the markers");
}

int64_t
ud_store_event(struct ud_store *s, const char *path, const char *kind, const char *detail,
	       char **cause)
{
	sqlite3_stmt *q;
	int64_t ids[3] = {0, 0, 0};
	const char *names[3] = {path, kind, detail};
	int rc, i;

	/* each name by its id: a row of a few bytes (sql/006-names.sql) */
	for (i = 0; i < 3; i++)
		if (names[i] != NULL && (rc = ud_store_name_id(s, names[i], &ids[i], cause)) < 0)
			return rc;
	q = ud_store_stmt(s, S_EVENT_ADD);
	sqlite3_bind_int64(q, 1, (sqlite3_int64)time(NULL));
	sqlite3_bind_int64(q, 2, ids[0]);
	sqlite3_bind_int64(q, 3, ids[1]);
	if (detail != NULL)
		sqlite3_bind_int64(q, 4, ids[2]);
	else
		sqlite3_bind_null(q, 4);
	rc = ud_store_run(s, q, cause, "logging an event");
	return rc < 0 ? rc : sqlite3_last_insert_rowid(s->db);
}

static int64_t
scalar(struct ud_store *s, enum stmt i)
{
	sqlite3_stmt *q = ud_store_stmt(s, i);
	int64_t v = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;

	sqlite3_reset(q);
	return v;
}

int64_t
ud_store_clock(struct ud_store *s)
{
	return scalar(s, S_EVENT_LAST);
}

int64_t
ud_store_first_clock(struct ud_store *s)
{
	return scalar(s, S_EVENT_FIRST);
}

int
ud_store_each_event(struct ud_store *s, int64_t since,
		    int (*fn)(int64_t clock, const char *path, const char *kind, const char *detail,
			      void *ctx),
		    void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_EVENT_EACH);
	int rc, stop = 0;

	sqlite3_bind_int64(q, 1, since);
	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = fn(sqlite3_column_int64(q, 0), (const char *)sqlite3_column_text(q, 1),
			  (const char *)sqlite3_column_text(q, 2),
			  (const char *)sqlite3_column_text(q, 3), ctx);
	if (stop == 0 && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return ud_store_fail(s, cause, "reading the events");
	}
	sqlite3_reset(q);
	return stop;
}

int
ud_store_set_problem(struct ud_store *s, const char *what, const char *reason, int64_t clock,
		     char **cause)
{
	sqlite3_stmt *q;

	if (reason == NULL) {
		q = ud_store_stmt(s, S_PROB_DEL);
		ud_store_bind(q, 1, what);
		return ud_store_run(s, q, cause, "clearing a problem");
	}
	q = ud_store_stmt(s, S_PROB_SET);
	ud_store_bind(q, 1, what);
	ud_store_bind(q, 2, reason);
	sqlite3_bind_int64(q, 3, clock);
	return ud_store_run(s, q, cause, "recording a problem");
}

int
ud_store_each_problem(struct ud_store *s,
		      int (*fn)(const char *what, const char *reason, void *ctx), void *ctx,
		      char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_PROB_EACH);
	int rc, stop = 0;

	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = fn((const char *)sqlite3_column_text(q, 0),
			  (const char *)sqlite3_column_text(q, 1), ctx);
	if (stop == 0 && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return ud_store_fail(s, cause, "reading the problems");
	}
	sqlite3_reset(q);
	return stop;
}
