// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-header split tests: compute from a directory source or from text,
 * apply through a directory sink (uapi first, taken back on failure), and
 * the export-list edits of a directory.
 */
#include "testutil.h"
#include "uapid/io/hsplit.h"

/* A header with shared content and two __KERNEL__ groups. */
static const char foo_h[] = "/*\n"
			    " * Foo.\n"
			    " */\n"
			    "#ifndef _LINUX_FOO_H\n"
			    "#define _LINUX_FOO_H\n"
			    "\n"
			    "struct foo { int a; };\n"
			    "\n"
			    "#ifdef __KERNEL__\n"
			    "int first;\n"
			    "#endif\n"
			    "#ifdef __KERNEL__\n"
			    "int second;\n"
			    "#endif\n"
			    "\n"
			    "#endif /* _LINUX_FOO_H */\n";

/* A header with nothing kernel-only: it moves whole. */
static const char plain_h[] = "#ifndef _LINUX_PLAIN_H\n"
			      "#define _LINUX_PLAIN_H\n"
			      "struct plain { int p; };\n"
			      "#endif\n";

static const char linux_kbuild[] =
	"header-y += a.h\n"
	"header-y += foo.h\n"
	"ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
	"header-y += kvm.h\n"
	"endif\n"
	"header-y += z.h\n";

/*
 * Compares a buffer with text by its length (ud_kbuild_remove can leave
 * bytes after the end of a shortened text).
 */
static void
assert_buf(const struct ud_buf *b, const char *want)
{
	ck_assert_msg(b->len == strlen(want) && memcmp(ud_buf_str(b), want, b->len) == 0,
		      "got (%zu bytes):\n%.*s\nwant:\n%s", b->len, (int)b->len, ud_buf_str(b),
		      want);
}

static void
assert_contains(const char *text, const char *part)
{
	ck_assert_msg(strstr(text, part) != NULL, "'%s' not in:\n%s", part, text);
}

/*
 * SCRATCH/name (malloc'd): a tree with include/linux/{foo,plain}.h, a
 * symlink header, the export lists, and a source on it.
 */
static char *
make_tree(const char *name, struct ud_source *src)
{
	char *d = test_dir(name);

	put(d, "include/linux/foo.h", foo_h);
	put(d, "include/linux/plain.h", plain_h);
	put(d, "include/linux/Kbuild", linux_kbuild);
	put(d, "include/asm-generic/Kbuild.asm", "header-y += ioctl.h\n");
	put(d, "include/uapi/asm-generic/Kbuild.asm", "header-y += poll.h\n");
	put(d, "arch/x86/include/asm/Kbuild",
	    "include include/asm-generic/Kbuild.asm\nheader-y += boot.h\n");
	put_link(d, "include/linux/link.h", "foo.h");
	ck_assert_int_eq(ud_source_open_dir(src, d, NULL), 0);
	return d;
}

