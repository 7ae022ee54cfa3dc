// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tests for the small shared types: buffers, arenas, diagnostics, growth.
 */
#include "testutil.h"
#include "uapid/util/arena.h"
#include "uapid/util/diag.h"

START_TEST(test_buf_add)
{
	struct ud_buf b = UD_BUF_INIT;
	char *s;
	size_t n;

	ck_assert_str_eq(ud_buf_str(&b), "");
	ud_buf_addstr(&b, "abc");
	ud_buf_addch(&b, '-');
	ud_buf_addf(&b, "%d/%s", 42, "x");
	ck_assert_str_eq(ud_buf_str(&b), "abc-42/x");
	ck_assert_uint_eq(b.len, 8);
	ud_buf_reset(&b);
	ck_assert_str_eq(ud_buf_str(&b), "");
	ud_buf_add(&b, "a\0b", 3);
	ck_assert_uint_eq(b.len, 3);
	s = ud_buf_detach(&b, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(memcmp(s, "a\0b", 4), 0);
	/* emptied: a valid empty string it does not own, as after UD_BUF_INIT */
	ck_assert_str_eq(b.data, "");
	ck_assert_uint_eq(b.alloc, 0);
	free(s);
	s = ud_buf_detach(&b, &n);
	ck_assert_str_eq(s, "");
	free(s);
	ud_buf_free(NULL);
}
END_TEST

START_TEST(test_buf_large)
{
	struct ud_buf b = UD_BUF_INIT;
	int i;

	for (i = 0; i < 100000; i++)
		ud_buf_addch(&b, (char)('a' + i % 26));
	ck_assert_uint_eq(b.len, 100000);
	ck_assert_int_eq(b.data[b.len], '\0');
	ck_assert_int_eq(b.data[26], 'a');
	ud_buf_free(&b);
}
END_TEST

START_TEST(test_arena)
{
	struct ud_arena a = UD_ARENA_INIT;
	char *p = ud_arena_alloc(&a, 10), *big, *s;

	ck_assert_int_eq(p[9], 0);
	big = ud_arena_alloc(&a, 100000); /* larger than a chunk */
	big[99999] = 1;
	s = ud_arena_strndup(&a, "hello world", 5);
	ck_assert_str_eq(s, "hello");
	ck_assert_uint_eq((uintptr_t)ud_arena_alloc(&a, 3) % _Alignof(max_align_t), 0);
	ud_arena_free(&a);
	ud_arena_free(&a);
	ud_arena_free(NULL);
}
END_TEST

/* Strings packed end to end, chunks growing past the hint, one free for all. */
START_TEST(test_strarena)
{
	struct ud_strarena a = {NULL, NULL, NULL, 0, 0}, b;
	char *first, *second, *big, *p;
	void *st;
	size_t i;

	/* a zeroed arena is valid: its first string makes the smallest chunk */
	first = ud_strarena_strdup(&a, "ab");
	second = ud_strarena_strndup(&a, "cdef", 2);
	ck_assert_str_eq(first, "ab");
	ck_assert_str_eq(second, "cd");
	ck_assert_ptr_eq(second, first + 3); /* no alignment between strings */
	ck_assert_ptr_null(ud_strarena_strdup(&a, NULL));
	ck_assert_uint_eq(a.used, 6);
	/* a string larger than any chunk yet gets a chunk of its own size */
	big = ud_strarena_alloc(&a, 100000);
	memset(big, 'x', 100000);
	/* a struct in it: aligned and zeroed */
	st = ud_strarena_alloc_aligned(&a, 24, 8);
	ck_assert_uint_eq((uintptr_t)st % 8, 0);
	for (i = 0; i < 24; i++)
		ck_assert_int_eq(((unsigned char *)st)[i], 0);
	ck_assert_str_eq(first, "ab"); /* earlier strings stay where they were */
	ud_strarena_free(&a);
	ck_assert_ptr_null(a.head);
	ck_assert_uint_eq(a.used, 0);
	ud_strarena_free(&a);
	ud_strarena_free(NULL);
	/* a hint: many small strings, few chunks */
	ud_strarena_init(&b, 4096);
	for (i = 0; i < 1000; i++) {
		p = ud_strarena_strdup(&b, "0123456789");
		ck_assert_str_eq(p, "0123456789");
	}
	ck_assert_uint_eq(b.used, 11000);
	ud_strarena_free(&b);
}
END_TEST

START_TEST(test_diags)
{
	struct ud_diags d = UD_DIAGS_INIT, e = UD_DIAGS_INIT;

	ud_diags_add(&d, 3, UD_SEV_WARNING, "w %d", 1);
	ud_diags_add(&d, 0, UD_SEV_ERROR, "e");
	ud_diags_add(&e, 7, UD_SEV_NOTE, "n");
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 2);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_move(&d, &e);
	ck_assert_uint_eq(d.n, 3);
	ck_assert_uint_eq(e.n, 0);
	ck_assert_str_eq(d.v[0].message, "w 1");
	ck_assert_str_eq(d.v[2].message, "n");
	ck_assert_str_eq(ud_severity_name(d.v[1].severity), "error");
	ud_diags_free(&d);
	ud_diags_free(&e);
	ud_diags_free(NULL);
}
END_TEST

START_TEST(test_xgrow)
{
	size_t alloc = 0;
	int *v = ud_xgrow(NULL, &alloc, 5, sizeof(int));

	ck_assert_uint_ge(alloc, 5);
	v = ud_xgrow(v, &alloc, 1000, sizeof(int));
	ck_assert_uint_ge(alloc, 1000);
	v[999] = 1;
	free(v);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_buf_add);
	tcase_add_test(tc, test_buf_large);
	tcase_add_test(tc, test_arena);
	tcase_add_test(tc, test_strarena);
	tcase_add_test(tc, test_diags);
	tcase_add_test(tc, test_xgrow);
	suite_add_tcase(s, tc);
	return test_run(s);
}
