/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where results go: a directory today (a tree rewritten in place, an
 * output directory, a daemon's state directory), a git tree being built
 * for the branch writer; the same changeset goes to any of them.
 *
 * Paths are relative to the sink's top.  Functions return 0 or a negative
 * errno with *cause (when not NULL) set to a malloc'd message naming the
 * file; ud_sink_write returns 1 when UD_SINK_KEEP_SAME found the content
 * already there.
 */
#ifndef UAPID_SINK_H
#define UAPID_SINK_H

#include <stddef.h>

#include "uapid/util/buf.h"

struct ud_sink;

struct ud_sink_ops {
	int (*write)(struct ud_sink *s, const char *rel, const void *data, size_t len,
		     char **cause);
	/* Removing what is not there succeeds. */
	int (*remove)(struct ud_sink *s, const char *rel, char **cause);
	/* What the sink holds at rel: 0 with out filled, 1 when nothing is there. */
	int (*read)(struct ud_sink *s, const char *rel, struct ud_buf *out, char **cause);
	void (*close)(struct ud_sink *s);
};

struct ud_sink {
	const struct ud_sink_ops *ops;
	char *label; /* for messages */
	unsigned flags;
	void *impl;
};

enum ud_sink_flag {
	/*
	 * Every write is flushed to the disk before it is renamed into place,
	 * and the directory after: once write returns, the file survives a
	 * power loss (what the daemon needs before it records the file).
	 */
	UD_SINK_DURABLE = 1 << 0,
	/* A file whose content is already the same is not written again (its mtime stays). */
	UD_SINK_KEEP_SAME = 1 << 1,
	/* Files 0600 and the directories made for them 0700, whatever the umask (UD_WRITE_PRIVATE).
	 */
	UD_SINK_PRIVATE = 1 << 2,
	/* The process's umask does not change meanwhile (UD_WRITE_STEADY_UMASK). */
	UD_SINK_STEADY_UMASK = 1 << 3,
};

/*
 * A directory (created when missing): every write is atomic (a temporary
 * file beside the target, then rename), parents are created as needed.
 */
int ud_sink_open_dir(struct ud_sink *s, const char *root, unsigned flags, char **cause);
/* Closes any kind of sink; a zeroed sink is fine. */
void ud_sink_close(struct ud_sink *s);

static inline int
ud_sink_write(struct ud_sink *s, const char *rel, const void *data, size_t len, char **cause)
{
	return s->ops->write(s, rel, data, len, cause);
}

static inline int
ud_sink_remove(struct ud_sink *s, const char *rel, char **cause)
{
	return s->ops->remove(s, rel, cause);
}

static inline int
ud_sink_read(struct ud_sink *s, const char *rel, struct ud_buf *out, char **cause)
{
	return s->ops->read(s, rel, out, cause);
}

#endif /* UAPID_SINK_H */
