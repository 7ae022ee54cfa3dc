// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's SQLite store (see store.h).
 *
 * Statements are prepared once and kept.  Every SQLite failure becomes a
 * negative errno and a message "DB: what: sqlite's message"; a database
 * that is busy (another process writing) is not waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "schema.h"
#include "store-int.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

/* The rows of api_log_changes with their step's source commit (store-apilog.c reads them). */
#define LOG_ROWS                                                                                   \
	"SELECT c.step, c.name, c.member, c.symbol, c.kind, c.header, c.line, c.moved_to, "        \
	"c.moved_line, c.what, c.verdict, c.change, c.reason, c.members, c.implied, s.pos, "       \
	"s.source, s.headers, s.time, s.tz, c.rowid FROM api_log_changes c JOIN api_log_steps s "  \
	"ON s.log = c.log AND s.step = c.step "

static const char *const sql[S__COUNT] = {
	/* paths, kinds and details are names.id (sql/006-names.sql, ud_store_name_id) */
	[S_API_PUT] = "INSERT OR REPLACE INTO api_versions (path, clock, fingerprint, text_id) "
		      "VALUES (?1, ?2, ?3, ?4)",
	[S_API_AT] = "SELECT v.fingerprint, t.text, t.coding, t.base FROM api_versions v LEFT JOIN "
		     "api_texts t "
		     "ON t.id = v.text_id WHERE v.path = (SELECT id FROM names WHERE name = ?1) "
		     "AND v.clock <= ?2 ORDER BY v.clock DESC LIMIT 1",
	/* S_API_AT's question without its text: a restart asks it of every installed header */
	[S_API_HAS] = "SELECT text_id IS NOT NULL FROM api_versions WHERE path = (SELECT id FROM "
		      "names WHERE name = ?1) AND clock <= ?2 ORDER BY clock DESC LIMIT 1",
	[S_API_SINCE] = "SELECT DISTINCT n.name FROM api_versions v JOIN names n ON n.id = v.path "
			"WHERE v.clock > ?1 ORDER BY n.name",
	/* the texts of a hash, compared whole after decoding (store-keep.c) */
	[S_TEXT_FIND] = "SELECT id, text, coding, base FROM api_texts WHERE hash = ?1",
	[S_TEXT_ADD] = "INSERT INTO api_texts (hash, text, coding, base) VALUES (?1, ?2, ?3, ?4)",
	[S_TEXT_GET] = "SELECT text, coding FROM api_texts WHERE id = ?1",
	/* a path's latest text (by names id), and its base */
	[S_TEXT_LAST] = "SELECT t.id, t.base FROM api_versions v JOIN api_texts t ON t.id = "
			"v.text_id WHERE v.path = ?1 ORDER BY v.clock DESC LIMIT 1",
	[S_NAME_FIND] = "SELECT id FROM names WHERE name = ?1",
	[S_NAME_ADD] = "INSERT INTO names (name) VALUES (?1)",
	[S_LOG_GET] = "SELECT id, version, headers, source FROM api_log WHERE key = ?1",
	[S_LOG_ADD] = "INSERT INTO api_log (key, version) VALUES (?1, ?2)",
	[S_LOG_DEL] = "DELETE FROM api_log WHERE id = ?1",
	[S_LOG_SET] = "UPDATE api_log SET headers = ?2, source = ?3 WHERE id = ?1",
	[S_LOG_CHAIN_GET] = "SELECT pos FROM api_log_chain WHERE log = ?1 AND commit_id = ?2",
	[S_LOG_CHAIN_PUT] = "INSERT OR REPLACE INTO api_log_chain (log, commit_id, pos) "
			    "VALUES (?1, ?2, ?3)",
	[S_LOG_CHAIN_LAST] = "SELECT pos, commit_id FROM api_log_chain WHERE log = ?1 "
			     "ORDER BY pos DESC LIMIT 1",
	[S_LOG_CHAIN_FIRST] = "SELECT pos, commit_id FROM api_log_chain WHERE log = ?1 "
			      "ORDER BY pos LIMIT 1",
	[S_LOG_CHAIN_CUT] = "DELETE FROM api_log_chain WHERE log = ?1 AND pos > ?2",
	[S_LOG_STEP_PUT] = "INSERT OR REPLACE INTO api_log_steps (log, step, pos, source, headers, "
			   "time, tz) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_LOG_STEP_LAST] = "SELECT step, pos, source, headers, time, tz FROM api_log_steps "
			    "WHERE log = ?1 AND pos <= ?2 ORDER BY step DESC LIMIT 1",
	[S_LOG_STEP_CUT] = "DELETE FROM api_log_steps WHERE log = ?1 AND step > ?2",
	[S_LOG_CHANGE_CUT] = "DELETE FROM api_log_changes WHERE log = ?1 AND step > ?2",
	[S_LOG_CHANGE_PUT] =
		"INSERT INTO api_log_changes (log, step, name, member, symbol, kind, header, line, "
		"moved_to, moved_line, what, verdict, change, reason, members, implied) VALUES "
		"(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
	[S_LOG_BY_NAME] = LOG_ROWS "WHERE c.log = ?1 AND c.name = ?2 ORDER BY c.step, c.rowid",
	/* two indexed searches: an OR of the two columns would read every row */
	[S_LOG_BY_HEADER] = LOG_ROWS "WHERE c.log = ?1 AND c.header = ?2 UNION ALL " LOG_ROWS
				     "WHERE c.log = ?1 AND c.moved_to = ?2 AND c.header != ?2 "
				     "ORDER BY 1, 21",
	[S_LOG_TAG_PUT] = "INSERT OR REPLACE INTO api_log_tags (log, name, target, pos) "
			  "VALUES (?1, ?2, ?3, ?4)",
	[S_LOG_TAG_DEL] = "DELETE FROM api_log_tags WHERE log = ?1 AND name = ?2",
	[S_LOG_TAG_CUT] = "DELETE FROM api_log_tags WHERE log = ?1 AND pos >= ?2",
	[S_LOG_TAG_EACH] = "SELECT name, target, pos FROM api_log_tags WHERE log = ?1",
	[S_CACHE_GET] = "SELECT value FROM cache WHERE space = ?1 AND key = ?2",
	[S_CACHE_PUT] = "INSERT OR REPLACE INTO cache (space, key, value) VALUES (?1, ?2, ?3)",
	[S_META_GET] = "SELECT value FROM meta WHERE key = ?1",
	[S_META_SET] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
	[S_HDR_GET] =
		"SELECT path, size, mtime_ns, ino, blob, exported, outcome, blocks, diagnostics,"
		" kernel_blob, uapi_blob, split_key, clock FROM headers WHERE path = ?1",
	[S_HDR_PUT] = "INSERT OR REPLACE INTO headers (path, size, mtime_ns, ino, blob, exported,"
		      " outcome, blocks, diagnostics, kernel_blob, uapi_blob, split_key, clock)"
		      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
	[S_HDR_DEL] = "DELETE FROM headers WHERE path = ?1",
	[S_HDR_EACH] = "SELECT path, size, mtime_ns, ino, blob, exported, outcome, blocks, "
		       "diagnostics, kernel_blob, uapi_blob, split_key, clock FROM headers"
		       " ORDER BY path",
	/* S_HDR_EACH's columns, the JSON ones NULL: most of the table, and not kept in memory */
	[S_HDR_EACH_STATE] = "SELECT path, size, mtime_ns, ino, blob, exported, outcome, NULL, "
			     "NULL, kernel_blob, uapi_blob, split_key, clock FROM headers"
			     " ORDER BY path",
	[S_INST_PUT] = "INSERT OR REPLACE INTO installed (dst, src, src_blob, blob, diagnostics,"
		       " clock) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[S_INST_DEL] = "DELETE FROM installed WHERE dst = ?1",
	[S_INST_EACH] = "SELECT dst, src, src_blob, blob, diagnostics FROM installed ORDER BY dst",
	[S_OUT_PUT] = "INSERT OR REPLACE INTO outputs (path, blob, owner) VALUES (?1, ?2, ?3)",
	[S_OUT_DEL] = "DELETE FROM outputs WHERE path = ?1",
	[S_OUT_EACH] = "SELECT path, blob, owner FROM outputs ORDER BY path",
	[S_MARK_CLEAR] = "DELETE FROM markers WHERE origin = ?1",
	[S_MARK_CLEAR_PATH] = "DELETE FROM markers WHERE origin = ?1 AND path = ?2",
	[S_MARK_ADD] = "INSERT INTO markers (path, action, selector, occurrence, why, origin, line)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_MARK_DEL] = "DELETE FROM markers WHERE id = ?1",
	[S_MARK_EACH] = "SELECT id, path, action, selector, occurrence, why, line FROM markers"
			" WHERE ?1 IS NULL OR origin = ?1 ORDER BY id",
	[S_EVENT_ADD] = "INSERT INTO events (time, path, kind, detail) VALUES (?1, ?2, ?3, ?4)",
	/* the sequence, not MAX(clock): the log's retention may have emptied it */
	[S_EVENT_LAST] =
		"SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)",
	/* an empty log's first clock is the next one */
	[S_EVENT_FIRST] =
		"SELECT COALESCE((SELECT MIN(clock) FROM events), NULLIF((SELECT seq FROM "
		"sqlite_sequence WHERE name = 'events') + 1, 1), 0)",
	[S_EVENT_EACH] = "SELECT e.clock, p.name, k.name, d.name FROM events e JOIN names p ON "
			 "p.id = e.path JOIN names k ON k.id = e.kind LEFT JOIN names d ON "
			 "d.id = e.detail WHERE e.clock > ?1 ORDER BY e.clock",
	[S_PROB_SET] = "INSERT OR REPLACE INTO problems (what, reason, clock) VALUES (?1, ?2, ?3)",
	[S_PROB_DEL] = "DELETE FROM problems WHERE what = ?1",
	[S_PROB_EACH] = "SELECT what, reason FROM problems ORDER BY what",
};

