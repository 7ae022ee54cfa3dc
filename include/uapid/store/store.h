/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's memory: one SQLite database per watched tree (state.db).
 *
 * It holds, per header, what the last look at it found (stat, git blob id,
 * export state, classification, diagnostics, the split's outcome and the
 * blob ids of its outputs), the installed headers, every file the daemon
 * keeps in its state directory with the blob it must hold, the coaching
 * markers, what could not be served, and an event log whose sequence
 * number is the clock clients ask "what changed since" with.
 *
 * The schema lives in sql/NNN-name.sql (built into the program), applied
 * in order and tracked with PRAGMA user_version; the database runs in WAL
 * mode with synchronous=NORMAL.  One writer: the daemon's loop thread.
 * Functions return 0 (or 1 where they say) or a negative errno with *cause
 * naming the database and SQLite's message.
 */
#ifndef UAPID_STORE_H
#define UAPID_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "uapid/util/buf.h"
#include "uapid/core/markers.h"
#include "uapid/util/strlist.h"

struct ud_store;

/* The schema version this uapid writes; a newer database is refused. */
int ud_store_schema_version(void);
/*
 * Opens or creates the store at path (":memory:" for tests), checks it
 * (a corrupt or foreign file is refused, not repaired), and migrates it to
 * the current schema.  A database another process writes is an error, not
 * a wait.  A new file is made 0600, whatever the umask.
 */
int ud_store_open(struct ud_store **out, const char *path, char **cause);
/*
 * Opens the store at path to read it only, beside the writer that owns
 * it (WAL: the reader sees the last commit, never waits for the writer):
 * no check, no migration (a database of another schema version is
 * refused, -EPROTO).  Its writing functions fail.
 */
int ud_store_open_reader(struct ud_store **out, const char *path, char **cause);
void ud_store_close(struct ud_store *st);

/*
 * A transaction: every batch of the daemon is one.  It is kept whole or
 * not at all: once a write in it fails in a way that leaves it unfit to
 * commit (SQLITE_FULL, SQLITE_IOERR, a read-only or damaged file, no
 * memory, or SQLite having rolled it back itself), every later write in
 * it fails with the same error, without running, and so does the commit,
 * which rolls it back.  A failed commit rolls back too.
 */
int ud_store_begin(struct ud_store *st, char **cause);
int ud_store_commit(struct ud_store *st, char **cause);
void ud_store_rollback(struct ud_store *st);
/*
 * A read transaction (a reader's): every read until ud_store_read_end sees
 * one snapshot, the last commit when it began.
 */
int ud_store_read_begin(struct ud_store *st, char **cause);
void ud_store_read_end(struct ud_store *st);
/* The open transaction's first such failure (a negative errno), or 0. */
int ud_store_tx_error(const struct ud_store *st);
/* Is a transaction open (a write now joins it)? */
bool ud_store_in_transaction(const struct ud_store *st);

/* Settings and facts, by key (value malloc'd; NULL when unset). */
char *ud_store_meta(struct ud_store *st, const char *key);
int ud_store_set_meta(struct ud_store *st, const char *key, const char *value, char **cause);

/* API versions (sql/003-api.sql): text NULL records a removal. */
int ud_store_put_api_version(struct ud_store *st, const char *path, int64_t clock,
			     const char *fingerprint, const char *text, size_t len, char **cause);
/*
 * The version of path in effect at clock (the latest at or before it):
 * 0 with its text (and fingerprint, malloc'd, when asked), 1 when there was
 * none or it was removed.
 */
int ud_store_api_version_at(struct ud_store *st, const char *path, int64_t clock,
			    char **fingerprint, struct ud_buf *text);
/* Is there a version of path in effect now (ud_store_api_version_at's 0), its text not read? */
bool ud_store_api_has_version(struct ud_store *st, const char *path);
/* The paths with a version after since, sorted, appended to paths. */
int ud_store_api_paths_since(struct ud_store *st, int64_t since, struct ud_strlist *paths);

/* The cache (sql/002-cache.sql): the value for (space, key), malloc'd, or NULL. */
char *ud_store_cache_get(struct ud_store *st, const char *space, const char *key);
int ud_store_cache_put(struct ud_store *st, const char *space, const char *key, const char *value,
		       char **cause);

/*
 * The api-log index (sql/004-api-log.sql), as apilog.h builds and reads
 * it: one per key (a repository and its headers branch).
 */
struct ud_apilog_state {
	int64_t id;
	char *headers; /* the last headers commit read, or NULL */
	char *source;  /* the newest commit of its chain, or NULL */
};

/*
 * The index of key, made (empty) when there is none or when it was made
 * with another version (then dropped first).  *out's strings are the
 * caller's (ud_apilog_state_free).
 */
