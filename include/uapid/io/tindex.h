/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree index: what uapid knows of a kernel tree's layout without
 * reading its headers.
 *
 * It holds every file below include/ and arch/NAME/include/ (uapi/
 * directories too; headers, Kbuild files, the odd exported .agh), and the
 * export lists of the
 * Kbuild files outside uapi/ directories, parsed with the files their
 * "include" lines name.  From them it answers, for one path, "is this
 * header exported?" and lists the exported headers, as the 2012 scripts
 * chose what to split: listed by header-y, opt-header or asm-headers in
 * its own directory's Kbuild (or a file that one includes), and present.
 *
 * Built with one walk of a source; updated path by path when a file or a
 * directory changes, so a long-running caller never rescans the tree for
 * one event.  Reading it from several threads is safe while nobody
 * updates it.
 */
#ifndef UAPID_TINDEX_H
#define UAPID_TINDEX_H

#include <stdbool.h>

#include "uapid/util/diag.h"
#include "uapid/io/kbuild.h"
#include "uapid/io/source.h"
#include "uapid/util/strlist.h"

struct ud_tindex;

/*
 * Indexes the tree of src (borrowed: it must outlive the index).  Returns
 * 0, or a negative errno when part of the tree could not be read: the
 * index is then incomplete and the problems, each naming its path, are
 * error diagnostics in problems (never a silently smaller export set).
 */
int ud_tindex_build(struct ud_tindex **out, struct ud_source *src, struct ud_diags *problems);
/*
 * ud_tindex_build for a caller that needs the whole index or none, with
 * the rest of io's convention: returns 0, or the negative errno with *out
 * NULL and *cause (when cause is not NULL) "LABEL: PROBLEM", src's label
 * and the first problem ("cannot index the tree" when none was said).
 */
int ud_tindex_build_whole(struct ud_tindex **out, struct ud_source *src, char **cause);
void ud_tindex_free(struct ud_tindex *idx);

/*
 * Brings the index up to date for one tree-relative path that was
 * created, changed or deleted (a file or a directory, looked at anew in the
 * source).  The headers whose export state may have changed are appended
 * to changed (may be NULL).  Returns 0, or a negative errno with
 * diagnostics in problems, as ud_tindex_build.
 */
int ud_tindex_update(struct ud_tindex *idx, const char *rel, struct ud_strlist *changed,
		     struct ud_diags *problems);

/* Is rel an indexed file? */
bool ud_tindex_has(const struct ud_tindex *idx, const char *rel);
/* Is rel an exported header that exists? */
bool ud_tindex_exported(const struct ud_tindex *idx, const char *rel);
/*
 * Does rel take part: is it one of the tree's headers?  The one definition
 * of the set every caller works on (the batch commands, the git writer, the
 * daemon's start-up scan, its batches and its watcher): an indexed file
 * (a regular file below include/ or arch/NAME/include/, not a symlink)
 * whose name ends in ".h", or that its directory's export list names,
 * whatever its name (header-y may list any file: upstream exported
 * arch/cris's sv_addr.agh).  The exported ones are split; the others are
 * classified only.
 */
bool ud_tindex_takes_part(const struct ud_tindex *idx, const char *rel);
/*
 * The exported headers below directory dir ("" for the whole tree),
 * appended to out in sorted order.
 */
void ud_tindex_exported_under(const struct ud_tindex *idx, const char *dir, struct ud_strlist *out);
/* The headers (the files that take part) below directory dir, appended to out in sorted order. */
void ud_tindex_headers_under(const struct ud_tindex *idx, const char *dir, struct ud_strlist *out);
/*
 * The indexed files below directory dir whose names end in suffix, appended
 * to out in sorted order: `find DIR -name '*.h'` for the installer.
 */
void ud_tindex_files_under(const struct ud_tindex *idx, const char *dir, const char *suffix,
			   struct ud_strlist *out);

/* Where a tree-relative directory stands to what the index holds. */
enum ud_tindex_scope {
	UD_TINDEX_OUTSIDE, /* nothing of it is indexed */
	UD_TINDEX_ABOVE,   /* on the way to indexed directories: "", arch, arch/NAME */
	UD_TINDEX_INSIDE,  /* include/, arch/NAME/include/, or below one */
};
enum ud_tindex_scope ud_tindex_scope(const char *rel);
/*
 * The export list of directory dir (its Kbuild with the entries of the
 * files it includes, those flagged), or NULL when dir has no Kbuild.
 */
const struct ud_kbuild *ud_tindex_kbuild(const struct ud_tindex *idx, const char *dir);
/* Is rel a file the index reads: a Kbuild file, or one a Kbuild includes? */
bool ud_tindex_is_kbuild(const struct ud_tindex *idx, const char *rel);
/*
 * Appends to out a warning, at the Kbuild file and line naming it, for
 * each entry of a directory's own export list that exists but is not a
 * header file (a FIFO, a directory, a symlink loop, a link leading out of
 * the tree): such an entry is left out of the split and of the daemon's
 * work.  Sorted by directory, then line.  Returns how many.  Cheap: what
 * each list names is looked at when the list is read and when that name
 * changes.
 */
size_t ud_tindex_odd_exports(const struct ud_tindex *idx, struct ud_diags *out);
/*
 * Appends to out a warning, at the Kbuild file and line naming it, for
 * each header entry of a directory's own export list that names no file
 * at all and stands under no condition (`header-y += missing.h`: a typo,
 * or a header removed and still listed).  Entries under an ifeq/ifneq
 * stanza are left alone: those lists name files of some architectures
 * only.  Returns how many.
 */
size_t ud_tindex_missing_exports(const struct ud_tindex *idx, struct ud_diags *out);
/*
 * Parses an export list's text into kb, and the lists its "include" lines
 * name (read from src; their entries flagged included, their paths added
 * to included when not NULL).  label names the text in problems.  Returns
 * 0, or a negative errno when an included list could not be read.
 */
int ud_kbuild_load(struct ud_source *src, const char *label, const char *text, size_t len,
		   struct ud_kbuild *kb, struct ud_strlist *included, struct ud_diags *problems);
/* Is rel (a directory) inside a uapi/ directory or one itself? */
bool ud_path_in_uapi_dir(const char *rel);

#endif /* UAPID_TINDEX_H */
