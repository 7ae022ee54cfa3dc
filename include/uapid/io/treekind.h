/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a directory a user names as a TREE or DIR is, decided once for
 * every command (issue 39): a kernel source tree after the split (its
 * include/uapi/), one from before it, or a directory of installed
 * headers; anything else is refused with a hint, before a command reads
 * it as something it is not (an empty directory "adds" every header of
 * the other side of a diff; include/linux read as an include directory
 * names every header wrongly).
 */
#ifndef UAPID_TREEKIND_H
#define UAPID_TREEKIND_H

#include <stdbool.h>

enum ud_treekind {
	UD_TREEKIND_NONE,      /* none of the below: refused, with a hint */
	UD_TREEKIND_SPLIT,     /* a kernel source tree with include/uapi/ (3.7 on) */
	UD_TREEKIND_PRESPLIT,  /* a kernel source tree from before the split (to 3.6) */
	UD_TREEKIND_INSTALLED, /* installed headers (INSTALL_HDR_PATH or its include/) */
};

struct ud_treeinfo {
	enum ud_treekind kind;
	/*
	 * The directory the headers are read from: the tree's root, or for
	 * installed headers the include directory (DIR/include when DIR has
	 * one).  malloc'd, as given (not canonical).
	 */
	char *root;
	char *version;		/* "6.1.0" from a tree's Makefile, or NULL */
	const char *generation; /* a tree's install: "headers_install.sh", ... or NULL */
	char *hint;		/* NONE: why, and what to give instead (malloc'd) */
};

/*
 * Decides what path is; never fails (a path that cannot be read is NONE
 * with its errno in the hint).  Free ti with ud_treeinfo_free.
 */
void ud_treekind_detect(const char *path, struct ud_treeinfo *ti);
void ud_treeinfo_free(struct ud_treeinfo *ti);
/* "split source tree", "source tree from before the split", "installed headers", "not a tree" */
const char *ud_treekind_name(enum ud_treekind kind);
/* Is kind a kernel source tree (split or not)? */
bool ud_treekind_is_tree(enum ud_treekind kind);
/*
 * One line of what was found, for a command's first line (malloc'd):
 * "split source tree, Linux 6.1.0, headers_install.sh, arch x86";
 * arch (or NULL) is the architecture the command reads it for.
 */
char *ud_treeinfo_describe(const struct ud_treeinfo *ti, const char *arch);

#endif /* UAPID_TREEKIND_H */
