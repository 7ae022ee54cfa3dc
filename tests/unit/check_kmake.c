// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel Makefile tests: what a tree's own top Makefile says about an
 * architecture (SRCARCH, refusals, version), which architectures it
 * exports, and how its Makefiles make the generated syscall headers, in
 * both forms (archheaders and 6.11's syscall-y).  The happy paths run on
 * the fixture trees tests/trees/mini and mini3x; the faults on small
 * trees made in the scratch directory.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/io/kmake.h"

/* A 6.x-shaped top Makefile (a stand-in written for these tests). */
static const char top_makefile[] =
	"VERSION = 6\n"
	"PATCHLEVEL = 12\n"
	"SUBLEVEL = 7\n"
	"SRCARCH := $(ARCH)\n"
	"ifeq ($(ARCH),x86_64)\n"
	"        SRCARCH := x86\n"
	"endif\n"
	"this line is not make: tolerated in a top Makefile\n"
	"include $(srctree)/arch/$(SRCARCH)/Makefile\n"
	"define filechk_version.h\n"
	"\techo \\#define LINUX_VERSION_MAJOR $(VERSION)\n"
	"endef\n"
	"headers_install: headers\n"
	"\t$(call cmd,headers_install)\n"
	"headers: archheaders\n"
	"\t$(if $(filter um, $(SRCARCH)), $(error Headers not exportable for UML))\n";

/* The fixture tree tests/trees/NAME as a source. */
static void
open_fixture(struct ud_source *src, const char *name)
{
	char *dir = ud_xasprintf("%s/tests/trees/%s", test_srcdir(), name);

	ck_assert_int_eq(ud_source_open_dir(src, dir, NULL), 0);
	free(dir);
}

/* SCRATCH/name with the 6.x top Makefile and an arch Makefile each for x86, um and arm64. */
static char *
make_tree(const char *name)
{
	char *d = test_dir(name);

	put(d, "Makefile", top_makefile);
	put(d, "arch/x86/Makefile",
	    "archheaders:\n\t$(Q)$(MAKE) $(build)=arch/x86/entry/syscalls all\n");
	put(d, "arch/um/Makefile", "archheaders:\n\t@:\n");
	put(d, "arch/arm64/Makefile", "archprepare:\n\t@:\n");
	put(d, "arch/README", "not a directory\n");
	return d;
}

static bool
diag_at(const struct ud_diags *d, enum ud_severity sev, const char *path, const char *text)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == sev && d->v[i].path != NULL &&
		    strcmp(d->v[i].path, path) == 0 && strstr(d->v[i].message, text) != NULL)
			return true;
	return false;
}

/* --- the top Makefile -------------------------------------------------------- */

START_TEST(test_karch_mini)
{
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_karch ka;

	open_fixture(&src, "mini");
	ck_assert_int_eq(ud_karch_open(&src, "x86", &ka, &d), 0);
	ck_assert_str_eq(ka.arch, "x86");
	ck_assert_str_eq(ka.srcarch, "x86");
	ck_assert_str_eq(ka.version, "6.1.300");
	ck_assert_uint_eq(ka.v[0], 6);
	ck_assert_uint_eq(ka.v[1], 1);
	ck_assert_uint_eq(ka.v[2], 300);
	ck_assert(ka.version_5l);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0);
	ud_karch_free(&ka);
	ck_assert_int_eq(ud_karch_open(&src, "i386", &ka, &d), 0);
	ck_assert_str_eq(ka.arch, "i386");
	ck_assert_str_eq(ka.srcarch, "x86");
	ud_karch_free(&ka);
	ck_assert_int_eq(ud_karch_open(&src, "x86_64", &ka, &d), 0);
	ck_assert_str_eq(ka.srcarch, "x86");
	ud_karch_free(&ka);
	ck_assert_int_eq(ud_karch_open(&src, "riscv", &ka, &d), 0);
	ck_assert_str_eq(ka.srcarch, "riscv");
	ud_karch_free(&ka);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0);

	/* the Makefile's own refusal, with its line */
	ck_assert_int_eq(ud_karch_open(&src, "um", &ka, &d), -EPERM);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 41, "Headers not exportable for UML"));
	ck_assert(diag_at(&d, UD_SEV_ERROR, "Makefile", "Headers not exportable for UML"));
	ud_karch_free(&ka);
	ud_diags_free(&d);
	/* an ARCH without arch/SRCARCH/Makefile: make stops at the include */
	ck_assert_int_eq(ud_karch_open(&src, "sparc32", &ka, &d), -EPERM);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "Makefile", "arch/sparc32/Makefile"));
	ud_karch_free(&ka);
	ud_karch_free(&ka);
	ud_karch_free(NULL);
	ud_diags_free(&d);
	ud_source_close(&src);
}
END_TEST

