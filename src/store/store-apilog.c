// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The store's api-log tables (store.h, sql/004-api-log.sql).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"

#include "store-int.h"

void
ud_apilog_state_free(struct ud_apilog_state *s)
{
	free(s->headers);
	free(s->source);
	memset(s, 0, sizeof(*s));
}

/* 1 with *out when key has an index (*version its version), 0 when not, <0 on error. */
static int
lookup(struct ud_store *st, const char *key, int *version, struct ud_apilog_state *out)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_GET);
	int rc;

	memset(out, 0, sizeof(*out));
	ud_store_bind(q, 1, key);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(q, 0);
		*version = sqlite3_column_int(q, 1);
		out->headers = ud_store_column(q, 2);
		out->source = ud_store_column(q, 3);
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int
ud_store_apilog_find(struct ud_store *st, const char *key, int version, struct ud_apilog_state *out)
{
	int v = 0, rc = lookup(st, key, &v, out);

	if (rc == 1 && v == version)
		return 1;
	ud_apilog_state_free(out);
	return 0;
}

int
ud_store_apilog_open(struct ud_store *st, const char *key, int version, struct ud_apilog_state *out,
		     char **cause)
{
	sqlite3_stmt *q;
	int v = 0, rc = lookup(st, key, &v, out);

	if (rc < 0)
		return ud_store_fail(st, cause, "reading the api-log index");
	if (rc == 1 && v == version)
		return 0;
	if (rc == 1) {
		/* made by other rules: made again */
		if ((rc = ud_store_apilog_drop(st, out->id, cause)) < 0)
			return rc;
		ud_apilog_state_free(out);
	}
	q = ud_store_stmt(st, S_LOG_ADD);
	ud_store_bind(q, 1, key);
	sqlite3_bind_int(q, 2, version);
	if ((rc = ud_store_run(st, q, cause, "making an api-log index")) < 0)
		return rc;
	return lookup(st, key, &v, out) == 1
		       ? 0
		       : ud_store_fail(st, cause, "reading the api-log index");
}

int
ud_store_apilog_set(struct ud_store *st, int64_t id, const char *headers, const char *source,
		    char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_SET);

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, headers);
	ud_store_bind(q, 3, source);
	return ud_store_run(st, q, cause, "recording the api-log index");
}

int
ud_store_apilog_drop(struct ud_store *st, int64_t id, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_DEL);

	sqlite3_bind_int64(q, 1, id);
	return ud_store_run(st, q, cause, "dropping an api-log index"); /* rows follow: CASCADE */
}

int
ud_store_apilog_pos(struct ud_store *st, int64_t id, const char *commit, int64_t *pos)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_CHAIN_GET);
	int found;

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, commit);
	found = sqlite3_step(q) == SQLITE_ROW;
	if (found)
		*pos = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	return found;
}

int
ud_store_apilog_put_pos(struct ud_store *st, int64_t id, const char *commit, int64_t pos,
			char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_CHAIN_PUT);

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, commit);
	sqlite3_bind_int64(q, 3, pos);
	return ud_store_run(st, q, cause, "recording the api-log chain");
}

int64_t
ud_store_apilog_end_pos(struct ud_store *st, int64_t id, bool last, char **commit)
{
	sqlite3_stmt *q = ud_store_stmt(st, last ? S_LOG_CHAIN_LAST : S_LOG_CHAIN_FIRST);
	int64_t pos = -1;

	if (commit != NULL)
		*commit = NULL;
	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) == SQLITE_ROW) {
		pos = sqlite3_column_int64(q, 0);
		if (commit != NULL)
			*commit = ud_store_column(q, 1);
	}
	sqlite3_reset(q);
	return pos;
}

int
ud_store_apilog_cut(struct ud_store *st, int64_t id, int64_t pos, char **cause)
{
	struct ud_apilog_step last;
	int64_t keep = ud_store_apilog_last_step(st, id, pos, &last) == 1 ? last.step : 0;
	static const enum stmt by_step[] = {S_LOG_CHANGE_CUT, S_LOG_STEP_CUT};
	sqlite3_stmt *q;
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(by_step); i++) {
		q = ud_store_stmt(st, by_step[i]);
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int64(q, 2, keep);
		if ((rc = ud_store_run(st, q, cause, "cutting the api-log index")) < 0)
			return rc;
	}
	q = ud_store_stmt(st, S_LOG_CHAIN_CUT);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, pos);
	if ((rc = ud_store_run(st, q, cause, "cutting the api-log chain")) < 0)
		return rc;
	q = ud_store_stmt(st, S_LOG_TAG_CUT);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, pos);
	return ud_store_run(st, q, cause, "cutting the api-log tags");
}

int
ud_store_apilog_put_step(struct ud_store *st, int64_t id, const struct ud_apilog_step *s,
			 char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_STEP_PUT);

	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, s->step);
	sqlite3_bind_int64(q, 3, s->pos);
	ud_store_bind(q, 4, s->source);
	ud_store_bind(q, 5, s->headers);
	sqlite3_bind_int64(q, 6, s->time);
	sqlite3_bind_int(q, 7, s->tz);
	return ud_store_run(st, q, cause, "recording an api-log step");
}