START_TEST(test_compute)
{
	struct ud_source src;
	char *d = make_tree("compute", &src);
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_hsplit h;

	ud_markers_add(&set, "include/linux/foo.h", UD_MARK_RETAIN, "#ifdef __KERNEL__", 2, NULL);
	ud_markers_add(&set, "include/linux/other.h", UD_MARK_SKIP, NULL, 1, NULL);
	ud_markers_add(&set, "include/linux/foo.h", UD_MARK_RETAIN, "#ifdef __KERNEL__", 3,
		       "stale");
	ud_hsplit_compute(&src, "include/linux/foo.h", &set, &h);
	ck_assert(!h.unreadable);
	ck_assert_str_eq(h.path, "include/linux/foo.h");
	ck_assert_str_eq(h.twin, "include/uapi/linux/foo.h");
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_SPLIT);
	ck_assert(ud_hsplit_moves(&h));
	ck_assert_str_eq(ud_buf_str(&h.input), foo_h);
	ck_assert_uint_gt(h.res.kernel.len, 0);
	ck_assert_uint_gt(h.res.uapi.len, 0);
	assert_contains(ud_buf_str(&h.res.kernel), "#include <uapi/linux/foo.h>\n");
	assert_contains(ud_buf_str(&h.res.kernel), "int first;\n");
	ck_assert_ptr_null(strstr(ud_buf_str(&h.res.kernel), "struct foo"));
	assert_contains(ud_buf_str(&h.res.uapi), "#define _UAPI_LINUX_FOO_H\n");
	assert_contains(ud_buf_str(&h.res.uapi), "struct foo { int a; };\n");
	/* the retained second group stays whole in the uapi header */
	assert_contains(ud_buf_str(&h.res.uapi), "#ifdef __KERNEL__\nint second;\n#endif\n");
	ck_assert_ptr_null(strstr(ud_buf_str(&h.res.uapi), "int first;"));
	/* this header's markers only, with what each selected */
	ck_assert_uint_eq(h.nmarkers, 2);
	ck_assert_ptr_eq(h.markers[0], &set.v[0]);
	ck_assert_ptr_eq(h.markers[1], &set.v[2]);
	ck_assert_uint_eq(h.res.model.nmarkers, 2);
	ck_assert_uint_ge(h.res.model.marker_hits[0], 1);
	ck_assert_uint_eq(h.res.model.marker_hits[1], 0); /* stale */
	ck_assert_uint_eq(h.res.kernel_groups, 1);
	ck_assert_uint_eq(h.res.retained_groups, 1);
	ud_hsplit_free(&h);
	ud_hsplit_free(&h); /* twice is fine */

	/* no markers: both groups split */
	ud_hsplit_compute(&src, "include/linux/foo.h", NULL, &h);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_SPLIT);
	ck_assert_uint_eq(h.nmarkers, 0);
	ck_assert_uint_eq(h.res.kernel_groups, 2);
	assert_contains(ud_buf_str(&h.res.kernel), "int second;\n");
	ud_hsplit_free(&h);

	ud_hsplit_compute(&src, "include/linux/plain.h", &set, &h);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_MOVED);
	ck_assert(ud_hsplit_moves(&h));
	assert_contains(ud_buf_str(&h.res.uapi), "struct plain { int p; };\n");
	ck_assert_uint_eq(h.nmarkers, 0);
	ud_hsplit_free(&h);

	ud_markers_add(&set, "include/linux/plain.h", UD_MARK_SKIP, NULL, 1, NULL);
	ud_hsplit_compute(&src, "include/linux/plain.h", &set, &h);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_SKIPPED);
	ck_assert(!ud_hsplit_moves(&h));
	ck_assert_uint_eq(h.res.model.marker_hits[0], 1);
	ud_hsplit_free(&h);
	ud_markers_free(&set);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_compute_text)
{
	struct ud_hsplit a, b;
	char *text = ud_xstrdup(foo_h);
	struct ud_source src;
	char *d = make_tree("text", &src);

	ud_hsplit_compute_text("include/linux/foo.h", text, strlen(text), NULL, &a);
	memset(text, 'x', strlen(text)); /* the text was copied */
	ud_hsplit_compute(&src, "include/linux/foo.h", NULL, &b);
	ck_assert_str_eq(ud_buf_str(&a.input), foo_h);
	ck_assert_int_eq(a.res.outcome, b.res.outcome);
	ck_assert_str_eq(ud_buf_str(&a.res.kernel), ud_buf_str(&b.res.kernel));
	ck_assert_str_eq(ud_buf_str(&a.res.uapi), ud_buf_str(&b.res.uapi));
	ck_assert(!a.unreadable);
	ud_hsplit_free(&a);
	ud_hsplit_free(&b);

	/* a path that is not a header path: no twin, refused */
	ud_hsplit_compute_text("scripts/foo.h", foo_h, strlen(foo_h), NULL, &a);
	ck_assert_ptr_null(a.twin);
	ck_assert_int_eq(a.res.outcome, UD_SPLIT_REFUSED);
	ck_assert(!ud_hsplit_moves(&a));
	ck_assert_uint_ge(ud_diags_count(&a.res.diags, UD_SEV_ERROR), 1);
	ud_hsplit_free(&a);
	/* empty text */
	ud_hsplit_compute_text("include/linux/e.h", "", 0, NULL, &a);
	ck_assert(!a.unreadable);
	ck_assert_int_ne(a.res.outcome, UD_SPLIT_SPLIT);
	ud_hsplit_free(&a);
	free(text);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_unreadable)
{
	struct ud_source src;
	char *d = make_tree("unreadable", &src);
	struct ud_hsplit h;

	ud_hsplit_compute(&src, "include/linux/missing.h", NULL, &h);
	ck_assert(h.unreadable);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_REFUSED);
	ck_assert(!ud_hsplit_moves(&h));
	ck_assert_str_eq(h.twin, "include/uapi/linux/missing.h");
	ck_assert_uint_eq(h.res.diags.n, 1);
	ck_assert_int_eq(h.res.diags.v[0].severity, UD_SEV_ERROR);
	assert_contains(h.res.diags.v[0].message, "include/linux/missing.h");
	assert_contains(h.res.diags.v[0].message, "cannot open");
	ud_hsplit_free(&h);
	/* a header behind a link that leads out of the tree is not read */
	put_link(d, "include/linux/out", "/etc");
	ud_hsplit_compute(&src, "include/linux/out/hostname", NULL, &h);
	ck_assert(h.unreadable);
	ck_assert_uint_eq(h.res.diags.n, 1);
	assert_contains(h.res.diags.v[0].message, "leads out of the tree");
	ud_hsplit_free(&h);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_apply)
{
	struct ud_source src;
	char *d = make_tree("apply", &src), *out = ud_xasprintf("%s/out", d), *cause = NULL;
	struct ud_sink sink;
	struct ud_hsplit h;

	ck_assert_int_eq(ud_sink_open_dir(&sink, out, 0, &cause), 0);
	ud_hsplit_compute(&src, "include/linux/foo.h", NULL, &h);
	ck_assert_int_eq(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_text(out, "include/uapi/linux/foo.h", ud_buf_str(&h.res.uapi));
	assert_text(out, "include/linux/foo.h", ud_buf_str(&h.res.kernel));
	ud_hsplit_free(&h);
	ud_sink_close(&sink);
	free(out);

	/* the kernel header cannot be written: the uapi header is taken back */
	out = ud_xasprintf("%s/out2", d);
	ck_assert_int_eq(ud_sink_open_dir(&sink, out, 0, &cause), 0);
	put(out, "include/linux/foo.h/blocker", "");
	ud_hsplit_compute(&src, "include/linux/foo.h", NULL, &h);
	ck_assert_int_lt(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	ck_assert_ptr_nonnull(cause);
	assert_contains(cause, "include/linux/foo.h");
	free(cause);
	cause = NULL;
	ck_assert(!exists(out, "include/uapi/linux/foo.h"));
	ck_assert(exists(out, "include/linux/foo.h/blocker"));
	/* ... and a uapi header that was there before comes back as it was */
	put(out, "include/uapi/linux/foo.h", "an older twin\n");
	ck_assert_int_lt(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	free(cause);
	cause = NULL;
	assert_text(out, "include/uapi/linux/foo.h", "an older twin\n");
	ud_hsplit_free(&h);

	/* the uapi header cannot be written: nothing else is tried */
	rm_rf(out);
	put(out, "include/uapi/linux/foo.h/blocker", "");
	ud_hsplit_compute(&src, "include/linux/foo.h", NULL, &h);
	ck_assert_int_lt(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	assert_contains(cause, "include/uapi/linux/foo.h");
	free(cause);
	cause = NULL;
	ck_assert(!exists(out, "include/linux/foo.h"));
	ud_hsplit_free(&h);
	ud_sink_close(&sink);
	ud_source_close(&src);
	free(out);
	free(d);
}
END_TEST

START_TEST(test_apply_moved)
{
	struct ud_source src;
	char *d = make_tree("moved", &src), *cause = NULL;
	struct ud_sink sink;
	struct ud_markers set = UD_MARKERS_INIT;
	struct ud_hsplit h;

	/* in place, the original kept */
	ck_assert_int_eq(ud_sink_open_dir(&sink, d, 0, &cause), 0);
	ud_hsplit_compute(&src, "include/linux/plain.h", NULL, &h);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_MOVED);
	ck_assert_int_eq(ud_hsplit_apply(&sink, &h, false, &cause), 0);
	assert_text(d, "include/uapi/linux/plain.h", ud_buf_str(&h.res.uapi));
	assert_text(d, "include/linux/plain.h", plain_h);
	/* ... and removed */
	ck_assert_int_eq(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	ck_assert(!exists(d, "include/linux/plain.h"));
	assert_text(d, "include/uapi/linux/plain.h", ud_buf_str(&h.res.uapi));
	ck_assert_ptr_null(cause);
	ud_hsplit_free(&h);

	/* refused, skipped and unreadable headers write nothing */
	ud_markers_add(&set, "include/linux/foo.h", UD_MARK_SKIP, NULL, 1, NULL);
	ud_hsplit_compute(&src, "include/linux/foo.h", &set, &h);
	ck_assert_int_eq(h.res.outcome, UD_SPLIT_SKIPPED);
	ck_assert_int_eq(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	ud_hsplit_free(&h);
	ud_hsplit_compute(&src, "include/linux/missing.h", NULL, &h);
	ck_assert_int_eq(ud_hsplit_apply(&sink, &h, true, &cause), 0);
	ud_hsplit_free(&h);
	ck_assert(!exists(d, "include/uapi/linux/foo.h"));
	ck_assert(!exists(d, "include/uapi/linux/missing.h"));
	assert_text(d, "include/linux/foo.h", foo_h);
	ud_markers_free(&set);
	ud_sink_close(&sink);
	ud_source_close(&src);
	free(d);
}
END_TEST

/* ud_hsplit_kbuilds for dir and the given names; returns its result. */
static int
kbuilds(struct ud_source *src, const char *dir, const char *const *names, struct ud_kbuild_edit *k,
	struct ud_kbuild_edit *u, struct ud_diags *d)
{
	struct ud_strlist l = UD_STRLIST_INIT;
	int rc;

	for (; *names != NULL; names++)
		ud_strlist_add(&l, *names);
	rc = ud_hsplit_kbuilds(src, dir, &l, k, u, d);
	ud_strlist_free(&l);
	return rc;
}

START_TEST(test_kbuilds)
{
	struct ud_source src;
	char *d = make_tree("kbuilds", &src);
	struct ud_kbuild_edit k, u;
	struct ud_diags diags = UD_DIAGS_INIT;

	ck_assert_int_eq(kbuilds(&src, "include/linux",
				 (const char *const[]){"foo.h", "kvm.h", NULL}, &k, &u, &diags),
			 0);
	ck_assert_uint_eq(diags.n, 0);
	ck_assert_str_eq(k.rel, "include/linux/Kbuild");
	ck_assert(k.existed);
	ck_assert(k.changed);
	assert_buf(&k.old, linux_kbuild);
	assert_buf(&k.text, "header-y += a.h\nheader-y += z.h\n");
	ck_assert_str_eq(u.rel, "include/uapi/linux/Kbuild");
	ck_assert(!u.existed);
	ck_assert(u.changed);
	ck_assert_uint_eq(u.old.len, 0);
	/* created with its header line; the stanza moves with its entry */
	assert_buf(&u.text, "# UAPI Header export list\n"
			    "header-y += foo.h\n"
			    "\n"
			    "ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)\n"
			    "header-y += kvm.h\n"
			    "endif\n");
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);
	ud_kbuild_edit_free(&u); /* twice is fine */

	/* a header its directory does not list: added to the uapi list only */
	ck_assert_int_eq(kbuilds(&src, "include/linux", (const char *const[]){"plain.h", NULL}, &k,
				 &u, &diags),
			 0);
	ck_assert(k.existed);
	ck_assert(!k.changed);
	assert_buf(&k.text, linux_kbuild);
	assert_buf(&u.text, "# UAPI Header export list\nheader-y += plain.h\n");
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);

	/* nothing moves: nothing changes */
	ck_assert_int_eq(
		kbuilds(&src, "include/linux", (const char *const[]){NULL}, &k, &u, &diags), 0);
	ck_assert(!k.changed);
	ck_assert(!u.changed);
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_kbuilds_included)
{
	struct ud_source src;
	char *d = make_tree("included", &src);
	struct ud_kbuild_edit k, u;
	struct ud_diags diags = UD_DIAGS_INIT;

	/* ioctl.h comes from the shared list: the uapi list gets it, the shared file stays */
	ck_assert_int_eq(kbuilds(&src, "arch/x86/include/asm",
				 (const char *const[]){"ioctl.h", "boot.h", NULL}, &k, &u, &diags),
			 0);
	ck_assert_uint_eq(diags.n, 0);
	ck_assert_str_eq(k.rel, "arch/x86/include/asm/Kbuild");
	assert_buf(&k.text, "include include/asm-generic/Kbuild.asm\n");
	ck_assert(k.changed);
	ck_assert_str_eq(u.rel, "arch/x86/include/uapi/asm/Kbuild");
	assert_buf(&u.text, "# UAPI Header export list\nheader-y += ioctl.h\nheader-y += boot.h\n");
	assert_text(d, "include/asm-generic/Kbuild.asm", "header-y += ioctl.h\n");
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);

	/* a uapi list that exports the name already, itself or by an include */
	put(d, "arch/x86/include/uapi/asm/Kbuild",
	    "# UAPI Header export list\ninclude include/uapi/asm-generic/Kbuild.asm\n"
	    "header-y += boot.h\n");
	ck_assert_int_eq(kbuilds(&src, "arch/x86/include/asm",
				 (const char *const[]){"boot.h", "poll.h", NULL}, &k, &u, &diags),
			 0);
	ck_assert(u.existed);
	ck_assert(!u.changed);
	assert_buf(&u.text, ud_buf_str(&u.old));
	ck_assert(k.changed); /* boot.h left the kernel-side list */
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);

	/* a directory without a list of its own */
	ck_assert_int_eq(
		kbuilds(&src, "include/misc", (const char *const[]){"m.h", NULL}, &k, &u, &diags),
		0);
	ck_assert(!k.existed);
	ck_assert(!k.changed);
	ck_assert_str_eq(u.rel, "include/uapi/misc/Kbuild");
	assert_buf(&u.text, "# UAPI Header export list\nheader-y += m.h\n");
	ck_assert(u.changed);
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);
	ud_source_close(&src);
	free(d);
}
END_TEST

