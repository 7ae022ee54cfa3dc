/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A source of tree bytes: where the splitter, the installer and the tree
 * index read a kernel tree from.  A directory on disk today; a git tree
 * object for the branch writer, with the same readers on top, so no rule
 * is implemented twice.
 *
 * Paths are tree-relative ("include/linux/types.h", "" for the top).  A
 * source is read-only and, once opened, safe to read from several threads
 * at once.  Functions return 0 or a negative errno; on failure *cause
 * (when not NULL) is a malloc'd message naming the path.
 */
#ifndef UAPID_SOURCE_H
#define UAPID_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapid/util/buf.h"
#include "uapid/util/strlist.h"

enum ud_ftype {
	UD_FT_NONE,  /* nothing by that name */
	UD_FT_FILE,  /* a regular file (a git blob) */
	UD_FT_DIR,   /* a directory (a git tree) */
	UD_FT_OTHER, /* a FIFO, device, submodule, or a path leading out of the tree */
};

/* What is known of a path without reading it. */
struct ud_fstat {
	enum ud_ftype type;
	uint64_t size;	  /* 0 where the source does not know it without reading (git) */
	int64_t mtime_ns; /* 0 where the source has no times (git) */
	uint64_t ino;	  /* 0 where the source has no inodes */
	bool symlink; /* rel itself is a symlink (type is its target's): listings leave it out */
	/* UD_FT_OTHER: what it is ("a FIFO", "a symlink loop", ...; static text), else NULL */
	const char *other;
};

struct ud_source;

struct ud_source_ops {
	int (*stat)(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause);
	/* A regular file whole (at most UD_LEX_MAX_SIZE bytes), replacing out's contents. */
	int (*read)(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause);
	/*
	 * The entries of a directory, appended to names as "name" (with a
	 * trailing '/' for directories; entries that are neither files nor
	 * directories are left out), unsorted.
	 */
	int (*list)(struct ud_source *s, const char *rel, struct ud_strlist *names, char **cause);
	void (*close)(struct ud_source *s);
};

struct ud_source {
	const struct ud_source_ops *ops;
	char *label; /* for messages: the directory, or "REPO:REV" */
	void *impl;
};

/*
 * A directory on disk.  Symlinks are followed only while they stay beneath
 * root; a path leading out (through ".." or a symlink) is refused, and
 * listings leave symlinks out.
 */
int ud_source_open_dir(struct ud_source *s, const char *root, char **cause);
/*
 * A source that reads through inner (borrowed) and records every path
 * looked at (stat, read, list) in seen, in the order met, each once: what
 * a caller has to watch to know when its result may be stale (the daemon
 * records what the install plan read).  Not thread-safe: one reader.
 */
void ud_source_open_recorder(struct ud_source *s, struct ud_source *inner, struct ud_strlist *seen);
/*
 * The same, the paths whose contents were read recorded in read and those
 * only stat'd or listed in looked (a path both is in both): a change to a
 * file's contents matters only when it was read.
 */
void ud_source_open_recorder_split(struct ud_source *s, struct ud_source *inner,
				   struct ud_strlist *read, struct ud_strlist *looked);
/* Closes any kind of source; a zeroed source is fine. */
void ud_source_close(struct ud_source *s);

static inline int
ud_source_stat(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause)
{
	return s->ops->stat(s, rel, st, cause);
}

static inline int
ud_source_read(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause)
{
	return s->ops->read(s, rel, out, cause);
}

static inline int
ud_source_list(struct ud_source *s, const char *rel, struct ud_strlist *names, char **cause)
{
	return s->ops->list(s, rel, names, cause);
}

/*
 * ud_source_read, and in *st what ud_source_stat says of rel, as read, when
 * that comes free: a directory source takes it from the descriptor it read
 * (st->symlink is not looked at: false).  Other kinds leave *st zeroed
 * (UD_FT_NONE: ask ud_source_stat), so that a recorder records a read only.
 */
int ud_source_read_stat(struct ud_source *s, const char *rel, struct ud_buf *out,
			struct ud_fstat *st, char **cause);

/*
 * Directories held open for many ud_source_stat calls in a row (one
 * install run): a directory source then stats a file with one call at its
 * directory, resolved beneath the root once, instead of resolving the whole
 * path each time.  The answers are ud_source_stat's (a symlink, or anything
 * unusual, is asked of ud_source_stat itself); other kinds of source pass
 * straight through.  A cache holds descriptors and sees the directories as
 * they were when first met: keep it for one pass, not for a daemon's life.
 * One thread; free it before closing its source.
 */
struct ud_stat_cache;

struct ud_stat_cache *ud_stat_cache_new(void);
void ud_stat_cache_free(struct ud_stat_cache *c);
int ud_source_stat_cached(struct ud_source *s, struct ud_stat_cache *c, const char *rel,
			  struct ud_fstat *st, char **cause);

/* The type of rel, UD_FT_NONE also when it cannot be looked at. */
enum ud_ftype ud_source_type(struct ud_source *s, const char *rel);

/*
 * Every regular file below directory rel whose name ends in suffix (NULL:
 * every file), as paths relative to rel, sorted; directories named in
 * prune (basenames, NULL-terminated list, may be NULL) are not entered.
 * A missing rel adds nothing; a directory that cannot be read is an error
 * (returned after the walk, with the first cause).
 */
int ud_source_walk(struct ud_source *s, const char *rel, const char *suffix,
		   const char *const *prune, struct ud_strlist *out, char **cause);

#endif /* UAPID_SOURCE_H */
