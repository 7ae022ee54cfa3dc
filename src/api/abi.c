// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target ABIs (abi.h).
 *
 * Rows marked "gcc" were read from Debian 12's cross compilers (gcc 12)
 * and bench/abi-table.py keeps checking them: sizes and member
 * alignments, char signedness, byte order, the bit-field rules, the
 * predefined architecture macros.  The others follow the architecture's psABI as
 * documented; no Debian cross compiler exists to check them against.
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/api/abi.h"

/* size, member alignment: Bool Char Short Int Long LLong Int128 Ptr Float Double LDouble */
#define LP64(ld, lda, i128a)                                                                       \
	{                                                                                          \
		{1, 1}, {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {16, i128a}, {8, 8}, {4, 4},       \
			{8, 8},                                                                    \
		{                                                                                  \
			ld, lda                                                                    \
		}                                                                                  \
	}
/* 32-bit long and pointer; ll: the alignment of long long and double */
#define ILP32(ll, ld, lda)                                                                         \
	{                                                                                          \
		{1, 1}, {1, 1}, {2, 2}, {4, 4}, {4, 4}, {8, ll}, {0, 0}, {4, 4}, {4, 4}, {8, ll},  \
		{                                                                                  \
			ld, lda                                                                    \
		}                                                                                  \
	}

/* 32-bit long and pointer on a 64-bit ISA: __int128 there (MIPS n32) */
#define ILP32_I128(ll, ld, lda)                                                                    \
	{                                                                                          \
		{1, 1}, {1, 1}, {2, 2}, {4, 4}, {4, 4}, {8, ll}, {16, 16}, {4, 4}, {4, 4},         \
			{8, ll},                                                                   \
		{                                                                                  \
			ld, lda                                                                    \
		}                                                                                  \
	}

static const char *const m_x86_64[] = {"__x86_64__", "__x86_64", "__amd64__", "__amd64",
				       "__LP64__",   "_LP64",	 NULL};
static const char *const m_i386[] = {"__i386__", "__i386", "i386", "__ILP32__", "_ILP32", NULL};
static const char *const m_x32[] = {"__x86_64__", "__x86_64", "__amd64__", "__amd64",
				    "__ILP32__",  "_ILP32",   NULL};
/* Debian's armhf GCC (the ABI's compiler) emits Thumb-2 by default: asm/swab.h tests __thumb__ */
static const char *const m_arm[] = {"__arm__",	 "__ARM_EABI__", "__ARMEL__",
				    "__thumb__", "__thumb2__",	 NULL};
static const char *const m_arm64[] = {"__aarch64__", "__AARCH64EL__", "__LP64__", "_LP64", NULL};
static const char *const m_riscv64[] = {"__riscv", "__riscv_xlen=64", "__LP64__", "_LP64", NULL};
static const char *const m_riscv32[] = {"__riscv", "__riscv_xlen=32", NULL};
static const char *const m_ppc64le[] = {
	"__powerpc__",	     "__powerpc64__",  "__PPC__",  "__PPC64__",
	"_ARCH_PPC",	     "_ARCH_PPC64",    "__LP64__", "_LP64",
	"__LITTLE_ENDIAN__", "_LITTLE_ENDIAN", NULL};
static const char *const m_ppc64[] = {"__powerpc__",	"__powerpc64__", "__PPC__",  "__PPC64__",
				      "_ARCH_PPC",	"_ARCH_PPC64",	 "__LP64__", "_LP64",
				      "__BIG_ENDIAN__", "_BIG_ENDIAN",	 NULL};
static const char *const m_ppc[] = {"__powerpc__", "__powerpc", "__PPC__", "__PPC",
				    "_ARCH_PPC",   "powerpc",	"PPC",	   "__BIG_ENDIAN__",
				    "_BIG_ENDIAN", NULL};
static const char *const m_s390x[] = {"__s390__", "__s390x__", "__zarch__",
				      "__LP64__", "_LP64",     NULL};
/*
 * GCC defines _MIPS_SIM as _ABIO32, _ABIN32 or _ABI64, names libc's
 * <sgidefs.h> defines as 1, 2 and 3, as the kernel's asm/sgidefs.h does
 * _MIPS_SIM_ABI32, _MIPS_SIM_NABI32 and _MIPS_SIM_ABI64: the value here.
 */
static const char *const m_mips64[] = {"__mips__",
				       "__mips=64",
				       "mips",
				       "_mips",
				       "__mips64",
				       "_MIPS_SIM=3",
				       "_MIPS_SZLONG=64",
				       "_MIPS_SZPTR=64",
				       "_MIPS_SZINT=32",
				       "__MIPSEL__",
				       "_MIPSEL",
				       "__LP64__",
				       "_LP64",
				       NULL};
static const char *const m_mipsn32[] = {"__mips__",	   "__mips=64",	     "mips",
					"_mips",	   "__mips64",	     "_MIPS_SIM=2",
					"_MIPS_SZLONG=32", "_MIPS_SZPTR=32", "_MIPS_SZINT=32",
					"__MIPSEL__",	   "_MIPSEL",	     NULL};
static const char *const m_mipso32[] = {"__mips__",
					"__mips=32",
					"mips",
					"_mips",
					"_MIPS_SIM=1",
					"_MIPS_SZLONG=32",
					"_MIPS_SZPTR=32",
					"_MIPS_SZINT=32",
					"__MIPSEL__",
					"_MIPSEL",
					NULL};
static const char *const m_sparc64[] = {"__sparc__",  "__sparc",  "sparc", "__sparc_v9__",
					"__arch64__", "__LP64__", "_LP64", NULL};
static const char *const m_sparc[] = {"__sparc__", "__sparc", "sparc", NULL};
static const char *const m_alpha[] = {"__alpha__", "__alpha", "__LP64__", "_LP64", NULL};
static const char *const m_arc[] = {"__arc__", "__LITTLE_ENDIAN__", NULL};
static const char *const m_csky[] = {"__csky__", "__CSKY__", "__ckcore__", NULL};
static const char *const m_hexagon[] = {"__hexagon__", "__HEXAGON__", NULL};
static const char *const m_loongarch[] = {"__loongarch__", "__loongarch64", "__loongarch_grlen=64",
					  "__LP64__",	   "_LP64",	    NULL};
static const char *const m_m68k[] = {"__m68k__", "__mc68000__", "__mc68000", "mc68000", NULL};
static const char *const m_microblaze[] = {"__microblaze__", "__MICROBLAZE__", NULL};
static const char *const m_nios2[] = {"__nios2__", "__nios2", NULL};
static const char *const m_openrisc[] = {"__or1k__", "__OR1K__", NULL};
static const char *const m_parisc[] = {"__hppa__", "__hppa", NULL};
static const char *const m_sh[] = {"__sh__", "__SH4__", "__LITTLE_ENDIAN__", NULL};
static const char *const m_xtensa[] = {"__xtensa__", "__XTENSA__", NULL};
static const char *const m_ia64[] = {"__ia64__", "__ia64", "__LP64__", "_LP64", NULL};
static const char *const m_cris[] = {"__cris__", "__CRIS__", NULL};
static const char *const m_blackfin[] = {"__bfin__", "__BFIN__", NULL};
static const char *const m_avr32[] = {"__avr32__", NULL};
static const char *const m_c6x[] = {"__TMS320C6X__", NULL};
static const char *const m_frv[] = {"__frv__", NULL};
static const char *const m_h8300[] = {"__H8300H__", NULL};
static const char *const m_m32r[] = {"__m32r__", NULL};
static const char *const m_mn10300[] = {"__mn10300__", NULL};
static const char *const m_score[] = {"__score__", NULL};
static const char *const m_tile[] = {"__tile__", "__tilegx__", "__LP64__", "_LP64", NULL};
static const char *const m_unicore32[] = {"__unicore32__", NULL};

/* The first row of an ARCH is its default ABI. */
static const struct ud_abi abis[] = {
	/* gcc */
	{"x86_64", "x86", "x86-64 (LP64)", LP64(16, 16, 16), false, false, false, false, m_x86_64},
	{"i386",
	 "x86",
	 "i386 (ILP32; long long and double 4-aligned in structs)",
	 {{1, 1}, {1, 1}, {2, 2}, {4, 4}, {4, 4}, {8, 4}, {0, 0}, {4, 4}, {4, 4}, {8, 4}, {12, 4}},
	 false,
	 false,
	 false,
	 false,
	 m_i386},
	{"x32",
	 "x86",
	 "x32 (ILP32 on x86-64)",
	 {{1, 1},
	  {1, 1},
	  {2, 2},
	  {4, 4},
	  {4, 4},
	  {8, 8},
	  {16, 16},
	  {4, 4},
	  {4, 4},
	  {8, 8},
	  {16, 16}},
	 false,
	 false,
	 false,
	 false,
	 m_x32},
	{"arm", "arm", "ARM EABI (ILP32, unsigned char)", ILP32(8, 8, 8), true, false, true, false,
	 m_arm},
	{"arm64", "arm64", "AArch64 (LP64, unsigned char)", LP64(16, 16, 16), true, false, true,
	 false, m_arm64},
	{"riscv64", "riscv", "RISC-V 64 (LP64, unsigned char)", LP64(16, 16, 16), true, false,
	 false, false, m_riscv64},
	{"riscv32", "riscv", "RISC-V 32 (ILP32, unsigned char)", ILP32(8, 16, 16), true, false,
	 false, false, m_riscv32},
	{"powerpc64le", "powerpc", "PowerPC 64 little-endian (LP64, unsigned char)",
	 LP64(16, 16, 16), true, false, false, false, m_ppc64le},
	{"powerpc64", "powerpc", "PowerPC 64 big-endian (LP64, unsigned char)", LP64(16, 16, 16),
	 true, true, false, false, m_ppc64},
	{"powerpc", "powerpc", "PowerPC 32 (ILP32, unsigned char)", ILP32(8, 16, 16), true, true,
	 false, false, m_ppc},
	{"s390x", "s390", "s390x (LP64, unsigned char, long double 8-aligned)", LP64(16, 8, 8),
	 true, true, false, false, m_s390x},
	{"mips64", "mips", "MIPS n64 little-endian (LP64)", LP64(16, 16, 16), false, false, false,
	 false, m_mips64},
	{"mips-n32", "mips", "MIPS n32 little-endian (ILP32)", ILP32_I128(8, 16, 16), false, false,
	 false, false, m_mipsn32},
	{"mips-o32", "mips", "MIPS o32 little-endian (ILP32)", ILP32(8, 8, 8), false, false, false,
	 false, m_mipso32},
	{"sparc64", "sparc", "SPARC 64 (LP64)", LP64(16, 16, 16), false, true, false, false,
	 m_sparc64},
	{"sparc", "sparc", "SPARC 32 (ILP32)", ILP32(8, 16, 8), false, true, false, false, m_sparc},
	{"alpha", "alpha", "Alpha (LP64)", LP64(16, 16, 16), false, false, false, false, m_alpha},
	{"arc", "arc", "ARC (ILP32, 64-bit types 4-aligned, unsigned char)", ILP32(4, 8, 4), true,
	 false, false, false, m_arc},
	/* psABI */
	{"csky", "csky", "C-SKY ABIv2 (ILP32, 64-bit types 4-aligned)", ILP32(4, 8, 4), true, false,
	 false, false, m_csky},
	{"hexagon", "hexagon", "Hexagon (ILP32)", ILP32(8, 8, 8), false, false, false, false,
	 m_hexagon},
	{"loongarch64", "loongarch", "LoongArch 64 (LP64)", LP64(16, 16, 16), false, false, false,
	 false, m_loongarch},
	/* gcc */
	{"m68k",
	 "m68k",
	 "m68k (ILP32, 2-aligned, bit-fields unaligned)",
	 {{1, 1}, {1, 1}, {2, 2}, {4, 2}, {4, 2}, {8, 2}, {0, 0}, {4, 2}, {4, 2}, {8, 2}, {12, 2}},
	 false,
	 true,
	 false,
	 true,
	 m_m68k},
	/* psABI */
	{"microblaze", "microblaze", "MicroBlaze big-endian (ILP32)", ILP32(4, 8, 4), false, true,
	 false, false, m_microblaze},
	{"nios2", "nios2", "Nios II (ILP32, 64-bit types 4-aligned)", ILP32(4, 8, 4), false, false,
	 false, false, m_nios2},
	{"openrisc", "openrisc", "OpenRISC (ILP32, 64-bit types 4-aligned)", ILP32(4, 8, 4), false,
	 true, false, false, m_openrisc},
	/* gcc */
	{"parisc", "parisc", "PA-RISC 32 (ILP32)", ILP32(8, 8, 8), false, true, false, false,
	 m_parisc},
	{"sh4", "sh", "SuperH SH-4 little-endian (ILP32, 64-bit types 4-aligned)", ILP32(4, 8, 4),
	 false, false, false, false, m_sh},
	/* psABI */
	{"xtensa", "xtensa", "Xtensa little-endian (ILP32, unsigned char)", ILP32(8, 8, 8), true,
	 false, false, false, m_xtensa},
	{"ia64", "ia64", "IA-64 (LP64)", LP64(16, 16, 16), false, false, false, false, m_ia64},
	/* architectures only 3.x trees have */
	{"cris",
	 "cris",
	 "CRIS (ILP32, every type byte-aligned)",
	 {{1, 1}, {1, 1}, {2, 1}, {4, 1}, {4, 1}, {8, 1}, {0, 0}, {4, 1}, {4, 1}, {8, 1}, {8, 1}},
	 false,
	 false,
	 false,
	 false,
	 m_cris},
	{"blackfin", "blackfin", "Blackfin (ILP32, 64-bit types 4-aligned)", ILP32(4, 8, 4), false,
	 false, false, false, m_blackfin},
	{"avr32", "avr32", "AVR32 (ILP32, big-endian)", ILP32(4, 8, 4), false, true, false, false,
	 m_avr32},
	{"c6x", "c6x", "TI C6x (ILP32)", ILP32(8, 8, 8), false, false, false, false, m_c6x},
	{"frv", "frv", "FR-V (ILP32, big-endian)", ILP32(8, 8, 8), false, true, false, false,
	 m_frv},
	{"h8300",
	 "h8300",
	 "H8/300H (ILP32, 2-aligned)",
	 {{1, 1}, {1, 1}, {2, 2}, {4, 2}, {4, 2}, {8, 2}, {0, 0}, {4, 2}, {4, 2}, {8, 2}, {8, 2}},
	 false,
	 true,
	 false,
	 false,
	 m_h8300},
	{"m32r", "m32r", "M32R (ILP32, big-endian)", ILP32(4, 8, 4), false, true, false, false,
	 m_m32r},
	{"mn10300", "mn10300", "MN10300 (ILP32)", ILP32(4, 8, 4), false, false, false, false,
	 m_mn10300},
	{"score", "score", "S+core (ILP32)", ILP32(4, 8, 4), false, false, false, false, m_score},
	{"tilegx", "tile", "TILE-Gx (LP64)", LP64(16, 16, 16), false, false, false, false, m_tile},
	{"unicore32", "unicore32", "UniCore32 (ILP32)", ILP32(4, 8, 4), false, false, false, false,
	 m_unicore32},
};

/* ARCH spellings `uapid install` takes besides the kernel's directory names. */
static const struct {
	const char *arch, *abi;
} aliases[] = {
	{"x86_64", "x86_64"}, {"i386", "i386"},	      {"sparc64", "sparc64"},
	{"sparc32", "sparc"}, {"parisc64", "parisc"}, {"sh64", "sh4"},
};

/*
 * Macros every architecture's macros list may name, and others that
 * identify an architecture: defined for the ABI that lists them, known
 * undefined for every other.  Sorted for bsearch.
 */
static const char *const arch_macros[] = {
	"PPC",
	"_ARCH_PPC",
	"_ARCH_PPC64",
	"_BIG_ENDIAN",
	"_ILP32",
	"_LITTLE_ENDIAN",
	"_LP64",
	"_MIPSEB",
	"_MIPSEL",
	"_MIPS_SIM",
	"_MIPS_SZINT",
	"_MIPS_SZLONG",
	"_MIPS_SZPTR",
	"__AARCH64EB__",
	"__AARCH64EL__",
	"__ARMEB__",
	"__ARMEL__",
	"__ARM_EABI__",
	"__BFIN__",
	"__BIG_ENDIAN__",
	"__CRIS__",
	"__CSKY__",
	"__H8300H__",
	"__H8300S__",
	"__H8300__",
	"__HEXAGON__",
	"__ILP32__",
	"__LITTLE_ENDIAN__",
	"__LP64__",
	"__MICROBLAZE__",
	"__MIPSEB__",
	"__MIPSEL__",
	"__OR1K__",
	"__PPC",
	"__PPC64__",
	"__PPC__",
	"__SH4__",
	"__TMS320C6X__",
	"__XTENSA__",
	"__aarch64__",
	"__alpha",
	"__alpha__",
	"__amd64",
	"__amd64__",
	"__arc__",
	"__arch64__",
	"__arm__",
	"__avr32__",
	"__bfin__",
	"__ckcore__",
	"__cris__",
	"__csky__",
	"__frv__",
	"__hexagon__",
	"__hppa",
	"__hppa__",
	"__i386",
	"__i386__",
	"__i486__",
	"__i586__",
	"__i686__",
	"__ia64",
	"__ia64__",
	"__loongarch64",
	"__loongarch__",
	"__loongarch_grlen",
	"__m32r__",
	"__m68k__",
	"__mc68000",
	"__mc68000__",
	"__microblaze__",
	"__mips",
	"__mips64",
	"__mips__",
	"__mn10300__",
	"__nios2",
	"__nios2__",
	"__or1k__",
	"__powerpc",
	"__powerpc64__",
	"__powerpc__",
	"__riscv",
	"__riscv_xlen",
	"__s390__",
	"__s390x__",
	"__score__",
	"__sh__",
	"__sparc",
	"__sparc64__",
	"__sparc__",
	"__sparc_v9__",
	"__thumb__",
	"__tile__",
	"__tilegx__",
	"__tilepro__",
	"__unicore32__",
	"__x86_64",
	"__x86_64__",
	"__xtensa__",
	"__zarch__",
	"_mips",
	"i386",
	"mc68000",
	"mips",
	"powerpc",
	"sparc",
};

/* Names C code compiled for any target does not have defined. */
static const char *const not_in_c[] = {
	"__ASSEMBLER__", "__ASSEMBLY__", "__CHECKER__", "__KERNEL__", "__OBJC__", "__cplusplus",
};

const struct ud_abi *
ud_abi_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(abis); i++)
		if (strcmp(abis[i].name, name) == 0)
			return &abis[i];
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (strcmp(aliases[i].arch, name) == 0)
			return ud_abi_find(aliases[i].abi);
	for (i = 0; i < ARRAY_SIZE(abis); i++)
		if (strcmp(abis[i].arch, name) == 0)
			return &abis[i];
	return NULL;
}

