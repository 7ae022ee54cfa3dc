/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The installed-headers set of a split tree, as `make ARCH=... headers_install`
 * computes it, and writing it to a directory.
 *
 * Sources: every .h below the subdirectories of include/uapi/ and of
 * arch/SRCARCH/include/uapi/, less the no-export-headers of
 * include/uapi/Kbuild; generated files: linux/version.h from the top
 * Makefile, an asm/ wrapper ("#include <asm-generic/X.h>") for every
 * generic-y entry and every mandatory-y entry the architecture lacks, and
 * for x86 asm/unistd_{32,64,x32}.h from the syscall tables.  Each goes
 * through ud_install_header.
 */
#ifndef UAPID_HEADERS_H
#define UAPID_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/util/map.h"
#include "uapid/util/strlist.h"
#include "uapid/core/install.h"
#include "uapid/core/select.h"
#include "uapid/io/source.h"
#include "uapid/util/strlist.h"
#include "uapid/io/tindex.h"

struct ud_hdr_file {
	char *dst;		  /* below OUTDIR/include/: "linux/types.h", "asm/unistd_64.h" */
	char *src;		  /* tree-relative source, or the kernel's generated path */
	bool generated;		  /* text is in gen, not in the tree */
	struct ud_buf gen;	  /* the generated text */
	struct ud_diags problems; /* why uapid cannot make it (the install fails it, named) */
};

struct ud_hdr_plan {
	char *arch;    /* as asked: "x86_64" */
	char *srcarch; /* "x86" */
	char *version; /* the tree's: "6.1.192" */
	enum ud_install_style style;
	struct ud_install_pl pl; /* a headers_install.pl's generation (the .pl styles) */
	struct ud_hdr_file *v;
	size_t n, alloc;
	struct ud_install_rules rules; /* from the tree's scripts/headers_install.sh */
	struct ud_diags problems;      /* files that could not be read, each named */
	struct ud_map by_dst, by_src;  /* index + 1 into v (by_src: tree sources only) */
	/*
	 * Directories below include/ the install makes even when nothing is
	 * installed in them (before the split, each Makefile.headersinst run
	 * makes its $(install): 3.6's um has an empty asm/).
	 */
	struct ud_strlist dirs;
};

struct ud_karch;
struct ud_kgen;

/* The SRCARCH directory name for an ARCH value (x86_64 -> x86, ...). */
const char *ud_headers_srcarch(const char *arch);
/*
 * Computes the installed set for ARCH from the tree in src, reproducing
 * the install the tree has (its scripts/headers_install.sh, 4.x on, or
 * .pl, 2.6.27 to 4.x, with the unifdef of its scripts/unifdef.c before
 * 3.7; any other is refused, naming the script).  The uapi source
 * headers come from idx when given (no directory walk), else from walking
 * src.  Returns 0; -EPERM when the tree's Makefile refuses the
 * architecture (*cause is its reason and line: "Headers not exportable for
 * UML"); another negative errno with *cause (no such architecture,
 * unreadable Makefile or Kbuild lists, also in plan->problems).  A file the
 * kernel would install and uapid cannot make is in the plan with its
 * problems: installing it fails, named.  Free the plan whatever happens.
 */
int ud_headers_plan(struct ud_source *src, const struct ud_tindex *idx, const char *arch,
		    struct ud_hdr_plan *plan, char **cause);
void ud_headers_plan_free(struct ud_hdr_plan *plan);
/* Does the plan install a header named dst ("linux/types.h")? */
bool ud_headers_plan_has(const struct ud_hdr_plan *plan, const char *dst);
/*
 * Where does the tree source src ("include/uapi/linux/types.h") install:
 * its planned file, or NULL when the plan does not install it.  One look
 * in a hash: what the daemon asks for each changed path.
 */
const struct ud_hdr_file *ud_headers_plan_source(const struct ud_hdr_plan *plan, const char *src);
/*
 * The words assigned to VAR (with +=, := or =) in the tree-relative
 * Kbuild or Makefile fragment REL, evaluating the ifeq/ifneq conditions
 * uapi Kbuild files use ($(wildcard ...), $(SRCARCH)); appended to out.  A
 * missing file has none; an unreadable one is an error in problems
 * (returns a negative errno).
 */
