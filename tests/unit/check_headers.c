// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Installed-headers plan tests on a minimal kernel tree: the files of an
 * architecture, generated headers, Kbuild list evaluation, one file
 * installed in memory.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/io/headers.h"

static const char a_h[] = "#ifndef _UAPI_LINUX_A_H\n"
			  "#define _UAPI_LINUX_A_H\n"
			  "struct a { int x; };\n"
			  "#ifdef __KERNEL__\n"
			  "int kernel_only;\n"
			  "#endif\n"
			  "#endif /* _UAPI_LINUX_A_H */\n";

/*
 * The rest of a stand-in top Makefile, after its version lines: how ARCH
 * maps to SRCARCH, the arch Makefile make needs, and the 5.x-on
 * linux/version.h (the one with the LINUX_VERSION_MAJOR lines).
 */
static const char top_rules[] = "EXTRAVERSION =\n"
				"NAME = Test\n"
				"SRCARCH := $(ARCH)\n"
				"ifeq ($(ARCH),x86_64)\n"
				"SRCARCH := x86\n"
				"endif\n"
				"ifeq ($(ARCH),sparc64)\n"
				"SRCARCH := sparc\n"
				"endif\n"
				"include $(srctree)/arch/$(SRCARCH)/Makefile\n"
				"define filechk_version.h\n"
				"\techo \\#define LINUX_VERSION_MAJOR $(VERSION)\n"
				"endef\n";

/* Writes dir/Makefile: the version lines given, then top_rules. */
static void
put_top_makefile(const char *dir, const char *version)
{
	char *text = ud_xasprintf("# SPDX-License-Identifier: GPL-2.0\n%s%s", version, top_rules);

	put(dir, "Makefile", text);
	free(text);
}

/*
 * SCRATCH/name (malloc'd), a minimal tree: the top Makefile, include/uapi
 * with its lists, x86 with generic-y, generated-y and a syscall table and
 * the Makefiles that say how unistd_64.h is made from it, arm, and the
 * install script (the one uapid reproduces) with its leak list.
 */
static char *
make_tree(const char *name)
{
	char *d = test_dir(name);

	put_top_makefile(d, "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 42\n");
	put(d, "include/uapi/linux/a.h", a_h);
	put(d, "include/uapi/linux/hidden.h", "int hidden;\n");
	put(d, "include/uapi/linux/kvm.h", "int kvm;\n");
	put(d, "include/uapi/linux/x86only.h", "int x86only;\n");
	put(d, "include/uapi/top.h", "int top;\n"); /* not in a subdirectory */
	put(d, "include/uapi/Kbuild",
	    "no-export-headers += linux/hidden.h\n"
	    "ifeq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/uapi/asm/kvm.h),)\n"
	    "no-export-headers += linux/kvm.h\n"
	    "endif\n"
	    "ifeq ($(SRCARCH),x86)\n"
	    "no-export-headers += linux/x86only.h\n"
	    "endif\n");
	put(d, "include/uapi/asm-generic/Kbuild",
	    "mandatory-y += ioctl.h\nmandatory-y += posix_types.h\nmandatory-y += types.h\n"
	    "mandatory-y += unistd_64.h\n");
	put(d, "include/uapi/asm-generic/ioctl.h", "int ioctl;\n");
	put(d, "include/uapi/asm-generic/posix_types.h", "int posix;\n");
	put(d, "include/uapi/asm-generic/types.h", "int types;\n");
	/* x86: archheaders names the directory whose Makefile makes unistd_64.h */
	put(d, "arch/x86/Makefile",
	    "archheaders:\n\t$(Q)$(MAKE) $(build)=arch/x86/entry/syscalls all\n");
	put(d, "arch/x86/entry/syscalls/Makefile",
	    "# the uapi syscall headers, each from a table with the ABIs it takes\n"
	    "out := arch/$(SRCARCH)/include/generated/uapi/asm\n"
	    "cmd_hdr = $(CONFIG_SHELL) $(srctree)/scripts/syscallhdr.sh --abis $(abis) "
	    "--emit-nr $< $@\n"
	    "$(out)/unistd_64.h: abis := common,64\n"
	    "$(out)/unistd_64.h: $(src)/syscall_64.tbl FORCE\n"
	    "\t$(call if_changed,hdr)\n"
	    "all: $(out)/unistd_64.h\n");
	put(d, "arch/x86/include/uapi/asm/Kbuild",
	    "generic-y += ioctl.h\ngenerated-y += unistd_64.h\n");
	put(d, "arch/x86/include/uapi/asm/types.h", "int x86_types;\n");
	put(d, "arch/x86/entry/syscalls/syscall_64.tbl",
	    "# 64-bit system call numbers\n"
	    "0\tcommon\tread\t\t\tsys_read\n"
	    "1\tcommon\twrite\t\t\tsys_write\n"
	    "\n"
	    "2\t64\topen\t\t\tsys_open\n"
	    "512\tx32\trt_sigaction\t\tcompat_sys_rt_sigaction\n");
	/* arm: generates nothing, so no archheaders rule */
	put(d, "arch/arm/Makefile", "archprepare:\n\t@:\n");
	put(d, "arch/arm/include/uapi/asm/Kbuild", "generic-y += types.h\n");
	put(d, "arch/arm/include/uapi/asm/kvm.h", "int arm_kvm;\n");
	/* never run: uapid checks what they are and writes their output itself */
	put(d, "scripts/syscallhdr.sh",
	    "#!/bin/sh\n"
	    "# usage: syscallhdr.sh [--abis ABIS] [--emit-nr] IN OUT (guard=_UAPI_ASM_ + OUT)\n"
	    "exit 1\n");
	put(d, "scripts/headers_install.sh",
	    "#!/bin/sh\n"
	    "# edits __attribute_const__ and the _UAPI guards, then runs\n"
	    "# unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__\n"
	    "config_leak_ignores=\"\ninclude/uapi/linux/a.h:CONFIG_OLD\n\"\n");
	return d;
}

