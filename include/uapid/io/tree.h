/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel tree on disk, as a user names it: its canonical root, and the
 * resolution of path arguments that must stay inside it.  Reading it goes
 * through a source (source.h), its layout through the tree index
 * (tindex.h).
 */
#ifndef UAPID_TREE_H
#define UAPID_TREE_H

#include <stddef.h>

struct ud_tree {
	char *root; /* canonical absolute path, no trailing slash */
};

int ud_tree_open(struct ud_tree *t, const char *path, char **cause);
void ud_tree_close(struct ud_tree *t);
/*
 * Resolves a path given by a user (relative to the tree, or absolute) to a
 * canonical tree-relative one (malloc'd into *rel).  Fails for a path that
 * does not exist or lies outside the tree, also through ".." or a symlink.
 */
int ud_tree_relpath(const struct ud_tree *t, const char *arg, char **rel, char **cause);
/* Absolute path of a tree-relative path (malloc'd). */
char *ud_tree_path(const struct ud_tree *t, const char *rel);

#endif /* UAPID_TREE_H */
