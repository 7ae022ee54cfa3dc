// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The huge-page heap of the batch commands: the free huge pages read from
 * /proc/buddyinfo, the switch, and a heap that works (and, where the
 * system gives huge pages, is made of them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "testutil.h"
#include "uapid/io/hugeheap.h"

/* A 6.x kernel's /proc/buddyinfo: orders 0 to 10. */
static const char buddyinfo[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
	"Node 0, zone    DMA32      0      4      2      2      1      2      0      3      3      1    753 \n"
	"Node 0, zone   Normal  74058  65611  34161  16360  10247   4810   2234   1041    447    255   1046 \n";

START_TEST(test_free_blocks)
{
	/* order 9 (2 MiB of 4 KiB pages): the order-9 counts, and twice the order-10 ones */
	ck_assert_uint_eq(ud_hugeheap_free_blocks(buddyinfo, 9),
			  (1 + 3 * 2) + (1 + 753 * 2) + (255 + 1046 * 2));
	ck_assert_uint_eq(ud_hugeheap_free_blocks(buddyinfo, 10), 3 + 753 + 1046);
	/* order 0: every free page */
	ck_assert_uint_eq(ud_hugeheap_free_blocks("Node 0, zone Normal 1 2 3\n", 0),
			  1 + 2 * 2 + 3 * 4);
	/* a higher order than the kernel has: none */
	ck_assert_uint_eq(ud_hugeheap_free_blocks(buddyinfo, 11), 0);
	/* a last line without its newline; lines that are not a zone's */
	ck_assert_uint_eq(ud_hugeheap_free_blocks("garbage\nNode 0, zone Normal 0 5", 1), 5);
	ck_assert_uint_eq(ud_hugeheap_free_blocks("", 9), 0);
	ck_assert_uint_eq(ud_hugeheap_free_blocks("Node 0, zone Normal\n", 0), 0);
}
END_TEST

START_TEST(test_switched_off)
{
	setenv("UAPID_HUGE_PAGES", "0", 1);
	ck_assert(!ud_hugeheap_start(2, (size_t)16 << 20));
	/* a thread's reservation after a no: nothing */
	ud_hugeheap_thread((size_t)16 << 20);
	/* the decision stands, whatever the environment says later */
	unsetenv("UAPID_HUGE_PAGES");
	ck_assert(!ud_hugeheap_start(2, (size_t)16 << 20));
}
END_TEST

START_TEST(test_bounded)
{
	/*
	 * A data limit, however large: the reserved heaps would count against
	 * it.  The largest finite one, so that a sanitizer's terabytes of
	 * shadow memory still fit.
	 */
	struct rlimit rl = {RLIM_INFINITY - 1, RLIM_INFINITY};

	ck_assert_int_eq(setrlimit(RLIMIT_DATA, &rl), 0);
	ck_assert(!ud_hugeheap_start(2, (size_t)16 << 20));
}
END_TEST

/* The huge pages this process has, in kB, or -1 when the kernel does not say. */
static long
anon_huge_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

START_TEST(test_heap)
{
	enum { N = 40000, SIZE = 200 };
	const char *preload = getenv("LD_PRELOAD");
	bool on = ud_hugeheap_start(1, (size_t)16 << 20);
	long before = anon_huge_kb(), after;
	char **v = malloc(N * sizeof(*v));
	size_t i;

	/* started once: the second start says so, and reserves nothing more */
	ck_assert(ud_hugeheap_start(1, (size_t)16 << 20) == on);
	ck_assert_ptr_nonnull(v);
	/* 8 MB in small blocks, written and read back */
	for (i = 0; i < N; i++) {
		v[i] = malloc(SIZE);
		ck_assert_ptr_nonnull(v[i]);
		memset(v[i], (int)(i & 0xff), SIZE);
	}
	for (i = 0; i < N; i++)
		ck_assert_int_eq((unsigned char)v[i][SIZE - 1], i & 0xff);
	after = anon_huge_kb();
	/*
	 * Where it is on, they lie in huge pages; not under valgrind, whose
	 * allocator does not reuse what was just freed.
	 */
	if (on && before >= 0 && (preload == NULL || strstr(preload, "vgpreload") == NULL))
		ck_assert_msg(after >= before + 2048, "huge pages: %ld kB before, %ld kB after",
			      before, after);
	for (i = 0; i < N; i++)
		free(v[i]);
	free(v);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hugeheap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_free_blocks);
	tcase_add_test(tc, test_switched_off);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_heap);
	suite_add_tcase(s, tc);
	return test_run(s);
}