int
ud_store_schema_version(void)
{
	return (int)ud_schema_count;
}

/*
 * Does a failure with this code leave the open transaction unfit to
 * commit?  The disk or the file failed (SQLite may have rolled the
 * transaction back already); a constraint or a misuse fails one
 * statement only.
 */
static bool
breaks_transaction(int code)
{
	switch (code & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_CANTOPEN:
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_NOMEM:
		return true;
	default:
		return false;
	}
}

static int
fail(struct ud_store *s, char **cause, const char *what)
{
	int code = s->db != NULL ? sqlite3_errcode(s->db) : SQLITE_ERROR;
	int err;
	char *msg;

	switch (code & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		err = EBUSY;
		break;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_CANTOPEN:
		err = EACCES;
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		err = EILSEQ;
		break;
	case SQLITE_FULL:
		err = ENOSPC;
		break;
	case SQLITE_NOMEM:
		err = ENOMEM;
		break;
	default:
		err = EIO;
		break;
	}
	msg = ud_xasprintf("%s: %s: %s%s", s->path, what,
			   s->db != NULL ? sqlite3_errmsg(s->db) : "cannot open",
			   err == EBUSY ? " (another process is writing it)" : "");
	if (s->in_tx && s->tx_err == 0 &&
	    (breaks_transaction(code) || (s->db != NULL && sqlite3_get_autocommit(s->db)))) {
		s->tx_err = -err;
		s->tx_cause = ud_xstrdup(msg);
	}
	if (cause != NULL)
		*cause = msg;
	else
		free(msg);
	return -err;
}