START_TEST(test_karch_3x)
{
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_karch ka;

	open_fixture(&src, "mini3x");
	ck_assert_int_eq(ud_karch_open(&src, "x86_64", &ka, &d), 0);
	ck_assert_str_eq(ka.srcarch, "x86");
	ck_assert_str_eq(ka.version, "3.8.0");
	ck_assert(!ka.version_5l);
	/* the Makefile.headersinst runs of its headers_install recipe, in order */
	ck_assert_uint_eq(ka.nruns, 2);
	ck_assert_str_eq(ka.runs[0].obj, "include/uapi");
	ck_assert_ptr_null(ka.runs[0].dst);
	ck_assert_str_eq(ka.runs[1].obj, "arch/x86/include/uapi/asm");
	ck_assert_str_eq(ka.runs[1].dst, "include/asm");
	ud_karch_free(&ka);
	/* 3.x refuses an architecture without include/uapi/asm/Kbuild */
	ck_assert_int_eq(ud_karch_open(&src, "um", &ka, &d), -EPERM);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 37, "Headers not exportable for the um architecture"));
	ud_karch_free(&ka);
	ud_diags_free(&d);
	ud_source_close(&src);
}
END_TEST

START_TEST(test_karch_scratch)
{
	char *t = make_tree("karch");
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_karch ka;

	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	ck_assert_int_eq(ud_karch_open(&src, "x86_64", &ka, &d), 0);
	ck_assert_str_eq(ka.srcarch, "x86");
	ck_assert_str_eq(ka.version, "6.12.7");
	ck_assert(ka.version_5l);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0); /* the line make cannot read */
	ud_karch_free(&ka);
	ck_assert_int_eq(ud_karch_open(&src, "um", &ka, &d), -EPERM);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 16, "Headers not exportable for UML"));
	ud_karch_free(&ka);
	ud_diags_free(&d);

	/* no SUBLEVEL: 0; no LINUX_VERSION_MAJOR: the 3.x version.h */
	put(t, "Makefile", "VERSION = 4\nPATCHLEVEL = 2\n");
	ck_assert_int_eq(ud_karch_open(&src, "arm64", &ka, &d), 0);
	ck_assert_str_eq(ka.version, "4.2.0");
	ck_assert(!ka.version_5l);
	ud_karch_free(&ka);
	/* not a kernel Makefile */
	put(t, "Makefile", "all:\n\t@echo hello\n");
	ck_assert_int_lt(ud_karch_open(&src, "arm64", &ka, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "Makefile", "VERSION"));
	ud_karch_free(&ka);
	ud_diags_free(&d);
	/* no Makefile at all */
	del(t, "Makefile");
	ck_assert_int_lt(ud_karch_open(&src, "arm64", &ka, &d), 0);
	ck_assert_uint_ge(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_karch_free(&ka);
	ud_diags_free(&d);
	ud_source_close(&src);
	free(t);
}
END_TEST

/* A top Makefile whose version refers to itself: an error, not a crash. */
START_TEST(test_karch_self_reference)
{
	char *t = make_tree("karch-self");
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_karch ka;

	put(t, "Makefile", "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = $(SUBLEVEL)\n");
	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	ck_assert_int_lt(ud_karch_open(&src, "x86", &ka, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "Makefile", "refer to themselves"));
	ud_karch_free(&ka);
	ud_diags_free(&d);
	ud_source_close(&src);
	free(t);
}
END_TEST

