// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Store tests, on real SQLite files in the scratch directory: the schema
 * and its version, every table's rows, markers by origin, the event clock,
 * transactions, reopening, and the databases it must refuse (random bytes,
 * a damaged file, a newer schema, one another connection is writing, a
 * read-only file).
 */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "../../src/store/schema.h"
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/markers.h"
#include "uapid/store/store.h"

/* Opens (creating) dir/name, which must work; *path gets the file's path. */
static struct ud_store *
open_ok(const char *dir, const char *name, char **path)
{
	struct ud_store *st = NULL;
	char *p = ud_xasprintf("%s/%s", dir, name), *cause = NULL;
	int rc = ud_store_open(&st, p, &cause);

	ck_assert_msg(rc == 0, "%s: %d %s", p, rc, cause != NULL ? cause : "");
	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_null(cause);
	if (path != NULL)
		*path = p;
	else
		free(p);
	return st;
}

/* Runs SQL on path through a connection of the test's own. */
static void
sql_exec(const char *path, const char *q)
{
	sqlite3 *db = NULL;
	char *err = NULL;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(db, q, NULL, NULL, &err) == SQLITE_OK, "%s: %s", q, err);
	sqlite3_close(db);
}

/* The first column of the first row of q on path, as text (malloc'd; NULL for none). */
static char *
sql_text(const char *path, const char *q)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	char *v = NULL;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK, "%s: %s", q,
		      sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) != NULL)
		v = ud_xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static int
sql_int(const char *path, const char *q)
{
	char *t = sql_text(path, q);
	int v;

	ck_assert_ptr_nonnull(t);
	v = atoi(t);
	free(t);
	return v;
}

/* Expects opening path to fail with rc; returns the cause (malloc'd). */
static char *
open_fails(const char *path, int rc)
{
	struct ud_store *st = (struct ud_store *)&st; /* not NULL: must be cleared */
	char *cause = NULL;
	int got = ud_store_open(&st, path, &cause);

	ck_assert_msg(got == rc, "%s: want %d, got %d (%s)", path, rc, got,
		      cause != NULL ? cause : "no cause");
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(cause);
	return cause;
}

/* What each_* gives, one line a row. */
static int
collect_header(const struct ud_hrow *r, void *ctx)
{
	ud_buf_addf(ctx, "%s %lld %lld %llu %s %d %s %s %s %s %s %s %lld\n", r->path,
		    (long long)r->size, (long long)r->mtime_ns, (unsigned long long)r->ino, r->blob,
		    r->exported, r->outcome, r->blocks != NULL ? r->blocks : "-",
		    r->diagnostics != NULL ? r->diagnostics : "-",
		    r->kernel_blob != NULL ? r->kernel_blob : "-",
		    r->uapi_blob != NULL ? r->uapi_blob : "-", r->split_key, (long long)r->clock);
	return 0;
}

static int
collect_installed(const char *dst, const char *src, const char *src_blob, const char *blob,
		  const char *diagnostics, void *ctx)
{
	ud_buf_addf(ctx, "%s %s %s %s %s\n", dst, src, src_blob, blob != NULL ? blob : "-",
		    diagnostics != NULL ? diagnostics : "-");
	return 0;
}

static int
collect_output(const char *path, const char *blob, const char *owner, void *ctx)
{
	ud_buf_addf(ctx, "%s %s %s\n", path, blob, owner);
	return 0;
}

static int
collect_event(int64_t clock, const char *path, const char *kind, const char *detail, void *ctx)
{
	ud_buf_addf(ctx, "%lld %s %s %s\n", (long long)clock, path, kind,
		    detail != NULL ? detail : "-");
	return 0;
}

static int
collect_problem(const char *what, const char *reason, void *ctx)
{
	ud_buf_addf(ctx, "%s: %s\n", what, reason);
	return 0;
}

/* Stops at the first row: the each functions return what fn returned. */
static int
stop_header(const struct ud_hrow *r, void *ctx)
{
	++*(int *)ctx;
	return r->path[0] != '\0' ? 7 : 0;
}

static int
stop_event(int64_t clock, const char *path, const char *kind, const char *detail, void *ctx)
{
	(void)path, (void)kind, (void)detail;
	*(int64_t *)ctx = clock;
	return -3;
}

/* Checks what an each_* function gave, then empties the buffer. */
static void
assert_rows(struct ud_buf *b, const char *want)
{
	ck_assert_str_eq(ud_buf_str(b), want);
	ud_buf_reset(b);
}

static void
check_headers(struct ud_store *st, const char *want)
{
	struct ud_buf b = UD_BUF_INIT;
	char *cause = NULL;

	ck_assert_int_eq(ud_store_each_header(st, collect_header, &b, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_rows(&b, want);
	ud_buf_free(&b);
}

static void
check_events(struct ud_store *st, int64_t since, const char *want)
{
	struct ud_buf b = UD_BUF_INIT;
	char *cause = NULL;

	ck_assert_int_eq(ud_store_each_event(st, since, collect_event, &b, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_rows(&b, want);
	ud_buf_free(&b);
}

/* The markers of origin (NULL: all), one line each: "id path action selector #occ why line". */
static char *
markers_of(struct ud_store *st, const char *origin)
{
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_buf b = UD_BUF_INIT;
	int64_t *ids = NULL;
	char *cause = NULL;
	size_t i;

	ck_assert_int_eq(ud_store_markers(st, origin, &set, &ids, &cause), 0);
	ck_assert_ptr_null(cause);
	for (i = 0; i < set.n; i++) {
		const struct ud_marker *m = &set.v[i];

		ud_buf_addf(&b, "%lld %s %s %s #%u %s %u\n", (long long)ids[i], m->path,
			    ud_marker_action_name(m->action),
			    m->selector != NULL ? m->selector : "-", m->occurrence,
			    m->why != NULL ? m->why : "-", m->line);
	}
	ud_buf_addstr(&b, "");
	free(ids);
	ud_markers_free(&set);
	return ud_buf_detach(&b, NULL);
}

static void
assert_markers(struct ud_store *st, const char *origin, const char *want)
{
	char *got = markers_of(st, origin);

	ck_assert_str_eq(got, want);
	free(got);
}

static struct ud_hrow
row(const char *path, int64_t clock)
{
	struct ud_hrow r;

	memset(&r, 0, sizeof(r));
	r.path = (char *)(uintptr_t)path;
	r.size = 100;
	r.mtime_ns = 1700000000123456789LL;
	r.ino = 42;
	r.blob = "b1";
	r.exported = true;
	r.outcome = "split";
	r.split_key = "k1";
	r.clock = clock;
	return r;
}

START_TEST(test_create)
{
	char *d = test_dir("create"), *path, *cause = NULL, *mode, *v;
	struct ud_store *st = open_ok(d, "state.db", &path);

	ck_assert(exists(d, "state.db"));
	ck_assert_int_ge(ud_store_schema_version(), 1);
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), ud_store_schema_version());
	mode = sql_text(path, "PRAGMA journal_mode");
	ck_assert_str_eq(mode, "wal");
	free(mode);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
				       " AND name IN ('meta', 'headers', 'installed', 'outputs',"
				       " 'markers', 'events', 'problems')"),
			 7);
	/* an empty store */
	ck_assert_int_eq(ud_store_clock(st), 0);
	ck_assert_int_eq(ud_store_first_clock(st), 0);
	check_headers(st, "");
	check_events(st, 0, "");
	assert_markers(st, NULL, "");
	/* settings */
	ck_assert_ptr_null(ud_store_meta(st, "tree"));
	ck_assert_int_eq(ud_store_set_meta(st, "tree", "/src/linux", &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(st, "arch", "x86", &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(st, "tree", "/src/linux-next", &cause), 0);
	ck_assert_ptr_null(cause);
	v = ud_store_meta(st, "tree");
	ck_assert_str_eq(v, "/src/linux-next");
	free(v);
	v = ud_store_meta(st, "arch");
	ck_assert_str_eq(v, "x86");
	free(v);
	ud_store_close(st);
	ud_store_close(NULL);
	/* the version is there once closed, too */
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), ud_store_schema_version());
	free(path);
	free(d);
}
END_TEST

START_TEST(test_memory)
{
	struct ud_store *st = NULL;
	char *cause = NULL, *v;

	ck_assert_int_eq(ud_store_open(&st, ":memory:", &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), 0);
	v = ud_store_meta(st, "k");
	ck_assert_str_eq(v, "v");
	free(v);
	ck_assert_int_eq(ud_store_event(st, "", "scan", NULL, &cause), 1);
	ud_store_close(st);
}
END_TEST