/* The transaction failed already: what is asked now is not run, and fails as it did. */
static int
tx_failed(struct ud_store *s, char **cause, const char *what)
{
	if (cause != NULL)
		*cause = ud_xasprintf("%s: %s: not done, the transaction failed: %s", s->path, what,
				      s->tx_cause);
	return s->tx_err;
}

static void
tx_end(struct ud_store *s)
{
	s->in_tx = false;
	s->tx_err = 0;
	free(s->tx_cause);
	s->tx_cause = NULL;
}

static int
exec(struct ud_store *s, const char *q, char **cause)
{
	if (sqlite3_exec(s->db, q, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, cause, q);
	return 0;
}

static int
user_version(struct ud_store *s, int *v, char **cause)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK)
		return fail(s, cause, "reading its version");
	rc = sqlite3_step(q);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : fail(s, cause, "reading its version");
}

/* Applies the schema files after version v, each in its own transaction. */
static int
migrate(struct ud_store *s, int v, char **cause)
{
	unsigned i;

	for (i = (unsigned)v; i < ud_schema_count; i++) {
		char *q = ud_xasprintf("BEGIN IMMEDIATE; %s; PRAGMA user_version = %u; COMMIT;",
				       ud_schema_sql[i], i + 1);
		char *what = ud_xasprintf("applying schema version %u", i + 1);
		int rc;

		if (sqlite3_exec(s->db, q, NULL, NULL, NULL) != SQLITE_OK)
			rc = fail(s, cause, what);
		else
			rc = 0;
		free(what);
		free(q);
		if (rc < 0) {
			exec(s, "ROLLBACK", NULL);
			return rc;
		}
	}
	return 0;
}

