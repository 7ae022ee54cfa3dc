/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel tree's own Makefiles, read through a source with the make
 * reader (make.h): how the tree maps ARCH to SRCARCH and whether it
 * refuses to export an architecture's headers, how it makes each
 * generated uapi header, and its version.
 *
 * The tree is read as the kernel's own in-tree build sees it: srctree and
 * objtree are the top of the tree, and files under a generated/ include
 * directory count as existing (the install makes them before it looks).
 */
#ifndef UAPID_KMAKE_H
#define UAPID_KMAKE_H

#include "uapid/util/diag.h"
#include "uapid/core/make.h"
#include "uapid/io/source.h"
#include "uapid/core/syshdr.h"

/*
 * A make reader over src (borrowed) with ARCH and SRCARCH set (SRCARCH may
 * be NULL before it is known).
 */
struct ud_make *ud_kmake_new(struct ud_source *src, enum ud_make_mode mode, const char *arch,
			     const char *srcarch);
/*
 * What a make reader sees below an install directory instead of the tree:
 * the headers the install has written so far.  Before 3.7 a Kbuild list
 * could ask ("$(wildcard $(INSTALL_HDR_PATH)/include/asm-*\/kvm_para.h)").
 */
struct ud_kmake_view {
	const char *prefix; /* how the Makefiles spell the directory: "@OUT/include" */
	/* Is there a file or directory rel below it ("asm-generic/kvm_para.h")? */
	bool (*exists)(const char *rel, void *ctx);
	/* The names in directory rel below it ("" for itself; directories end in '/'). */
	int (*list)(const char *rel, struct ud_strlist *names, void *ctx);
	void *ctx;
	struct ud_source *src; /* set by ud_kmake_new_view */
};

/*
 * ud_kmake_new, with paths below view->prefix answered by view (borrowed:
 * it must outlive the reader).
 */
struct ud_make *ud_kmake_new_view(struct ud_source *src, enum ud_make_mode mode, const char *arch,
				  const char *srcarch, struct ud_kmake_view *view);
/* Reads and evaluates the tree-relative Makefile rel into m; 0 or -errno with diagnostics. */
int ud_kmake_read(struct ud_make *m, struct ud_source *src, const char *rel, struct ud_diags *d);

/* One run of scripts/Makefile.headersinst that headers_install makes. */
struct ud_karch_run {
	char *obj; /* obj=: the directory whose Kbuild lists the headers ("include") */
	char *dst; /* dst=: where they install ("include/asm"), NULL when not given */
};

/* What the top Makefile says about an architecture. */
struct ud_karch {
	char *arch;	      /* as asked: "x86_64" */
	char *srcarch;	      /* the directory under arch/: "x86" */
	char *version;	      /* "6.1.192" */
	unsigned v[3];	      /* VERSION, PATCHLEVEL, SUBLEVEL */
	bool version_5l;      /* linux/version.h has the LINUX_VERSION_MAJOR lines (5.x on) */
	bool version_clamped; /* its sublevel is clamped to 255 (5.x on, and the 4.x stables) */
	/* headers_install's recipe: the Makefile.headersinst runs, in order */
	struct ud_karch_run *runs;
	size_t nruns;
};

/*
 * Reads the top Makefile for arch.  Returns 0, -EPERM when the tree
 * refuses to export the architecture's headers (its reason, with the
 * Makefile line, as an error in d: "Headers not exportable for UML"), or
 * another negative errno with diagnostics (no Makefile, no version).
 */
int ud_karch_open(struct ud_source *src, const char *arch, struct ud_karch *ka, struct ud_diags *d);
void ud_karch_free(struct ud_karch *ka);
/* The architectures whose headers the tree exports (SRCARCH names, sorted), appended. */
int ud_karch_all(struct ud_source *src, struct ud_strlist *out, struct ud_diags *d);

/* How a tree makes the generated uapi headers of one architecture. */
struct ud_kgen;

/* Opens the architecture's generator Makefiles lazily; never fails. */
struct ud_kgen *ud_kgen_new(struct ud_source *src, const struct ud_karch *ka);
void ud_kgen_free(struct ud_kgen *g);
/*
 * The syscall header generator that makes arch/SRCARCH/include/generated/
 * uapi/asm/NAME, as the tree's Makefiles say: listed by syscall-y (the
 * 6.11 scripts/Makefile.asm-headers form) or made by the architecture's
 * archheaders rule.  Returns 0 with *h filled, or a negative errno with an
 * error naming the Makefile (and line) that stopped it.
 */
int ud_kgen_find(struct ud_kgen *g, const char *name, bool syscall_y, struct ud_syshdr *h,
		 struct ud_diags *d);
/*
 * The same for the tree-relative generated file target, made by the
 * architecture's archheaders rule wherever it puts it (before 3.7:
 * arch/SRCARCH/include/generated/asm/NAME).
 */
int ud_kgen_find_target(struct ud_kgen *g, const char *target, struct ud_syshdr *h,
			struct ud_diags *d);
/* Makes the header h describes: reads its script and table from the tree. */
int ud_kgen_make(struct ud_source *src, const struct ud_syshdr *h, struct ud_buf *out,
		 struct ud_diags *d);

#endif /* UAPID_KMAKE_H */
