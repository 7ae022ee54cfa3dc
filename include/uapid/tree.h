/*
 * A kernel source tree on disk: safe path resolution and the set of
 * headers its Kbuild files export.
 */
#ifndef UAPID_TREE_H
#define UAPID_TREE_H

#include <stddef.h>

#include "uapid/kbuild.h"

struct ud_tree {
	char *root; /* canonical absolute path, no trailing slash */
};

struct ud_paths {
	char **v;
	size_t n, alloc;
};

#define UD_PATHS_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

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
/*
 * Every header exported by the Kbuild files under include/ and
 * arch/ANY/include/ (uapi/ directories excluded) that exists, sorted.
 */
void ud_tree_exported(const struct ud_tree *t, struct ud_paths *out);
/* Like ud_tree_exported, for the headers below one tree-relative directory. */
void ud_tree_exported_under(const struct ud_tree *t, const char *dir, struct ud_paths *out);
/* Parses DIR/Kbuild (tree-relative dir) and the files it includes into kb; 0 if no Kbuild. */
int ud_tree_kbuild(const struct ud_tree *t, const char *dir, struct ud_kbuild *kb);

/*
 * Every .h file below the absolute directory dir, as paths relative to it
 * ("linux/types.h"), sorted; symlinks are not followed.  A missing
 * directory adds nothing.
 */
void ud_dir_headers(const char *dir, struct ud_paths *out);

void ud_paths_add(struct ud_paths *p, const char *s);
void ud_paths_sort(struct ud_paths *p);
void ud_paths_free(struct ud_paths *p);

#endif /* UAPID_TREE_H */
