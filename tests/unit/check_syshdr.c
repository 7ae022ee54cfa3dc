// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscall header tests: the three generator command lines, and the
 * headers byte for byte.  The expected texts are what the kernel's own
 * scripts (6.12 scripts/syscallhdr.sh, 6.1 s390 syscalltbl -H, 3.8
 * arch/x86/syscalls/syscallhdr.sh) print for these tables under LC_ALL=C.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/syshdr.h"

/* A table with comments, blank lines, numbers out of order and an ABI with a common prefix. */
static const char table[] = "# a table for the tests\n"
			    "0\tcommon\tread\tsys_read\n"
			    "1\tcommon\twrite\tsys_write\n"
			    "\n"
			    "2\t64\topen\tsys_open\n"
			    "9\tx32\todd\tcompat_odd\n"
			    "5\tcommon\tlate\tsys_late\n"
			    "   \n"
			    "3\t64\tmmap\n"
			    "7\tcommon_ext\text\n";

/* Parses command, which must parse. */
static void
parse_ok(const char *command, struct ud_syshdr *h)
{
	char *why = NULL;
	int rc = ud_syshdr_parse(command, h, &why);

	ck_assert_msg(rc == 0, "%s: %s", command, why != NULL ? why : "?");
	ck_assert_ptr_null(why);
}

/* Generates from text with h; checks the result and that no diagnostic came. */
static void
assert_generates(const struct ud_syshdr *h, const char *text, const char *want)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_eq(ud_syshdr_generate(h, text, strlen(text), &out, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out), want);
	ck_assert_uint_eq(d.n, 0);
	ud_buf_free(&out);
	ud_diags_free(&d);
}

/* --- parsing ------------------------------------------------------------------ */

START_TEST(test_parse_nr)
{
	struct ud_syshdr h;

	parse_ok("sh ./scripts/syscallhdr.sh --abis common,64 --emit-nr    "
		 "./arch/x86/entry/syscalls/syscall_64.tbl "
		 "arch/x86/include/generated/uapi/asm/unistd_64.h",
		 &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_NR);
	ck_assert_str_eq(h.script, "scripts/syscallhdr.sh");
	ck_assert_str_eq(h.table, "arch/x86/entry/syscalls/syscall_64.tbl");
	ck_assert_str_eq(h.out, "arch/x86/include/generated/uapi/asm/unistd_64.h");
	ck_assert_str_eq(h.abis, "common,64");
	ck_assert_ptr_null(h.offset);
	ck_assert_str_eq(h.prefix, "");
	ck_assert(h.emit_nr);
	ud_syshdr_free(&h);

	parse_ok("/bin/bash scripts/syscallhdr.sh --abis common,x32 --emit-nr --offset "
		 "__X32_SYSCALL_BIT --prefix x32_ in.tbl out/unistd_x32.h",
		 &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_NR);
	ck_assert_str_eq(h.offset, "__X32_SYSCALL_BIT");
	ck_assert_str_eq(h.prefix, "x32_");
	ck_assert_str_eq(h.table, "in.tbl");
	ud_syshdr_free(&h);

	/* no --abis: every numbered line; no --emit-nr; 6.12's quoted prefix */
	parse_ok("sh ./scripts/syscallhdr.sh --offset __NR_Linux in.tbl out.h", &h);
	ck_assert_ptr_null(h.abis);
	ck_assert(!h.emit_nr);
	ud_syshdr_free(&h);
	parse_ok("sh ./scripts/syscallhdr.sh --emit-nr --prefix \"compat64_\" --abis "
		 "common,64,riscv ./scripts/syscall.tbl o/unistd_compat_64.h",
		 &h);
	ck_assert_str_eq(h.prefix, "compat64_");
	ck_assert_str_eq(h.abis, "common,64,riscv");
	ud_syshdr_free(&h);
	/* run without a shell */
	parse_ok("./scripts/syscallhdr.sh in.tbl out.h", &h);
	ck_assert_str_eq(h.script, "scripts/syscallhdr.sh");
	ud_syshdr_free(&h);
	ud_syshdr_free(&h); /* twice, and NULL: no-ops */
	ud_syshdr_free(NULL);
}
END_TEST