/* The api-log index: made, found, made anew by other rules; chain, steps, rows, tags, cuts. */
static int
count_row(const struct ud_apilog_row *r, const struct ud_apilog_step *s, void *ctx)
{
	struct ud_strlist *l = ctx;

	ud_strlist_take(l,
			ud_xasprintf("%lld %s %s %s %s %s", (long long)s->step, r->name, r->header,
				     r->what, r->verdict != NULL ? r->verdict : "-", s->source));
	return 0;
}

static int
count_tag(const char *name, const char *target, int64_t pos, void *ctx)
{
	struct ud_strlist *l = ctx;

	ud_strlist_take(l, ud_xasprintf("%s %s %lld", name, target, (long long)pos));
	return 0;
}

static void
put_row(struct ud_store *st, int64_t id, int64_t step, const char *name, const char *header,
	const char *what, const char *verdict, const char *moved_to)
{
	struct ud_apilog_row r;
	char *cause = NULL;

	memset(&r, 0, sizeof(r));
	r.step = step;
	r.name = name;
	r.member = "";
	r.symbol = name;
	r.kind = "macro";
	r.header = header;
	r.line = 3;
	r.moved_to = moved_to;
	r.moved_line = 7;
	r.what = what;
	r.verdict = verdict;
	r.change = what;
	r.reason = "";
	ck_assert_int_eq(ud_store_apilog_put_row(st, id, &r, &cause), 0);
}

START_TEST(test_apilog)
{
	struct ud_store *st = NULL;
	struct ud_apilog_state s, again;
	struct ud_apilog_step step, got;
	struct ud_strlist rows = UD_STRLIST_INIT, tags = UD_STRLIST_INIT;
	char *cause = NULL, *c = NULL;
	int64_t pos = -7;
	int i;

	ck_assert_int_eq(ud_store_open(&st, ":memory:", &cause), 0);
	ck_assert_int_eq(ud_store_apilog_find(st, "repo ref", 1, &s), 0);
	ck_assert_int_eq(ud_store_apilog_open(st, "repo ref", 1, &s, &cause), 0);
	ck_assert_ptr_null(s.headers);
	ck_assert_int_eq(ud_store_apilog_set(st, s.id, "h2", "c3", &cause), 0);
	ck_assert_int_eq(ud_store_apilog_find(st, "repo ref", 1, &again), 1);
	ck_assert_int_eq(again.id, s.id);
	ck_assert_str_eq(again.headers, "h2");
	ck_assert_str_eq(again.source, "c3");
	ud_apilog_state_free(&again);
	/* the chain: c0 .. c3 */
	ck_assert_int_eq(ud_store_apilog_end_pos(st, s.id, true, NULL), -1);
	for (i = 0; i < 4; i++) {
		char name[8];

		snprintf(name, sizeof(name), "c%d", i);
		ck_assert_int_eq(ud_store_apilog_put_pos(st, s.id, name, i, &cause), 0);
	}
	ck_assert_int_eq(ud_store_apilog_pos(st, s.id, "c2", &pos), 1);
	ck_assert_int_eq(pos, 2);
	ck_assert_int_eq(ud_store_apilog_pos(st, s.id, "nope", &pos), 0);
	ck_assert_int_eq(ud_store_apilog_end_pos(st, s.id, true, &c), 3);
	ck_assert_str_eq(c, "c3");
	free(c);
	ck_assert_int_eq(ud_store_apilog_end_pos(st, s.id, false, &c), 0);
	ck_assert_str_eq(c, "c0");
	free(c);
	/* steps at c0 and c2; rows; a move from a.h to b.h */
	memset(&step, 0, sizeof(step));
	step.step = 1;
	step.pos = 0;
	strcpy(step.source, "c0");
	strcpy(step.headers, "h1");
	step.time = 1700000000;
	step.tz = 60;
	ck_assert_int_eq(ud_store_apilog_put_step(st, s.id, &step, &cause), 0);
	step.step = 2;
	step.pos = 2;
	strcpy(step.source, "c2");
	strcpy(step.headers, "h2");
	ck_assert_int_eq(ud_store_apilog_put_step(st, s.id, &step, &cause), 0);
	put_row(st, s.id, 1, "FOO", "linux/a.h", "present", NULL, NULL);
	put_row(st, s.id, 1, "BAR", "linux/a.h", "present", NULL, NULL);
	put_row(st, s.id, 2, "FOO", "linux/a.h", "moved", "compatible", "linux/b.h");
	ck_assert_int_eq(ud_store_apilog_last_step(st, s.id, INT64_MAX, &got), 1);
	ck_assert_int_eq(got.step, 2);
	ck_assert_str_eq(got.headers, "h2");
	ck_assert_int_eq(got.tz, 60);
	ck_assert_int_eq(ud_store_apilog_last_step(st, s.id, 1, &got), 1);
	ck_assert_int_eq(got.step, 1);
	ck_assert_int_eq(ud_store_apilog_each_row(st, s.id, "FOO", NULL, count_row, &rows, &cause),
			 0);
	ck_assert_uint_eq(rows.n, 2);
	ck_assert_str_eq(rows.v[0], "1 FOO linux/a.h present - c0");
	ck_assert_str_eq(rows.v[1], "2 FOO linux/a.h moved compatible c2");
	ud_strlist_free(&rows);
	/* by header: where it is, and where it went */
	ck_assert_int_eq(
		ud_store_apilog_each_row(st, s.id, NULL, "linux/b.h", count_row, &rows, &cause), 0);
	ck_assert_uint_eq(rows.n, 1);
	ud_strlist_free(&rows);
	ck_assert_int_eq(
		ud_store_apilog_each_row(st, s.id, NULL, "linux/a.h", count_row, &rows, &cause), 0);
	ck_assert_uint_eq(rows.n, 3);
	ud_strlist_free(&rows);
	/* tags */
	ck_assert_int_eq(ud_store_apilog_put_tag(st, s.id, "v1", "c0", 0, &cause), 0);
	ck_assert_int_eq(ud_store_apilog_put_tag(st, s.id, "v2", "c3", 3, &cause), 0);
	ck_assert_int_eq(ud_store_apilog_put_tag(st, s.id, "old", "x", -1, &cause), 0);
	ck_assert_int_eq(ud_store_apilog_del_tag(st, s.id, "old", &cause), 0);
	ck_assert_int_eq(ud_store_apilog_each_tag(st, s.id, count_tag, &tags, &cause), 0);
	ud_strlist_sort(&tags);
	ck_assert_uint_eq(tags.n, 2);
	ck_assert_str_eq(tags.v[0], "v1 c0 0");
	ud_strlist_free(&tags);
	/* cut at c1: the chain after it, the step at c2 and its rows, the tag at c3 go */
	ck_assert_int_eq(ud_store_apilog_cut(st, s.id, 1, &cause), 0);
	ck_assert_int_eq(ud_store_apilog_end_pos(st, s.id, true, NULL), 1);
	ck_assert_int_eq(ud_store_apilog_last_step(st, s.id, INT64_MAX, &got), 1);
	ck_assert_int_eq(got.step, 1);
	ck_assert_int_eq(ud_store_apilog_each_row(st, s.id, "FOO", NULL, count_row, &rows, &cause),
			 0);
	ck_assert_uint_eq(rows.n, 1);
	ud_strlist_free(&rows);
	ck_assert_int_eq(ud_store_apilog_each_tag(st, s.id, count_tag, &tags, &cause), 0);
	ck_assert_uint_eq(tags.n, 1);
	ud_strlist_free(&tags);
	/* another version: made anew, empty; the old rows are gone with it */
	ck_assert_int_eq(ud_store_apilog_find(st, "repo ref", 2, &again), 0);
	ck_assert_int_eq(ud_store_apilog_open(st, "repo ref", 2, &again, &cause), 0);
	ck_assert_ptr_null(again.headers);
	ck_assert_int_eq(ud_store_apilog_end_pos(st, again.id, true, NULL), -1);
	ck_assert_int_eq(ud_store_apilog_each_row(st, s.id, "BAR", NULL, count_row, &rows, &cause),
			 0);
	ck_assert_uint_eq(rows.n, 0);
	ck_assert_int_eq(ud_store_apilog_drop(st, again.id, &cause), 0);
	ck_assert_int_eq(ud_store_apilog_find(st, "repo ref", 2, &again), 0);
	ud_apilog_state_free(&s);
	ud_store_close(st);
}
END_TEST

