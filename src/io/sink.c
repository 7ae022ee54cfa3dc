// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result sinks (see sink.h): the directory kind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/buf.h"
#include "uapid/fsutil.h"
#include "uapid/sink.h"
#include "uapid/xmalloc.h"

static unsigned
write_flags(const struct ud_sink *s)
{
	return UD_WRITE_MKDIR | ((s->flags & UD_SINK_DURABLE) ? UD_WRITE_DURABLE : 0) |
	       ((s->flags & UD_SINK_PRIVATE) ? UD_WRITE_PRIVATE : 0);
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
	char *path = ud_xasprintf("%s/%s", s->label, rel);
	int rc;

	if ((s->flags & UD_SINK_KEEP_SAME) && same_content(path, data, len))
		rc = 1;
	else
		rc = ud_write_file(path, data, len, write_flags(s), cause);
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
	(void)s;
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
