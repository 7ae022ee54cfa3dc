// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Classifier tests: banner, guard, include-order check, classes, reasons
 * and the diagnostics that stop a split.
 */
#include "testutil.h"
#include "uapid/core/classify.h"

struct cls {
	struct ud_classified c;
	struct ud_block *b;
	size_t nb;
};

static void
classify(struct cls *x, const char *s, const struct ud_marker *const *m, size_t nm)
{
	ck_assert_int_eq(ud_classify(s, strlen(s), m, nm, &x->c), 0);
	x->nb = ud_classified_blocks(&x->c, &x->b);
}

static void
done(struct cls *x)
{
	free(x->b);
	ud_classified_free(&x->c);
}

/* The class of physical line n. */
static enum ud_class
class_at(const struct cls *x, unsigned n)
{
	size_t i;

	for (i = 0; i < x->nb; i++)
		if (x->b[i].first <= n && n <= x->b[i].last)
			return x->b[i].cls;
	ck_abort_msg("line %u in no block", n);
	return UD_CLASS__COUNT;
}

static const char typical[] = "/*\n"			       /* 1 banner */
			      " * banner\n"		       /* 2 */
			      " */\n"			       /* 3 */
			      "#ifndef _LINUX_T_H\n"	       /* 4 guard */
			      "#define _LINUX_T_H\n"	       /* 5 guard */
			      "struct shared { int a; };\n"    /* 6 uapi */
			      "#ifdef __KERNEL__\n"	       /* 7 user-only (rewritten) */
			      "int kernel_only;\n"	       /* 8 kernel */
			      "#else\n"			       /* 9 kernel (removed) */
			      "int user_only;\n"	       /* 10 user-only */
			      "#endif\n"		       /* 11 user-only */
			      "#if defined(__KERNEL__) && X\n" /* 12 retained */
			      "int compound;\n"		       /* 13 retained */
			      "#endif\n"		       /* 14 retained */
			      "#endif /* _LINUX_T_H */\n";     /* 15 guard */

START_TEST(test_typical)
{
	struct cls x;
	unsigned i, next = 1;

	classify(&x, typical, NULL, 0);
	ck_assert(ud_classified_ok(&x.c));
	ck_assert_str_eq(x.c.guard_name, "_LINUX_T_H");
	ck_assert_uint_eq(x.c.banner_last, 2);
	ck_assert_int_eq(class_at(&x, 1), UD_CLASS_BANNER);
	ck_assert_int_eq(class_at(&x, 3), UD_CLASS_BANNER);
	ck_assert_int_eq(class_at(&x, 4), UD_CLASS_GUARD);
	ck_assert_int_eq(class_at(&x, 5), UD_CLASS_GUARD);
	ck_assert_int_eq(class_at(&x, 6), UD_CLASS_UAPI);
	ck_assert_int_eq(class_at(&x, 7), UD_CLASS_USER); /* becomes #ifndef in the uapi header */
	ck_assert_int_eq(class_at(&x, 8), UD_CLASS_KERNEL);
	ck_assert_int_eq(class_at(&x, 9), UD_CLASS_KERNEL);
	ck_assert_int_eq(class_at(&x, 10), UD_CLASS_USER);
	ck_assert_int_eq(class_at(&x, 11), UD_CLASS_USER);
	ck_assert_int_eq(class_at(&x, 12), UD_CLASS_RETAINED);
	ck_assert_int_eq(class_at(&x, 13), UD_CLASS_RETAINED);
	ck_assert_int_eq(class_at(&x, 15), UD_CLASS_GUARD);
	ck_assert(has_diag(&x.c.diags, UD_SEV_WARNING, 12, "mixes __KERNEL__"));
	ck_assert_uint_eq(x.c.kernel_groups, 1);
	ck_assert_uint_eq(x.c.retained_groups, 1);
	ck_assert(x.c.needs_split);
	for (i = 0; i < x.nb; i++) {
		ck_assert_uint_eq(x.b[i].first, next);
		ck_assert_ptr_nonnull(x.b[i].reason);
		next = x.b[i].last + 1;
	}
	ck_assert_uint_eq(next, 16);
	ck_assert_str_eq(ud_class_name(UD_CLASS_USER), "user-only");
	done(&x);
}
END_TEST

START_TEST(test_guard_forms)
{
	struct cls x;

	classify(&x, "#ifndef G\n#define G 1\n#endif\n", NULL, 0);
	ck_assert_str_eq(x.c.guard_name, "G");
	done(&x);
	/* a define that does not match, or a blank line between: no guard */
	classify(&x, "#ifndef G\n#define H\n#endif\n", NULL, 0);
	ck_assert_int_eq(x.c.guard, -1);
	done(&x);
	classify(&x, "#ifndef __KERNEL__\n#define __KERNEL__\n#endif\n", NULL, 0);
	ck_assert_int_eq(x.c.guard, -1);
	done(&x);
	/* code after the guard's #endif is reported */
	classify(&x, "#ifndef G\n#define G\n#endif\nint after;\n", NULL, 0);
	ck_assert_str_eq(x.c.guard_name, "G");
	ck_assert(has_diag(&x.c.diags, UD_SEV_WARNING, 4, "after the include guard"));
	ck_assert_int_eq(class_at(&x, 4), UD_CLASS_UAPI);
	done(&x);
}
END_TEST