START_TEST(test_reader)
{
	char *d = test_dir("reader"), *path = NULL, *cause = NULL, *v;
	struct ud_store *w = open_ok(d, "state.db", &path), *r = NULL;

	ck_assert_int_eq(ud_store_set_meta(w, "k", "1", &cause), 0);
	/* a reader beside the writer, while the writer holds a transaction */
	ck_assert_int_eq(ud_store_begin(w, &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(w, "k", "2", &cause), 0);
	ck_assert_int_eq(ud_store_open_reader(&r, path, &cause), 0);
	v = ud_store_meta(r, "k");
	ck_assert_str_eq(v, "1"); /* the last commit */
	free(v);
	ck_assert_int_eq(ud_store_commit(w, &cause), 0);
	v = ud_store_meta(r, "k");
	ck_assert_str_eq(v, "2");
	free(v);
	/* it writes nothing */
	ck_assert_int_lt(ud_store_set_meta(r, "k", "3", &cause), 0);
	ck_assert_ptr_nonnull(cause);
	free(cause);
	cause = NULL;
	ud_store_close(r);
	ud_store_close(w);
	/* another schema version: refused, not migrated */
	sql_exec(path, "PRAGMA user_version = 1");
	ck_assert_int_eq(ud_store_open_reader(&r, path, &cause), -EPROTO);
	ck_assert_ptr_nonnull(strstr(cause, "schema version 1"));
	free(cause);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_headers)
{
	char *d = test_dir("headers"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	struct ud_hrow a = row("include/linux/a.h", 3), b = row("include/linux/b.h", 4), got;
	int calls = 0;

	a.blocks = "[{\"k\":1}]";
	a.diagnostics = "[]";
	a.kernel_blob = "kb";
	a.uapi_blob = "ub";
	a.ino = UINT64_MAX - 1; /* above INT64_MAX: kept whole */
	/* NULL blob, outcome and split key are stored as "" */
	b.blob = NULL;
	b.outcome = NULL;
	b.split_key = NULL;
	b.exported = false;
	b.size = -1;
	ck_assert_int_eq(ud_store_put_header(st, &b, &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	ck_assert_ptr_null(cause);

	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 1);
	ck_assert_str_eq(got.path, "include/linux/a.h");
	ck_assert_int_eq(got.size, 100);
	ck_assert_int_eq(got.mtime_ns, 1700000000123456789LL);
	ck_assert(got.ino == UINT64_MAX - 1);
	ck_assert_str_eq(got.blob, "b1");
	ck_assert(got.exported);
	ck_assert_str_eq(got.outcome, "split");
	ck_assert_str_eq(got.blocks, "[{\"k\":1}]");
	ck_assert_str_eq(got.diagnostics, "[]");
	ck_assert_str_eq(got.kernel_blob, "kb");
	ck_assert_str_eq(got.uapi_blob, "ub");
	ck_assert_str_eq(got.split_key, "k1");
	ck_assert_int_eq(got.clock, 3);
	ud_hrow_free(&got);
	ck_assert_ptr_null(got.path);
	ud_hrow_free(&got);
	ud_hrow_free(NULL);

	ck_assert_int_eq(ud_store_header(st, "include/linux/b.h", &got, &cause), 1);
	ck_assert_str_eq(got.blob, "");
	ck_assert_str_eq(got.outcome, "");
	ck_assert_str_eq(got.split_key, "");
	ck_assert(!got.exported);
	ck_assert_int_eq(got.size, -1);
	ck_assert_ptr_null(got.blocks);
	ck_assert_ptr_null(got.diagnostics);
	ck_assert_ptr_null(got.kernel_blob);
	ck_assert_ptr_null(got.uapi_blob);
	ud_hrow_free(&got);

	/* no row: 0, and the row is left empty */
	ck_assert_int_eq(ud_store_header(st, "include/linux/c.h", &got, &cause), 0);
	ck_assert_ptr_null(got.path);
	ck_assert_ptr_null(got.blob);
	ck_assert_ptr_null(cause);

	/* in path order, whatever the order of writing */
	check_headers(st, "include/linux/a.h 100 1700000000123456789 18446744073709551614 b1 1"
			  " split [{\"k\":1}] [] kb ub k1 3\n"
			  "include/linux/b.h -1 1700000000123456789 42  0  - - - -  4\n");
	/* a row put again is replaced */
	a.outcome = "moved";
	a.kernel_blob = NULL;
	a.ino = 7;
	a.clock = 9;
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	check_headers(st, "include/linux/a.h 100 1700000000123456789 7 b1 1"
			  " moved [{\"k\":1}] [] - ub k1 9\n"
			  "include/linux/b.h -1 1700000000123456789 42  0  - - - -  4\n");
	/* the state alone: the same rows, their JSON columns not read */
	{
		struct ud_buf lean = UD_BUF_INIT;

		ck_assert_int_eq(ud_store_each_header_state(st, collect_header, &lean, &cause), 0);
		assert_rows(&lean, "include/linux/a.h 100 1700000000123456789 7 b1 1"
				   " moved - - - ub k1 9\n"
				   "include/linux/b.h -1 1700000000123456789 42  0  - - - -  4\n");
		ud_buf_free(&lean);
	}
	/* fn's non-zero return stops the walk and is returned */
	ck_assert_int_eq(ud_store_each_header(st, stop_header, &calls, &cause), 7);
	ck_assert_int_eq(calls, 1);
	/* and the statement is reusable after the stop */
	ck_assert_int_eq(ud_store_header(st, "include/linux/b.h", &got, &cause), 1);
	ud_hrow_free(&got);

	ck_assert_int_eq(ud_store_del_header(st, "include/linux/a.h", &cause), 0);
	ck_assert_int_eq(ud_store_del_header(st, "include/linux/nothing.h", &cause), 0);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 0);
	check_headers(st, "include/linux/b.h -1 1700000000123456789 42  0  - - - -  4\n");
	ck_assert_ptr_null(cause);
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_installed)
{
	char *d = test_dir("installed"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_store_put_installed(st, "linux/b.h", "include/uapi/linux/b.h", "sb",
						"ib", NULL, 2, &cause),
			 0);
	/* a failed install: no blob, the diagnostics say why */
	ck_assert_int_eq(ud_store_put_installed(st, "asm/a.h", "arch/x86/include/uapi/asm/a.h",
						"sa", NULL, "[{\"line\":1}]", 3, &cause),
			 0);
	/* generated: no source blob given */
	ck_assert_int_eq(ud_store_put_installed(st, "asm/gen.h", "generated/asm/gen.h", NULL, "ig",
						NULL, 4, &cause),
			 0);
	ck_assert_int_eq(ud_store_each_installed(st, collect_installed, &b, &cause), 0);
	assert_rows(&b, "asm/a.h arch/x86/include/uapi/asm/a.h sa - [{\"line\":1}]\n"
			"asm/gen.h generated/asm/gen.h  ig -\n"
			"linux/b.h include/uapi/linux/b.h sb ib -\n");
	ck_assert_int_eq(ud_store_put_installed(st, "asm/a.h", "arch/x86/include/uapi/asm/a.h",
						"sa2", "ia", NULL, 5, &cause),
			 0);
	ck_assert_int_eq(ud_store_del_installed(st, "linux/b.h", &cause), 0);
	ck_assert_int_eq(ud_store_del_installed(st, "linux/none.h", &cause), 0);
	ck_assert_int_eq(ud_store_each_installed(st, collect_installed, &b, &cause), 0);
	assert_rows(&b, "asm/a.h arch/x86/include/uapi/asm/a.h sa2 ia -\n"
			"asm/gen.h generated/asm/gen.h  ig -\n");
	ck_assert_ptr_null(cause);
	ud_buf_free(&b);
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_outputs)
{
	char *d = test_dir("outputs"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_store_put_output(st, "split/include/linux/a.h", "o1",
					     "include/linux/a.h", &cause),
			 0);
	ck_assert_int_eq(ud_store_put_output(st, "split/include/uapi/linux/Kbuild", "o2",
					     "kbuild:include/uapi/linux", &cause),
			 0);
	ck_assert_int_eq(
		ud_store_put_output(st, "install/include/linux/a.h", "o3", "install", &cause), 0);
	ck_assert_int_eq(ud_store_each_output(st, collect_output, &b, &cause), 0);
	assert_rows(&b, "install/include/linux/a.h o3 install\n"
			"split/include/linux/a.h o1 include/linux/a.h\n"
			"split/include/uapi/linux/Kbuild o2 kbuild:include/uapi/linux\n");
	/* another blob and owner for the same file */
	ck_assert_int_eq(
		ud_store_put_output(st, "split/include/linux/a.h", "o4", "removed", &cause), 0);
	ck_assert_int_eq(ud_store_del_output(st, "install/include/linux/a.h", &cause), 0);
	ck_assert_int_eq(ud_store_each_output(st, collect_output, &b, &cause), 0);
	assert_rows(&b, "split/include/linux/a.h o4 removed\n"
			"split/include/uapi/linux/Kbuild o2 kbuild:include/uapi/linux\n");
	ck_assert_ptr_null(cause);
	ud_buf_free(&b);
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_markers)
{
	char *d = test_dir("markers"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	struct ud_markers file = UD_MARKERS_INIT, src = UD_MARKERS_INIT, one = UD_MARKERS_INIT;
	int64_t id1 = 0, id2 = 0;

	ud_markers_add(&file, "include/linux/a.h", UD_MARK_RETAIN, "#ifdef   __KERNEL__", 2,
		       "keeps it whole");
	file.v[0].line = 3;
	ud_markers_add(&file, "include/linux/b.h", UD_MARK_SKIP, NULL, 0, NULL);
	file.v[1].line = 4;
	ck_assert_int_eq(ud_store_set_markers(st, "file", &file, &cause), 0);
	ud_markers_add(&src, "include/linux/a.h", UD_MARK_INCLUDE_HERE, "#include <x.h>", 1, NULL);
	ud_markers_add(&src, "include/linux/a.h", UD_MARK_KERNEL, "#if X", 1, NULL);
	ck_assert_int_eq(
		ud_store_set_path_markers(st, "source", "include/linux/a.h", src.v, 2, &cause), 0);
	ud_markers_add(&one, "include/linux/c.h", UD_MARK_UAPI, "#ifndef __KERNEL__", 1, "why");
	ck_assert_int_eq(
		ud_store_set_path_markers(st, "source", "include/linux/c.h", one.v, 1, &cause), 0);
	ud_markers_add(&one, "include/linux/d.h", UD_MARK_SPLIT_COMPOUND, "#if A", 1, NULL);
	ck_assert_int_eq(ud_store_add_marker(st, "socket", &one.v[1], &id1, &cause), 0);
	ck_assert_int_eq(ud_store_add_marker(st, "socket", &one.v[0], &id2, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_gt(id1, 0);
	ck_assert_int_gt(id2, id1);

	/* in the order added; selectors as normalised; the occurrence at least 1 */
	assert_markers(st, NULL,
		       "1 include/linux/a.h retain #ifdef __KERNEL__ #2 keeps it whole 3\n"
		       "2 include/linux/b.h skip - #1 - 4\n"
		       "3 include/linux/a.h include-here #include <x.h> #1 - 0\n"
		       "4 include/linux/a.h kernel #if X #1 - 0\n"
		       "5 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n"
		       "6 include/linux/d.h split-compound #if A #1 - 0\n"
		       "7 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n");
	ck_assert_int_eq(id1, 6);
	ck_assert_int_eq(id2, 7);
	assert_markers(st, "file",
		       "1 include/linux/a.h retain #ifdef __KERNEL__ #2 keeps it whole 3\n"
		       "2 include/linux/b.h skip - #1 - 4\n");
	assert_markers(st, "socket",
		       "6 include/linux/d.h split-compound #if A #1 - 0\n"
		       "7 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n");
	assert_markers(st, "nobody", "");

	/* ud_store_markers appends, and ids may be left out */
	{
		struct ud_markers set = UD_MARKERS_INIT;

		ud_markers_add(&set, "x.h", UD_MARK_SKIP, NULL, 1, NULL);
		ck_assert_int_eq(ud_store_markers(st, "file", &set, NULL, &cause), 0);
		ck_assert_uint_eq(set.n, 3);
		ck_assert_str_eq(set.v[0].path, "x.h");
		ck_assert_str_eq(set.v[2].path, "include/linux/b.h");
		ud_markers_free(&set);
	}

	/* by id: one goes, an unknown id is ENOENT */
	ck_assert_int_eq(ud_store_del_marker(st, id1, &cause), 0);
	ck_assert_int_eq(ud_store_del_marker(st, id1, &cause), -ENOENT);
	ck_assert_int_eq(ud_store_del_marker(st, 12345, &cause), -ENOENT);
	assert_markers(st, "socket", "7 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n");

	/* one path's source markers replaced: the other path's and other origins' stay */
	ck_assert_int_eq(
		ud_store_set_path_markers(st, "source", "include/linux/a.h", &src.v[1], 1, &cause),
		0);
	assert_markers(st, "source",
		       "5 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n"
		       "8 include/linux/a.h kernel #if X #1 - 0\n");
	ck_assert_int_eq(
		ud_store_set_path_markers(st, "source", "include/linux/c.h", NULL, 0, &cause), 0);
	assert_markers(st, "source", "8 include/linux/a.h kernel #if X #1 - 0\n");
	assert_markers(st, "socket", "7 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n");

	/* an origin's set replaced whole, and cleared */
	ck_assert_int_eq(ud_store_set_markers(st, "file", &one, &cause), 0);
	assert_markers(st, "file",
		       "9 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n"
		       "10 include/linux/d.h split-compound #if A #1 - 0\n");
	ck_assert_int_eq(ud_store_set_markers(st, "file", NULL, &cause), 0);
	assert_markers(st, "file", "");
	assert_markers(st, NULL,
		       "7 include/linux/c.h uapi #ifndef __KERNEL__ #1 why 0\n"
		       "8 include/linux/a.h kernel #if X #1 - 0\n");
	ck_assert_ptr_null(cause);

	ud_markers_free(&file);
	ud_markers_free(&src);
	ud_markers_free(&one);
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_events)
{
	char *d = test_dir("events"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	int64_t c[5], stopped = 0;
	int i;

	ck_assert_int_eq(ud_store_clock(st), 0);
	ck_assert_int_eq(ud_store_first_clock(st), 0);
	c[0] = ud_store_event(st, "", "scan", NULL, &cause);
	c[1] = ud_store_event(st, "include/linux/a.h", "split", "2 blocks", &cause);
	c[2] = ud_store_event(st, "include/linux/a.h", "export", NULL, &cause);
	c[3] = ud_store_event(st, "include/linux/b.h", "remove", NULL, &cause);
	c[4] = ud_store_event(st, "", "problem", "install: no perl", &cause);
	ck_assert_ptr_null(cause);
	ck_assert_int_gt(c[0], 0);
	for (i = 1; i < 5; i++)
		ck_assert_int_gt(c[i], c[i - 1]);
	ck_assert_int_eq(ud_store_clock(st), c[4]);
	ck_assert_int_eq(ud_store_first_clock(st), c[0]);

	check_events(st, 0,
		     "1  scan -\n"
		     "2 include/linux/a.h split 2 blocks\n"
		     "3 include/linux/a.h export -\n"
		     "4 include/linux/b.h remove -\n"
		     "5  problem install: no perl\n");
	ck_assert_int_eq(c[0], 1);
	/* after a clock: strictly after it */
	check_events(st, c[2],
		     "4 include/linux/b.h remove -\n"
		     "5  problem install: no perl\n");
	check_events(st, c[4], "");
	check_events(st, c[4] + 100, "");
	check_events(st, -1,
		     "1  scan -\n"
		     "2 include/linux/a.h split 2 blocks\n"
		     "3 include/linux/a.h export -\n"
		     "4 include/linux/b.h remove -\n"
		     "5  problem install: no perl\n");
	/* fn's non-zero return stops the walk and is returned */
	ck_assert_int_eq(ud_store_each_event(st, c[1], stop_event, &stopped, &cause), -3);
	ck_assert_int_eq(stopped, c[2]);

	/* the time of each event is recorded */
	{
		char *p = ud_xasprintf("%s/state.db", d);

		ck_assert_int_eq(sql_int(p, "SELECT count(*) FROM events WHERE time > 0"), 5);
		free(p);
	}
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_problems)
{
	char *d = test_dir("problems"), *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", NULL);
	struct ud_buf b = UD_BUF_INIT;

	ck_assert_int_eq(ud_store_each_problem(st, collect_problem, &b, &cause), 0);
	assert_rows(&b, "");
	ck_assert_int_eq(ud_store_set_problem(st, "watch", "inotify limit", 1, &cause), 0);
	ck_assert_int_eq(ud_store_set_problem(st, "install", "no perl", 2, &cause), 0);
	ck_assert_int_eq(ud_store_each_problem(st, collect_problem, &b, &cause), 0);
	assert_rows(&b, "install: no perl\nwatch: inotify limit\n");
	/* replaced, then cleared; clearing what is not there is fine */
	ck_assert_int_eq(ud_store_set_problem(st, "install", "arch refused", 3, &cause), 0);
	ck_assert_int_eq(ud_store_each_problem(st, collect_problem, &b, &cause), 0);
	assert_rows(&b, "install: arch refused\nwatch: inotify limit\n");
	ck_assert_int_eq(ud_store_set_problem(st, "watch", NULL, 4, &cause), 0);
	ck_assert_int_eq(ud_store_set_problem(st, "split", NULL, 4, &cause), 0);
	ck_assert_int_eq(ud_store_each_problem(st, collect_problem, &b, &cause), 0);
	assert_rows(&b, "install: arch refused\n");
	ck_assert_ptr_null(cause);
	ud_buf_free(&b);
	ud_store_close(st);
	free(d);
}
END_TEST

START_TEST(test_transactions)
{
	char *d = test_dir("tx"), *cause = NULL, *path, *v;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_hrow a = row("include/linux/a.h", 1), got;

	ck_assert_int_eq(ud_store_event(st, "", "scan", NULL, &cause), 1);
	/* rolled back: none of it happened, the clock included */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), 0);
	ck_assert_int_eq(ud_store_event(st, "include/linux/a.h", "split", NULL, &cause), 2);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 1);
	ud_hrow_free(&got);
	ud_store_rollback(st);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 0);
	ck_assert_ptr_null(ud_store_meta(st, "k"));
	ck_assert_int_eq(ud_store_clock(st), 1);

	/* committed: all of it, seen by another connection too */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), 0);
	ck_assert_int_gt(ud_store_event(st, "include/linux/a.h", "split", NULL, &cause), 1);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM headers"), 1);
	v = ud_store_meta(st, "k");
	ck_assert_str_eq(v, "v");
	free(v);

	/* a transaction still open at close is rolled back */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_del_header(st, "include/linux/a.h", &cause), 0);
	ck_assert_int_eq(ud_store_set_meta(st, "k", "gone", &cause), 0);
	ud_store_close(st);
	st = open_ok(d, "state.db", NULL);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 1);
	ud_hrow_free(&got);
	v = ud_store_meta(st, "k");
	ck_assert_str_eq(v, "v");
	free(v);
	ck_assert_ptr_null(cause);
	ud_store_close(st);
	free(path);
	free(d);
}
END_TEST

