// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the store keeps, and for how long: the installed headers' API
 * versions, their texts kept once per content (a checkout back and forth
 * stores nothing new), and the upkeep that bounds the event log and the
 * API history by age and count, gives freed pages back and truncates the
 * WAL (ud_store_maintain, on its own connection, off the daemon's loop).
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "schema.h"
#include "store-int.h"
#include "uapid/store/store.h"
#include "uapid/util/hash.h"
#include "uapid/util/xmalloc.h"

/*
 * How api_texts keeps a text (its coding and base columns,
 * sql/006-names.sql).  The texts are most of the store: a header's text
 * compresses to a fourth or less alone, and to a few hundred bytes with the
 * text of its version before as zlib's dictionary (an edit, a checkout's
 * changes).  A base is always a text of coding 0 or 1: one step decodes
 * any text.
 */
enum coding { CODING_PLAIN = 0, CODING_ZLIB = 1, CODING_ZLIB_BASE = 2 };

static int decode_text(struct ud_store *s, const void *data, size_t len, int coding, int64_t base,
		       struct ud_buf *out);

/* Text id (of coding 0 or 1), decoded into out: 0, or -EILSEQ. */
static int
decode_id(struct ud_store *s, int64_t id, struct ud_buf *out)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_TEXT_GET);
	int rc = -EILSEQ;

	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 1) != CODING_ZLIB_BASE)
		rc = decode_text(s, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0),
				 sqlite3_column_int(q, 1), 0, out);
	sqlite3_reset(q);
	return rc;
}

/* A text as api_texts keeps it, decoded into out (reset first): 0, or -EILSEQ. */
static int
decode_text(struct ud_store *s, const void *data, size_t len, int coding, int64_t base,
	    struct ud_buf *out)
{
	struct ud_buf dict = UD_BUF_INIT;
	z_stream z;
	int rc;

	ud_buf_reset(out);
	if (coding == CODING_PLAIN) {
		ud_buf_add(out, data, len);
		return 0;
	}
	if (coding != CODING_ZLIB && coding != CODING_ZLIB_BASE)
		return -EILSEQ;
	if (coding == CODING_ZLIB_BASE && decode_id(s, base, &dict) < 0)
		return -EILSEQ;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		ud_buf_free(&dict);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	do {
		uInt room;

		ud_buf_grow(out, len * 4 + 4096);
		room = (uInt)(out->alloc - out->len - 1); /* and its NUL: read as a string */
		z.next_out = (Bytef *)out->data + out->len;
		z.avail_out = room;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_NEED_DICT && coding == CODING_ZLIB_BASE)
			rc = inflateSetDictionary(&z, (const Bytef *)dict.data, (uInt)dict.len);
		out->len += room - z.avail_out;
		out->data[out->len] = '\0';
	} while (rc == Z_OK);
	inflateEnd(&z);
	ud_buf_free(&dict);
	return rc == Z_STREAM_END ? 0 : -EILSEQ;
}

/* body compressed into out (a zlib stream, with dict when not NULL); false when not smaller. */
static bool
encode_text(const char *body, size_t len, const struct ud_buf *dict, struct ud_buf *out)
{
	z_stream z;
	uLong n;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit(&z, 6) != Z_OK)
		return false;
	if (dict != NULL &&
	    deflateSetDictionary(&z, (const Bytef *)dict->data, (uInt)dict->len) != Z_OK) {
		deflateEnd(&z);
		return false;
	}
	n = deflateBound(&z, (uLong)len);
	ud_buf_reset(out);
	ud_buf_grow(out, n);
	z.next_in = (Bytef *)(uintptr_t)body;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out->data;
	z.avail_out = (uInt)n;
	rc = deflate(&z, Z_FINISH);
	out->len = n - z.avail_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END && out->len < len;
}

/*
 * The base a new text of the path (names id) is kept against: the base of
 * its latest text, or that text itself; 0 for none.
 */
static int64_t
base_of(struct ud_store *s, int64_t path)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_TEXT_LAST);
	int64_t base = 0;

	sqlite3_bind_int64(q, 1, path);
	if (sqlite3_step(q) == SQLITE_ROW)
		base = sqlite3_column_type(q, 1) != SQLITE_NULL ? sqlite3_column_int64(q, 1)
								: sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	return base;
}

