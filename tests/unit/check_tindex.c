// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tree index tests on a small real tree: what a build finds, and what an
 * update reports for each kind of change.
 */
#include "testutil.h"
#include "uapid/io/tindex.h"

/* A tree being indexed: its directory, source, index, and what updates report. */
struct fx {
	char *root;
	struct ud_source src;
	struct ud_tindex *idx;
	struct ud_diags problems;
	struct ud_strlist changed;
};

static const char linux_kbuild[] =
	"header-y += a.h\n"
	"header-y += b.h\n"
	"header-y += sub/\n"
	"ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
	"header-y += kvm.h\n"
	"endif\n"
	"header-y += missing.h\n";

/*
 * The tree, every file below include/ and arch/NAME/include/ indexed:
 *   include/linux/Kbuild (above): a.h b.h c.h kvm.h; sub/Kbuild: s.h
 *   include/uapi/linux/Kbuild: u.h (a uapi/ list: not an export list)
 *   include/asm-generic/Kbuild.asm: ioctl.h types.h (shared)
 *   arch/x86/include/asm/Kbuild: the shared list + boot.h; boot.h ioctl.h types.h other.h
 *   arch/arm/include/asm/Kbuild: the shared list; types.h
 *   Makefile, arch/x86/Makefile (not indexed)
 */
static void
setup(struct fx *x, const char *name)
{
	memset(x, 0, sizeof(*x));
	x->root = test_dir(name);
	put(x->root, "Makefile", "VERSION = 3\n");
	put(x->root, "arch/x86/Makefile", "");
	put(x->root, "include/linux/Kbuild", linux_kbuild);
	put(x->root, "include/linux/a.h", "");
	put(x->root, "include/linux/b.h", "");
	put(x->root, "include/linux/c.h", "");
	put(x->root, "include/linux/kvm.h", "");
	put(x->root, "include/linux/sub/Kbuild", "header-y += s.h\n");
	put(x->root, "include/linux/sub/s.h", "");
	put(x->root, "include/uapi/linux/Kbuild", "header-y += u.h\n");
	put(x->root, "include/uapi/linux/u.h", "");
	put(x->root, "include/asm-generic/Kbuild.asm",
	    "header-y += ioctl.h\nheader-y += types.h\n");
	put(x->root, "include/asm-generic/ioctl.h", "");
	put(x->root, "arch/x86/include/asm/Kbuild",
	    "include include/asm-generic/Kbuild.asm\n\nheader-y += boot.h\n");
	put(x->root, "arch/x86/include/asm/boot.h", "");
	put(x->root, "arch/x86/include/asm/ioctl.h", "");
	put(x->root, "arch/x86/include/asm/types.h", "");
	put(x->root, "arch/x86/include/asm/other.h", "");
	put(x->root, "arch/arm/include/asm/Kbuild", "include include/asm-generic/Kbuild.asm\n");
	put(x->root, "arch/arm/include/asm/types.h", "");
	ck_assert_int_eq(ud_source_open_dir(&x->src, x->root, NULL), 0);
}

static void
build(struct fx *x)
{
	struct ud_tindex *whole = NULL;

	ck_assert_int_eq(ud_tindex_build(&x->idx, &x->src, &x->problems), 0);
	ck_assert_uint_eq(x->problems.n, 0);
	/* a tree that indexes whole: the same with the one-cause convention (cause may be NULL) */
	ck_assert_int_eq(ud_tindex_build_whole(&whole, &x->src, NULL), 0);
	ck_assert_ptr_nonnull(whole);
	ud_tindex_free(whole);
}

static void
teardown(struct fx *x)
{
	ud_tindex_free(x->idx);
	ud_source_close(&x->src);
	ud_diags_free(&x->problems);
	ud_strlist_free(&x->changed);
	free(x->root);
}

/* Updates for rel and checks what changed (sorted), then forgets it. */
static void
update(struct fx *x, const char *rel, const char *want)
{
	ck_assert_int_eq(ud_tindex_update(x->idx, rel, &x->changed, &x->problems), 0);
	ck_assert_uint_eq(x->problems.n, 0);
	ud_strlist_sort(&x->changed);
	assert_list(&x->changed, want);
	ud_strlist_free(&x->changed);
}