/*
 * A transaction whose write fails on the disk (here the file size limit:
 * EFBIG, as a full disk gives ENOSPC) is kept whole or not at all: the
 * write after it fails without running, the commit fails and rolls back,
 * and the next transaction, once there is room, works.
 */
START_TEST(test_tx_disk_fails)
{
	char *d = test_dir("txfail"), *cause = NULL, *path, *body = malloc(65536);
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_hrow a = row("include/linux/a.h", 1), got;
	struct rlimit old, small;
	void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
	int i, rc = 0, first = 0;

	memset(body, 'x', 65536);
	ck_assert_int_eq(ud_store_event(st, "", "scan", NULL, &cause), 1);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 256 * 1024;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	/* 4 MiB of rows: more than the page cache holds, so it spills to the WAL and fails */
	for (i = 0; i < 64 && rc == 0; i++) {
		char *p = ud_xasprintf("linux/h%d.h", i);

		rc = ud_store_put_api_version(st, p, 2, "f", body, 65536, &cause);
		free(p);
	}
	if (rc == 0) {
		rc = ud_store_commit(st, &cause); /* the cache held it all: the commit fails */
		ck_assert_int_lt(rc, 0);
		ck_assert_ptr_nonnull(cause);
		free(cause);
		cause = NULL;
	} else {
		first = rc;
		ck_assert_int_eq(ud_store_tx_error(st), rc);
		ck_assert_ptr_nonnull(cause);
		free(cause);
		cause = NULL;
		/* any write after it fails as it did, without running */
		ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), first);
		ck_assert_msg(strstr(cause, "not done, the transaction failed") != NULL, "%s",
			      cause);
		free(cause);
		cause = NULL;
		ck_assert_int_eq(ud_store_commit(st, &cause), first);
		ck_assert_ptr_nonnull(cause);
		free(cause);
		cause = NULL;
	}
	ck_assert(!ud_store_in_transaction(st));
	ck_assert_int_eq(ud_store_tx_error(st), 0);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_xfsz);
	/* nothing of it is kept, not even what worked */
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 0);
	ck_assert_ptr_null(ud_store_meta(st, "k"));
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM api_versions"), 0);
	ck_assert_int_eq(ud_store_clock(st), 1);
	/* room again: the same transaction goes through */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/h0.h", 2, "f", body, 65536, &cause),
			 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 1);
	ud_hrow_free(&got);
	ck_assert_ptr_null(cause);
	ud_store_close(st);
	free(body);
	free(path);
	free(d);
}
END_TEST

