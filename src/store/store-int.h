/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the store: its handle and prepared statements, for the files that
 * share its database (store.c, store-rows.c, store-apilog.c).  Not a public
 * header.
 */
#ifndef UAPID_STORE_INT_H
#define UAPID_STORE_INT_H

#include <sqlite3.h>
#include <stdbool.h>

#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

/* The store's statements, prepared once (their SQL is in store.c). */
enum stmt {
	S_META_GET,
	S_META_SET,
	S_HDR_GET,
	S_HDR_PUT,
	S_HDR_DEL,
	S_HDR_EACH,
	S_HDR_EACH_STATE,
	S_INST_PUT,
	S_INST_DEL,
	S_INST_EACH,
	S_OUT_PUT,
	S_OUT_DEL,
	S_OUT_EACH,
	S_MARK_CLEAR,
	S_MARK_CLEAR_PATH,
	S_MARK_ADD,
	S_MARK_DEL,
	S_MARK_EACH,
	S_EVENT_ADD,
	S_EVENT_LAST,
	S_EVENT_FIRST,
	S_EVENT_EACH,
	S_PROB_SET,
	S_PROB_DEL,
	S_PROB_EACH,
	S_CACHE_GET,
	S_CACHE_PUT,
	S_API_PUT,
	S_API_AT,
	S_API_HAS,
	S_API_SINCE,
	S_TEXT_FIND,
	S_TEXT_ADD,
	S_TEXT_GET,
	S_TEXT_LAST,
	S_NAME_FIND,
	S_NAME_ADD,
	S_LOG_GET,
	S_LOG_ADD,
	S_LOG_DEL,
	S_LOG_SET,
	S_LOG_CHAIN_GET,
	S_LOG_CHAIN_PUT,
	S_LOG_CHAIN_LAST,
	S_LOG_CHAIN_FIRST,
	S_LOG_CHAIN_CUT,
	S_LOG_STEP_PUT,
	S_LOG_STEP_LAST,
	S_LOG_STEP_CUT,
	S_LOG_CHANGE_CUT,
	S_LOG_CHANGE_PUT,
	S_LOG_BY_NAME,
	S_LOG_BY_HEADER,
	S_LOG_TAG_PUT,
	S_LOG_TAG_DEL,
	S_LOG_TAG_CUT,
	S_LOG_TAG_EACH,
	S__COUNT
};

struct ud_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[S__COUNT];
	bool in_tx;
	/*
	 * The open transaction's first failed write that leaves it unfit to
	 * commit (the disk, the file, or SQLite having rolled it back
	 * itself), and why: every write after it fails the same way, and so
	 * does its commit, which rolls it back.  0 when none.
	 */
	int tx_err;
	char *tx_cause;
	int64_t floor; /* the clock last written beside the database (store.c's floor) */
};

/* Statement i, reset and unbound, ready to bind. */
sqlite3_stmt *ud_store_stmt(struct ud_store *s, enum stmt i);
/* Steps q, which returns no row, and resets it: 0, or a negative errno with *cause. */
int ud_store_run(struct ud_store *s, sqlite3_stmt *q, char **cause, const char *what);
/* The last SQLite error as a negative errno, with "DB: what: message" in *cause. */
int ud_store_fail(struct ud_store *s, char **cause, const char *what);

/*
 * The id of name in the names table (sql/006-names.sql), added when it is
 * not there: 0, or a negative errno with *cause.  Asked of the database
 * each time, never cached: the upkeep removes the names no row uses, on
 * its own connection.
 */
int ud_store_name_id(struct ud_store *s, const char *name, int64_t *id, char **cause);

/* Binds text (NULL: SQL NULL); the text must outlive the statement's step. */
static inline void
ud_store_bind(sqlite3_stmt *q, int i, const char *v)
{
	if (v != NULL)
		sqlite3_bind_text(q, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, i);
}

/* Column i as a malloc'd string, or NULL. */
static inline char *
ud_store_column(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);

	return t != NULL ? ud_xstrdup((const char *)t) : NULL;
}

#endif /* UAPID_STORE_INT_H */