START_TEST(test_karch_all)
{
	char *t = make_tree("karch-all");
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_strlist l = UD_STRLIST_INIT;

	put(t, "arch/frob/Kconfig", "# no Makefile: not an architecture make can use\n");
	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	ck_assert_int_eq(ud_karch_all(&src, &l, &d), 0);
	assert_list(&l, "arm64 x86");
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 0);
	ud_strlist_free(&l);
	ud_source_close(&src);

	open_fixture(&src, "mini");
	ck_assert_int_eq(ud_karch_all(&src, &l, &d), 0);
	assert_list(&l, "arm64 riscv x86");
	ud_strlist_free(&l);
	ud_source_close(&src);
	open_fixture(&src, "mini3x");
	ck_assert_int_eq(ud_karch_all(&src, &l, &d), 0);
	assert_list(&l, "x86");
	ud_strlist_free(&l);
	ud_source_close(&src);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 0);
	ud_diags_free(&d);

	/* a tree without arch/ */
	del(t, "arch");
	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	ck_assert_int_lt(ud_karch_all(&src, &l, &d), 0);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_ge(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	ud_source_close(&src);
	free(t);
}
END_TEST

/* --- generated headers ---------------------------------------------------------- */

/* Finds and makes NAME for arch in the fixture tree; returns the text (malloc'd). */
static char *
kgen(struct ud_source *src, const char *arch, const char *name, bool syscall_y, struct ud_syshdr *h)
{
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_karch ka;
	struct ud_kgen *g;
	struct ud_buf out = UD_BUF_INIT;

	ck_assert_int_eq(ud_karch_open(src, arch, &ka, &d), 0);
	g = ud_kgen_new(src, &ka);
	ck_assert_msg(ud_kgen_find(g, name, syscall_y, h, &d) == 0, "%s: %s", name,
		      d.n > 0 ? d.v[0].message : "?");
	ck_assert_int_eq(ud_kgen_make(src, h, &out, &d), 0);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0); /* notes are fine */
	ud_diags_free(&d);
	ud_kgen_free(g);
	ud_karch_free(&ka);
	ud_buf_addstr(&out, "");
	return ud_buf_detach(&out, NULL);
}

START_TEST(test_kgen_archheaders)
{
	struct ud_source src;
	struct ud_syshdr h;
	char *x;

	open_fixture(&src, "mini");
	x = kgen(&src, "x86", "unistd_64.h", false, &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_NR);
	ck_assert_str_eq(h.script, "scripts/syscallhdr.sh");
	ck_assert_str_eq(h.table, "arch/x86/entry/syscalls/syscall_64.tbl");
	ck_assert_str_eq(h.out, "arch/x86/include/generated/uapi/asm/unistd_64.h");
	ck_assert_str_eq(h.abis, "common,64");
	ck_assert_ptr_null(h.offset);
	ck_assert(h.emit_nr);
	ck_assert_str_eq(x, "#ifndef _UAPI_ASM_UNISTD_64_H\n"
			    "#define _UAPI_ASM_UNISTD_64_H\n"
			    "\n"
			    "#define __NR_read 0\n"
			    "#define __NR_write 1\n"
			    "#define __NR_open 2\n"
			    "\n"
			    "#ifdef __KERNEL__\n"
			    "#define __NR_syscalls 3\n"
			    "#endif\n"
			    "\n"
			    "#endif /* _UAPI_ASM_UNISTD_64_H */\n");
	ud_syshdr_free(&h);
	free(x);
	/* target-specific offset; the alias reads the same Makefiles */
	x = kgen(&src, "x86_64", "unistd_x32.h", false, &h);
	ck_assert_str_eq(h.abis, "common,x32");
	ck_assert_str_eq(h.offset, "__X32_SYSCALL_BIT");
	ck_assert_ptr_nonnull(strstr(x, "#define __NR_rt_sigaction (__X32_SYSCALL_BIT + 512)\n"));
	ud_syshdr_free(&h);
	free(x);
	x = kgen(&src, "i386", "unistd_32.h", false, &h);
	ck_assert_str_eq(h.abis, "i386");
	ck_assert_str_eq(h.table, "arch/x86/entry/syscalls/syscall_32.tbl");
	ud_syshdr_free(&h);
	free(x);
	ud_source_close(&src);
}
END_TEST