/* Has a version: what ud_store_api_version_at says, without the text. */
START_TEST(test_api_has_version)
{
	char *d = test_dir("apihas"), *cause = NULL, *path;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_buf text = UD_BUF_INIT;
	const char *paths[] = {"linux/a.h", "linux/gone.h", "linux/back.h", "linux/empty.h",
			       "linux/none.h"};
	size_t i;

	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 2, "f", "int a;", 6, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/gone.h", 2, "f", "x", 1, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/gone.h", 5, "", NULL, 0, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/back.h", 2, "", NULL, 0, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/back.h", 6, "g", "y", 1, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/empty.h", 3, "e", "", 0, &cause), 0);
	ck_assert_ptr_null(cause);
	for (i = 0; i < ARRAY_SIZE(paths); i++)
		ck_assert_int_eq(ud_store_api_has_version(st, paths[i]),
				 ud_store_api_version_at(st, paths[i], INT64_MAX, NULL, &text) ==
					 0);
	ck_assert(ud_store_api_has_version(st, "linux/a.h"));
	ck_assert(!ud_store_api_has_version(st, "linux/gone.h"));
	ck_assert(ud_store_api_has_version(st, "linux/back.h"));
	ck_assert(!ud_store_api_has_version(st, "linux/none.h"));
	ud_buf_free(&text);
	ud_store_close(st);
	free(path);
	free(d);
}
END_TEST

static int64_t add_events(struct ud_store *st, int n);

/* The count of rows of q on path (a SELECT COUNT(*) ...). */
static long
sql_count(const char *path, const char *q)
{
	char *v = sql_text(path, q);
	long n = v != NULL ? strtol(v, NULL, 10) : -1;

	free(v);
	return n;
}

/*
 * Issue 38 B: a header's texts are stored once each, whatever the number
 * of versions that have them: a checkout 6.1 -> 6.12 -> 6.1 stores
 * nothing new the second time.
 */
START_TEST(test_api_texts_once)
{
	char *d = test_dir("apitexts"), *cause = NULL, *path;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_buf text = UD_BUF_INIT;
	const char *a = "struct a { int x; };\n", *b = "struct a { long x; };\n";
	char *fp = NULL;
	long texts;

	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 2, "fa", a, strlen(a), &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/b.h", 2, "fa", a, strlen(a), &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 4, "fb", b, strlen(b), &cause),
			 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	texts = sql_count(path, "SELECT COUNT(*) FROM api_texts");
	ck_assert_int_eq(texts, 2);
	/* back and forth, twice */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 6, "fa", a, strlen(a), &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 8, "fb", b, strlen(b), &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 9, "fa", a, strlen(a), &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 10, "-", NULL, 0, &cause), 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ck_assert_int_eq(sql_count(path, "SELECT COUNT(*) FROM api_texts"), texts);
	/* each version still reads as it was */
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 5, &fp, &text), 0);
	ck_assert_str_eq(fp, "fb");
	ck_assert_str_eq(ud_buf_str(&text), b);
	free(fp);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 9, NULL, &text), 0);
	ck_assert_str_eq(ud_buf_str(&text), a);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 11, NULL, &text), 1);
	/* a header's text is kept compressed, and reads back whole */
	{
		struct ud_buf big = UD_BUF_INIT;
		int i;

		for (i = 0; i < 400; i++)
			ud_buf_addf(&big, "#define SAMPLE_FLAG_%d (1U << %d) /* flag %d */\n", i,
				    i % 32, i);
		ck_assert_int_eq(ud_store_begin(st, &cause), 0);
		ck_assert_int_eq(ud_store_put_api_version(st, "linux/c.h", 12, "fc", big.data,
							  big.len, &cause),
				 0);
		ck_assert_int_eq(ud_store_put_api_version(st, "linux/d.h", 12, "fc", big.data,
							  big.len, &cause),
				 0);
		ck_assert_int_eq(ud_store_commit(st, &cause), 0);
		ck_assert_int_eq(sql_count(path, "SELECT COUNT(*) FROM api_texts"), texts + 1);
		ck_assert_int_eq(sql_count(path, "SELECT COUNT(*) FROM api_texts WHERE coding = 1 "
						 "AND length(text) * 4 < 14000"),
				 1);
		ck_assert_int_eq(ud_store_api_version_at(st, "linux/d.h", 12, NULL, &text), 0);
		ck_assert_uint_eq(text.len, big.len);
		ck_assert(memcmp(text.data, big.data, big.len) == 0);
		/* an edit of it: kept against the version before, in a few hundred bytes (2,500
		 * alone) */
		ud_buf_addstr(&big, "#define SAMPLE_EDIT 1\n");
		ck_assert_int_eq(ud_store_begin(st, &cause), 0);
		ck_assert_int_eq(ud_store_put_api_version(st, "linux/c.h", 13, "fd", big.data,
							  big.len, &cause),
				 0);
		ck_assert_int_eq(ud_store_commit(st, &cause), 0);
		ck_assert_int_eq(sql_count(path,
					   "SELECT COUNT(*) FROM api_texts t WHERE coding = 2 "
					   "AND length(text) < 400 AND base = (SELECT "
					   "id FROM api_texts WHERE coding = 1)"),
				 1);
		ck_assert_int_eq(ud_store_api_version_at(st, "linux/c.h", 13, NULL, &text), 0);
		ck_assert_uint_eq(text.len, big.len);
		ck_assert(memcmp(text.data, big.data, big.len) == 0);
		ud_buf_free(&big);
	}
	ud_buf_free(&text);
	ud_store_close(st);
	free(path);
	free(d);
}
END_TEST