/* Does the database hold any table (a file that some other program made)? */
static bool
has_tables(struct ud_store *s)
{
	sqlite3_stmt *q;
	bool any = false;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master LIMIT 1", -1, &q, NULL) ==
	    SQLITE_OK) {
		any = sqlite3_step(q) == SQLITE_ROW;
		sqlite3_finalize(q);
	}
	return any;
}

/* A database in a file of its own (not a temporary or in-memory one)? */
static bool
is_file(const char *path)
{
	return path[0] != '\0' && strcmp(path, ":memory:") != 0;
}

/* A file SQLite has something to read in (not there, or empty: a new store)? */
static bool
on_disk(const char *path)
{
	struct stat sb;

	return is_file(path) && stat(path, &sb) == 0 && sb.st_size > 0;
}

/*
 * The check of an existing file, on a read-only connection of its own:
 * a damaged file is left byte-identical.  A read-write connection's close
 * would checkpoint the WAL into it and delete the WAL and its index; a
 * read-only one never writes the database, and PERSIST_WAL keeps the WAL
 * where it is.  0 when it is fit to open for writing.
 */
static int
check_readonly(struct ud_store *s, char **cause)
{
	sqlite3_stmt *q = NULL;
	int v = 0, rc = 0, one = 1;
	bool ok;

	if (sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = fail(s, cause, "cannot open");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 0);
	(void)sqlite3_file_control(s->db, "main", SQLITE_FCNTL_PERSIST_WAL, &one);
	if ((rc = user_version(s, &v, cause)) < 0)
		goto out;
	/* a damaged file is refused, whole: nothing in it can be trusted */
	if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &q, NULL) != SQLITE_OK) {
		/* the schema itself cannot be read: as damaged as a check that fails */
		ok = (sqlite3_errcode(s->db) & 0xff) != SQLITE_CORRUPT;
		if (ok) {
			rc = fail(s, cause, "checking it");
			goto out;
		}
	} else {
		ok = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0) != NULL &&
		     strcmp((const char *)sqlite3_column_text(q, 0), "ok") == 0;
		sqlite3_finalize(q);
	}
	if (!ok) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: the database is damaged (PRAGMA quick_check): "
					      "move it away and the daemon builds it anew",
					      s->path);
		rc = -EILSEQ;
	}