START_TEST(test_kgen_syscall_y)
{
	struct ud_source src;
	struct ud_syshdr h;
	char *x;

	open_fixture(&src, "mini");
	/* the syscall rule, not the wrapper rule (whose stem is longer) */
	x = kgen(&src, "riscv", "unistd_64.h", true, &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_NR);
	ck_assert_str_eq(h.table, "scripts/syscall.tbl");
	ck_assert_str_eq(h.out, "arch/riscv/include/generated/uapi/asm/unistd_64.h");
	ck_assert_str_eq(h.abis, "common,64,riscv");
	ck_assert_str_eq(h.prefix, "");
	ck_assert(h.emit_nr);
	ck_assert_str_eq(x, "#ifndef _UAPI_ASM_UNISTD_64_H\n"
			    "#define _UAPI_ASM_UNISTD_64_H\n"
			    "\n"
			    "#define __NR_setup 0\n"
			    "#define __NR_wait 3\n"
			    "#define __NR_read 20\n"
			    "#define __NR_flush_icache 30\n"
			    "#define __NR_late_low 12\n"
			    "\n"
			    "#ifdef __KERNEL__\n"
			    "#define __NR_syscalls 13\n"
			    "#endif\n"
			    "\n"
			    "#endif /* _UAPI_ASM_UNISTD_64_H */\n");
	ud_syshdr_free(&h);
	free(x);
	/* no additions for 32: the defaults alone */
	x = kgen(&src, "riscv", "unistd_32.h", true, &h);
	ck_assert_str_eq(h.abis, "common,32");
	ud_syshdr_free(&h);
	free(x);
	/* the compat rule: a target-specific variable of a pattern, and a quoted prefix */
	x = kgen(&src, "riscv", "unistd_compat_64.h", true, &h);
	ck_assert_str_eq(h.prefix, "compat64_");
	ck_assert_str_eq(h.abis, "common,64,riscv");
	ud_syshdr_free(&h);
	free(x);
	ud_source_close(&src);
}
END_TEST

START_TEST(test_kgen_3x)
{
	struct ud_source src;
	struct ud_syshdr h;
	char *x;

	open_fixture(&src, "mini3x");
	/* $(obj)/../include/...: the rule found through a normalised path */
	x = kgen(&src, "x86", "unistd_64.h", false, &h);
	ck_assert_int_eq(h.form, UD_SYSHDR_X86_3X);
	ck_assert_str_eq(h.script, "arch/x86/syscalls/syscallhdr.sh");
	ck_assert_str_eq(h.table, "arch/x86/syscalls/syscall_64.tbl");
	ck_assert_str_eq(h.abis, "common,64");
	ck_assert_ptr_null(h.offset);
	ck_assert_str_eq(x, "#ifndef _ASM_X86_UNISTD_64_H\n"
			    "#define _ASM_X86_UNISTD_64_H 1\n"
			    "\n"
			    "#define __NR_read 0\n"
			    "#define __NR_write 1\n"
			    "#define __NR_open 2\n"
			    "\n"
			    "#endif /* _ASM_X86_UNISTD_64_H */\n");
	ud_syshdr_free(&h);
	free(x);
	ud_source_close(&src);
}
END_TEST

/* Runs ud_kgen_find for NAME of x86 in tree t; returns its result, diagnostics in d. */
static int
find_in(const char *t, const char *arch, const char *name, bool syscall_y, struct ud_diags *d)
{
	struct ud_source src;
	struct ud_karch ka;
	struct ud_kgen *g;
	struct ud_syshdr h;
	int rc;

	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	ck_assert_int_eq(ud_karch_open(&src, arch, &ka, d), 0);
	g = ud_kgen_new(&src, &ka);
	rc = ud_kgen_find(g, name, syscall_y, &h, d);
	if (rc < 0)
		ck_assert_ptr_null(h.script);
	ud_syshdr_free(&h);
	ud_kgen_free(g);
	ud_karch_free(&ka);
	ud_source_close(&src);
	return rc;
}