/*
 * Issue 38 B: the upkeep keeps the log to its retention (an event goes
 * when it is neither among the newest nor young), the API versions a kept
 * clock may ask for and their texts, and empties the WAL.
 */
START_TEST(test_maintain)
{
	char *d = test_dir("maintain"), *cause = NULL, *path, *wal;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_store_retention keep = {.keep_events = 10, .keep_seconds = 0};
	struct ud_store_upkeep up;
	struct ud_buf text = UD_BUF_INIT, big = UD_BUF_INIT;
	int64_t last = add_events(st, 50);
	int i;

	ck_assert_int_eq(last, 50);
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 5, "f1", "one", 3, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 20, "f2", "two", 3, &cause), 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 45, "f3", "three", 5, &cause),
			 0);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/b.h", 3, "f4", "four", 4, &cause), 0);
	/* e.h's texts of 20 and 45 are kept against the one of 5 */
	for (i = 0; i < 300; i++)
		ud_buf_addf(&big, "#define E_%d %d\n", i, i);
	ck_assert_int_eq(
		ud_store_put_api_version(st, "linux/e.h", 5, "e1", big.data, big.len, &cause), 0);
	ud_buf_addstr(&big, "#define E_TWO 2\n");
	ck_assert_int_eq(
		ud_store_put_api_version(st, "linux/e.h", 20, "e2", big.data, big.len, &cause), 0);
	ud_buf_addstr(&big, "#define E_THREE 3\n");
	ck_assert_int_eq(
		ud_store_put_api_version(st, "linux/e.h", 45, "e3", big.data, big.len, &cause), 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	/* young events stay, whatever their count */
	keep.keep_seconds = 3600;
	ck_assert_int_eq(ud_store_maintain(path, &keep, &up, &cause), 0);
	ck_assert_int_eq(up.events, 0);
	keep.keep_seconds = 0;
	ck_assert_int_eq(ud_store_maintain(path, &keep, &up, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(up.events, 40);
	ck_assert_int_eq(ud_store_first_clock(st), 41);
	ck_assert_int_eq(ud_store_clock(st), 50);
	/* a.h at 40 is its version of 20: the one of 5 goes, with its text; e.h's of 5 goes too,
	 * its text stays: the others are kept against it */
	ck_assert_int_eq(up.versions, 2);
	ck_assert_int_eq(up.texts, 1);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/e.h", 41, NULL, &text), 0);
	ck_assert_str_eq(ud_buf_str(&text) + text.len - 16, "#define E_TWO 2\n");
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/e.h", 45, NULL, &text), 0);
	ck_assert_uint_eq(text.len, big.len);
	ck_assert(memcmp(text.data, big.data, big.len) == 0);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 41, NULL, &text), 0);
	ck_assert_str_eq(ud_buf_str(&text), "two");
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/b.h", 41, NULL, &text), 0);
	ck_assert_str_eq(ud_buf_str(&text), "four");
	ck_assert_int_eq(sql_count(path, "SELECT COUNT(*) FROM api_texts"), 6);
	ck_assert(up.checkpointed);
	wal = ud_xasprintf("%s-wal", path);
	ck_assert_int_eq(stat_of(d, "state.db-wal").st_size, 0);
	/* the clock goes on */
	ck_assert_int_eq(add_events(st, 1), 51);
	ud_buf_free(&text);
	ud_buf_free(&big);
	ud_store_close(st);
	free(wal);
	free(path);
	free(d);
}
END_TEST

/*
 * Issue 38: a store of schema version 5 (paths, kinds and details as text
 * in every event and API version) is migrated to the names of version 6:
 * every event, clock and API version reads as it did, the clock goes on
 * past the last one handed out (its event trimmed), and what is written
 * after is stored by id and as integers.
 */
START_TEST(test_migrate_5)
{
	char *d = test_dir("migrate5"), *cause = NULL, *path = ud_xasprintf("%s/state.db", d),
	     *fp = NULL, *v5;
	struct ud_buf sql = UD_BUF_INIT, text = UD_BUF_INIT;
	struct ud_store *st;
	unsigned i;

	ck_assert_uint_ge(ud_schema_count, 6);
	ud_buf_addf(&sql, "PRAGMA auto_vacuum = INCREMENTAL; BEGIN;");
	for (i = 0; i < 5; i++)
		ud_buf_addf(&sql, "%s;", ud_schema_sql[i]);
	ud_buf_addf(&sql, "PRAGMA user_version = 5; COMMIT;");
	sql_exec(path, ud_buf_str(&sql));
	sql_exec(
		path,
		"INSERT INTO events (time_ns, path, kind, detail) VALUES "
		"(1700000000123456789, '', 'scan', NULL), "
		"(1700000001000000000, 'include/uapi/linux/a.h', 'split', 'uapi'), "
		"(1700000002000000000, 'linux/a.h', 'install', 'installed'), "
		"(1700000003000000000, 'linux/b.h', 'install', 'removed'), "
		"(1700000004000000000, 'include/linux/c.h', 'remove', NULL);"
		"DELETE FROM events WHERE clock = 5;"
		"INSERT INTO api_texts (id, hash, text) VALUES (1, '3:x', 'one'), (2, NULL, 'two');"
		"INSERT INTO api_versions (path, clock, fingerprint, text_id) VALUES "
		"('linux/a.h', 1, '0123456789abcdef', 1), ('linux/a.h', 3, 'fa', 2), "
		"('linux/b.h', 1, 'ffffffffffffffff', 2), ('linux/b.h', 4, '-', NULL);");
	v5 = sql_text(path, "SELECT group_concat(clock || ' ' || path || ' ' || kind || ' ' || "
			    "COALESCE(detail, '-'), '|') FROM events");
	ck_assert_str_eq(v5, "1  scan -|2 include/uapi/linux/a.h split uapi|3 linux/a.h install "
			     "installed|4 linux/b.h install removed");

	st = open_ok(d, "state.db", NULL);
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), ud_store_schema_version());
	/* the events as they were, the clock where it was (its last event trimmed) */
	check_events(st, 0,
		     "1  scan -\n"
		     "2 include/uapi/linux/a.h split uapi\n"
		     "3 linux/a.h install installed\n"
		     "4 linux/b.h install removed\n");
	ck_assert_int_eq(ud_store_clock(st), 5);
	ck_assert_int_eq(sql_int(path, "SELECT time FROM events WHERE clock = 1"), 1700000000);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name = "
				       "'events_path'"),
			 0);
	/* the API versions the same */
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 2, &fp, &text), 0);
	ck_assert_str_eq(fp, "0123456789abcdef");
	ck_assert_str_eq(ud_buf_str(&text), "one");
	free(fp);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 9, &fp, &text), 0);
	ck_assert_str_eq(fp, "fa");
	ck_assert_str_eq(ud_buf_str(&text), "two");
	free(fp);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/b.h", 3, &fp, &text), 0);
	ck_assert_str_eq(fp, "ffffffffffffffff");
	free(fp);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/b.h", 4, NULL, &text), 1);
	ck_assert(ud_store_api_has_version(st, "linux/a.h"));
	ck_assert(!ud_store_api_has_version(st, "linux/b.h"));
	/* what comes after: the next clock, names by id, a fingerprint's 64 bits */
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_event(st, "linux/a.h", "install", "installed", &cause), 6);
	ck_assert_int_eq(ud_store_put_api_version(st, "linux/a.h", 6, "8000000000000001", "three",
						  5, &cause),
			 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(ud_store_api_version_at(st, "linux/a.h", 6, &fp, &text), 0);
	ck_assert_str_eq(fp, "8000000000000001");
	ck_assert_str_eq(ud_buf_str(&text), "three");
	free(fp);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM api_versions WHERE clock = 6 AND "
				       "typeof(fingerprint) = 'integer'"),
			 1);
	ck_assert_int_eq(sql_int(path, "SELECT count(*) FROM names WHERE name = 'linux/a.h'"), 1);
	check_events(st, 5, "6 linux/a.h install installed\n");
	ud_store_close(st);
	ud_buf_free(&sql);
	ud_buf_free(&text);
	free(v5);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_reopen)
{
	char *d = test_dir("reopen"), *cause = NULL, *path, *v;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_hrow a = row("include/linux/a.h", 2), got;
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_buf b = UD_BUF_INIT;
	int64_t last;

	ck_assert_int_eq(ud_store_set_meta(st, "tree", "/src/linux", &cause), 0);
	ck_assert_int_eq(ud_store_put_header(st, &a, &cause), 0);
	ck_assert_int_eq(ud_store_put_installed(st, "linux/a.h", "include/uapi/linux/a.h", "s", "i",
						NULL, 2, &cause),
			 0);
	ck_assert_int_eq(ud_store_put_output(st, "split/a.h", "o", "include/linux/a.h", &cause), 0);
	ud_markers_add(&set, "include/linux/a.h", UD_MARK_SKIP, NULL, 1, NULL);
	ck_assert_int_eq(ud_store_set_markers(st, "file", &set, &cause), 0);
	ck_assert_int_gt(ud_store_event(st, "", "scan", NULL, &cause), 0);
	last = ud_store_event(st, "include/linux/a.h", "split", NULL, &cause);
	ck_assert_int_eq(ud_store_set_problem(st, "install", "no perl", last, &cause), 0);
	ck_assert_ptr_null(cause);
	ud_store_close(st);

	st = open_ok(d, "state.db", NULL);
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), ud_store_schema_version());
	v = ud_store_meta(st, "tree");
	ck_assert_str_eq(v, "/src/linux");
	free(v);
	ck_assert_int_eq(ud_store_header(st, "include/linux/a.h", &got, &cause), 1);
	ck_assert_str_eq(got.outcome, "split");
	ud_hrow_free(&got);
	ck_assert_int_eq(ud_store_each_installed(st, collect_installed, &b, &cause), 0);
	assert_rows(&b, "linux/a.h include/uapi/linux/a.h s i -\n");
	ck_assert_int_eq(ud_store_each_output(st, collect_output, &b, &cause), 0);
	assert_rows(&b, "split/a.h o include/linux/a.h\n");
	assert_markers(st, NULL, "1 include/linux/a.h skip - #1 - 0\n");
	ck_assert_int_eq(ud_store_each_problem(st, collect_problem, &b, &cause), 0);
	assert_rows(&b, "install: no perl\n");
	/* the clock goes on from where it was */
	ck_assert_int_eq(ud_store_clock(st), last);
	ck_assert_int_eq(ud_store_first_clock(st), 1);
	ck_assert_int_gt(ud_store_event(st, "", "scan", NULL, &cause), last);
	ck_assert_ptr_null(cause);
	ud_store_close(st);
	ud_markers_free(&set);
	ud_buf_free(&b);
	free(path);
	free(d);
}
END_TEST

