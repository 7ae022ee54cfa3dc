// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result sinks (see sink.h): the directory kind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/sink.h"
#include "uapid/util/xmalloc.h"

/*
 * The directories a directory sink has made sure of, and whether it made
 * them itself: files of a directory made in this sink's life need no look
 * before they are linked in (a fresh install writes like cp), and no
 * directory is asked for again per file.
 */
struct sink_dir {
	char *rel; /* below the sink's root; "" for the root */
	bool made; /* created by this sink: empty when made */
};

struct dir_sink {
	struct sink_dir *v;
	size_t n, alloc, last; /* last: the entry hit last (files come directory by directory) */
};

static mode_t
dir_mode(const struct ud_sink *s)
{
	return (s->flags & UD_SINK_PRIVATE) ? 0700 : 0755;
}

/* The sink's entry for the directory of rel, made (with its parents) when missing. */
static int
sink_dir(struct ud_sink *s, const char *rel, const struct sink_dir **out, char **cause)
{
	struct dir_sink *d = s->impl;
	const char *slash = strrchr(rel, '/');
	size_t n = slash != NULL ? (size_t)(slash - rel) : 0, i;
	struct sink_dir *e;
	char *path;
	bool made = false;

	for (i = 0; i < d->n; i++) {
		e = &d->v[(d->last + i) % d->n];
		if (strlen(e->rel) == n && memcmp(e->rel, rel, n) == 0) {
			d->last = (d->last + i) % d->n;
			*out = e;
			return 0;
		}
	}
	path = ud_xasprintf("%s/%.*s", s->label, (int)n, rel);
	if (n > 0 && mkdir(path, dir_mode(s)) == 0) {
		made = true;
	} else if (n > 0 && errno != EEXIST) {
		int rc = ud_mkdir_p_mode(path, dir_mode(s), cause);

		if (rc < 0) {
			free(path);
			return rc;
		}
		made = true; /* it was missing: the chain is ours */
	} else if (n > 0 && !ud_is_dir(path)) {
		int rc = ud_mkdir_p_mode(path, dir_mode(s), cause); /* its message */

		if (rc < 0) {
			free(path);
			return rc;
		}
	}
	free(path);
	d->v = ud_xgrow(d->v, &d->alloc, d->n + 1, sizeof(*d->v));
	e = &d->v[d->n];
	e->rel = ud_xstrndup(rel, n);
	e->made = made;
	d->last = d->n++;
	*out = e;
	return 0;
}

static unsigned
write_flags(const struct ud_sink *s)
{
	return UD_WRITE_MKDIR | ((s->flags & UD_SINK_DURABLE) ? UD_WRITE_DURABLE : 0) |
	       ((s->flags & UD_SINK_PRIVATE) ? UD_WRITE_PRIVATE : 0) |
	       ((s->flags & UD_SINK_STEADY_UMASK) ? UD_WRITE_STEADY_UMASK : 0);
}

/* Does path hold exactly data[0..len)? */
static bool
same_content(const char *path, const void *data, size_t len)
{
	struct ud_buf old = UD_BUF_INIT;
	bool same = ud_read_file(path, &old, NULL) == 0 && old.len == len &&
		    (len == 0 || memcmp(old.data, data, len) == 0);

	ud_buf_free(&old);
	return same;
}

static int
dir_write(struct ud_sink *s, const char *rel, const void *data, size_t len, char **cause)
{
	const struct sink_dir *dir;
	char *path;
	unsigned flags = write_flags(s) & ~(unsigned)UD_WRITE_MKDIR;
	int rc;

	if ((rc = sink_dir(s, rel, &dir, cause)) < 0)
		return rc;
	path = ud_xasprintf("%s/%s", s->label, rel);
	rc = -EEXIST;
	if (dir->made)
		rc = ud_write_file(path, data, len, flags | UD_WRITE_NEW, cause);
	if (rc == -EEXIST) {
		/* not made here, or written before in this sink's life: look first */
		if (dir->made && cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
		if ((s->flags & UD_SINK_KEEP_SAME) && same_content(path, data, len))
			rc = 1;
		else
			rc = ud_write_file(path, data, len, flags, cause);
	}
	if (rc == -ENOENT) {
		/* the directory went away under the sink: make it again */
		if (cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
		rc = ud_write_file(path, data, len, write_flags(s), cause);
	}
	free(path);
	return rc;
}

static int
dir_remove(struct ud_sink *s, const char *rel, char **cause)
{
	char *path = ud_xasprintf("%s/%s", s->label, rel);
	int rc = ud_remove_file(path, write_flags(s), cause);

	free(path);
	return rc;
}

static int
dir_read(struct ud_sink *s, const char *rel, struct ud_buf *out, char **cause)
{
	char *path = ud_xasprintf("%s/%s", s->label, rel);
	int rc = ud_read_file(path, out, cause);

	free(path);
	if (rc == -ENOENT) {
		if (cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
		return 1;
	}
	return rc;
}

static void
dir_close(struct ud_sink *s)
{
	struct dir_sink *d = s->impl;
	size_t i;

	for (i = 0; d != NULL && i < d->n; i++)
		free(d->v[i].rel);
	if (d != NULL)
		free(d->v);
	free(d);
}

static const struct ud_sink_ops dir_ops = {dir_write, dir_remove, dir_read, dir_close};

int
ud_sink_open_dir(struct ud_sink *s, const char *root, unsigned flags, char **cause)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = ud_mkdir_p_mode(root, (flags & UD_SINK_PRIVATE) ? 0700 : 0755, cause)) < 0)
		return rc;
	s->ops = &dir_ops;
	s->label = ud_xstrdup(root);
	s->flags = flags;
	s->impl = ud_xcalloc(1, sizeof(struct dir_sink));
	return 0;
}

void
ud_sink_close(struct ud_sink *s)
{
	if (s == NULL || s->ops == NULL)
		return;
	s->ops->close(s);
	free(s->label);
	memset(s, 0, sizeof(*s));
}