START_TEST(test_kgen_errors)
{
	static const char dir_mk[] = "arch/x86/entry/syscalls/Makefile";
	char *t = make_tree("kgen-errors");
	struct ud_diags d = UD_DIAGS_INIT;

	put(t, dir_mk,
	    "uapi := arch/$(SRCARCH)/include/generated/uapi/asm\n"
	    "$(uapi)/unistd_64.h: $(src)/syscall_64.tbl\n"
	    "\t$(call if_changed,syshdr)\n"
	    "cmd_syshdr = $(CONFIG_SHELL) $(srctree)/scripts/syscallhdr.sh --emit-nr $< $@\n"
	    "$(uapi)/unistd_echo.h: FORCE\n"
	    "\techo '#define X 1' > $@\n"
	    "$(uapi)/unistd_err.h: FORCE\n"
	    "\t$(error this header is not for you)\n");
	ck_assert_int_eq(find_in(t, "x86", "unistd_64.h", false, &d), 0);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 0);
	/* no rule: the Makefile that has none is named */
	ck_assert_int_lt(find_in(t, "x86", "unistd_none.h", false, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, dir_mk,
			  "no rule makes arch/x86/include/generated/uapi/asm/unistd_none.h"));
	ud_diags_free(&d);
	/* a recipe that is not a generator uapid knows: the rule's line */
	ck_assert_int_lt(find_in(t, "x86", "unistd_echo.h", false, &d), 0);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 6, "uapid cannot make it"));
	ck_assert(diag_at(&d, UD_SEV_ERROR, dir_mk, "unistd_echo.h"));
	ud_diags_free(&d);
	/* the recipe's own $(error) */
	ck_assert_int_lt(find_in(t, "x86", "unistd_err.h", false, &d), 0);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 8, "this header is not for you"));
	ck_assert(diag_at(&d, UD_SEV_ERROR, dir_mk, "this header is not for you"));
	ud_diags_free(&d);

	/* a Makefile uapid cannot read (strict): its line */
	put(t, dir_mk, "x := 1\n$(eval y := 2)\n");
	ck_assert_int_lt(find_in(t, "x86", "unistd_64.h", false, &d), 0);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 2, "eval"));
	ck_assert(diag_at(&d, UD_SEV_ERROR, dir_mk, "eval"));
	ud_diags_free(&d);
	/* the directory archheaders names has no Makefile */
	del(t, dir_mk);
	ck_assert_int_lt(find_in(t, "x86", "unistd_64.h", false, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, dir_mk, ""));
	ud_diags_free(&d);
	/* no archheaders rule at all */
	ck_assert_int_lt(find_in(t, "arm64", "unistd_64.h", false, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "arch/arm64/Makefile", "archheaders"));
	ud_diags_free(&d);
	/* syscall-y without scripts/Makefile.asm-headers */
	ck_assert_int_lt(find_in(t, "arm64", "unistd_64.h", true, &d), 0);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "scripts/Makefile.asm-headers", ""));
	ud_diags_free(&d);
	free(t);
}
END_TEST

/* An explicit rule without a recipe (extra prerequisites) leaves the pattern rule's recipe. */
START_TEST(test_kgen_extra_prerequisites)
{
	char *t = make_tree("kgen-extra");
	struct ud_diags d = UD_DIAGS_INIT;

	put(t, "arch/x86/entry/syscalls/Makefile",
	    "uapi := arch/$(SRCARCH)/include/generated/uapi/asm\n"
	    "cmd_syshdr = $(CONFIG_SHELL) $(srctree)/scripts/syscallhdr.sh --emit-nr $< $@\n"
	    "$(uapi)/unistd_%.h: $(src)/syscall_%.tbl FORCE\n"
	    "\t$(call if_changed,syshdr)\n"
	    "$(uapi)/unistd_64.h: $(src)/extra.h\n");
	ck_assert_int_eq(find_in(t, "x86", "unistd_64.h", false, &d), 0);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 0);
	ud_diags_free(&d);
	free(t);
}
END_TEST