static void
assert_exported_under(struct fx *x, const char *dir, const char *want)
{
	struct ud_strlist l = UD_STRLIST_INIT;

	ud_tindex_exported_under(x->idx, dir, &l);
	assert_list(&l, want);
	ud_strlist_free(&l);
}

static const char all_exported[] =
	"arch/arm/include/asm/types.h arch/x86/include/asm/boot.h arch/x86/include/asm/ioctl.h "
	"arch/x86/include/asm/types.h include/linux/a.h include/linux/b.h include/linux/kvm.h "
	"include/linux/sub/s.h";

static bool
has_problem(const struct ud_diags *d, const char *path, const char *text)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == UD_SEV_ERROR && d->v[i].path != NULL &&
		    strcmp(d->v[i].path, path) == 0 && strstr(d->v[i].message, text) != NULL)
			return true;
	return false;
}

START_TEST(test_build)
{
	struct fx x;

	setup(&x, "build");
	build(&x);
	ck_assert(ud_tindex_has(x.idx, "include/linux/a.h"));
	ck_assert(ud_tindex_has(x.idx, "include/linux/Kbuild"));
	ck_assert(ud_tindex_has(x.idx, "include/asm-generic/Kbuild.asm"));
	ck_assert(ud_tindex_has(x.idx, "include/uapi/linux/u.h"));
	ck_assert(ud_tindex_has(x.idx, "arch/x86/include/asm/other.h"));
	ck_assert(!ud_tindex_has(x.idx, "Makefile"));
	ck_assert(!ud_tindex_has(x.idx, "arch/x86/Makefile"));
	ck_assert(!ud_tindex_has(x.idx, "include/linux/missing.h"));
	ck_assert(!ud_tindex_has(x.idx, "include/linux"));

	ck_assert(ud_tindex_exported(x.idx, "include/linux/a.h"));
	ck_assert(ud_tindex_exported(x.idx, "include/linux/kvm.h"));	  /* in a stanza */
	ck_assert(!ud_tindex_exported(x.idx, "include/linux/c.h"));	  /* not listed */
	ck_assert(!ud_tindex_exported(x.idx, "include/linux/missing.h")); /* not there */
	ck_assert(ud_tindex_exported(x.idx, "include/linux/sub/s.h"));
	ck_assert(!ud_tindex_exported(x.idx, "include/uapi/linux/u.h")); /* uapi/ list */
	ck_assert(ud_tindex_exported(x.idx, "arch/x86/include/asm/boot.h"));
	ck_assert(ud_tindex_exported(x.idx, "arch/x86/include/asm/types.h")); /* shared list */
	ck_assert(!ud_tindex_exported(x.idx, "arch/x86/include/asm/other.h"));
	ck_assert(!ud_tindex_exported(x.idx, "arch/arm/include/asm/ioctl.h"));
	ck_assert(!ud_tindex_exported(x.idx, "include/asm-generic/ioctl.h")); /* no Kbuild */
	ck_assert(!ud_tindex_exported(x.idx, "a.h"));

	assert_exported_under(&x, "", all_exported);
	assert_exported_under(&x, "include/linux",
			      "include/linux/a.h include/linux/b.h include/linux/kvm.h "
			      "include/linux/sub/s.h");
	assert_exported_under(&x, "include/linux/sub", "include/linux/sub/s.h");
	assert_exported_under(&x, "include/lin", ""); /* whole components only */
	assert_exported_under(&x, "include/uapi", "");
	teardown(&x);
}
END_TEST

