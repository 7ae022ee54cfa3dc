/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The syscall-number headers kernels generate at headers_install time
 * (asm/unistd_64.h and friends), made from a syscall table as the tree's
 * own scripts make them.  Three generators exist in the trees uapid
 * reproduces, each recognised by its script and command line:
 *
 *  - scripts/syscallhdr.sh [--abis A,B] [--emit-nr] [--offset X] [--prefix P] IN OUT
 *    (5.x on; every architecture but s390);
 *  - arch/s390/kernel/syscalls/syscalltbl -H -a A,B -f OUT < IN  (s390);
 *  - arch/x86/syscalls/syscallhdr.sh IN OUT ABIS PREFIX OFFSET  (3.x x86).
 *
 * The command comes from the tree's Makefiles (see make.h); this module
 * parses it and writes the header byte for byte as that script would.
 * Pure: the table's text comes in, the header goes out.
 */
#ifndef UAPID_SYSHDR_H
#define UAPID_SYSHDR_H

#include <stdbool.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"

enum ud_syshdr_form {
	UD_SYSHDR_NR,	  /* scripts/syscallhdr.sh with options */
	UD_SYSHDR_S390,	  /* s390's syscalltbl -H */
	UD_SYSHDR_X86_3X, /* 3.x arch/x86/syscalls/syscallhdr.sh, positional */
};

struct ud_syshdr {
	enum ud_syshdr_form form;
	char *script; /* as the command names it, tree-relative */
	char *table;  /* the syscall table, tree-relative */
	char *out;    /* the output file as the command names it */
	char *abis;   /* "common,64"; NULL: every numbered line */
	char *offset; /* NULL: none */
	char *prefix; /* "" when none */
	bool emit_nr; /* __NR_syscalls under __KERNEL__ */
};

/*
 * Parses an expanded recipe line into h.  Returns 0, or -EINVAL with *why
 * (malloc'd) when the command is not one of the three generators.  Paths
 * lose a leading "./".
 */
int ud_syshdr_parse(const char *command, struct ud_syshdr *h, char **why);
void ud_syshdr_free(struct ud_syshdr *h);
/*
 * Does the text of h's script look like the generator h's form assumes?
 * (a guard against a tree whose script changed: uapid would write
 * something else than it).
 */
bool ud_syshdr_script_known(const struct ud_syshdr *h, const char *script, size_t len);
/*
 * Writes the header from the table's text (named table_label in messages).
 * Returns 0, or -EINVAL with an error diagnostic naming the table line
 * that is not NUMBER ABI NAME.  An ABI of the list that names no line of
 * the table is a note; a list that selects no line at all, a warning.
 */
int ud_syshdr_generate(const struct ud_syshdr *h, const char *table, size_t len, struct ud_buf *out,
		       struct ud_diags *diags);

#endif /* UAPID_SYSHDR_H */
