// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Installing a minimal tree's headers into OUTDIR: first run, a run that
 * finds nothing to do, stale headers, a CONFIG_ leak, one changed source.
 */
#include <sys/stat.h>

#include "testutil.h"
#include "uapid/io/headers.h"

/*
 * SCRATCH/name/tree (malloc'd): a minimal tree, with the Makefiles and
 * scripts uapid reads to reproduce its install (stand-ins: the top
 * Makefile's version, SRCARCH and linux/version.h form; how x86 makes
 * asm/unistd_64.h from its table; the install script uapid reproduces,
 * with its leak list).
 */
static char *
make_tree(const char *name)
{
	char *d = test_dir(name), *t = ud_xasprintf("%s/tree", d);

	free(d);
	put(t, "Makefile",
	    "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 2\n"
	    "SRCARCH := $(ARCH)\n"
	    "ifeq ($(ARCH),x86_64)\n"
	    "SRCARCH := x86\n"
	    "endif\n"
	    "include $(srctree)/arch/$(SRCARCH)/Makefile\n"
	    "define filechk_version.h\n"
	    "\techo \\#define LINUX_VERSION_MAJOR $(VERSION)\n"
	    "endef\n");
	put(t, "include/uapi/linux/a.h",
	    "#ifndef _UAPI_LINUX_A_H\n#define _UAPI_LINUX_A_H\nstruct a { int x; };\n"
	    "#ifdef __KERNEL__\nint k;\n#endif\n#endif\n");
	put(t, "include/uapi/linux/b.h", "struct b { int __user *p; };\n");
	put(t, "include/uapi/linux/old.h", "#ifdef CONFIG_OLD\nint old;\n#endif\n");
	put(t, "include/uapi/Kbuild", "no-export-headers += linux/hidden.h\n");
	put(t, "include/uapi/linux/hidden.h", "int hidden;\n");
	put(t, "include/uapi/asm-generic/Kbuild", "mandatory-y += ioctl.h\n");
	put(t, "include/uapi/asm-generic/ioctl.h", "int ioctl;\n");
	put(t, "arch/x86/Makefile",
	    "archheaders:\n\t$(Q)$(MAKE) $(build)=arch/x86/entry/syscalls all\n");
	put(t, "arch/x86/entry/syscalls/Makefile",
	    "out := arch/$(SRCARCH)/include/generated/uapi/asm\n"
	    "cmd_hdr = $(CONFIG_SHELL) $(srctree)/scripts/syscallhdr.sh --abis common,64 "
	    "--emit-nr $< $@\n"
	    "$(out)/unistd_64.h: $(src)/syscall_64.tbl FORCE\n"
	    "\t$(call if_changed,hdr)\n"
	    "all: $(out)/unistd_64.h\n");
	put(t, "arch/x86/include/uapi/asm/Kbuild", "generated-y += unistd_64.h\n");
	put(t, "arch/x86/include/uapi/asm/types.h", "int x86_types;\n");
	put(t, "arch/x86/entry/syscalls/syscall_64.tbl",
	    "0\tcommon\tread\tsys_read\n1\t64\twrite\tsys_write\n");
	put(t, "scripts/syscallhdr.sh",
	    "#!/bin/sh\n# never run: [--abis ABIS] [--emit-nr] IN OUT, guard=_UAPI_ASM_ + OUT\n");
	put(t, "scripts/headers_install.sh",
	    "#!/bin/sh\n"
	    "# edits __attribute_const__ and the _UAPI guards, then runs\n"
	    "# unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__\n"
	    "config_leak_ignores=\"\ninclude/uapi/linux/old.h:CONFIG_OLD\n\"\n");
	return t;
}

/* What the report callback was given. */
struct reported {
	struct ud_strlist paths;
	struct ud_diags diags;
};

