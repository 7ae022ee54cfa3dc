/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the installed-set planners share and nothing else uses: the plan's
 * building blocks and the per-era planners headers.c picks among
 * (headers-pl.c for 3.7 to 4.x, headers-presplit.c for 2.6.27 to 3.6).
 * Internal to io/ (as core/frame.h is to the classifier).
 */
#ifndef UAPID_IO_HEADERS_INT_H
#define UAPID_IO_HEADERS_INT_H

#include "uapid/io/headers.h"
#include "uapid/io/kmake.h"

/* Adds a file to the plan (strings copied); returns it. */
struct ud_hdr_file *ud_headers_plan_add(struct ud_hdr_plan *plan, const char *dst, const char *src,
					bool generated);
/*
 * The plan's file for dst, made anew from src: a later file of a name
 * overwrites an earlier one, as the .pl installs write them (strings
 * copied); returns it.
 */
struct ud_hdr_file *ud_headers_plan_set(struct ud_hdr_plan *plan, const char *dst, const char *src,
					bool generated);
/* linux/version.h as the tree's top Makefile writes it. */
void ud_headers_version_h(const struct ud_karch *ka, struct ud_buf *out);
/* Makes the generated header f (NAME in the arch's generated uapi asm/), or says why not. */
void ud_headers_generate(struct ud_kgen *g, struct ud_source *src, struct ud_hdr_file *f,
			 const char *name, bool syscall_y);
/* The same for the tree-relative generated file target of the archheaders rule. */
void ud_headers_generate_target(struct ud_kgen *g, struct ud_source *src, struct ud_hdr_file *f,
				const char *target);
/*
 * The 3.x install (scripts/headers_install.pl): the files the tree's own
 * scripts/Makefile.headersinst picks, directory by directory (headers.c
 * calls it; headers-pl.c).
 */
int ud_headers_plan_pl(struct ud_source *src, const struct ud_karch *ka, struct ud_hdr_plan *plan,
		       char **cause);
/*
 * The install from before the split (2.6.27 to 3.6, UD_INSTALL_PL26):
 * each Makefile.headersinst run of the top Makefile's headers_install
 * recipe, with the lists that run hands the script (header-y, objhdr-y,
 * genhdr-y) and its asm-generic wrappers (headers-presplit.c).
 */
int ud_headers_plan_presplit(struct ud_source *src, const struct ud_karch *ka,
			     struct ud_hdr_plan *plan, char **cause);
/* p without its leading "./" parts, as make writes tree paths. */
const char *ud_headers_tree_rel(const char *p);
/*
 * A variable of a Makefile, or text in its scope, expanded ("" when it
 * has none); an error in the expansion (a self-reference, an $(error))
 * goes to the plan's problems and sets *rc to -EINVAL.
 */
char *ud_headers_make_var(struct ud_make *m, const char *name, struct ud_hdr_plan *plan, int *rc);
char *ud_headers_make_expand(struct ud_make *m, const char *text, struct ud_hdr_plan *plan,
			     int *rc);

#endif /* UAPID_IO_HEADERS_INT_H */