START_TEST(test_parse_s390)
{
	struct ud_syshdr h;

	/* 6.1's filechk_syshdr, expanded */
	parse_ok("sh './arch/s390/kernel/syscalls/syscalltbl' -H -a common,32 -f "
		 "\"arch/s390/include/generated/uapi/asm/unistd_32.h\" < "
		 "./arch/s390/kernel/syscalls/syscall.tbl",
		 &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_S390);
	ck_assert_str_eq(h.script, "arch/s390/kernel/syscalls/syscalltbl");
	ck_assert_str_eq(h.table, "arch/s390/kernel/syscalls/syscall.tbl");
	ck_assert_str_eq(h.out, "arch/s390/include/generated/uapi/asm/unistd_32.h");
	ck_assert_str_eq(h.abis, "common,32");
	ud_syshdr_free(&h);
	/* without -a, the script's own default */
	parse_ok("sh syscalltbl -H -f out/unistd_64.h < t.tbl", &h);
	ck_assert_str_eq(h.abis, "common,64");
	ud_syshdr_free(&h);
}
END_TEST

START_TEST(test_parse_x86_3x)
{
	struct ud_syshdr h;

	/* 3.8's cmd_syshdr, expanded: IN OUT ABIS PREFIX OFFSET, each quoted */
	parse_ok("sh './arch/x86/syscalls/syscallhdr.sh' './arch/x86/syscalls/syscall_64.tbl' "
		 "'arch/x86/include/generated/uapi/asm/unistd_x32.h' 'common,x32' '' "
		 "'__X32_SYSCALL_BIT'",
		 &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_X86_3X);
	ck_assert_str_eq(h.script, "arch/x86/syscalls/syscallhdr.sh");
	ck_assert_str_eq(h.table, "arch/x86/syscalls/syscall_64.tbl");
	ck_assert_str_eq(h.out, "arch/x86/include/generated/uapi/asm/unistd_x32.h");
	ck_assert_str_eq(h.abis, "common,x32");
	ck_assert_str_eq(h.prefix, "");
	ck_assert_str_eq(h.offset, "__X32_SYSCALL_BIT");
	ud_syshdr_free(&h);
	parse_ok("sh 'a/syscallhdr.sh' 'in' 'out/unistd_32.h' 'i386' 'ia32_' ''", &h);
	ck_assert_str_eq(h.prefix, "ia32_");
	ck_assert_ptr_null(h.offset);
	ud_syshdr_free(&h);
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct {
		const char *command, *why;
	} cases[] = {
		{"", "not a generator command"},
		{"sh", "not a generator command"},
		{"sh ./scripts/syscalltbl.sh --abis common in out", "syscalltbl.sh"},
		{"echo '#include <asm-generic/x.h>' > out", "echo"},
		{"sh scripts/syscallhdr.sh --frob in out", "--frob"},
		{"sh scripts/syscallhdr.sh --emit-nr in", "INFILE OUTFILE"},
		{"sh scripts/syscallhdr.sh --abis", "--abis"},
		{"sh scripts/syscallhdr.sh in out extra", "INFILE OUTFILE"},
		{"sh syscalltbl -N -a common,32 < t.tbl", "-N"},
		{"sh syscalltbl -H -a common,32 < t.tbl", "-f"},
		{"sh syscalltbl -H -f out.h", "-f"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_syshdr h;
		char *why = NULL;

		ck_assert_msg(ud_syshdr_parse(cases[i].command, &h, &why) == -EINVAL, "%s parsed",
			      cases[i].command);
		ck_assert_ptr_nonnull(why);
		ck_assert_msg(strstr(why, cases[i].why) != NULL, "'%s' not in '%s'", cases[i].why,
			      why);
		ck_assert_ptr_null(h.script);
		ck_assert_ptr_null(h.table);
		ck_assert_ptr_null(h.abis);
		free(why);
		ud_syshdr_free(&h);
	}
}
END_TEST

/* --- scripts/syscallhdr.sh -------------------------------------------------------- */

START_TEST(test_generate_nr)
{
	struct ud_syshdr h;

	/* table order; __NR_syscalls is the last selected line's number + 1, not the largest */
	parse_ok("sh scripts/syscallhdr.sh --abis common,64 --emit-nr t.tbl "
		 "arch/x86/include/generated/uapi/asm/unistd_64.h",
		 &h);
	assert_generates(&h, table,
			 "#ifndef _UAPI_ASM_UNISTD_64_H\n"
			 "#define _UAPI_ASM_UNISTD_64_H\n"
			 "\n"
			 "#define __NR_read 0\n"
			 "#define __NR_write 1\n"
			 "#define __NR_open 2\n"
			 "#define __NR_late 5\n"
			 "#define __NR_mmap 3\n"
			 "#define __NR_ext 7\n"
			 "\n"
			 "#ifdef __KERNEL__\n"
			 "#define __NR_syscalls 8\n"
			 "#endif\n"
			 "\n"
			 "#endif /* _UAPI_ASM_UNISTD_64_H */\n");
	ud_syshdr_free(&h);

	/* no --abis: every line; --offset and --prefix; no --emit-nr */
	parse_ok("sh scripts/syscallhdr.sh --offset __NR_Linux --prefix p_ t.tbl unistd-eabi.h",
		 &h);
	assert_generates(&h, table,
			 "#ifndef _UAPI_ASM_UNISTD_EABI_H\n"
			 "#define _UAPI_ASM_UNISTD_EABI_H\n"
			 "\n"
			 "#define __NR_p_read (__NR_Linux + 0)\n"
			 "#define __NR_p_write (__NR_Linux + 1)\n"
			 "#define __NR_p_open (__NR_Linux + 2)\n"
			 "#define __NR_p_odd (__NR_Linux + 9)\n"
			 "#define __NR_p_late (__NR_Linux + 5)\n"
			 "#define __NR_p_mmap (__NR_Linux + 3)\n"
			 "#define __NR_p_ext (__NR_Linux + 7)\n"
			 "\n"
			 "#endif /* _UAPI_ASM_UNISTD_EABI_H */\n");
	ud_syshdr_free(&h);

	/* the prefix reaches __NR_syscalls too */
	parse_ok("sh scripts/syscallhdr.sh --emit-nr --prefix ia32_ --abis x32 t.tbl "
		 "unistd_32_ia32.h",
		 &h);
	assert_generates(&h, table,
			 "#ifndef _UAPI_ASM_UNISTD_32_IA32_H\n"
			 "#define _UAPI_ASM_UNISTD_32_IA32_H\n"
			 "\n"
			 "#define __NR_ia32_odd 9\n"
			 "\n"
			 "#ifdef __KERNEL__\n"
			 "#define __NR_ia32_syscalls 10\n"
			 "#endif\n"
			 "\n"
			 "#endif /* _UAPI_ASM_UNISTD_32_IA32_H */\n");
	ud_syshdr_free(&h);

	/* numbers as grep -E "^[0-9A-Fa-fXx]+" takes them, printed as written */
	parse_ok("sh scripts/syscallhdr.sh --emit-nr t.tbl unistd_x.h", &h);
	assert_generates(&h, "0x10\tcommon\thex\n",
			 "#ifndef _UAPI_ASM_UNISTD_X_H\n"
			 "#define _UAPI_ASM_UNISTD_X_H\n"
			 "\n"
			 "#define __NR_hex 0x10\n"
			 "\n"
			 "#ifdef __KERNEL__\n"
			 "#define __NR_syscalls 17\n"
			 "#endif\n"
			 "\n"
			 "#endif /* _UAPI_ASM_UNISTD_X_H */\n");
	ud_syshdr_free(&h);
}
END_TEST

/* The guard: upper-cased, other bytes '_', then sed 's/__/_/g' (non-overlapping). */
START_TEST(test_guard)
{
	static const struct {
		const char *out, *guard;
	} cases[] = {
		{"o/a___b.h", "_UAPI_ASM_A__B_H"},
		{"o/a____b.h", "_UAPI_ASM_A__B_H"},
		{"unistd-oabi.h", "_UAPI_ASM_UNISTD_OABI_H"},
		{"MiXed9.h", "_UAPI_ASM_MIXED9_H"},
		{"x/_lead.h", "_UAPI_ASM__LEAD_H"}, /* the squeeze is on the name alone */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_syshdr h;
		struct ud_buf out = UD_BUF_INIT, want = UD_BUF_INIT;
		struct ud_diags d = UD_DIAGS_INIT;
		char *cmd = ud_xasprintf("sh scripts/syscallhdr.sh t.tbl %s", cases[i].out);

		parse_ok(cmd, &h);
		ck_assert_int_eq(ud_syshdr_generate(&h, "0 common a\n", 11, &out, &d), 0);
		ud_buf_addf(&want,
			    "#ifndef %s\n#define %s\n\n#define __NR_a 0\n\n#endif /* %s */\n",
			    cases[i].guard, cases[i].guard, cases[i].guard);
		ck_assert_str_eq(ud_buf_str(&out), ud_buf_str(&want));
		ud_syshdr_free(&h);
		ud_buf_free(&out);
		ud_buf_free(&want);
		ud_diags_free(&d);
		free(cmd);
	}
}
END_TEST

/* --- s390's syscalltbl -H -------------------------------------------------------------- */

static const char s390_table[] = "# s390-style table\n"
				 "10\tcommon\tten\tsys_ten\tsys_ten\n"
				 "9\t32\tnine\t-\tcompat_nine\n"
				 "2\tcommon\ttwo\tsys_two\tsys_two\n"
				 "9\t64\tnine64\tsys_nine\t-\n"
				 "1\t32\tone\t-\tsys_one\n";

START_TEST(test_generate_s390)
{
	struct ud_syshdr h;

	parse_ok("sh './arch/s390/kernel/syscalls/syscalltbl' -H -a common,32 -f "
		 "\"arch/s390/include/generated/uapi/asm/unistd_32.h\" < t.tbl",
		 &h);
	assert_generates(&h, s390_table,
			 "/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
			 "#ifndef _UAPI_ASM_S390_UNISTD_32_H\n"
			 "#define _UAPI_ASM_S390_UNISTD_32_H\n"
			 "\n"
			 "#define __NR_one 1\n"
			 "#define __NR_two 2\n"
			 "#define __NR_nine 9\n"
			 "#define __NR_ten 10\n"
			 "\n"
			 "#endif /* _UAPI_ASM_S390_UNISTD_32_H */\n");
	ud_syshdr_free(&h);
	parse_ok("sh syscalltbl -H -f x/unistd_64.h < t.tbl", &h);
	assert_generates(&h, s390_table,
			 "/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
			 "#ifndef _UAPI_ASM_S390_UNISTD_64_H\n"
			 "#define _UAPI_ASM_S390_UNISTD_64_H\n"
			 "\n"
			 "#define __NR_two 2\n"
			 "#define __NR_nine64 9\n"
			 "#define __NR_ten 10\n"
			 "\n"
			 "#endif /* _UAPI_ASM_S390_UNISTD_64_H */\n");
	ud_syshdr_free(&h);
}
END_TEST

/* --- 3.x arch/x86/syscalls/syscallhdr.sh ----------------------------------------------- */

START_TEST(test_generate_x86_3x)
{
	/* sort -n: by number, ties by the whole line, bytewise ("4\t64" before "4\tcommon") */
	static const char t[] = "# 3.x\n"
				"4\tcommon\tb\tsys_b\n"
				"10\t64\tten\tsys_ten\n"
				"4\t64\ta\tsys_a\n"
				"9\tcommon\tnine\tsys_nine\n"
				"512\tx32\trt\tcompat_rt\n";
	struct ud_syshdr h;

	parse_ok("sh 'arch/x86/syscalls/syscallhdr.sh' 't.tbl' 'g/unistd_64.h' 'common,64' '' ''",
		 &h);
	assert_generates(&h, t,
			 "#ifndef _ASM_X86_UNISTD_64_H\n"
			 "#define _ASM_X86_UNISTD_64_H 1\n"
			 "\n"
			 "#define __NR_a 4\n"
			 "#define __NR_b 4\n"
			 "#define __NR_nine 9\n"
			 "#define __NR_ten 10\n"
			 "\n"
			 "#endif /* _ASM_X86_UNISTD_64_H */\n");
	ud_syshdr_free(&h);
	parse_ok(
		"sh 'arch/x86/syscalls/syscallhdr.sh' 't.tbl' 'g/unistd_x32.h' 'common,x32' 'x32_' "
		"'__X32_SYSCALL_BIT'",
		&h);
	assert_generates(&h, t,
			 "#ifndef _ASM_X86_UNISTD_X32_H\n"
			 "#define _ASM_X86_UNISTD_X32_H 1\n"
			 "\n"
			 "#define __NR_x32_b (__X32_SYSCALL_BIT + 4)\n"
			 "#define __NR_x32_nine (__X32_SYSCALL_BIT + 9)\n"
			 "#define __NR_x32_rt (__X32_SYSCALL_BIT + 512)\n"
			 "\n"
			 "#endif /* _ASM_X86_UNISTD_X32_H */\n");
	ud_syshdr_free(&h);
}
END_TEST

/* The 3.x script squeezes "__" in the name alone too (its guard: _ASM_X86__LEAD_H). */
START_TEST(test_guard_x86_3x)
{
	struct ud_syshdr h;

	parse_ok("sh 'syscallhdr.sh' 't.tbl' 'x/_lead.h' 'common' '' ''", &h);
	assert_generates(
		&h, "0 common a\n",
		"#ifndef _ASM_X86__LEAD_H\n#define _ASM_X86__LEAD_H 1\n\n#define __NR_a 0\n\n"
		"#endif /* _ASM_X86__LEAD_H */\n");
	ud_syshdr_free(&h);
}
END_TEST

/* --- problems in the table ----------------------------------------------------------- */

START_TEST(test_malformed_line)
{
	static const char *const bad[] = {
		"# header\n0\tcommon\tread\n\noops\tcommon\tbad\n",
		"# header\n0\tcommon\tread\n\n5\tcommon\n",
		"# header\n0\tcommon\tread\n\n7\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct ud_syshdr h;
		struct ud_buf out = UD_BUF_INIT;
		struct ud_diags d = UD_DIAGS_INIT;

		parse_ok("sh scripts/syscallhdr.sh --emit-nr arch/x/syscall.tbl o/unistd_64.h", &h);
		ck_assert_int_eq(ud_syshdr_generate(&h, bad[i], strlen(bad[i]), &out, &d), -EINVAL);
		ck_assert_uint_eq(d.n, 1);
		ck_assert_str_eq(d.v[0].path, "arch/x/syscall.tbl");
		ck_assert_uint_eq(d.v[0].line, 4);
		ck_assert_int_eq(d.v[0].severity, UD_SEV_ERROR);
		ck_assert_uint_eq(out.len, 0);
		ud_syshdr_free(&h);
		ud_buf_free(&out);
		ud_diags_free(&d);
	}
}
END_TEST

START_TEST(test_abi_problems)
{
	struct ud_syshdr h;
	struct ud_buf out = UD_BUF_INIT, ref = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;

	/* an ABI of the list that names no line: a note, the rest as without it */
	parse_ok("sh scripts/syscallhdr.sh --abis common,64 --emit-nr t.tbl o/unistd_64.h", &h);
	ck_assert_int_eq(ud_syshdr_generate(&h, table, strlen(table), &ref, &d), 0);
	ud_syshdr_free(&h);
	parse_ok("sh scripts/syscallhdr.sh --abis common,nosuch,64 --emit-nr t.tbl o/unistd_64.h",
		 &h);
	ck_assert_int_eq(ud_syshdr_generate(&h, table, strlen(table), &out, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out), ud_buf_str(&ref));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_int_eq(d.v[0].severity, UD_SEV_NOTE);
	ck_assert_str_eq(d.v[0].path, "t.tbl");
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "'nosuch'"));
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "unistd_64.h"));
	ud_syshdr_free(&h);
	ud_diags_free(&d);
	ud_buf_reset(&out);

	/* a list that selects nothing: a warning, and the empty header the script writes */
	parse_ok("sh scripts/syscallhdr.sh --emit-nr --abis nosuch t.tbl a___b.h", &h);
	ck_assert_int_eq(ud_syshdr_generate(&h, table, strlen(table), &out, &d), 0);
	ck_assert_str_eq(ud_buf_str(&out), "#ifndef _UAPI_ASM_A__B_H\n"
					   "#define _UAPI_ASM_A__B_H\n"
					   "\n"
					   "\n"
					   "#ifdef __KERNEL__\n"
					   "#define __NR_syscalls 1\n"
					   "#endif\n"
					   "\n"
					   "#endif /* _UAPI_ASM_A__B_H */\n");
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 1);
	ck_assert(has_diag(&d, UD_SEV_WARNING, 0, "select no line"));
	ck_assert(has_diag(&d, UD_SEV_NOTE, 0, "'nosuch'"));
	ud_syshdr_free(&h);
	ud_diags_free(&d);
	ud_buf_free(&out);
	ud_buf_free(&ref);

	/* an empty table with no --abis is no problem */
	parse_ok("sh scripts/syscallhdr.sh t.tbl o/u.h", &h);
	assert_generates(
		&h, "",
		"#ifndef _UAPI_ASM_U_H\n#define _UAPI_ASM_U_H\n\n\n#endif /* _UAPI_ASM_U_H */\n");
	ud_syshdr_free(&h);
}
END_TEST