START_TEST(test_queries)
{
	struct fx x;
	struct ud_strlist l = UD_STRLIST_INIT;
	const struct ud_kbuild *kb;

	setup(&x, "queries");
	build(&x);
	ud_strlist_add(&l, "first");
	ud_tindex_headers_under(x.idx, "include/linux", &l); /* appended */
	assert_list(&l, "first include/linux/a.h include/linux/b.h include/linux/c.h "
			"include/linux/kvm.h include/linux/sub/s.h");
	ud_strlist_free(&l);
	ud_tindex_headers_under(x.idx, "include/uapi", &l);
	assert_list(&l, "include/uapi/linux/u.h");
	ud_strlist_free(&l);
	ud_tindex_headers_under(x.idx, "arch/arm", &l);
	assert_list(&l, "arch/arm/include/asm/types.h");
	ud_strlist_free(&l);
	ud_tindex_headers_under(x.idx, "include/linux/a.h", &l); /* a file is no directory */
	ud_tindex_headers_under(x.idx, "scripts", &l);
	ck_assert_uint_eq(l.n, 0);

	kb = ud_tindex_kbuild(x.idx, "include/linux");
	ck_assert_ptr_nonnull(kb);
	ck_assert_uint_eq(kb->n, 4); /* "sub/" is a directory, not an entry */
	ck_assert_str_eq(kb->v[0].name, "a.h");
	ck_assert_str_eq(kb->v[2].name, "kvm.h");
	ck_assert_uint_eq(kb->v[2].cond_line, 4);
	ck_assert_uint_eq(kb->v[3].line, 7);
	ck_assert(!kb->v[0].included);
	kb = ud_tindex_kbuild(x.idx, "arch/x86/include/asm");
	ck_assert_ptr_nonnull(kb);
	ck_assert_uint_eq(kb->n, 3);
	ck_assert_int_ge(ud_kbuild_find(kb, "boot.h"), 0);
	ck_assert(!kb->v[ud_kbuild_find(kb, "boot.h")].included);
	ck_assert(kb->v[ud_kbuild_find(kb, "ioctl.h")].included);
	ck_assert(kb->v[ud_kbuild_find(kb, "types.h")].included);
	ck_assert_uint_eq(kb->nincludes, 1);
	ck_assert_str_eq(kb->includes[0], "include/asm-generic/Kbuild.asm");
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include/uapi/linux"));
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include/asm-generic"));
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include"));

	ck_assert(ud_tindex_is_kbuild(x.idx, "include/linux/Kbuild"));
	ck_assert(ud_tindex_is_kbuild(x.idx, "include/asm-generic/Kbuild.asm"));
	ck_assert(ud_tindex_is_kbuild(x.idx, "include/new/Kbuild")); /* by its name */
	ck_assert(!ud_tindex_is_kbuild(x.idx, "include/linux/a.h"));
	ck_assert(!ud_tindex_is_kbuild(x.idx, "include/asm-generic/Kbuild.other"));

	ck_assert(ud_path_in_uapi_dir("include/uapi"));
	ck_assert(ud_path_in_uapi_dir("include/uapi/linux"));
	ck_assert(ud_path_in_uapi_dir("arch/x86/include/uapi/asm"));
	ck_assert(ud_path_in_uapi_dir("uapi"));
	ck_assert(ud_path_in_uapi_dir("uapi/x"));
	ck_assert(!ud_path_in_uapi_dir("include/linux"));
	ck_assert(!ud_path_in_uapi_dir("include/uapix"));
	ck_assert(!ud_path_in_uapi_dir("include/notuapi"));
	ck_assert(!ud_path_in_uapi_dir(""));
	teardown(&x);
}
END_TEST

/*
 * Which files take part: *.h files, and any file an export list names
 * (upstream's sv_addr.agh); not symlinks, not files out of scope.  The
 * set the batch commands, the git writer and the daemon all work on.
 */