out:
	sqlite3_close(s->db);
	s->db = NULL;
	return rc;
}

/*
 * The last clock handed out, kept beside the database (DIR/NAME.clock for
 * DIR/NAME.db): a store deleted or emptied and built anew starts past it,
 * never below a clock a client holds (which then gets fresh_instance).
 */
static char *
floor_path(const char *path)
{
	size_t n = strlen(path);

	if (n > 3 && strcmp(path + n - 3, ".db") == 0)
		return ud_xasprintf("%.*s.clock", (int)(n - 3), path);
	return ud_xasprintf("%s.clock", path);
}

static int64_t
read_floor(const char *path)
{
	char *fp = floor_path(path), buf[32];
	int fd = open(fp, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	free(fp);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

/* Best effort: a floor not written leaves the clock as safe as it was before floors. */
static void
write_floor(struct ud_store *s, int64_t clock)
{
	char *fp = floor_path(s->path), *tmp = ud_xasprintf("%s.tmp", fp), buf[32];
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int n = snprintf(buf, sizeof(buf), "%lld\n", (long long)clock);
	bool ok = fd >= 0 && write(fd, buf, (size_t)n) == n;

	if (fd >= 0)
		ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, fp) == 0)
		s->floor = clock;
	else
		(void)unlink(tmp);
	free(tmp);
	free(fp);
}

/* A store built anew (deleted, emptied) after clocks were handed out: its clock starts past them.
 */
static int
raise_clock(struct ud_store *s, char **cause)
{
	int64_t floor = read_floor(s->path), now;
	char *q;
	int rc;

	s->floor = floor;
	if (floor <= 0 || (now = ud_store_clock(s)) >= floor)
		return 0;
	q = ud_xasprintf("BEGIN IMMEDIATE; DELETE FROM sqlite_sequence WHERE name = 'events'; "
			 "INSERT INTO sqlite_sequence (name, seq) VALUES ('events', %lld); COMMIT;",
			 (long long)floor);
	rc = exec(s, q, cause);
	free(q);
	if (rc < 0)
		exec(s, "ROLLBACK", NULL);
	return rc;
}