/* --- the scripts ------------------------------------------------------------------------ */

START_TEST(test_script_known)
{
	static const char nr[] = "#!/bin/sh\n# [--emit-nr]\nguard=_UAPI_ASM_$(basename \"$2\")\n";
	static const char s390[] = "fileguard=__UAPI_ASM_S390_$1\ncreate_header_defines()\n";
	static const char x86[] = "fileguard=_ASM_X86_`basename \"$out\"`\ngrep | sort -n | (\n";
	struct ud_syshdr h;

	parse_ok("sh scripts/syscallhdr.sh in out", &h);
	ck_assert(ud_syshdr_script_known(&h, nr, strlen(nr)));
	ck_assert(!ud_syshdr_script_known(&h, nr, 20)); /* the guard marker cut off */
	ck_assert(!ud_syshdr_script_known(&h, s390, strlen(s390)));
	ck_assert(!ud_syshdr_script_known(&h, x86, strlen(x86)));
	ck_assert(!ud_syshdr_script_known(&h, "", 0));
	ud_syshdr_free(&h);
	parse_ok("sh syscalltbl -H -f out < in", &h);
	ck_assert(ud_syshdr_script_known(&h, s390, strlen(s390)));
	ck_assert(!ud_syshdr_script_known(&h, nr, strlen(nr)));
	ud_syshdr_free(&h);
	parse_ok("sh syscallhdr.sh in out i386 '' ''", &h);
	ck_assert(ud_syshdr_script_known(&h, x86, strlen(x86)));
	ck_assert(!ud_syshdr_script_known(&h, nr, strlen(nr)));
	ud_syshdr_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("syshdr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_nr);
	tcase_add_test(tc, test_parse_s390);
	tcase_add_test(tc, test_parse_x86_3x);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_generate_nr);
	tcase_add_test(tc, test_guard);
	tcase_add_test(tc, test_generate_s390);
	tcase_add_test(tc, test_generate_x86_3x);
	tcase_add_test(tc, test_guard_x86_3x);
	tcase_add_test(tc, test_malformed_line);
	tcase_add_test(tc, test_abi_problems);
	tcase_add_test(tc, test_script_known);
	suite_add_tcase(s, tc);
	return test_run(s);
}