START_TEST(test_takes_part)
{
	struct fx x;
	struct ud_strlist l = UD_STRLIST_INIT;

	setup(&x, "takes-part");
	put(x.root, "arch/x86/include/asm/Kbuild",
	    "include include/asm-generic/Kbuild.asm\n\nheader-y += boot.h\nheader-y += sv_addr.agh\n");
	put(x.root, "arch/x86/include/asm/sv_addr.agh", "#define SV 1\n");
	put(x.root, "arch/x86/include/asm/notes.txt", "");
	put_link(x.root, "arch/x86/include/asm/link.h", "boot.h");
	put(x.root, "include/uapi/linux/v.agh", ""); /* uapi/ lists export nothing */
	build(&x);
	ck_assert(ud_tindex_takes_part(x.idx, "include/linux/a.h"));
	ck_assert(ud_tindex_takes_part(x.idx, "include/linux/c.h"));	  /* unexported */
	ck_assert(ud_tindex_takes_part(x.idx, "include/uapi/linux/u.h")); /* uapi */
	ck_assert(ud_tindex_takes_part(x.idx, "arch/x86/include/asm/sv_addr.agh"));
	ck_assert(ud_tindex_exported(x.idx, "arch/x86/include/asm/sv_addr.agh"));
	ck_assert(!ud_tindex_takes_part(x.idx, "arch/x86/include/asm/notes.txt"));
	ck_assert(!ud_tindex_takes_part(x.idx, "arch/x86/include/asm/Kbuild"));
	ck_assert(!ud_tindex_takes_part(x.idx, "arch/x86/include/asm/link.h"));
	ck_assert(!ud_tindex_takes_part(x.idx, "include/uapi/linux/v.agh"));
	ck_assert(!ud_tindex_takes_part(x.idx, "include/linux/missing.h"));
	ck_assert(!ud_tindex_takes_part(x.idx, "Makefile"));
	ud_tindex_headers_under(x.idx, "arch/x86", &l);
	assert_list(&l, "arch/x86/include/asm/boot.h arch/x86/include/asm/ioctl.h "
			"arch/x86/include/asm/other.h arch/x86/include/asm/sv_addr.agh "
			"arch/x86/include/asm/types.h");
	ud_strlist_free(&l);
	/* the installer's `find -name '*.h'` */
	ud_tindex_files_under(x.idx, "arch/x86", ".h", &l);
	assert_list(&l, "arch/x86/include/asm/boot.h arch/x86/include/asm/ioctl.h "
			"arch/x86/include/asm/other.h arch/x86/include/asm/types.h");
	ud_strlist_free(&l);
	ud_tindex_files_under(x.idx, "include/uapi", ".agh", &l);
	assert_list(&l, "include/uapi/linux/v.agh");
	ud_strlist_free(&l);
	/* its entry goes: no header any more; it comes back: one again */
	put(x.root, "arch/x86/include/asm/Kbuild",
	    "include include/asm-generic/Kbuild.asm\n\nheader-y += boot.h\n");
	update(&x, "arch/x86/include/asm/Kbuild", "arch/x86/include/asm/sv_addr.agh");
	ck_assert(!ud_tindex_takes_part(x.idx, "arch/x86/include/asm/sv_addr.agh"));
	ck_assert(ud_tindex_has(x.idx, "arch/x86/include/asm/sv_addr.agh"));
	put(x.root, "arch/x86/include/asm/Kbuild",
	    "include include/asm-generic/Kbuild.asm\n\nheader-y += sv_addr.agh\nheader-y += boot.h\n");
	update(&x, "arch/x86/include/asm/Kbuild", "arch/x86/include/asm/sv_addr.agh");
	ck_assert(ud_tindex_takes_part(x.idx, "arch/x86/include/asm/sv_addr.agh"));
	teardown(&x);
}
END_TEST

START_TEST(test_scope)
{
	ck_assert_int_eq(ud_tindex_scope("include"), UD_TINDEX_INSIDE);
	ck_assert_int_eq(ud_tindex_scope("include/linux/sub"), UD_TINDEX_INSIDE);
	ck_assert_int_eq(ud_tindex_scope("arch/x86/include"), UD_TINDEX_INSIDE);
	ck_assert_int_eq(ud_tindex_scope("arch/x86/include/uapi/asm"), UD_TINDEX_INSIDE);
	ck_assert_int_eq(ud_tindex_scope(""), UD_TINDEX_ABOVE);
	ck_assert_int_eq(ud_tindex_scope("arch"), UD_TINDEX_ABOVE);
	ck_assert_int_eq(ud_tindex_scope("arch/x86"), UD_TINDEX_ABOVE);
	ck_assert_int_eq(ud_tindex_scope("arch/x86/kernel"), UD_TINDEX_OUTSIDE);
	ck_assert_int_eq(ud_tindex_scope("arch/x86/includes"), UD_TINDEX_OUTSIDE);
	ck_assert_int_eq(ud_tindex_scope("includes"), UD_TINDEX_OUTSIDE);
	ck_assert_int_eq(ud_tindex_scope("scripts"), UD_TINDEX_OUTSIDE);
	ck_assert_int_eq(ud_tindex_scope(".git"), UD_TINDEX_OUTSIDE);
}
END_TEST