const struct ud_abi *
ud_abi_at(size_t i)
{
	return i < ARRAY_SIZE(abis) ? &abis[i] : NULL;
}

static int
by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* The common predefined macros, by value: what every GCC-compatible compiler for abi says. */
static bool
common(const struct ud_abi *abi, const char *name, const char **value)
{
	static const char *const digits[] = {"0", "1",	"2",  "3",  "4",  "5",	"6",  "7", "8",
					     "9", "10", "11", "12", "13", "14", "15", "16"};
	static const struct {
		const char *name;
		int base; /* the enum ud_abi_base whose size it is, or -1 */
		const char *value;
	} table[] = {
		{"__CHAR_BIT__", -1, "8"},
		{"__ELF__", -1, "1"},
		{"__ORDER_BIG_ENDIAN__", -1, "4321"},
		{"__ORDER_LITTLE_ENDIAN__", -1, "1234"},
		{"__ORDER_PDP_ENDIAN__", -1, "3412"},
		{"__SIZEOF_DOUBLE__", UD_ABI_DOUBLE, NULL},
		{"__SIZEOF_FLOAT__", UD_ABI_FLOAT, NULL},
		{"__SIZEOF_INT__", UD_ABI_INT, NULL},
		{"__SIZEOF_LONG_DOUBLE__", UD_ABI_LDOUBLE, NULL},
		{"__SIZEOF_LONG_LONG__", UD_ABI_LLONG, NULL},
		{"__SIZEOF_LONG__", UD_ABI_LONG, NULL},
		{"__SIZEOF_POINTER__", UD_ABI_PTR, NULL},
		{"__SIZEOF_PTRDIFF_T__", UD_ABI_PTR, NULL},
		{"__SIZEOF_SHORT__", UD_ABI_SHORT, NULL},
		{"__SIZEOF_SIZE_T__", UD_ABI_PTR, NULL},
		{"__STDC__", -1, "1"},
		{"__linux", -1, "1"},
		{"__linux__", -1, "1"},
		{"__unix", -1, "1"},
		{"__unix__", -1, "1"},
	};
	size_t i;

	if (strcmp(name, "__BYTE_ORDER__") == 0) {
		*value = abi->big_endian ? "4321" : "1234";
		return true;
	}
	if (strcmp(name, "__CHAR_UNSIGNED__") == 0) {
		*value = "1";
		return abi->char_unsigned;
	}
	if (strcmp(name, "__SIZEOF_INT128__") == 0) {
		*value = "16";
		return abi->t[UD_ABI_INT128].size != 0;
	}
	if (strcmp(name, "__GNUC__") == 0) {
		*value = NULL; /* GCC and clang define it; its version is the reader's */
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if (strcmp(table[i].name, name) != 0)
			continue;
		*value = table[i].base < 0 ? table[i].value : digits[abi->t[table[i].base].size];
		return true;
	}
	return false;
}