int
ud_store_open(struct ud_store **out, const char *path, char **cause)
{
	struct ud_store *s = ud_xcalloc(1, sizeof(*s));
	sqlite3_stmt *q = NULL;
	int v = 0, rc = 0, i, fd;
	bool ok, checked;

	*out = NULL;
	s->path = ud_xstrdup(path);
	checked = on_disk(path);
	if (checked && (rc = check_readonly(s, cause)) < 0)
		goto out;
	/*
	 * A new database is private whatever the umask (its WAL and shared
	 * memory files take its mode): markers and classifications are no
	 * one else's business.  An empty file is an empty database.
	 */
	if (path[0] != '\0' && strcmp(path, ":memory:") != 0 &&
	    (fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0) {
		(void)fchmod(fd, 0600);
		close(fd);
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = fail(s, cause, "cannot open");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 0);
	if ((rc = user_version(s, &v, cause)) < 0)
		goto out;
	/* a file is checked read-only above (check_readonly); a new one here, at no cost */
	if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &q, NULL) != SQLITE_OK) {
		rc = fail(s, cause, "checking it");
		goto out;
	}
	ok = checked || (sqlite3_step(q) == SQLITE_ROW &&
			 strcmp((const char *)sqlite3_column_text(q, 0), "ok") == 0);
	sqlite3_finalize(q);
	if (!ok) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: the database is damaged (PRAGMA quick_check): "
					      "move it away and the daemon builds it anew",
					      path);
		rc = -EILSEQ;
		goto out;
	}
	if (v == 0 && has_tables(s)) {
		/* not ours (or not yet): a database someone else made is not rewritten */
		if (cause != NULL)
			*cause = ud_xasprintf(
				"%s: a database uapid did not make (it has tables and no "
				"schema version): refused, untouched",
				path);
		rc = -EPROTO;
		goto out;
	}
	if (v > (int)ud_schema_count) {
		if (cause != NULL)
			*cause = ud_xasprintf(
				"%s: schema version %d is newer than this uapid's (%u)", path, v,
				ud_schema_count);
		rc = -EPROTO;
		goto out;
	}
	/*
	 * A new database gives its freed pages back (ud_store_maintain's
	 * incremental vacuum): only settable before its first table.  An
	 * older one reuses them instead, and grows no further for that.
	 */
	if (v == 0 && (rc = exec(s, "PRAGMA auto_vacuum = INCREMENTAL", cause)) < 0)
		goto out;
	if ((rc = exec(s, "PRAGMA journal_mode = WAL", cause)) < 0 ||
	    (rc = exec(s, "PRAGMA synchronous = NORMAL", cause)) < 0 ||
	    (rc = exec(s, "PRAGMA foreign_keys = ON", cause)) < 0 ||
	    (rc = exec(s, "PRAGMA cache_size = -2000", cause)) < 0 ||
	    /*
	     * The WAL is checkpointed by the upkeep, off the daemon's loop
	     * (ud_store_maintain): a commit's own checkpoint at the default
	     * 4 MiB copied and synced the WAL on the loop, at every commit
	     * while a reader held it back.  64 MiB: a net for an upkeep that
	     * cannot keep up.
	     */
	    (rc = exec(s, "PRAGMA wal_autocheckpoint = 16384", cause)) < 0)
		goto out;
	/*
	 * A database the daemon cannot write is refused now, not at the first
	 * batch: read-only (the file, its directory, the mount) or held by a
	 * writer in another process.
	 */
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: the database is read-only", path);
		rc = -EROFS;
		goto out;
	}
	if ((rc = exec(s, "BEGIN IMMEDIATE", cause)) < 0 || (rc = exec(s, "COMMIT", cause)) < 0)
		goto out;
	if ((rc = migrate(s, v, cause)) < 0)
		goto out;
	for (i = 0; i < S__COUNT; i++)
		if (sqlite3_prepare_v3(s->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			rc = fail(s, cause, "preparing its statements");
			goto out;
		}
	if (is_file(path) && (rc = raise_clock(s, cause)) < 0)
		goto out;
	*out = s;
	return 0;
out:
	ud_store_close(s);
	return rc;
}

int
ud_store_open_reader(struct ud_store **out, const char *path, char **cause)
{
	struct ud_store *s = ud_xcalloc(1, sizeof(*s));
	int v = 0, rc = 0, i;

	*out = NULL;
	s->path = ud_xstrdup(path);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = fail(s, cause, "cannot open");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 0);
	if ((rc = user_version(s, &v, cause)) < 0)
		goto out;
	/* a reader migrates nothing: the writer brings it to this uapid's schema */
	if (v != (int)ud_schema_count) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: schema version %d, this uapid reads %u", path, v,
					      ud_schema_count);
		rc = -EPROTO;
		goto out;
	}
	for (i = 0; i < S__COUNT; i++)
		if (sqlite3_prepare_v3(s->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			rc = fail(s, cause, "preparing its statements");
			goto out;
		}
	*out = s;
	return 0;
out:
	ud_store_close(s);
	return rc;
}