START_TEST(test_kbuilds_unreadable)
{
	struct ud_source src;
	char *d = make_tree("kbunreadable", &src);
	struct ud_kbuild_edit k, u;
	struct ud_diags diags = UD_DIAGS_INIT;

	put(d, "include/uapi/linux/Kbuild/x", ""); /* a directory where the list should be */
	ck_assert_int_lt(kbuilds(&src, "include/linux", (const char *const[]){"foo.h", NULL}, &k,
				 &u, &diags),
			 0);
	ck_assert_uint_eq(diags.n, 1);
	ck_assert_int_eq(diags.v[0].severity, UD_SEV_ERROR);
	ck_assert_str_eq(diags.v[0].path, "include/uapi/linux/Kbuild");
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);
	ud_diags_free(&diags);
	put(d, "include/misc/Kbuild/x", "");
	ck_assert_int_lt(
		kbuilds(&src, "include/misc", (const char *const[]){"m.h", NULL}, &k, &u, &diags),
		0);
	ck_assert_uint_eq(diags.n, 1);
	ck_assert_str_eq(diags.v[0].path, "include/misc/Kbuild");
	ud_kbuild_edit_free(&k);
	ud_kbuild_edit_free(&u);
	ud_diags_free(&diags);
	ud_source_close(&src);
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hsplit");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_compute);
	tcase_add_test(tc, test_compute_text);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_apply);
	tcase_add_test(tc, test_apply_moved);
	tcase_add_test(tc, test_kbuilds);
	tcase_add_test(tc, test_kbuilds_included);
	tcase_add_test(tc, test_kbuilds_unreadable);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "hsplit");
}