static void
copy_hex(char out[41], const unsigned char *t)
{
	snprintf(out, 41, "%s", t != NULL ? (const char *)t : "");
}

int
ud_store_apilog_last_step(struct ud_store *st, int64_t id, int64_t max_pos,
			  struct ud_apilog_step *out)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_STEP_LAST);
	int found;

	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, max_pos);
	found = sqlite3_step(q) == SQLITE_ROW;
	if (found) {
		out->step = sqlite3_column_int64(q, 0);
		out->pos = sqlite3_column_int64(q, 1);
		copy_hex(out->source, sqlite3_column_text(q, 2));
		copy_hex(out->headers, sqlite3_column_text(q, 3));
		out->time = sqlite3_column_int64(q, 4);
		out->tz = sqlite3_column_int(q, 5);
	}
	sqlite3_reset(q);
	return found;
}

int
ud_store_apilog_put_row(struct ud_store *st, int64_t id, const struct ud_apilog_row *r,
			char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_CHANGE_PUT);

	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, r->step);
	ud_store_bind(q, 3, r->name);
	ud_store_bind(q, 4, r->member != NULL ? r->member : "");
	ud_store_bind(q, 5, r->symbol);
	ud_store_bind(q, 6, r->kind);
	ud_store_bind(q, 7, r->header);
	sqlite3_bind_int(q, 8, (int)r->line);
	ud_store_bind(q, 9, r->moved_to);
	if (r->moved_to != NULL)
		sqlite3_bind_int(q, 10, (int)r->moved_line);
	ud_store_bind(q, 11, r->what);
	ud_store_bind(q, 12, r->verdict);
	ud_store_bind(q, 13, r->change);
	ud_store_bind(q, 14, r->reason != NULL ? r->reason : "");
	ud_store_bind(q, 15, r->members);
	sqlite3_bind_int(q, 16, r->implied);
	return ud_store_run(st, q, cause, "recording an api-log change");
}

static const char *
ctext(sqlite3_stmt *q, int i)
{
	return (const char *)sqlite3_column_text(q, i);
}

int
ud_store_apilog_each_row(struct ud_store *st, int64_t id, const char *name, const char *header,
			 int (*fn)(const struct ud_apilog_row *r, const struct ud_apilog_step *s,
				   void *ctx),
			 void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, header != NULL ? S_LOG_BY_HEADER : S_LOG_BY_NAME);
	int rc, stop = 0;

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, header != NULL ? header : name);
	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct ud_apilog_row r;
		struct ud_apilog_step s;

		memset(&r, 0, sizeof(r));
		memset(&s, 0, sizeof(s));
		r.step = s.step = sqlite3_column_int64(q, 0);
		r.name = ctext(q, 1);
		r.member = ctext(q, 2);
		r.symbol = ctext(q, 3);
		r.kind = ctext(q, 4);
		r.header = ctext(q, 5);
		r.line = (unsigned)sqlite3_column_int(q, 6);
		r.moved_to = ctext(q, 7);
		r.moved_line = (unsigned)sqlite3_column_int(q, 8);
		r.what = ctext(q, 9);
		r.verdict = ctext(q, 10);
		r.change = ctext(q, 11);
		r.reason = ctext(q, 12);
		r.members = ctext(q, 13);
		r.implied = sqlite3_column_int(q, 14) != 0;
		s.pos = sqlite3_column_int64(q, 15);
		copy_hex(s.source, sqlite3_column_text(q, 16));
		copy_hex(s.headers, sqlite3_column_text(q, 17));
		s.time = sqlite3_column_int64(q, 18);
		s.tz = sqlite3_column_int(q, 19);
		stop = fn(&r, &s, ctx);
	}
	if (stop == 0 && rc != SQLITE_DONE) {
		rc = ud_store_fail(st, cause, "reading the api-log index");
		sqlite3_reset(q);
		return rc;
	}
	sqlite3_reset(q);
	return stop;
}

int
ud_store_apilog_put_tag(struct ud_store *st, int64_t id, const char *name, const char *target,
			int64_t pos, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_TAG_PUT);

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, name);
	ud_store_bind(q, 3, target);
	sqlite3_bind_int64(q, 4, pos);
	return ud_store_run(st, q, cause, "recording a tag");
}

int
ud_store_apilog_del_tag(struct ud_store *st, int64_t id, const char *name, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_TAG_DEL);

	sqlite3_bind_int64(q, 1, id);
	ud_store_bind(q, 2, name);
	return ud_store_run(st, q, cause, "forgetting a tag");
}

int
ud_store_apilog_each_tag(struct ud_store *st, int64_t id,
			 int (*fn)(const char *name, const char *target, int64_t pos, void *ctx),
			 void *ctx, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(st, S_LOG_TAG_EACH);
	int rc, stop = 0;

	sqlite3_bind_int64(q, 1, id);
	while (stop == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = fn(ctext(q, 0), ctext(q, 1), sqlite3_column_int64(q, 2), ctx);
	if (stop == 0 && rc != SQLITE_DONE) {
		rc = ud_store_fail(st, cause, "reading the tags");
		sqlite3_reset(q);
		return rc;
	}
	sqlite3_reset(q);
	return stop;
}