/* Adds body to api_texts (hash its key): compressed, against base when there is one. */
static int
add_text(struct ud_store *s, const char *hash, int64_t base, const char *body, size_t len,
	 int64_t *id, char **cause)
{
	struct ud_buf dict = UD_BUF_INIT, b = UD_BUF_INIT;
	sqlite3_stmt *q;
	int coding = CODING_PLAIN, rc;

	if (base > 0 && decode_id(s, base, &dict) == 0 && encode_text(body, len, &dict, &b))
		coding = CODING_ZLIB_BASE;
	else if (encode_text(body, len, NULL, &b))
		coding = CODING_ZLIB;
	q = ud_store_stmt(s, S_TEXT_ADD);
	ud_store_bind(q, 1, hash);
	if (coding != CODING_PLAIN)
		sqlite3_bind_blob(q, 2, b.data, (int)b.len, SQLITE_STATIC);
	else
		sqlite3_bind_blob(q, 2, len > 0 ? body : "", (int)len, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, coding);
	if (coding == CODING_ZLIB_BASE)
		sqlite3_bind_int64(q, 4, base);
	else
		sqlite3_bind_null(q, 4);
	rc = ud_store_run(s, q, cause, "recording an API text");
	ud_buf_free(&dict);
	ud_buf_free(&b);
	if (rc < 0)
		return rc;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/*
 * The id of text in api_texts, added when it is not there (against the
 * path's latest text): each text is kept once.
 */
static int
text_id(struct ud_store *s, int64_t path, const char *body, size_t len, int64_t *id, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_TEXT_FIND);
	struct ud_buf b = UD_BUF_INIT;
	char hash[48];
	bool found = false;

	snprintf(hash, sizeof(hash), "%zu:%016llx", len,
		 (unsigned long long)ud_fnv64(UD_FNV64_BASIS, body, len));
	ud_store_bind(q, 1, hash);
	/* the same hash: the same text, unless their bytes say otherwise */
	while (!found && sqlite3_step(q) == SQLITE_ROW)
		if (decode_text(s, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1),
				sqlite3_column_int(q, 2), sqlite3_column_int64(q, 3), &b) == 0 &&
		    b.len == len && memcmp(b.data, body, len) == 0) {
			*id = sqlite3_column_int64(q, 0);
			found = true;
		}
	sqlite3_reset(q);
	ud_buf_free(&b);
	return found ? 0 : add_text(s, hash, base_of(s, path), body, len, id, cause);
}

int
ud_store_name_id(struct ud_store *s, const char *name, int64_t *id, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_NAME_FIND);
	int rc;

	ud_store_bind(q, 1, name);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc == SQLITE_ROW)
		return 0;
	q = ud_store_stmt(s, S_NAME_ADD);
	ud_store_bind(q, 1, name);
	if ((rc = ud_store_run(s, q, cause, "recording a name")) < 0)
		return rc;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/*
 * A fingerprint as the store keeps it: 16 hex digits (what the daemon
 * makes) as their 64 bits, 8 bytes rather than 17; any other text as it
 * is (the column has no type: nothing is converted).
 */
static void
bind_fingerprint(sqlite3_stmt *q, int i, const char *fp)
{
	char *end;
	unsigned long long v;

	if (strlen(fp) == 16 && strspn(fp, "0123456789abcdef") == 16) {
		v = strtoull(fp, &end, 16);
		sqlite3_bind_int64(q, i, (sqlite3_int64)v);
	} else {
		ud_store_bind(q, i, fp);
	}
}

/* bind_fingerprint's column, read back as the text it was given. */
static char *
column_fingerprint(sqlite3_stmt *q, int i)
{
	if (sqlite3_column_type(q, i) == SQLITE_INTEGER)
		return ud_xasprintf("%016llx", (unsigned long long)sqlite3_column_int64(q, i));
	return ud_store_column(q, i);
}

int
ud_store_put_api_version(struct ud_store *s, const char *path, int64_t clock,
			 const char *fingerprint, const char *body, size_t len, char **cause)
{
	sqlite3_stmt *q;
	int64_t id = 0, pid = 0;
	int rc;

	if ((rc = ud_store_name_id(s, path, &pid, cause)) < 0)
		return rc;
	if (body != NULL && (rc = text_id(s, pid, body, len, &id, cause)) < 0)
		return rc;
	q = ud_store_stmt(s, S_API_PUT);
	sqlite3_bind_int64(q, 1, pid);
	sqlite3_bind_int64(q, 2, clock);
	if (body != NULL) {
		bind_fingerprint(q, 3, fingerprint);
		sqlite3_bind_int64(q, 4, id);
	} else {
		/* removed: no API, no fingerprint */
		sqlite3_bind_null(q, 3);
		sqlite3_bind_null(q, 4);
	}
	return ud_store_run(s, q, cause, "recording an API version");
}

int
ud_store_api_version_at(struct ud_store *s, const char *path, int64_t clock, char **fingerprint,
			struct ud_buf *out)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_API_AT);
	int rc = 1;

	ud_store_bind(q, 1, path);
	sqlite3_bind_int64(q, 2, clock);
	ud_buf_reset(out);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 1) != SQLITE_NULL) {
		if (fingerprint != NULL)
			*fingerprint = column_fingerprint(q, 0);
		/* one that does not decode reads as empty: another version's diff, not a stop */
		(void)decode_text(s, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1),
				  sqlite3_column_int(q, 2), sqlite3_column_int64(q, 3), out);
		rc = 0;
	}
	sqlite3_reset(q);
	return rc;
}