static const char version_h[] =
	"#define LINUX_VERSION_CODE 393514\n"
	"#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))\n"
	"#define LINUX_VERSION_MAJOR 6\n"
	"#define LINUX_VERSION_PATCHLEVEL 1\n"
	"#define LINUX_VERSION_SUBLEVEL 42\n";

static const char unistd_64_h[] = "#ifndef _UAPI_ASM_UNISTD_64_H\n"
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
				  "#endif /* _UAPI_ASM_UNISTD_64_H */\n";

/* The x86 plan of the minimal tree: dst, src, generated text (NULL: from the tree). */
static const struct {
	const char *dst, *src, *gen;
} x86_plan[] = {
	{"asm-generic/ioctl.h", "include/uapi/asm-generic/ioctl.h", NULL},
	{"asm-generic/posix_types.h", "include/uapi/asm-generic/posix_types.h", NULL},
	{"asm-generic/types.h", "include/uapi/asm-generic/types.h", NULL},
	{"linux/a.h", "include/uapi/linux/a.h", NULL},
	{"linux/version.h", "include/generated/uapi/linux/version.h", version_h},
	{"asm/types.h", "arch/x86/include/uapi/asm/types.h", NULL},
	{"asm/unistd_64.h", "arch/x86/include/generated/uapi/asm/unistd_64.h", unistd_64_h},
	{"asm/ioctl.h", "arch/x86/include/generated/uapi/asm/ioctl.h",
	 "#include <asm-generic/ioctl.h>\n"},
	{"asm/posix_types.h", "arch/x86/include/generated/uapi/asm/posix_types.h",
	 "#include <asm-generic/posix_types.h>\n"},
};

static void
assert_x86_plan(const struct ud_hdr_plan *plan)
{
	size_t i;

	ck_assert_str_eq(plan->srcarch, "x86");
	ck_assert_uint_eq(plan->n, ARRAY_SIZE(x86_plan));
	for (i = 0; i < plan->n; i++) {
		const struct ud_hdr_file *f = &plan->v[i];

		ck_assert_str_eq(f->dst, x86_plan[i].dst);
		ck_assert_str_eq(f->src, x86_plan[i].src);
		ck_assert_int_eq(f->generated, x86_plan[i].gen != NULL);
		if (x86_plan[i].gen != NULL)
			ck_assert_str_eq(ud_buf_str(&f->gen), x86_plan[i].gen);
		else
			ck_assert_uint_eq(f->gen.len, 0);
	}
	ck_assert_uint_eq(plan->problems.n, 0);
	ck_assert_uint_eq(plan->rules.nleak_ignores, 1);
	ck_assert_str_eq(plan->rules.leak_ignores[0], "include/uapi/linux/a.h:CONFIG_OLD");
}

/* The plan's file for dst (it must be there). */
static const struct ud_hdr_file *
find(const struct ud_hdr_plan *plan, const char *dst)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (strcmp(plan->v[i].dst, dst) == 0)
			return &plan->v[i];
	ck_abort_msg("%s not in the plan", dst);
	return NULL;
}