static void
report_cb(const char *path, const struct ud_diags *d, void *ctx)
{
	struct reported *r = ctx;
	size_t i;

	ud_strlist_add(&r->paths, path);
	for (i = 0; i < d->n; i++)
		ud_diags_add_at(&r->diags, d->v[i].path, d->v[i].line, d->v[i].severity, "%s",
				d->v[i].message);
}

static void
reported_free(struct reported *r)
{
	ud_strlist_free(&r->paths);
	ud_diags_free(&r->diags);
}

/* Plans the tree for x86 and installs it into out. */
static void
install(const char *tree, const char *out, struct ud_install_stats *st, struct reported *r)
{
	struct ud_source src;
	struct ud_hdr_plan plan;
	char *cause = NULL;

	ck_assert_int_eq(ud_source_open_dir(&src, tree, NULL), 0);
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86_64", &plan, &cause), 0);
	ck_assert_int_eq(ud_headers_install(&src, &plan, out, report_cb, r, st, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(st->files, plan.n);
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
}

/* linux/{a,b,old,version}.h asm-generic/ioctl.h asm/{types,unistd_64,ioctl}.h */
#define NFILES 8

START_TEST(test_install)
{
	char *tree = make_tree("install"), *out = ud_xasprintf("%s/../out", tree);
	struct ud_install_stats st;
	struct reported r = {UD_STRLIST_INIT, UD_DIAGS_INIT};

	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.files, NFILES);
	ck_assert_uint_eq(st.written, NFILES);
	ck_assert_uint_eq(st.unchanged, 0);
	ck_assert_uint_eq(st.removed, 0);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(r.paths.n, 0);
	assert_text(out, "include/linux/a.h",
		    "#ifndef _LINUX_A_H\n#define _LINUX_A_H\nstruct a { int x; };\n#endif\n");
	assert_text(out, "include/linux/b.h", "struct b { int *p; };\n");
	assert_text(out, "include/linux/old.h", "#ifdef CONFIG_OLD\nint old;\n#endif\n");
	assert_text(out, "include/asm/ioctl.h", "#include <asm-generic/ioctl.h>\n");
	assert_text(out, "include/asm-generic/ioctl.h", "int ioctl;\n");
	/* generated: version.h from the top Makefile, unistd_64.h as the x86 Makefiles say */
	assert_text(out, "include/linux/version.h",
		    "#define LINUX_VERSION_CODE 393474\n"
		    "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : "
		    "(c)))\n"
		    "#define LINUX_VERSION_MAJOR 6\n"
		    "#define LINUX_VERSION_PATCHLEVEL 1\n"
		    "#define LINUX_VERSION_SUBLEVEL 2\n");
	assert_text(out, "include/asm/unistd_64.h",
		    "#ifndef _ASM_UNISTD_64_H\n#define _ASM_UNISTD_64_H\n\n"
		    "#define __NR_read 0\n#define __NR_write 1\n\n\n"
		    "#endif /* _ASM_UNISTD_64_H */\n");
	ck_assert(!exists(out, "include/linux/hidden.h"));
	ck_assert(exists(out, ".uapid-install"));

	/* again: nothing to do, nothing touched */
	age(out, "include/linux/a.h");
	age(out, "include/asm/ioctl.h");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.written, 0);
	ck_assert_uint_eq(st.unchanged, NFILES);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(stat_of(out, "include/linux/a.h").st_mtim.tv_sec, 1000000000);
	ck_assert_uint_eq(stat_of(out, "include/asm/ioctl.h").st_mtim.tv_sec, 1000000000);
	ck_assert_uint_eq(r.paths.n, 0);
	reported_free(&r);
	free(tree);
	free(out);
}
END_TEST