/* Writes n bytes of noise (not an SQLite header) to path. */
static char *
noise(const char *path, size_t n)
{
	char *b = ud_xmalloc(n);
	uint32_t x = 2463534242u;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (char)(x >> 24);
	}
	ck_assert_int_eq(ud_write_file(path, b, n, 0, NULL), 0);
	return b;
}

START_TEST(test_refuse_garbage)
{
	char *d = test_dir("garbage"), *path = ud_xasprintf("%s/state.db", d), *cause, *want;
	struct ud_buf after = UD_BUF_INIT;

	want = noise(path, 8192);
	cause = open_fails(path, -EILSEQ);
	assert_cause(&cause, path, "not a database");
	/* left as it was, and nothing beside it */
	ck_assert_int_eq(ud_read_file(path, &after, NULL), 0);
	ck_assert_uint_eq(after.len, 8192);
	ck_assert(memcmp(after.data, want, 8192) == 0);
	ck_assert_int_eq(count_entries(d), 1);
	ud_buf_free(&after);
	free(want);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_refuse_damaged)
{
	char *d = test_dir("damaged"), *path, *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", &path);
	int i, fd;
	off_t size;

	for (i = 0; i < 500; i++) {
		char p[64];
		struct ud_hrow r;

		snprintf(p, sizeof(p), "include/linux/h%d.h", i);
		r = row(p, i);
		ck_assert_int_eq(ud_store_put_header(st, &r, &cause), 0);
	}
	ud_store_close(st);
	/* every page but the first gets a b-tree page type that does not exist */
	size = stat_of(d, "state.db").st_size;
	ck_assert_int_gt(size, 4 * 4096);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	for (off_t pg = 4096; pg < size; pg += 4096)
		ck_assert_int_eq(pwrite(fd, "\xff", 1, pg), 1);
	close(fd);
	cause = open_fails(path, -EILSEQ);
	assert_cause(&cause, path, "damaged");
	free(path);
	free(d);
}
END_TEST

/* The bytes of dir/name (malloc'd into b). */
static void
slurp_buf(const char *dir, const char *name, struct ud_buf *b)
{
	char *p = ud_xasprintf("%s/%s", dir, name);

	ud_buf_reset(b);
	ck_assert_msg(ud_read_file(p, b, NULL) == 0, "%s", p);
	free(p);
}

/*
 * Issue 38 E: a damaged store with a WAL (a crash left it) is refused and
 * left byte-identical: the check neither checkpoints the WAL into it nor
 * deletes the WAL (a read-write connection's close would do both).
 */
START_TEST(test_refuse_damaged_untouched)
{
	char *d = test_dir("damaged-wal"), *path, *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", &path);
	struct ud_buf db0 = UD_BUF_INIT, wal0 = UD_BUF_INIT, db1 = UD_BUF_INIT, wal1 = UD_BUF_INIT;
	int i, status;
	pid_t pid;

	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	for (i = 0; i < 2000; i++) {
		char p[64];
		struct ud_hrow r;

		snprintf(p, sizeof(p), "include/linux/h%d.h", i);
		r = row(p, i);
		ck_assert_int_eq(ud_store_put_header(st, &r, &cause), 0);
	}
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ud_store_close(st);
	/* a writer killed after its commit: the WAL holds what the file does not */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		st = NULL;
		if (ud_store_open(&st, path, NULL) < 0 || ud_store_begin(st, NULL) < 0)
			_exit(1);
		for (i = 0; i < 2000; i += 97) {
			char p[64];
			struct ud_hrow r;

			snprintf(p, sizeof(p), "include/linux/h%d.h", i);
			r = row(p, i + 5000);
			if (ud_store_put_header(st, &r, NULL) < 0)
				_exit(1);
		}
		_exit(ud_store_commit(st, NULL) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* then the file loses its second half (whole pages: what a file system loses) */
	ck_assert_int_eq(truncate(path, stat_of(d, "state.db").st_size / 2 / 4096 * 4096), 0);
	slurp_buf(d, "state.db", &db0);
	slurp_buf(d, "state.db-wal", &wal0);
	ck_assert_uint_gt(wal0.len, 0);
	cause = open_fails(path, -EILSEQ);
	ck_assert_msg(strstr(cause, "move it away") != NULL || strstr(cause, "not a database"),
		      "%s", cause);
	free(cause);
	slurp_buf(d, "state.db", &db1);
	slurp_buf(d, "state.db-wal", &wal1);
	ck_assert_uint_eq(db1.len, db0.len);
	ck_assert(memcmp(db0.data, db1.data, db0.len) == 0);
	ck_assert_uint_eq(wal1.len, wal0.len);
	ck_assert(memcmp(wal0.data, wal1.data, wal0.len) == 0);
	ud_buf_free(&db0);
	ud_buf_free(&wal0);
	ud_buf_free(&db1);
	ud_buf_free(&wal1);
	free(path);
	free(d);
}
END_TEST

/* Adds n events in a transaction of their own; the last clock. */
static int64_t
add_events(struct ud_store *st, int n)
{
	char *cause = NULL;
	int64_t c = 0;
	int i;

	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	for (i = 0; i < n; i++)
		ck_assert_int_gt(c = ud_store_event(st, "include/linux/a.h", "split", NULL, &cause),
				 0);
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	return c;
}

/*
 * Issue 38 E: a store deleted, or emptied, and built anew never hands out
 * a clock it handed out before: it starts past the last one.
 */
START_TEST(test_clock_never_back)
{
	char *d = test_dir("clock-back"), *path, *p;
	struct ud_store *st = open_ok(d, "state.db", &path);
	int64_t last = add_events(st, 7), first;

	ud_store_close(st);
	/* deleted, WAL and all */
	ck_assert_int_eq(unlink(path), 0);
	p = ud_xasprintf("%s-wal", path);
	(void)unlink(p);
	free(p);
	p = ud_xasprintf("%s-shm", path);
	(void)unlink(p);
	free(p);
	st = open_ok(d, "state.db", NULL);
	ck_assert_int_ge(ud_store_clock(st), last);
	first = add_events(st, 1);
	ck_assert_int_gt(first, last);
	/* a client at a clock before the new log's first is told to start afresh */
	ck_assert_int_eq(ud_store_first_clock(st), first);
	last = add_events(st, 3);
	ud_store_close(st);
	/* emptied (size 0) */
	ck_assert_int_eq(truncate(path, 0), 0);
	p = ud_xasprintf("%s-wal", path);
	(void)unlink(p);
	free(p);
	st = open_ok(d, "state.db", NULL);
	ck_assert_int_gt(add_events(st, 1), last);
	ud_store_close(st);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_refuse_newer)
{
	char *d = test_dir("newer"), *path = ud_xasprintf("%s/state.db", d), *cause, *q, *v, *w;
	int newer = ud_store_schema_version() + 1;

	q = ud_xasprintf("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
			 " INSERT INTO meta VALUES ('from', 'the future');"
			 " PRAGMA user_version = %d;",
			 newer);
	sql_exec(path, q);
	free(q);
	cause = open_fails(path, -EPROTO);
	v = ud_xasprintf("schema version %d", newer);
	w = ud_xasprintf("(%d)", ud_store_schema_version());
	ck_assert_msg(strstr(cause, w) != NULL, "'%s' not in '%s'", w, cause);
	assert_cause(&cause, path, v);
	/* left as it was */
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), newer);
	free(v);
	v = sql_text(path, "PRAGMA journal_mode");
	ck_assert_str_eq(v, "delete");
	free(v);
	v = sql_text(path, "SELECT value FROM meta WHERE key = 'from'");
	ck_assert_str_eq(v, "the future");
	free(v);
	free(w);
	free(path);
	free(d);
}
END_TEST