enum ud_abi_macro
ud_abi_macro(const struct ud_abi *abi, const char *name, size_t n, const char **value)
{
	char buf[64];
	size_t i;

	*value = NULL;
	if (n == 0 || n >= sizeof(buf))
		return UD_ABI_MACRO_UNKNOWN;
	/* the kernel's configuration: no program sees it (headers_check warns of it) */
	if (n > 7 && memcmp(name, "CONFIG_", 7) == 0)
		return UD_ABI_MACRO_UNDEFINED;
	memcpy(buf, name, n);
	buf[n] = '\0';
	for (i = 0; abi->macros[i] != NULL; i++) {
		const char *m = abi->macros[i], *eq = strchr(m, '=');
		size_t mn = eq != NULL ? (size_t)(eq - m) : strlen(m);

		if (mn == n && memcmp(m, buf, n) == 0) {
			*value = eq != NULL ? eq + 1 : "1";
			return UD_ABI_MACRO_DEFINED;
		}
	}
	if (common(abi, buf, value))
		return UD_ABI_MACRO_DEFINED;
	*value = NULL;
	if (bsearch(buf, arch_macros, ARRAY_SIZE(arch_macros), sizeof(arch_macros[0]), by_name) !=
		    NULL ||
	    bsearch(buf, not_in_c, ARRAY_SIZE(not_in_c), sizeof(not_in_c[0]), by_name) != NULL)
		return UD_ABI_MACRO_UNDEFINED;
	return UD_ABI_MACRO_UNKNOWN;
}
