/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Target ABIs: what a C compiler for one architecture's userspace knows
 * before it reads a header.  The size and alignment of every base type
 * (as a struct member: i386 aligns long long and double to 4 there), the
 * macros the compiler predefines, and which architecture macros it does
 * not define, so that `#ifdef __ia64__` is false on x86-64 while
 * `#ifdef __GLIBC__` stays unknown.
 *
 * One table, one row per ABI; every architecture `uapid install` knows
 * has a default ABI (x86 -> x86_64, mips -> mips64 n64, ...), others are
 * chosen by name (i386, x32, mips-o32, riscv32, ...).  bench/abi-table.sh
 * checks the table against the cross compilers installed.  Pure data.
 */
#ifndef UAPID_ABI_H
#define UAPID_ABI_H

#include <stdbool.h>
#include <stddef.h>

enum ud_abi_base {
	UD_ABI_BOOL,	/* _Bool */
	UD_ABI_CHAR,	/* char, signed char, unsigned char */
	UD_ABI_SHORT,	/* short */
	UD_ABI_INT,	/* int, and an enum's default */
	UD_ABI_LONG,	/* long */
	UD_ABI_LLONG,	/* long long */
	UD_ABI_INT128,	/* __int128 (size 0 where the ABI has none) */
	UD_ABI_PTR,	/* any pointer */
	UD_ABI_FLOAT,	/* float */
	UD_ABI_DOUBLE,	/* double */
	UD_ABI_LDOUBLE, /* long double */
	UD_ABI__BASES
};

struct ud_abi_type {
	unsigned char size;  /* bytes */
	unsigned char align; /* bytes, as a struct member */
};

struct ud_abi {
	const char *name; /* "x86_64", "i386", "mips-o32" */
	const char *arch; /* the kernel's SRCARCH whose installed headers it reads: "x86" */
	const char *what; /* one line for humans */
	struct ud_abi_type t[UD_ABI__BASES];
	bool char_unsigned;
	bool big_endian;
	/* unnamed bit-fields (":3", ":0") give the record their type's alignment (AAPCS) */
	bool unnamed_bitfields_align;
	/* bit-fields are not kept inside a unit of their type, nor align the record (m68k) */
	bool bitfields_unaligned;
	/*
	 * What the compiler predefines besides the common macros (__linux__,
	 * __CHAR_BIT__, __SIZEOF_*__, __BYTE_ORDER__, ...): "NAME" (defined as
	 * 1) or "NAME=VALUE"; NULL-terminated.
	 */
	const char *const *macros;
};

/* The ABI of this name ("x86_64"), or the default ABI of a kernel ARCH ("x86", "sparc64"); NULL. */
const struct ud_abi *ud_abi_find(const char *name);
/* The table, for listing: the i-th ABI, NULL past the end. */
const struct ud_abi *ud_abi_at(size_t i);

/* What a name means to C code compiled for abi, before any header is read. */
enum ud_abi_macro {
	UD_ABI_MACRO_UNKNOWN,	/* the program, its libc or a header may define it */
	UD_ABI_MACRO_UNDEFINED, /* another architecture's, __ASSEMBLY__, __KERNEL__, CONFIG_* */
	UD_ABI_MACRO_DEFINED,	/* predefined; *value is its replacement ("1", "8") */
};

/*
 * Whether the compiler for abi predefines macro name[0..n): defined (its
 * value in *value, borrowed), known to be undefined (an architecture's
 * macro on another architecture, the assembler's __ASSEMBLY__, the
 * kernel's __KERNEL__ and CONFIG_*, C++'s __cplusplus, sparse's
 * __CHECKER__), or unknown.
 */
enum ud_abi_macro ud_abi_macro(const struct ud_abi *abi, const char *name, size_t n,
			       const char **value);

#endif /* UAPID_ABI_H */