/* Does d hold an error whose path or message contains text? */
static bool
any_diag(const struct ud_diags *d, const char *text)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == UD_SEV_ERROR &&
		    ((d->v[i].path != NULL && strstr(d->v[i].path, text) != NULL) ||
		     strstr(d->v[i].message, text) != NULL))
			return true;
	return false;
}

START_TEST(test_srcarch)
{
	ck_assert_str_eq(ud_headers_srcarch("x86_64"), "x86");
	ck_assert_str_eq(ud_headers_srcarch("i386"), "x86");
	ck_assert_str_eq(ud_headers_srcarch("sparc64"), "sparc");
	ck_assert_str_eq(ud_headers_srcarch("sparc32"), "sparc");
	ck_assert_str_eq(ud_headers_srcarch("parisc64"), "parisc");
	ck_assert_str_eq(ud_headers_srcarch("sh64"), "sh");
	ck_assert_str_eq(ud_headers_srcarch("arm64"), "arm64");
}
END_TEST

START_TEST(test_plan)
{
	char *d = make_tree("plan"), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86_64", &plan, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_x86_plan(&plan);
	ck_assert(ud_headers_plan_has(&plan, "linux/a.h"));
	ck_assert(ud_headers_plan_has(&plan, "asm/unistd_64.h"));
	ck_assert(!ud_headers_plan_has(&plan, "linux/hidden.h"));
	ck_assert(!ud_headers_plan_has(&plan, "linux/kvm.h"));
	ck_assert(!ud_headers_plan_has(&plan, "linux/x86only.h"));
	ck_assert(!ud_headers_plan_has(&plan, "top.h"));
	ck_assert(!ud_headers_plan_has(&plan, "asm/unistd_32.h"));
	/* where a source installs, asked of one path; generated files have no source */
	ck_assert_str_eq(ud_headers_plan_source(&plan, "include/uapi/linux/a.h")->dst, "linux/a.h");
	ck_assert_ptr_null(ud_headers_plan_source(&plan, "include/uapi/linux/hidden.h"));
	ck_assert_ptr_null(ud_headers_plan_source(&plan, "include/linux/a.h"));
	ud_headers_plan_free(&plan);
	ud_headers_plan_free(&plan); /* twice is fine */
	ud_headers_plan_free(NULL);

	/* arm: kvm.h exported (the wildcard finds asm/kvm.h), types.h a wrapper */
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "arm", &plan, &cause), 0);
	ck_assert(ud_headers_plan_has(&plan, "linux/kvm.h"));
	ck_assert(ud_headers_plan_has(&plan, "linux/x86only.h"));
	ck_assert(ud_headers_plan_has(&plan, "asm/kvm.h"));
	ck_assert(ud_headers_plan_has(&plan, "asm/types.h"));
	ck_assert(ud_headers_plan_has(&plan, "asm/posix_types.h"));
	ck_assert(!ud_headers_plan_has(&plan, "linux/hidden.h"));
	/* a mandatory-y header x86 generates is a wrapper where it is not generated */
	ck_assert_str_eq(find(&plan, "asm/unistd_64.h")->src,
			 "arch/arm/include/generated/uapi/asm/unistd_64.h");
	ck_assert_str_eq(ud_buf_str(&find(&plan, "asm/unistd_64.h")->gen),
			 "#include <asm-generic/unistd_64.h>\n");
	ck_assert_str_eq(ud_buf_str(&find(&plan, "asm/types.h")->gen),
			 "#include <asm-generic/types.h>\n");
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_plan_with_index)
{
	char *d = make_tree("index"), *cause = NULL;
	struct ud_source src;
	struct ud_tindex *idx;
	struct ud_diags problems = UD_DIAGS_INIT;
	struct ud_hdr_plan plan;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	ck_assert_int_eq(ud_tindex_build(&idx, &src, &problems), 0);
	ck_assert_int_eq(ud_headers_plan(&src, idx, "x86", &plan, &cause), 0);
	assert_x86_plan(&plan); /* the same plan as from a walk */
	ud_headers_plan_free(&plan);
	ud_tindex_free(idx);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_version_h)
{
	char *d = make_tree("version"), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	/* a SUBLEVEL above 255 counts as 255 in the code */
	put_top_makefile(d, "VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 300\n");
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_str_eq(plan.v[4].dst, "linux/version.h");
	ck_assert_str_eq(ud_buf_str(&plan.v[4].gen),
			 "#define LINUX_VERSION_CODE 328959\n"
			 "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? "
			 "255 : (c)))\n"
			 "#define LINUX_VERSION_MAJOR 5\n"
			 "#define LINUX_VERSION_PATCHLEVEL 4\n"
			 "#define LINUX_VERSION_SUBLEVEL 300\n");
	ud_headers_plan_free(&plan);
	/* the 4.x stables: the clamp, in two lines */
	put(d, "Makefile",
	    "VERSION = 4\nPATCHLEVEL = 9\nSUBLEVEL = 337\nSRCARCH := x86\n"
	    "include $(srctree)/arch/$(SRCARCH)/Makefile\n"
	    "define filechk_version.h\n"
	    "\tif [ $(SUBLEVEL) -gt 255 ]; then echo 255; fi\n"
	    "endef\n");
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_str_eq(ud_buf_str(&plan.v[4].gen),
			 "#define LINUX_VERSION_CODE 264703\n"
			 "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? "
			 "255 : (c)))\n");
	ud_headers_plan_free(&plan);
	/* before the clamp: two lines, the sublevel as it is */
	put(d, "Makefile",
	    "VERSION = 4\nPATCHLEVEL = 4\nSUBLEVEL = 300\nSRCARCH := x86\n"
	    "include $(srctree)/arch/$(SRCARCH)/Makefile\n"
	    "define filechk_version.h\n"
	    "\techo $(VERSION)\n"
	    "endef\n");
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_str_eq(ud_buf_str(&plan.v[4].gen),
			 "#define LINUX_VERSION_CODE 263468\n"
			 "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n");
	ud_headers_plan_free(&plan);
	/* no SUBLEVEL: 0 */
	put_top_makefile(d, "VERSION = 2\nPATCHLEVEL = 6\n");
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&plan.v[4].gen), "CODE 132608\n"));
	ud_headers_plan_free(&plan);
	/* no version at all: not a kernel tree's top Makefile */
	put(d, "Makefile", "all:\n");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	assert_cause(&cause, "Makefile", "no VERSION");
	ud_headers_plan_free(&plan);
	put(d, "Makefile", "VERSION = 6\n");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	assert_cause(&cause, "Makefile", "no PATCHLEVEL");
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	free(d);
}
END_TEST