START_TEST(test_order_check)
{
	struct cls x;

	classify(&x, "#ifndef _ASM_X_H\n#error \"no\"\n#endif\n#ifndef G\n#define G\n#endif\n",
		 NULL, 0);
	ck_assert_int_eq(x.c.order_check, 0);
	ck_assert_int_eq(x.c.guard, 1);
	ck_assert_int_eq(class_at(&x, 2), UD_CLASS_UAPI);
	ck_assert_str_eq(x.b[0].reason, "include-order check, goes to the uapi header");
	done(&x);
}
END_TEST

START_TEST(test_stoppers)
{
	struct cls x;

	classify(&x, "#ifndef G\n#define G\n#ifdef __KERNEL__\n#elif X\n#endif\n#endif\n", NULL, 0);
	ck_assert(!ud_classified_ok(&x.c));
	ck_assert(has_diag(&x.c.diags, UD_SEV_ERROR, 4, "#elif in a __KERNEL__ conditional"));
	done(&x);
	classify(&x, "#ifndef G\n#define G\n#if X\n#elif defined(__KERNEL__)\n#endif\n#endif\n",
		 NULL, 0);
	ck_assert(has_diag(&x.c.diags, UD_SEV_ERROR, 4, "#elif mentions __KERNEL__"));
	done(&x);
	classify(
		&x,
		"#ifndef G\n#define G\n#ifdef __KERNEL__\n#ifdef __KERNEL__\n#endif\n#endif\n#endif\n",
		NULL, 0);
	ck_assert(has_diag(&x.c.diags, UD_SEV_ERROR, 3, "nested in another"));
	done(&x);
	classify(&x, "int a;\n#ifdef __KERNEL__\nint b;\n#endif\n", NULL, 0);
	ck_assert(has_diag(&x.c.diags, UD_SEV_ERROR, 0, "no include guard"));
	done(&x);
	/* no guard, but nothing to split: fine */
	classify(&x, "int a;\n#ifndef __KERNEL__\nint b;\n#endif\n", NULL, 0);
	ck_assert(ud_classified_ok(&x.c));
	done(&x);
	classify(&x, "#ifndef G\n#define G\n#if X\n", NULL, 0);
	ck_assert(has_diag(&x.c.diags, UD_SEV_ERROR, 3, "no matching #endif"));
	done(&x);
}
END_TEST

START_TEST(test_construct)
{
	struct cls x;

	classify(&x, "#ifndef G\n#define G\nenum e {\n#ifdef __KERNEL__\nK,\n#endif\n};\n#endif\n",
		 NULL, 0);
	ck_assert(ud_classified_ok(&x.c));
	ck_assert(has_diag(&x.c.diags, UD_SEV_WARNING, 4, "inside a C construct"));
	ck_assert_int_eq(class_at(&x, 5), UD_CLASS_RETAINED);
	ck_assert(!x.c.needs_split);
	done(&x);
}
END_TEST

START_TEST(test_markers)
{
	struct ud_markers set = UD_MARKERS_INIT;
	const struct ud_marker *m[4];
	struct cls x;

	ud_markers_add(&set, "f.h", UD_MARK_RETAIN, "#ifdef  __KERNEL__", 2, NULL);
	ud_markers_add(&set, "f.h", UD_MARK_KERNEL, "#ifdef GONE", 1, "stale");
	m[0] = &set.v[0];
	m[1] = &set.v[1];
	classify(
		&x,
		"#ifndef G\n#define G\n#ifdef __KERNEL__\nint a;\n#endif\n#ifdef __KERNEL__\nint b;\n#endif\n#endif\n",
		m, 2);
	ck_assert_int_eq(class_at(&x, 4), UD_CLASS_KERNEL);
	ck_assert_int_eq(class_at(&x, 7), UD_CLASS_RETAINED);
	ck_assert_uint_eq(x.c.nmarkers, 2);
	ck_assert_uint_eq(x.c.marker_hits[0], 1);
	ck_assert_uint_eq(x.c.marker_hits[1], 0);
	done(&x);
	ud_markers_free(&set);
}
END_TEST

START_TEST(test_rejected_input)
{
	struct ud_classified c;

	ck_assert_int_eq(ud_classify("a\0b", 3, NULL, 0, &c), 0);
	ck_assert(!c.lexed);
	ck_assert(!ud_classified_ok(&c));
	ud_classified_free(&c);
	ud_classified_free(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("classify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_typical);
	tcase_add_test(tc, test_guard_forms);
	tcase_add_test(tc, test_order_check);
	tcase_add_test(tc, test_stoppers);
	tcase_add_test(tc, test_construct);
	tcase_add_test(tc, test_markers);
	tcase_add_test(tc, test_rejected_input);
	suite_add_tcase(s, tc);
	return test_run(s);
}