/* A database some other program made: refused, its journal mode and tables as they were. */
START_TEST(test_refuse_foreign)
{
	char *d = test_dir("foreign"), *path = ud_xasprintf("%s/state.db", d), *cause, *v;

	sql_exec(path, "CREATE TABLE meta (x); INSERT INTO meta VALUES (42);");
	cause = open_fails(path, -EPROTO);
	ck_assert_uint_lt(strlen(cause), 300); /* a line, not the schema */
	assert_cause(&cause, path, "a database uapid did not make");
	v = sql_text(path, "PRAGMA journal_mode");
	ck_assert_str_eq(v, "delete");
	free(v);
	ck_assert_int_eq(sql_int(path, "SELECT x FROM meta"), 42);
	ck_assert_int_eq(sql_int(path, "PRAGMA user_version"), 0);
	free(path);
	free(d);
}
END_TEST

/* Another connection holding a write lock: refused at once, not waited for. */
static void
refuse_locked(const char *path, bool ours)
{
	sqlite3 *db = NULL;
	char *cause;
	struct ud_store *st;
	time_t t0 = time(NULL);

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	cause = open_fails(path, -EBUSY);
	ck_assert_int_le(time(NULL) - t0, 2);
	assert_cause(&cause, path, "another process is writing it");
	ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	/* once the writer is done, it opens (one of ours), or is refused as not ours */
	cause = NULL;
	if (ours) {
		ck_assert_int_eq(ud_store_open(&st, path, &cause), 0);
		ck_assert_ptr_null(cause);
		ud_store_close(st);
	} else {
		ck_assert_int_eq(ud_store_open(&st, path, &cause), -EPROTO);
		assert_cause(&cause, path, "a database uapid did not make");
	}
	sqlite3_close(db);
}

START_TEST(test_refuse_locked)
{
	char *d = test_dir("locked"), *plain = ud_xasprintf("%s/plain.db", d), *path, *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", &path), *other = NULL;

	/* a store (WAL): its writer blocks ours */
	ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), 0);
	ud_store_close(st);
	refuse_locked(path, true);
	/* a database in rollback-journal mode: the writer blocks even reading */
	sql_exec(plain, "CREATE TABLE t (x)");
	refuse_locked(plain, false);
	/* a store whose daemon is in a batch */
	st = open_ok(d, "state.db", NULL);
	ck_assert_int_eq(ud_store_begin(st, &cause), 0);
	ck_assert_int_eq(ud_store_open(&other, path, &cause), -EBUSY);
	ck_assert_ptr_null(other);
	assert_cause(&cause, path, "another process is writing it");
	ck_assert_int_eq(ud_store_commit(st, &cause), 0);
	ck_assert_ptr_null(cause);
	ud_store_close(st);
	free(plain);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_refuse_readonly)
{
	char *d = test_dir("readonly"), *path, *cause = NULL;
	struct ud_store *st = open_ok(d, "state.db", &path);

	ck_assert_int_eq(ud_store_set_meta(st, "k", "v", &cause), 0);
	ud_store_close(st);
	ck_assert_int_eq(chmod(path, 0444), 0);
	if (geteuid() != 0) {
		int rc;

		/* refused at open, not at the first write: -EROFS, or -EACCES when SQLite sees it
		 * first */
		st = NULL;
		rc = ud_store_open(&st, path, &cause);
		ck_assert_msg(rc == -EROFS || rc == -EACCES, "%d %s", rc,
			      cause != NULL ? cause : "");
		ck_assert_ptr_null(st);
		assert_cause(&cause, path, "read");
	} else {
		/*
		 * Root writes a file whatever its mode says: there is no read-only
		 * file to refuse here.  What it does, it must do cleanly.
		 */
		st = NULL;
		if (ud_store_open(&st, path, &cause) == 0)
			ud_store_close(st);
		free(cause);
	}
	ck_assert_int_eq(chmod(path, 0644), 0);
	free(path);
	free(d);
}
END_TEST

START_TEST(test_refuse_unopenable)
{
	char *d = test_dir("unopenable"), *path = ud_xasprintf("%s/no/such/dir/state.db", d);
	char *cause = NULL;
	struct ud_store *st = NULL;

	/* its directory is not there: not made */
	ck_assert_int_lt(ud_store_open(&st, path, &cause), 0);
	ck_assert_ptr_null(st);
	assert_cause(&cause, path, "cannot open");
	ck_assert(!exists(d, "no"));
	/* a directory where the file should be */
	free(path);
	path = ud_xasprintf("%s/dir.db", d);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_lt(ud_store_open(&st, path, &cause), 0);
	ck_assert_ptr_null(st);
	assert_cause(&cause, path, ": ");
	ck_assert_int_eq(count_entries(path), 0);
	free(path);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("rows");
	TCase *refuse = tcase_create("refuse");

	tcase_add_test(tc, test_create);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_apilog);
	tcase_add_test(tc, test_reader);
	tcase_add_test(tc, test_headers);
	tcase_add_test(tc, test_installed);
	tcase_add_test(tc, test_outputs);
	tcase_add_test(tc, test_markers);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_problems);
	tcase_add_test(tc, test_transactions);
	tcase_add_test(tc, test_tx_disk_fails);
	tcase_add_test(tc, test_migrate_5);
	tcase_add_test(tc, test_reopen);
	tcase_add_test(tc, test_api_has_version);
	tcase_add_test(tc, test_api_texts_once);
	tcase_add_test(tc, test_maintain);
	suite_add_tcase(s, tc);
	tcase_add_test(refuse, test_refuse_garbage);
	tcase_add_test(refuse, test_refuse_damaged);
	tcase_add_test(refuse, test_refuse_damaged_untouched);
	tcase_add_test(refuse, test_clock_never_back);
	tcase_add_test(refuse, test_refuse_newer);
	tcase_add_test(refuse, test_refuse_foreign);
	tcase_add_test(refuse, test_refuse_locked);
	tcase_add_test(refuse, test_refuse_readonly);
	tcase_add_test(refuse, test_refuse_unopenable);
	suite_add_tcase(s, refuse);
	return test_run_scratch(s, "store");
}