/*
 * The x86 plan of src is made, with dst in it that uapid cannot make: its
 * problems name why (text), and installing it fails saying so.
 */
static void
assert_unmakeable(struct ud_source *src, const char *dst, const char *text)
{
	struct ud_hdr_plan plan;
	struct ud_installed in;
	const struct ud_hdr_file *f;
	char *cause = NULL;

	ck_assert_int_eq(ud_headers_plan(src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(plan.problems.n, 0);
	f = find(&plan, dst);
	ck_assert(f->generated);
	ck_assert_uint_eq(f->gen.len, 0);
	ck_assert(has_diag(&f->problems, UD_SEV_ERROR, 0, "uapid cannot make it"));
	ck_assert_msg(any_diag(&f->problems, text), "'%s' not in %s's problems", text, dst);
	ud_headers_install_file(&plan, f, src, &in);
	ck_assert(!in.ok);
	ck_assert_uint_eq(in.text.len, 0);
	ck_assert(any_diag(&in.diags, text));
	ud_installed_free(&in);
	ud_headers_plan_free(&plan);
}

START_TEST(test_plan_errors)
{
	char *d = make_tree("errors"), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;
	size_t i;
	bool named = false;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	/* an architecture the tree does not have: make stops at arch/SRCARCH/Makefile */
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "sparc64", &plan, &cause), -EPERM);
	assert_cause(&cause, "arch/sparc/Makefile: No such file or directory", "(ARCH=sparc64)");
	ud_headers_plan_free(&plan);

	/* an unreadable Kbuild: a problem naming it */
	del(d, "arch/x86/include/uapi/asm/Kbuild");
	put(d, "arch/x86/include/uapi/asm/Kbuild/x", "");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	free(cause);
	cause = NULL;
	ck_assert_uint_ge(plan.problems.n, 1);
	for (i = 0; i < plan.problems.n; i++) {
		ck_assert_int_eq(plan.problems.v[i].severity, UD_SEV_ERROR);
		named |= plan.problems.v[i].path != NULL &&
			 strcmp(plan.problems.v[i].path, "arch/x86/include/uapi/asm/Kbuild") == 0;
	}
	ck_assert(named);
	ud_headers_plan_free(&plan);
	del(d, "arch/x86/include/uapi/asm/Kbuild");

	/* a generated header uapid cannot make: in the plan, failing, named */
	put(d, "arch/x86/include/uapi/asm/Kbuild", "generated-y += unistd_99.h\n");
	assert_unmakeable(&src, "asm/unistd_99.h",
			  "no rule makes arch/x86/include/generated/uapi/asm/unistd_99.h");
	/* the syscall table is missing */
	put(d, "arch/x86/include/uapi/asm/Kbuild", "generated-y += unistd_64.h\n");
	del(d, "arch/x86/entry/syscalls/syscall_64.tbl");
	assert_unmakeable(&src, "asm/unistd_64.h", "arch/x86/entry/syscalls/syscall_64.tbl");
	ud_source_close(&src);
	free(d);
}
END_TEST

