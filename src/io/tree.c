// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel trees on disk (see tree.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/io/fsutil.h"
#include "uapid/io/tree.h"
#include "uapid/util/xmalloc.h"

int
ud_tree_open(struct ud_tree *t, const char *path, char **cause)
{
	char *r = realpath(path, NULL);

	t->root = NULL;
	if (r == NULL) {
		int err = errno;

		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", path, strerror(err));
		return -err;
	}
	if (!ud_is_dir(r)) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: not a directory", path);
		free(r);
		return -ENOTDIR;
	}
	t->root = r;
	return 0;
}

void
ud_tree_close(struct ud_tree *t)
{
	if (t == NULL)
		return;
	free(t->root);
	t->root = NULL;
}

char *
ud_tree_path(const struct ud_tree *t, const char *rel)
{
	return ud_xasprintf("%s/%s", t->root, rel);
}

int
ud_tree_relpath(const struct ud_tree *t, const char *arg, char **rel, char **cause)
{
	char *joined = arg[0] == '/' ? ud_xstrdup(arg) : ud_tree_path(t, arg);
	char *r = realpath(joined, NULL);
	size_t n = strlen(t->root);

	*rel = NULL;
	if (r == NULL) {
		int err = errno;

		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", arg, strerror(err));
		free(joined);
		return -err;
	}
	free(joined);
	if (strcmp(r, t->root) == 0) {
		*rel = ud_xstrdup("");
		free(r);
		return 0;
	}
	if (strncmp(r, t->root, n) != 0 || r[n] != '/') {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: outside the tree %s (resolves to %s)", arg,
					      t->root, r);
		free(r);
		return -EXDEV;
	}
	*rel = ud_xstrdup(r + n + 1);
	free(r);
	return 0;
}