int ud_headers_make_list(struct ud_source *src, const char *srcarch, const char *rel,
			 const char *var, struct ud_strlist *out, struct ud_diags *problems);

/* One planned header, installed in memory. */
struct ud_installed {
	struct ud_buf source;  /* the text it is installed from (read, or generated) */
	struct ud_buf text;    /* the installed text */
	struct ud_linemap map; /* installed line -> source line */
	struct ud_diags diags; /* what stopped it, or what to look at */
	bool ok;	       /* text is the installed header */
	/* the source's stat as it was read (ud_source_read_stat); UD_FT_NONE when not read here */
	struct ud_fstat sst;
};

/*
 * Installs plan file f in memory: reads its source from src (or takes the
 * generated text) and applies the tree's install rules.  No writes and no
 * shared state: safe on a thread pool.  Free out with ud_installed_free.
 */
void ud_headers_install_file(const struct ud_hdr_plan *plan, const struct ud_hdr_file *f,
			     struct ud_source *src, struct ud_installed *out);
void ud_installed_free(struct ud_installed *in);
/*
 * Installs every planned header in memory, in plan order, and hands each
 * to fn (dst below include/, the installed text); stops at the first that
 * cannot be installed (-EINVAL with *cause naming it) or when fn returns
 * non-zero (that value).  Returns 0 when all went through.
 */
int ud_headers_install_each(const struct ud_hdr_plan *plan, struct ud_source *src,
			    int (*fn)(const char *dst, const char *text, size_t len, void *ctx),
			    void *ctx, char **cause);
/*
 * Reads a set of installed headers: hands every .h file below dir (an
 * INSTALL_HDR_PATH/include, say) to fn, in path order, as
 * ud_headers_install_each hands a tree's (the path relative to dir, its
 * text).  Symlinks are left out, as ud_source_open_dir lists them.
 * Returns 0, what fn returned when non-zero, or a negative errno with
 * *cause naming what could not be read.
 */
int ud_headers_installed_each(const char *dir,
			      int (*fn)(const char *path, const char *text, size_t len, void *ctx),
			      void *ctx, char **cause);
/*
 * The same, but fn owns each text (malloc'd, NUL-terminated: free() it),
 * whatever it returns: a caller that keeps the texts copies none.
 */
int ud_headers_installed_take(const char *dir,
			      int (*fn)(const char *path, char *text, size_t len, void *ctx),
			      void *ctx, char **cause);

struct ud_install_stats {
	unsigned files, written, unchanged, removed;
	unsigned failed;      /* planned headers not installed */
	unsigned not_removed; /* stale headers left (each, or 1 when OUTDIR cannot be read) */
	bool manifest_failed; /* the run's record was not written (the next run rewrites all) */
};

/*
 * Installs every planned header under OUTDIR/include/: files whose content
 * is unchanged are not touched (mtimes too), others are written
 * atomically, and .h files there that the plan no longer has are removed.
 * Per-file problems are reported to report(path, diags, ctx) and counted
 * (failed; not_removed for a stale file that cannot be removed or an OUTDIR
 * that cannot be walked; manifest_failed); returns 0, or a negative errno
 * (with *cause) when OUTDIR is unusable.
 */
int ud_headers_install(struct ud_source *src, const struct ud_hdr_plan *plan, const char *outdir,
		       void (*report)(const char *path, const struct ud_diags *d, void *ctx),
		       void *ctx, struct ud_install_stats *stats, char **cause);

/*
 * Installs of several architectures of one tree share the work that does
 * not depend on the architecture through a memo: each tree source is
 * installed once.  Not thread-safe: one install at a time.
 */
struct ud_install_memo;
struct ud_install_memo *ud_install_memo_new(void);
void ud_install_memo_free(struct ud_install_memo *m);
/* ud_headers_install with a memo (NULL: none). */
int ud_headers_install_shared(struct ud_source *src, const struct ud_hdr_plan *plan,
			      const char *outdir, struct ud_install_memo *memo,
			      void (*report)(const char *path, const struct ud_diags *d, void *ctx),
			      void *ctx, struct ud_install_stats *stats, char **cause);

#endif /* UAPID_HEADERS_H */