START_TEST(test_update_headers)
{
	struct fx x;

	setup(&x, "headers");
	build(&x);
	/* created: listed, so now exported */
	put(x.root, "include/linux/missing.h", "");
	update(&x, "include/linux/missing.h", "include/linux/missing.h");
	ck_assert(ud_tindex_exported(x.idx, "include/linux/missing.h"));
	/* created, not listed: indexed, export state unchanged */
	put(x.root, "include/linux/d.h", "");
	update(&x, "include/linux/d.h", "");
	ck_assert(ud_tindex_has(x.idx, "include/linux/d.h"));
	ck_assert(!ud_tindex_exported(x.idx, "include/linux/d.h"));
	/* changed content: nothing */
	put(x.root, "include/linux/a.h", "int a;\n");
	update(&x, "include/linux/a.h", "");
	/* deleted */
	del(x.root, "include/linux/b.h");
	update(&x, "include/linux/b.h", "include/linux/b.h");
	ck_assert(!ud_tindex_has(x.idx, "include/linux/b.h"));
	ck_assert(!ud_tindex_exported(x.idx, "include/linux/b.h"));
	del(x.root, "include/linux/c.h");
	update(&x, "include/linux/c.h", "");
	ck_assert(!ud_tindex_has(x.idx, "include/linux/c.h"));
	/* deleted already, or never there */
	update(&x, "include/linux/b.h", "");
	update(&x, "include/linux/none.h", "");
	/* out of scope */
	put(x.root, "Makefile", "VERSION = 4\n");
	update(&x, "Makefile", "");
	put(x.root, "scripts/x.h", "");
	update(&x, "scripts/x.h", "");
	ck_assert(!ud_tindex_has(x.idx, "scripts/x.h"));
	/* a uapi header */
	del(x.root, "include/uapi/linux/u.h");
	update(&x, "include/uapi/linux/u.h", "");
	ck_assert(!ud_tindex_has(x.idx, "include/uapi/linux/u.h"));
	teardown(&x);
}
END_TEST

START_TEST(test_update_kbuild)
{
	struct fx x;

	setup(&x, "kbuild");
	build(&x);
	/* b.h dropped; c.h (there) and nothere.h (not there) added: two changes */
	put(x.root, "include/linux/Kbuild",
	    "header-y += a.h\nheader-y += c.h nothere.h\nheader-y += kvm.h missing.h\n");
	update(&x, "include/linux/Kbuild", "include/linux/b.h include/linux/c.h");
	ck_assert(ud_tindex_exported(x.idx, "include/linux/c.h"));
	ck_assert(!ud_tindex_exported(x.idx, "include/linux/b.h"));
	ck_assert_uint_eq(ud_tindex_kbuild(x.idx, "include/linux")->n, 5);
	/* the same text again: nothing */
	update(&x, "include/linux/Kbuild", "");
	/* the list removed: nothing of the directory is exported */
	del(x.root, "include/linux/Kbuild");
	update(&x, "include/linux/Kbuild",
	       "include/linux/a.h include/linux/c.h include/linux/kvm.h");
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include/linux"));
	/* and back */
	put(x.root, "include/linux/Kbuild", linux_kbuild);
	update(&x, "include/linux/Kbuild",
	       "include/linux/a.h include/linux/b.h include/linux/kvm.h");
	/* a list in a uapi/ directory is no export list */
	put(x.root, "include/uapi/linux/Kbuild", "header-y += u.h v.h\n");
	put(x.root, "include/uapi/linux/v.h", "");
	update(&x, "include/uapi/linux/Kbuild", "");
	update(&x, "include/uapi/linux/v.h", "");
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include/uapi/linux"));
	teardown(&x);
}
END_TEST

