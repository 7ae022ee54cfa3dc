/*
 * Installed-headers plan tests on a minimal kernel tree: the files of an
 * architecture, generated headers, Kbuild list evaluation, one file
 * installed in memory.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/headers.h"

static const char a_h[] = "#ifndef _UAPI_LINUX_A_H\n"
			  "#define _UAPI_LINUX_A_H\n"
			  "struct a { int x; };\n"
			  "#ifdef __KERNEL__\n"
			  "int kernel_only;\n"
			  "#endif\n"
			  "#endif /* _UAPI_LINUX_A_H */\n";

/*
 * SCRATCH/name (malloc'd), a minimal tree: the Makefile's version,
 * include/uapi with its lists, x86 with generic-y, generated-y and a
 * syscall table, and the install script's leak list.
 */
static char *
make_tree(const char *name)
{
	char *d = test_dir(name);

	put(d, "Makefile",
	    "# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 42\n"
	    "EXTRAVERSION =\nNAME = Test\n");
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
	put(d, "arch/arm/include/uapi/asm/Kbuild", "generic-y += types.h\n");
	put(d, "arch/arm/include/uapi/asm/kvm.h", "int arm_kvm;\n");
	put(d, "scripts/headers_install.sh",
	    "#!/bin/sh\nconfig_leak_ignores=\"\ninclude/uapi/linux/a.h:CONFIG_OLD\n\"\n");
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
	ck_assert_uint_eq(plan->n, sizeof(x86_plan) / sizeof(x86_plan[0]));
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
	put(d, "Makefile", "VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 300\n");
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
	/* no SUBLEVEL: 0 */
	put(d, "Makefile", "VERSION = 2\nPATCHLEVEL = 6\n");
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&plan.v[4].gen), "CODE 132608\n"));
	ud_headers_plan_free(&plan);
	/* no version at all */
	put(d, "Makefile", "all:\n");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "no VERSION or PATCHLEVEL"));
	free(cause);
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_plan_errors)
{
	char *d = make_tree("errors"), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;
	size_t i;
	bool named = false;

	ck_assert_int_eq(ud_source_open_dir(&src, d, NULL), 0);
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "sparc64", &plan, &cause), -ENOENT);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "sparc64"));
	ck_assert_ptr_nonnull(strstr(cause, "no such architecture"));
	free(cause);
	cause = NULL;
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

	/* a generated header uapid cannot make */
	put(d, "arch/x86/include/uapi/asm/Kbuild", "generated-y += unistd_99.h\n");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "unistd_99.h"));
	free(cause);
	cause = NULL;
	ud_headers_plan_free(&plan);
	/* the syscall table is missing */
	put(d, "arch/x86/include/uapi/asm/Kbuild", "generated-y += unistd_64.h\n");
	del(d, "arch/x86/entry");
	ck_assert_int_lt(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "syscall_64.tbl"));
	free(cause);
	ud_headers_plan_free(&plan);
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