START_TEST(test_stale)
{
	char *tree = make_tree("stale"), *out = ud_xasprintf("%s/../out", tree);
	struct ud_install_stats st;
	struct reported r = {UD_STRLIST_INIT, UD_DIAGS_INIT};

	install(tree, out, &st, &r);
	put(out, "include/linux/stale.h", "");
	put(out, "include/gone/x.h", "");
	put(out, "include/linux/README", "not a header\n");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.removed, 2);
	ck_assert_uint_eq(st.unchanged, NFILES);
	ck_assert(!exists(out, "include/linux/stale.h"));
	ck_assert(!exists(out, "include/gone/x.h"));
	ck_assert(exists(out, "include/linux/README"));
	ck_assert(exists(out, "include/linux/a.h"));
	/* a header the tree stops exporting is stale too */
	put(tree, "include/uapi/Kbuild", "no-export-headers += linux/hidden.h linux/b.h\n");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.files, NFILES - 1);
	ck_assert_uint_eq(st.removed, 1);
	ck_assert(!exists(out, "include/linux/b.h"));
	ck_assert_uint_eq(r.paths.n, 0);
	reported_free(&r);
	free(tree);
	free(out);
}
END_TEST

START_TEST(test_config_leak)
{
	char *tree = make_tree("leak"), *out = ud_xasprintf("%s/../out", tree);
	struct ud_install_stats st;
	struct reported r = {UD_STRLIST_INIT, UD_DIAGS_INIT};

	put(tree, "include/uapi/linux/leak.h",
	    "struct l {\n#ifdef CONFIG_FOO\n\tint f;\n#endif\n};\n");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.files, NFILES + 1);
	ck_assert_uint_eq(st.failed, 1);
	ck_assert_uint_eq(st.written, NFILES);
	ck_assert(!exists(out, "include/linux/leak.h"));
	ck_assert_uint_eq(r.paths.n, 1);
	ck_assert_str_eq(r.paths.v[0], "include/uapi/linux/leak.h");
	ck_assert_uint_eq(r.diags.n, 1);
	ck_assert_int_eq(r.diags.v[0].severity, UD_SEV_ERROR);
	ck_assert_uint_eq(r.diags.v[0].line, 2);
	ck_assert_ptr_nonnull(strstr(r.diags.v[0].message, "CONFIG_FOO"));
	reported_free(&r);
	/* it stays failed on the next run, and the rest stays unchanged */
	memset(&r, 0, sizeof(r));
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.failed, 1);
	ck_assert_uint_eq(st.unchanged, NFILES);
	ck_assert_uint_eq(r.paths.n, 1);
	reported_free(&r);
	free(tree);
	free(out);
}
END_TEST

START_TEST(test_changed_source)
{
	char *tree = make_tree("changed"), *out = ud_xasprintf("%s/../out", tree);
	struct ud_install_stats st;
	struct reported r = {UD_STRLIST_INIT, UD_DIAGS_INIT};

	install(tree, out, &st, &r);
	age(out, "include/linux/a.h");
	age(out, "include/linux/old.h");
	put(tree, "include/uapi/linux/b.h", "struct b { int __user *p; long q; };\n");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.written, 1);
	ck_assert_uint_eq(st.unchanged, NFILES - 1);
	assert_text(out, "include/linux/b.h", "struct b { int *p; long q; };\n");
	ck_assert_uint_eq(stat_of(out, "include/linux/a.h").st_mtim.tv_sec, 1000000000);
	ck_assert_uint_eq(stat_of(out, "include/linux/old.h").st_mtim.tv_sec, 1000000000);
	/* touched without a change: looked at again, not rewritten */
	age(tree, "include/uapi/linux/a.h");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.written, 0);
	ck_assert_uint_eq(st.unchanged, NFILES);
	ck_assert_uint_eq(stat_of(out, "include/linux/a.h").st_mtim.tv_sec, 1000000000);
	/* an installed header edited by hand is put back */
	put(out, "include/linux/a.h", "edited\n");
	install(tree, out, &st, &r);
	ck_assert_uint_eq(st.written, 1);
	assert_text(out, "include/linux/a.h",
		    "#ifndef _LINUX_A_H\n#define _LINUX_A_H\nstruct a { int x; };\n#endif\n");
	ck_assert_uint_eq(r.paths.n, 0);
	reported_free(&r);
	free(tree);
	free(out);
}
END_TEST