START_TEST(test_update_shared_list)
{
	struct fx x;

	setup(&x, "shared");
	build(&x);
	/* types.h dropped, other.h added: every includer's changes */
	put(x.root, "include/asm-generic/Kbuild.asm", "header-y += ioctl.h\nheader-y += other.h\n");
	update(&x, "include/asm-generic/Kbuild.asm",
	       "arch/arm/include/asm/types.h arch/x86/include/asm/other.h "
	       "arch/x86/include/asm/types.h");
	ck_assert(ud_tindex_exported(x.idx, "arch/x86/include/asm/other.h"));
	ck_assert(!ud_tindex_exported(x.idx, "arch/arm/include/asm/types.h"));
	ck_assert_int_lt(ud_kbuild_find(ud_tindex_kbuild(x.idx, "arch/x86/include/asm"), "types.h"),
			 0);
	/* an includer that stops including it */
	put(x.root, "arch/x86/include/asm/Kbuild", "header-y += boot.h\n");
	update(&x, "arch/x86/include/asm/Kbuild",
	       "arch/x86/include/asm/ioctl.h arch/x86/include/asm/other.h");
	ck_assert_uint_eq(ud_tindex_kbuild(x.idx, "arch/x86/include/asm")->nincludes, 0);
	ck_assert(ud_tindex_is_kbuild(x.idx, "include/asm-generic/Kbuild.asm")); /* arm's */
	put(x.root, "include/asm-generic/Kbuild.asm", "header-y += types.h\n");
	update(&x, "include/asm-generic/Kbuild.asm", "arch/arm/include/asm/types.h");
	/* the shared list deleted: its includer cannot read it any more */
	del(x.root, "include/asm-generic/Kbuild.asm");
	ck_assert_int_lt(
		ud_tindex_update(x.idx, "include/asm-generic/Kbuild.asm", &x.changed, &x.problems),
		0);
	ck_assert(has_problem(&x.problems, "arch/arm/include/asm/Kbuild",
			      "include/asm-generic/Kbuild.asm"));
	assert_list(&x.changed, "arch/arm/include/asm/types.h");
	teardown(&x);
}
END_TEST

START_TEST(test_update_dirs)
{
	struct fx x;

	setup(&x, "dirs");
	build(&x);
	/* a whole new directory with its own list */
	put(x.root, "include/newdir/Kbuild", "header-y += n.h\n");
	put(x.root, "include/newdir/n.h", "");
	put(x.root, "include/newdir/m.h", "");
	update(&x, "include/newdir", "include/newdir/n.h");
	ck_assert_ptr_nonnull(ud_tindex_kbuild(x.idx, "include/newdir"));
	ck_assert(ud_tindex_has(x.idx, "include/newdir/m.h"));
	/* a new architecture using the shared list */
	put(x.root, "arch/mips/include/asm/Kbuild", "include include/asm-generic/Kbuild.asm\n");
	put(x.root, "arch/mips/include/asm/ioctl.h", "");
	put(x.root, "arch/mips/Makefile", "");
	update(&x, "arch/mips", "arch/mips/include/asm/ioctl.h");
	ck_assert(!ud_tindex_has(x.idx, "arch/mips/Makefile"));
	/* ... whose edits of the shared list now count for it too */
	put(x.root, "include/asm-generic/Kbuild.asm", "header-y += types.h\n");
	update(&x, "include/asm-generic/Kbuild.asm",
	       "arch/mips/include/asm/ioctl.h arch/x86/include/asm/ioctl.h");
	/* a directory removed */
	del(x.root, "include/linux/sub");
	update(&x, "include/linux/sub", "include/linux/sub/s.h");
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "include/linux/sub"));
	ck_assert(!ud_tindex_has(x.idx, "include/linux/sub/Kbuild"));
	del(x.root, "arch/x86");
	update(&x, "arch/x86", "arch/x86/include/asm/boot.h arch/x86/include/asm/types.h");
	ck_assert_ptr_null(ud_tindex_kbuild(x.idx, "arch/x86/include/asm"));
	/* many changes at once, then the whole tree */
	del(x.root, "include/linux/a.h");
	put(x.root, "include/linux/missing.h", "");
	update(&x, "", "include/linux/a.h include/linux/missing.h");
	assert_exported_under(
		&x, "",
		"arch/arm/include/asm/types.h include/linux/b.h include/linux/kvm.h include/linux/missing.h "
		"include/newdir/n.h");
	teardown(&x);
}
END_TEST