int ud_store_apilog_open(struct ud_store *st, const char *key, int version,
			 struct ud_apilog_state *out, char **cause);
/* The same without writing: 1 with *out, 0 when there is none of this version. */
int ud_store_apilog_find(struct ud_store *st, const char *key, int version,
			 struct ud_apilog_state *out);
void ud_apilog_state_free(struct ud_apilog_state *s);
int ud_store_apilog_set(struct ud_store *st, int64_t id, const char *headers, const char *source,
			char **cause);
int ud_store_apilog_drop(struct ud_store *st, int64_t id, char **cause);
/* A commit's place on the chain: 1 with *pos, 0 when it is not on it. */
int ud_store_apilog_pos(struct ud_store *st, int64_t id, const char *commit, int64_t *pos);
int ud_store_apilog_put_pos(struct ud_store *st, int64_t id, const char *commit, int64_t pos,
			    char **cause);
/*
 * The chain's last place (its first with last false; -1 when empty), and
 * its commit (malloc'd) when asked.
 */
int64_t ud_store_apilog_end_pos(struct ud_store *st, int64_t id, bool last, char **commit);
/*
 * Forgets what follows place pos of the chain: the chain after it, the
 * steps whose source is after it and their changes, and the tags at or
 * after it (they may contain more of the chain now).
 */
int ud_store_apilog_cut(struct ud_store *st, int64_t id, int64_t pos, char **cause);

struct ud_apilog_step {
	int64_t step;		      /* 1, 2, ... */
	int64_t pos;		      /* its source commit's place on the chain */
	char source[41], headers[41]; /* the source and headers commits */
	int64_t time;		      /* the source's committer date */
	int tz;			      /* its offset, minutes east of UTC */
};

int ud_store_apilog_put_step(struct ud_store *st, int64_t id, const struct ud_apilog_step *s,
			     char **cause);
/* The last step whose source is at or before place max_pos: 1 with *out, 0 when none. */
int ud_store_apilog_last_step(struct ud_store *st, int64_t id, int64_t max_pos,
			      struct ud_apilog_step *out);

/* A change of a symbol at a step (api_log_changes); strings borrowed. */
struct ud_apilog_row {
	int64_t step;
	const char *name;   /* "FOO", "struct foo"; "" for the header itself */
	const char *member; /* "" for the symbol itself */
	const char *symbol; /* with its conditions */
	const char *kind;
	const char *header;
	unsigned line;
	const char *moved_to; /* "moved": where to, else NULL */
	unsigned moved_line;
	const char *what;    /* present, added, removed, changed, moved */
	const char *verdict; /* NULL for present */
	const char *change;
	const char *reason;
	const char *members; /* or NULL */
	bool implied;	     /* from its header's addition or removal */
};

int ud_store_apilog_put_row(struct ud_store *st, int64_t id, const struct ud_apilog_row *r,
			    char **cause);
/*
 * Calls fn for each change of the symbol called name (header NULL), or of
 * every symbol of a header (name NULL: where it is or went to), in step
 * order, with its step; stops at fn's non-zero return (returned).
 */
int ud_store_apilog_each_row(struct ud_store *st, int64_t id, const char *name, const char *header,
			     int (*fn)(const struct ud_apilog_row *r,
				       const struct ud_apilog_step *s, void *ctx),
			     void *ctx, char **cause);
/* Tags: where each stands on the chain (-1: it contains none of it). */
int ud_store_apilog_put_tag(struct ud_store *st, int64_t id, const char *name, const char *target,
			    int64_t pos, char **cause);
int ud_store_apilog_del_tag(struct ud_store *st, int64_t id, const char *name, char **cause);
int ud_store_apilog_each_tag(struct ud_store *st, int64_t id,
			     int (*fn)(const char *name, const char *target, int64_t pos,
				       void *ctx),
			     void *ctx, char **cause);

/* One header's row; strings owned by the row (ud_hrow_free). */
struct ud_hrow {
	char *path;
	int64_t size, mtime_ns;
	uint64_t ino;
	char *blob;
	bool exported;
	char *outcome;
	char *blocks;	   /* JSON, may be NULL */
	char *diagnostics; /* JSON, may be NULL */
	char *kernel_blob; /* NULL unless split */
	char *uapi_blob;   /* NULL unless split or moved */
	char *split_key;
	int64_t clock;
};

void ud_hrow_free(struct ud_hrow *r);
/* Returns 1 with *r filled, 0 when there is no row, or a negative errno. */
int ud_store_header(struct ud_store *st, const char *path, struct ud_hrow *r, char **cause);
int ud_store_put_header(struct ud_store *st, const struct ud_hrow *r, char **cause);
int ud_store_del_header(struct ud_store *st, const char *path, char **cause);
/* Calls fn for every row in path order; stops at fn's non-zero return (returned). */
int ud_store_each_header(struct ud_store *st, int (*fn)(const struct ud_hrow *r, void *ctx),
			 void *ctx, char **cause);