bool
ud_store_api_has_version(struct ud_store *s, const char *path)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_API_HAS);
	bool has;

	ud_store_bind(q, 1, path);
	sqlite3_bind_int64(q, 2, INT64_MAX);
	has = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) != 0;
	sqlite3_reset(q);
	return has;
}

int
ud_store_api_paths_since(struct ud_store *s, int64_t since, struct ud_strlist *paths)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_API_SINCE);

	sqlite3_bind_int64(q, 1, since);
	while (sqlite3_step(q) == SQLITE_ROW)
		ud_strlist_add(paths, (const char *)sqlite3_column_text(q, 0));
	sqlite3_reset(q);
	return 0;
}

/* --- upkeep (ud_store_maintain) ------------------------------------------------------------- */

static int
maint_exec(sqlite3 *db, const char *path, const char *q, char **cause)
{
	char *err = NULL;

	if (sqlite3_exec(db, q, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	if (cause != NULL)
		*cause = ud_xasprintf("%s: %s: %s", path, q, err != NULL ? err : "failed");
	sqlite3_free(err);
	return (sqlite3_errcode(db) & 0xff) == SQLITE_BUSY ? -EBUSY : -EIO;
}

static int64_t
maint_int(sqlite3 *db, const char *q)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int
ud_store_maintain(const char *path, const struct ud_store_retention *r, struct ud_store_upkeep *out,
		  char **cause)
{
	struct timespec ts;
	sqlite3 *db = NULL;
	int64_t last, cut, first;
	char *q;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: cannot open: %s", path,
					      db != NULL ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return -EIO;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	cut = (int64_t)ts.tv_sec - r->keep_seconds;
	if ((rc = maint_exec(db, path, "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE", cause)) < 0)
		goto out;
	last = maint_int(db, "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = "
			     "'events'), 0)");
	/* an event goes when it is neither among the newest nor young: whichever keeps more */
	q = ud_xasprintf("DELETE FROM events WHERE clock <= %lld AND time <= %lld",
			 (long long)(last - r->keep_events), (long long)cut);
	rc = maint_exec(db, path, q, cause);
	free(q);
	if (rc < 0)
		goto rollback;
	out->events = sqlite3_changes(db);
	/*
	 * The API versions a kept clock may ask for stay: at each path, the one
	 * in effect at the log's first clock, and every later one.
	 */
	first = maint_int(db, "SELECT COALESCE((SELECT MIN(clock) FROM events), (SELECT seq FROM "
			      "sqlite_sequence WHERE name = 'events') + 1, 1)");
	q = ud_xasprintf("DELETE FROM api_versions WHERE clock < %lld AND EXISTS (SELECT 1 FROM "
			 "api_versions n WHERE n.path = api_versions.path AND n.clock > "
			 "api_versions.clock AND n.clock < %lld)",
			 (long long)first, (long long)first);
	rc = maint_exec(db, path, q, cause);
	free(q);
	if (rc < 0)
		goto rollback;
	out->versions = sqlite3_changes(db);
	if (out->versions > 0) {
		if ((rc = maint_exec(
			     db, path,
			     "DELETE FROM api_texts WHERE id NOT IN (SELECT text_id FROM "
			     "api_versions WHERE text_id IS NOT NULL) AND id NOT IN (SELECT "
			     "base FROM api_texts WHERE base IS NOT NULL)",
			     cause)) < 0)
			goto rollback;
		out->texts = sqlite3_changes(db);
	}
	/* the names no row uses any more (the loop's connection looks each up as it writes) */
	if ((out->events > 0 || out->versions > 0) &&
	    (rc = maint_exec(
		     db, path,
		     "DELETE FROM names WHERE id NOT IN (SELECT path FROM events UNION "
		     "SELECT kind FROM events UNION SELECT detail FROM events WHERE detail IS "
		     "NOT NULL UNION SELECT "
		     "path FROM api_versions)",
		     cause)) < 0)
		goto rollback;
	if ((rc = maint_exec(db, path, "COMMIT", cause)) < 0)
		goto rollback;
	/* the pages freed go back to the file system (a database made with auto_vacuum) */
	out->freed = maint_int(db, "PRAGMA freelist_count");
	if (maint_int(db, "PRAGMA auto_vacuum") == 2 && out->freed > 0)
		(void)maint_exec(db, path, "PRAGMA incremental_vacuum", NULL);
	else
		out->freed = 0;
	/*
	 * the WAL back to nothing, when no reader holds an old snapshot (else as
	 * far as the readers let it, the rest next time): the only checkpoint
	 * but a net (the store's wal_autocheckpoint, 64 MiB)
	 */
	out->checkpointed = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL,
						      NULL) == SQLITE_OK;
	goto out;
rollback:
	(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_close(db);
	return rc;
}