START_TEST(test_unreadable_include)
{
	struct fx x;

	setup(&x, "unreadable");
	put(x.root, "arch/arm/include/asm/Kbuild", "include include/asm-generic/Kbuild.missing\n");
	ck_assert_int_lt(ud_tindex_build(&x.idx, &x.src, &x.problems), 0);
	ck_assert_uint_eq(x.problems.n, 1);
	ck_assert_msg(has_problem(&x.problems, "arch/arm/include/asm/Kbuild",
				  "include/asm-generic/Kbuild.missing"),
		      "%s", x.problems.v[0].message);
	/* whole or none: no index, and the first problem as the cause */
	{
		struct ud_tindex *whole = NULL;
		char *cause = NULL;
		char *want = ud_xasprintf("%s: %s", x.src.label, x.problems.v[0].message);

		ck_assert_int_lt(ud_tindex_build_whole(&whole, &x.src, &cause), 0);
		ck_assert_ptr_null(whole);
		ck_assert_str_eq(cause, want);
		free(cause);
		free(want);
	}
	ud_diags_free(&x.problems);
	/* the rest is indexed */
	assert_exported_under(&x, "include",
			      "include/linux/a.h include/linux/b.h "
			      "include/linux/kvm.h include/linux/sub/s.h");
	/* an update that meets it again */
	put(x.root, "arch/x86/include/asm/Kbuild", "include include/asm-generic/Kbuild.none\n");
	ck_assert_int_lt(
		ud_tindex_update(x.idx, "arch/x86/include/asm/Kbuild", &x.changed, &x.problems), 0);
	ck_assert(has_problem(&x.problems, "arch/x86/include/asm/Kbuild",
			      "include/asm-generic/Kbuild.none"));
	ud_diags_free(&x.problems);
	ud_strlist_sort(&x.changed);
	assert_list(&x.changed, "arch/x86/include/asm/boot.h arch/x86/include/asm/ioctl.h "
				"arch/x86/include/asm/types.h");
	ud_strlist_free(&x.changed);
	/* the missing list arrives: its includer is read again */
	put(x.root, "include/asm-generic/Kbuild.none", "header-y += boot.h\n");
	ck_assert(ud_tindex_is_kbuild(x.idx, "include/asm-generic/Kbuild.none"));
	update(&x, "include/asm-generic/Kbuild.none", "arch/x86/include/asm/boot.h");
	teardown(&x);
}
END_TEST

/* A list that includes itself, or includes in a ring, stops with a problem. */
START_TEST(test_include_loop)
{
	struct fx x;
	struct ud_strlist l = UD_STRLIST_INIT;

	setup(&x, "loop");
	put(x.root, "include/asm-generic/Kbuild.asm",
	    "include include/asm-generic/Kbuild.asm\nheader-y += types.h\n");
	ck_assert_int_lt(ud_tindex_build(&x.idx, &x.src, &x.problems), 0);
	ck_assert(has_problem(&x.problems, "include/asm-generic/Kbuild.asm", "nest deeper"));
	/* each entry once, however deep the ring went */
	ud_tindex_exported_under(x.idx, "arch/arm", &l);
	assert_list(&l, "arch/arm/include/asm/types.h");
	ud_strlist_free(&l);
	teardown(&x);
}
END_TEST

START_TEST(test_kbuild_load)
{
	static const char text[] = "include include/asm-generic/Kbuild.asm\nheader-y += own.h\n";
	struct fx x;
	struct ud_kbuild kb = UD_KBUILD_INIT;
	struct ud_strlist inc = UD_STRLIST_INIT;

	setup(&x, "load");
	ck_assert_int_eq(
		ud_kbuild_load(&x.src, "LABEL", text, sizeof(text) - 1, &kb, &inc, &x.problems), 0);
	ck_assert_uint_eq(kb.n, 3);
	ck_assert_str_eq(kb.v[0].name, "own.h");
	ck_assert(!kb.v[0].included);
	ck_assert_str_eq(kb.v[1].name, "ioctl.h");
	ck_assert(kb.v[1].included);
	ck_assert(kb.v[2].included);
	assert_list(&inc, "include/asm-generic/Kbuild.asm");
	ud_kbuild_free(&kb);
	ud_strlist_free(&inc);
	ck_assert_int_lt(
		ud_kbuild_load(&x.src, "LABEL", "include nowhere\n", 16, &kb, NULL, &x.problems),
		0);
	ck_assert(has_problem(&x.problems, "LABEL", "nowhere"));
	ud_kbuild_free(&kb);
	teardown(&x);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tindex");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_build);
	tcase_add_test(tc, test_queries);
	tcase_add_test(tc, test_takes_part);
	tcase_add_test(tc, test_scope);
	tcase_add_test(tc, test_update_headers);
	tcase_add_test(tc, test_update_kbuild);
	tcase_add_test(tc, test_update_shared_list);
	tcase_add_test(tc, test_update_dirs);
	tcase_add_test(tc, test_unreadable_include);
	tcase_add_test(tc, test_include_loop);
	tcase_add_test(tc, test_kbuild_load);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "tindex");
}