/*
 * The same without the JSON columns (blocks and diagnostics NULL): most of
 * the table, and not what the daemon keeps in memory at start-up.
 */
int ud_store_each_header_state(struct ud_store *st, int (*fn)(const struct ud_hrow *r, void *ctx),
			       void *ctx, char **cause);

/*
 * Installed headers: src_blob names the text it was installed from (read
 * or generated); blob is NULL when it failed.
 */
int ud_store_put_installed(struct ud_store *st, const char *dst, const char *src,
			   const char *src_blob, const char *blob, const char *diagnostics,
			   int64_t clock, char **cause);
int ud_store_del_installed(struct ud_store *st, const char *dst, char **cause);
/* Calls fn(dst, src, src_blob, blob, diagnostics) for every row in dst order. */
int ud_store_each_installed(struct ud_store *st,
			    int (*fn)(const char *dst, const char *src, const char *src_blob,
				      const char *blob, const char *diagnostics, void *ctx),
			    void *ctx, char **cause);

/*
 * The files of the state directory, the blob each must hold, and what
 * makes it (a header path, "kbuild:DIR", "removed", "install").
 */
int ud_store_put_output(struct ud_store *st, const char *path, const char *blob, const char *owner,
			char **cause);
int ud_store_del_output(struct ud_store *st, const char *path, char **cause);
int ud_store_each_output(struct ud_store *st,
			 int (*fn)(const char *path, const char *blob, const char *owner,
				   void *ctx),
			 void *ctx, char **cause);

/* Markers, by origin ("file", "source", "socket"): replace them all, or read them all. */
int ud_store_set_markers(struct ud_store *st, const char *origin, const struct ud_markers *set,
			 char **cause);
/* Replaces the markers of one origin for one header. */
int ud_store_set_path_markers(struct ud_store *st, const char *origin, const char *path,
			      const struct ud_marker *v, size_t n, char **cause);
int ud_store_add_marker(struct ud_store *st, const char *origin, const struct ud_marker *m,
			int64_t *id, char **cause);
int ud_store_del_marker(struct ud_store *st, int64_t id, char **cause);
/*
 * Appends the markers of origin (NULL: all) to set; their ids to ids
 * (parallel, may be NULL; malloc'd).
 */
int ud_store_markers(struct ud_store *st, const char *origin, struct ud_markers *set, int64_t **ids,
		     char **cause);

/* Logs an event; returns its clock (> 0) or a negative errno. */
int64_t ud_store_event(struct ud_store *st, const char *path, const char *kind, const char *detail,
		       char **cause);
/*
 * The last clock (0 for a new log), and the first one still kept (0 for a
 * new log; the next clock when the retention emptied it).
 */
int64_t ud_store_clock(struct ud_store *st);
int64_t ud_store_first_clock(struct ud_store *st);
/*
 * Calls fn for every event after clock since, in order; stops at fn's
 * non-zero return.
 */
int ud_store_each_event(struct ud_store *st, int64_t since,
			int (*fn)(int64_t clock, const char *path, const char *kind,
				  const char *detail, void *ctx),
			void *ctx, char **cause);

/* What cannot be served, by what ("install", "split", "watch"); reason NULL clears it. */
int ud_store_set_problem(struct ud_store *st, const char *what, const char *reason, int64_t clock,
			 char **cause);
int ud_store_each_problem(struct ud_store *st,
			  int (*fn)(const char *what, const char *reason, void *ctx), void *ctx,
			  char **cause);

/*
 * What the daemon keeps of its history: an event goes once it is neither
 * among the keep_events newest nor younger than keep_seconds (whichever
 * keeps more); the API versions go with the clocks no one can ask for any
 * more, the texts with the last version that used them.
 */
struct ud_store_retention {
	int64_t keep_events;
	int64_t keep_seconds;
};

struct ud_store_upkeep {
	int64_t events, versions, texts; /* rows dropped */
	int64_t freed;			 /* pages given back */
	bool checkpointed;		 /* the WAL was emptied (TRUNCATE) */
};

/*
 * The store's upkeep, on a connection of its own (any thread; the writer
 * idle meanwhile: a busy database is not waited for, -EBUSY): the
 * retention's trim in one transaction, an incremental vacuum (databases
 * made since schema 5), and wal_checkpoint(TRUNCATE).
 */
int ud_store_maintain(const char *path, const struct ud_store_retention *r,
		      struct ud_store_upkeep *out, char **cause);

#endif /* UAPID_STORE_H */