START_TEST(test_bad_outdir)
{
	char *tree = make_tree("badout"), *file = ud_xasprintf("%s/../file", tree);
	char *out = ud_xasprintf("%s/../file/out", tree), *cause = NULL;
	struct ud_source src;
	struct ud_hdr_plan plan;
	struct ud_install_stats st;
	struct reported r = {UD_STRLIST_INIT, UD_DIAGS_INIT};

	put(tree, "../file", "");
	ck_assert_int_eq(ud_source_open_dir(&src, tree, NULL), 0);
	ck_assert_int_eq(ud_headers_plan(&src, NULL, "x86", &plan, &cause), 0);
	ck_assert_int_lt(ud_headers_install(&src, &plan, out, report_cb, &r, &st, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, "Not a directory"));
	free(cause);
	ck_assert_uint_eq(r.paths.n, 0);
	ud_headers_plan_free(&plan);
	ud_source_close(&src);
	reported_free(&r);
	free(tree);
	free(file);
	free(out);
}
END_TEST

/* What ud_headers_installed_each and _take handed: paths and texts in order. */
struct handed {
	struct ud_strlist paths, texts;
	bool nul; /* every text ended at len */
};

static int
each_cb(const char *path, const char *text, size_t len, void *ctx)
{
	struct handed *h = ctx;

	ud_strlist_add(&h->paths, path);
	ud_strlist_addn(&h->texts, text, len);
	h->nul = h->nul && text[len] == '\0';
	return 0;
}

/* Owns text: freeing it is the test (valgrind and ASan see a leak or a double free). */
static int
take_cb(const char *path, char *text, size_t len, void *ctx)
{
	int rc = each_cb(path, text, len, ctx);

	free(text);
	return rc;
}

static int
stop_cb(const char *path, char *text, size_t len, void *ctx)
{
	(void)path;
	(void)len;
	(void)ctx;
	free(text);
	return 7;
}

START_TEST(test_installed_take)
{
	char *d = test_dir("installed"), *cause = NULL;
	struct handed e = {UD_STRLIST_INIT, UD_STRLIST_INIT, true};
	struct handed t = {UD_STRLIST_INIT, UD_STRLIST_INIT, true};
	size_t i;

	put(d, "linux/b.h", "int b;\n");
	put(d, "linux/a.h", "int a;\n");
	put(d, "empty.h", "");
	put(d, "notes.txt", "not a header\n");
	ck_assert_int_eq(ud_headers_installed_each(d, each_cb, &e, &cause), 0);
	ck_assert_int_eq(ud_headers_installed_take(d, take_cb, &t, &cause), 0);
	ck_assert_ptr_null(cause);
	/* the same headers, texts and order either way */
	ck_assert_uint_eq(e.paths.n, 3);
	ck_assert_uint_eq(t.paths.n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_str_eq(e.paths.v[i], t.paths.v[i]);
		ck_assert_str_eq(e.texts.v[i], t.texts.v[i]);
	}
	ck_assert_str_eq(t.paths.v[0], "empty.h");
	ck_assert_str_eq(t.texts.v[0], "");
	ck_assert_str_eq(t.paths.v[1], "linux/a.h");
	ck_assert_str_eq(t.texts.v[1], "int a;\n");
	ck_assert(e.nul && t.nul);
	/* fn's non-zero stops the walk and is returned */
	ck_assert_int_eq(ud_headers_installed_take(d, stop_cb, NULL, &cause), 7);
	ud_strlist_free(&e.paths);
	ud_strlist_free(&e.texts);
	ud_strlist_free(&t.paths);
	ud_strlist_free(&t.texts);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("headers_install");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_install);
	tcase_add_test(tc, test_stale);
	tcase_add_test(tc, test_config_leak);
	tcase_add_test(tc, test_changed_source);
	tcase_add_test(tc, test_bad_outdir);
	tcase_add_test(tc, test_installed_take);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "hinstall");
}