/* Whatever stops ud_kgen_find, the failure says why (or the header would be empty). */
START_TEST(test_kgen_failure_says_why)
{
	char *t = make_tree("kgen-why");
	struct ud_diags d = UD_DIAGS_INIT;

	put(t, "arch/x86/entry/syscalls/Makefile",
	    "uapi := arch/$(SRCARCH)/include/generated/uapi/asm\n"
	    "$(uapi)/unistd_64.h: $(src)/extra.h\n");
	ck_assert_int_lt(find_in(t, "x86", "unistd_64.h", false, &d), 0);
	ck_assert_uint_ge(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	free(t);
}
END_TEST

START_TEST(test_kgen_make_errors)
{
	char *t = test_dir("kgen-make");
	struct ud_source src;
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_buf out = UD_BUF_INIT;
	struct ud_syshdr h;
	char *why = NULL;

	ck_assert_int_eq(ud_syshdr_parse("sh ./scripts/syscallhdr.sh --abis common --emit-nr "
					 "./t/syscall.tbl gen/unistd_64.h",
					 &h, &why),
			 0);
	ck_assert_int_eq(ud_source_open_dir(&src, t, NULL), 0);
	/* no script */
	ck_assert_int_lt(ud_kgen_make(&src, &h, &out, &d), 0);
	ck_assert_uint_ge(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	/* a script that is not the generator uapid knows */
	put(t, "scripts/syscallhdr.sh", "#!/bin/sh\necho something else\n");
	ck_assert_int_eq(ud_kgen_make(&src, &h, &out, &d), -EINVAL);
	ck_assert(diag_at(&d, UD_SEV_ERROR, "scripts/syscallhdr.sh", "not the generator"));
	ud_diags_free(&d);
	/* the right script, no table */
	put(t, "scripts/syscallhdr.sh", "# [--emit-nr] guard=_UAPI_ASM_\n");
	ck_assert_int_lt(ud_kgen_make(&src, &h, &out, &d), 0);
	ck_assert_uint_ge(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	/* a malformed table line: the table and line */
	put(t, "t/syscall.tbl", "# x\n0 common read\nbroken\n");
	ud_buf_reset(&out);
	ck_assert_int_eq(ud_kgen_make(&src, &h, &out, &d), -EINVAL);
	ck_assert(has_diag(&d, UD_SEV_ERROR, 3, "not a syscall table line"));
	ck_assert(diag_at(&d, UD_SEV_ERROR, "t/syscall.tbl", "broken"));
	ud_diags_free(&d);
	/* and fixed */
	put(t, "t/syscall.tbl", "# x\n0 common read\n");
	ud_buf_reset(&out);
	ck_assert_int_eq(ud_kgen_make(&src, &h, &out, &d), 0);
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&out), "#define __NR_read 0\n"));
	ck_assert_uint_eq(d.n, 0);
	ud_buf_free(&out);
	ud_syshdr_free(&h);
	ud_source_close(&src);
	free(t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kmake");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_karch_mini);
	tcase_add_test(tc, test_karch_3x);
	tcase_add_test(tc, test_karch_scratch);
	tcase_add_test(tc, test_karch_self_reference);
	tcase_add_test(tc, test_karch_all);
	tcase_add_test(tc, test_kgen_archheaders);
	tcase_add_test(tc, test_kgen_syscall_y);
	tcase_add_test(tc, test_kgen_3x);
	tcase_add_test(tc, test_kgen_errors);
	tcase_add_test(tc, test_kgen_extra_prerequisites);
	tcase_add_test(tc, test_kgen_failure_says_why);
	tcase_add_test(tc, test_kgen_make_errors);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "kmake");
}
