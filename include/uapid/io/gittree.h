/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Git trees as a source and a sink: the splitter, the installer and the
 * tree index read a commit's tree through the same source interface as a
 * directory (source.h), and write results into a new tree through the
 * same sink interface (sink.h), so the branch writer implements no rule a
 * second time.  No checkout and no working tree: objects only (libgit2).
 *
 * The sink builds on a baseline tree: writes become blobs at once, removals
 * are recorded, and ud_gittree_sink_write_tree makes the new tree with only
 * the changed paths rewritten (unchanged subtrees keep their ids).
 */
#ifndef UAPID_GITTREE_H
#define UAPID_GITTREE_H

#include <git2.h>

#include "uapid/io/sink.h"
#include "uapid/io/source.h"
#include "uapid/util/strlist.h"

/*
 * A source reading the tree 'tree' of repo (both borrowed; the tree must
 * outlive the source).  label names it in messages ("REPO:REV").  Safe
 * from several threads: reads are serialised.
 */
int ud_gittree_source_open(struct ud_source *s, git_repository *repo, const git_tree *tree,
			   const char *label, char **cause);

/* A sink whose changes apply to baseline (borrowed; NULL: an empty tree). */
int ud_gittree_sink_open(struct ud_sink *s, git_repository *repo, const git_tree *baseline,
			 const char *label, char **cause);
/* Puts an existing blob at rel (a cached result: no bytes to write). */
void ud_gittree_sink_put_blob(struct ud_sink *s, const char *rel, const git_oid *blob);
/* The number of paths written or removed so far. */
size_t ud_gittree_sink_changes(const struct ud_sink *s);
/* Writes the tree: baseline with the changes, in *out. 0 or a negative errno with *cause. */
int ud_gittree_sink_write_tree(struct ud_sink *s, git_oid *out, char **cause);

/*
 * The paths that differ from tree a to tree b (either NULL: the empty
 * tree), found by walking both and skipping the subtrees whose ids are
 * equal: the work follows the change, not the size of the trees.
 * Appended to modified: regular files (blobs, executable or not) in both
 * with other contents or mode.  Appended to other: every other change,
 * a path added, deleted or changing its kind (file, symlink, directory,
 * submodule); a directory added or deleted is there with every path
 * below it.  Each list in tree order.  Returns 0, or -EIO with *cause
 * when a tree cannot be read.
 */
int ud_gittree_changed_paths(git_repository *repo, const git_tree *a, const git_tree *b,
			     struct ud_strlist *modified, struct ud_strlist *other, char **cause);

/*
 * git_libgit2_init, with libgit2's object cache told to keep trees of up
 * to 4 MiB, not just small ones: the commands that read trees again and
 * again (path lookups over a whole history) want them all kept.  Pair
 * with git_libgit2_shutdown.
 */
void ud_git_init_caching_trees(void);

/* "libgit2: MESSAGE" for the last libgit2 error (malloc'd). */
char *ud_git_error(const char *what);

#endif /* UAPID_GITTREE_H */