void
ud_store_close(struct ud_store *s)
{
	int i;

	if (s == NULL)
		return;
	if (s->in_tx)
		ud_store_rollback(s);
	for (i = 0; i < S__COUNT; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

int
ud_store_begin(struct ud_store *s, char **cause)
{
	int rc;

	if (s->in_tx) {
		/* SQLite refuses a transaction inside another: say so, and keep the open one */
		if (cause != NULL)
			*cause = ud_xasprintf("%s: a transaction is open already", s->path);
		return -EBUSY;
	}
	rc = exec(s, "BEGIN IMMEDIATE", cause);
	if (rc == 0)
		s->in_tx = true;
	return rc;
}

int
ud_store_commit(struct ud_store *s, char **cause)
{
	int rc;

	if (s->in_tx && s->tx_err != 0) {
		/* a write of it failed: nothing of it is kept, not even what worked */
		if (cause != NULL)
			*cause = ud_xstrdup(s->tx_cause);
		rc = s->tx_err;
		ud_store_rollback(s);
		return rc;
	}
	if ((rc = exec(s, "COMMIT", cause)) < 0)
		ud_store_rollback(s);
	tx_end(s);
	if (rc == 0 && is_file(s->path)) {
		int64_t clock = ud_store_clock(s);

		if (clock > s->floor)
			write_floor(s, clock);
	}
	return rc;
}

void
ud_store_rollback(struct ud_store *s)
{
	/* SQLite may have rolled it back already (a full disk): then there is nothing to do */
	if (!sqlite3_get_autocommit(s->db))
		exec(s, "ROLLBACK", NULL);
	tx_end(s);
}

int
ud_store_read_begin(struct ud_store *s, char **cause)
{
	sqlite3_stmt *q;
	int rc;

	if ((rc = exec(s, "BEGIN DEFERRED", cause)) < 0)
		return rc;
	/* the snapshot starts at the first read: taken now, so every later read agrees */
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master LIMIT 1", -1, &q, NULL) ==
	    SQLITE_OK) {
		(void)sqlite3_step(q);
		sqlite3_finalize(q);
	}
	return 0;
}

void
ud_store_read_end(struct ud_store *s)
{
	exec(s, "COMMIT", NULL);
}

int
ud_store_tx_error(const struct ud_store *s)
{
	return s->in_tx ? s->tx_err : 0;
}

bool
ud_store_in_transaction(const struct ud_store *s)
{
	return s->in_tx;
}

sqlite3_stmt *
ud_store_stmt(struct ud_store *s, enum stmt i)
{
	sqlite3_reset(s->st[i]);
	sqlite3_clear_bindings(s->st[i]);
	return s->st[i];
}

int
ud_store_run(struct ud_store *s, sqlite3_stmt *q, char **cause, const char *what)
{
	int rc;

	if (s->in_tx && s->tx_err != 0) {
		sqlite3_reset(q);
		return tx_failed(s, cause, what);
	}
	rc = sqlite3_step(q);

	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : fail(s, cause, what);
}

int
ud_store_fail(struct ud_store *s, char **cause, const char *what)
{
	return fail(s, cause, what);
}

char *
ud_store_meta(struct ud_store *s, const char *key)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_META_GET);
	char *v = NULL;

	ud_store_bind(q, 1, key);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = ud_store_column(q, 0);
	sqlite3_reset(q);
	return v;
}

int
ud_store_set_meta(struct ud_store *s, const char *key, const char *value, char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_META_SET);

	ud_store_bind(q, 1, key);
	ud_store_bind(q, 2, value);
	return ud_store_run(s, q, cause, "writing a setting");
}

char *
ud_store_cache_get(struct ud_store *s, const char *space, const char *key)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_CACHE_GET);
	char *v = NULL;

	ud_store_bind(q, 1, space);
	ud_store_bind(q, 2, key);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = ud_store_column(q, 0);
	sqlite3_reset(q);
	return v;
}

int
ud_store_cache_put(struct ud_store *s, const char *space, const char *key, const char *value,
		   char **cause)
{
	sqlite3_stmt *q = ud_store_stmt(s, S_CACHE_PUT);

	ud_store_bind(q, 1, space);
	ud_store_bind(q, 2, key);
	ud_store_bind(q, 3, value);
	return ud_store_run(s, q, cause, "writing to the cache");
}