/* ud_headers_make_list into a blank-joined string (malloc'd); *rc its result. */
static char *
make_list(struct ud_source *src, const char *arch, const char *rel, const char *var, int *rc,
	  struct ud_diags *problems)
{
	struct ud_strlist l = UD_STRLIST_INIT;
	char *s;

	*rc = ud_headers_make_list(src, arch, rel, var, &l, problems);
	s = joined(&l);
	ud_strlist_free(&l);
	return s;
}

START_TEST(test_make_list)
{
	char *d = make_tree("makelist"), *s;
	struct ud_source src;
	struct ud_diags problems = UD_DIAGS_INIT;
	int rc;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	s = make_list(&src, "x86", "include/uapi/Kbuild", "no-export-headers", &rc, &problems);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(s, "linux/hidden.h linux/kvm.h linux/x86only.h");
	free(s);
	s = make_list(&src, "arm", "include/uapi/Kbuild", "no-export-headers", &rc, &problems);
	ck_assert_str_eq(s, "linux/hidden.h"); /* arm has asm/kvm.h, and is not x86 */
	free(s);
	s = make_list(&src, "x86", "arch/x86/include/uapi/asm/Kbuild", "generated-y", &rc,
		      &problems);
	ck_assert_str_eq(s, "unistd_64.h");
	free(s);
	s = make_list(&src, "x86", "include/uapi/Kbuild", "other-y", &rc, &problems);
	ck_assert_str_eq(s, "");
	free(s);
	s = make_list(&src, "x86", "include/missing/Kbuild", "header-y", &rc, &problems);
	ck_assert_int_eq(rc, 0); /* a missing file has none */
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert_uint_eq(problems.n, 0);
	put(d, "include/bad/Kbuild/x", "");
	s = make_list(&src, "x86", "include/bad/Kbuild", "header-y", &rc, &problems);
	ck_assert_int_lt(rc, 0);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(problems.n, 1);
	ck_assert_str_eq(problems.v[0].path, "include/bad/Kbuild");
	ck_assert_ptr_nonnull(strstr(problems.v[0].message, "header-y"));
	free(s);
	ud_diags_free(&problems);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_install_file)
{
	char *d = make_tree("file"), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;
	struct ud_installed in;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	/* from the tree: the _UAPI prefix and the __KERNEL__ part go */
	ck_assert_str_eq(plan.v[3].dst, "linux/a.h");
	ud_headers_install_file(&plan, &plan.v[3], &src, &in);
	ck_assert(in.ok);
	ck_assert_str_eq(ud_buf_str(&in.source), a_h);
	ck_assert_str_eq(ud_buf_str(&in.text), "#ifndef _LINUX_A_H\n"
					       "#define _LINUX_A_H\n"
					       "struct a { int x; };\n"
					       "#endif /* _LINUX_A_H */\n");
	ck_assert_uint_eq(ud_diags_count(&in.diags, UD_SEV_ERROR), 0);
	ud_installed_free(&in);
	/* generated */
	ud_headers_install_file(&plan, &plan.v[6], &src, &in);
	ck_assert(in.ok);
	ck_assert_str_eq(ud_buf_str(&in.source), unistd_64_h);
	ck_assert_ptr_null(strstr(ud_buf_str(&in.text), "__NR_syscalls"));
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&in.text), "#define __NR_open 2\n"));
	ud_installed_free(&in);
	/* its source gone since the plan was made */
	del(d, "include/uapi/linux/a.h");
	ud_headers_install_file(&plan, &plan.v[3], &src, &in);
	ck_assert(!in.ok);
	ck_assert_uint_eq(in.diags.n, 1);
	ck_assert_ptr_nonnull(strstr(in.diags.v[0].message, "include/uapi/linux/a.h"));
	ud_installed_free(&in);
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("headers");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_srcarch);
	tcase_add_test(tc, test_plan);
	tcase_add_test(tc, test_plan_with_index);
	tcase_add_test(tc, test_version_h);
	tcase_add_test(tc, test_plan_errors);
	tcase_add_test(tc, test_make_list);
	tcase_add_test(tc, test_install_file);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "headers");
}
