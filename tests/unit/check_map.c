// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * String-keyed hash map tests: put/get/has/del, replacing, many keys with
 * deletions interleaved (dead slots reused, the table grown and rebuilt),
 * iteration, deleting while iterating, freeing with a value destructor.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/map.h"

#define MANY 100000

/*
 * The table's invariants: a power-of-two size, at most half full of live
 * and dead slots.  (Hot loops assert once at the end: every libcheck
 * assertion is a write to the runner.)
 */
static void
check_shape(const struct ud_map *m)
{
	size_t i, live = 0, dead = 0;

	if (m->cap == 0) {
		ck_assert_ptr_null(m->slots);
		ck_assert_uint_eq(m->n, 0);
		return;
	}
	ck_assert_uint_eq(m->cap & (m->cap - 1), 0);
	ck_assert_uint_le(m->used * 2, m->cap);
	/* a removed slot: no key and a value (a live key's value may be NULL) */
	for (i = 0; i < m->cap; i++) {
		live += m->slots[i].key != NULL;
		dead += m->slots[i].key == NULL && m->slots[i].value != NULL;
	}
	ck_assert_uint_eq(live, m->n);
	ck_assert_uint_eq(live + dead, m->used);
}

/* Counts a mismatch, keeping the first one's key for the message. */
static void
miss(int *bad, char *first, size_t size, const char *key)
{
	if ((*bad)++ == 0)
		snprintf(first, size, "%s", key);
}

static void *
val(uintptr_t v)
{
	return (void *)v;
}

START_TEST(test_basic)
{
	struct ud_map m = UD_MAP_INIT;
	static int a, b, c;

	/* an empty map answers without a table */
	ck_assert_ptr_null(ud_map_get(&m, "x"));
	ck_assert(!ud_map_has(&m, "x"));
	ck_assert_ptr_null(ud_map_del(&m, "x"));
	check_shape(&m);

	ck_assert_ptr_null(ud_map_put(&m, "include/linux/a.h", &a));
	ck_assert_ptr_null(ud_map_put(&m, "include/linux/b.h", &b));
	ck_assert_ptr_null(ud_map_put(&m, "", &c)); /* the empty key is a key */
	ck_assert_uint_eq(m.n, 3);
	ck_assert_ptr_eq(ud_map_get(&m, "include/linux/a.h"), &a);
	ck_assert_ptr_eq(ud_map_get(&m, "include/linux/b.h"), &b);
	ck_assert_ptr_eq(ud_map_get(&m, ""), &c);
	ck_assert(ud_map_has(&m, "include/linux/a.h"));
	ck_assert(!ud_map_has(&m, "include/linux/a"));
	ck_assert(!ud_map_has(&m, "include/linux/a.h "));
	ck_assert_ptr_null(ud_map_get(&m, "include/linux/c.h"));

	/* a NULL value is stored: has says so, get cannot tell */
	ck_assert_ptr_null(ud_map_put(&m, "null", NULL));
	ck_assert(ud_map_has(&m, "null"));
	ck_assert_ptr_null(ud_map_get(&m, "null"));
	ck_assert_uint_eq(m.n, 4);

	/* keys are copied */
	{
		char key[] = "copied";

		ud_map_put(&m, key, &a);
		key[0] = 'X';
		ck_assert_ptr_eq(ud_map_get(&m, "copied"), &a);
		ck_assert(!ud_map_has(&m, key));
	}

	/* del returns the value once */
	ck_assert_ptr_eq(ud_map_del(&m, "include/linux/b.h"), &b);
	ck_assert_ptr_null(ud_map_del(&m, "include/linux/b.h"));
	ck_assert(!ud_map_has(&m, "include/linux/b.h"));
	ck_assert_ptr_null(ud_map_get(&m, "include/linux/b.h"));
	ck_assert_ptr_eq(ud_map_get(&m, "include/linux/a.h"), &a);
	ck_assert_uint_eq(m.n, 4);
	check_shape(&m);
	ud_map_free(&m, NULL);
	ck_assert_ptr_null(m.slots);
	ck_assert_uint_eq(m.cap, 0);
	ck_assert_uint_eq(m.n, 0);
	/* a freed map is empty and usable again */
	ck_assert_ptr_null(ud_map_get(&m, "include/linux/a.h"));
	ck_assert_ptr_null(ud_map_put(&m, "again", &a));
	ck_assert_ptr_eq(ud_map_get(&m, "again"), &a);
	ud_map_free(&m, NULL);
	ud_map_free(&m, NULL);
}
END_TEST

START_TEST(test_replace)
{
	struct ud_map m = UD_MAP_INIT;

	ck_assert_ptr_null(ud_map_put(&m, "k", val(1)));
	ck_assert_ptr_eq(ud_map_put(&m, "k", val(2)), val(1));
	ck_assert_ptr_eq(ud_map_put(&m, "k", val(3)), val(2));
	ck_assert_ptr_eq(ud_map_get(&m, "k"), val(3));
	ck_assert_uint_eq(m.n, 1);
	ck_assert_uint_eq(m.used, 1);
	/* a key put again after its removal is new */
	ck_assert_ptr_eq(ud_map_del(&m, "k"), val(3));
	ck_assert_ptr_null(ud_map_put(&m, "k", val(4)));
	ck_assert_ptr_eq(ud_map_get(&m, "k"), val(4));
	ck_assert_uint_eq(m.n, 1);
	check_shape(&m);
	ud_map_free(&m, NULL);
}
END_TEST

/* A hash computed once serves get and put: the same slots as without it. */
START_TEST(test_hashed)
{
	struct ud_map m = UD_MAP_INIT, plain = UD_MAP_INIT;
	char key[32];
	size_t i, j, k;
	const char *ka, *kb;
	void *va, *vb;

	for (i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "name%zu", i);
		ck_assert_ptr_null(ud_map_put_hashed(&m, key, ud_map_hash(key), val((int)i + 1)));
		ck_assert_ptr_null(ud_map_put(&plain, key, val((int)i + 1)));
	}
	for (i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "name%zu", i);
		ck_assert_ptr_eq(ud_map_get_hashed(&m, key, ud_map_hash(key)), val((int)i + 1));
		ck_assert_ptr_eq(ud_map_get(&m, key), val((int)i + 1));
	}
	ck_assert_ptr_null(ud_map_get_hashed(&m, "absent", ud_map_hash("absent")));
	/* the same order of iteration as a map filled without the hash given */
	for (j = k = 0; ud_map_next(&m, &j, &ka, &va);) {
		ck_assert(ud_map_next(&plain, &k, &kb, &vb));
		ck_assert_str_eq(ka, kb);
		ck_assert_ptr_eq(va, vb);
	}
	ck_assert(!ud_map_next(&plain, &k, &kb, &vb));
	check_shape(&m);
	ud_map_free(&m, NULL);
	ud_map_free(&plain, NULL);
}
END_TEST

/*
 * The hash takes every byte and the length: one byte changed anywhere in
 * keys of 0 to 40 bytes, or a byte more, gives another hash.
 */
START_TEST(test_hash_every_byte)
{
	char a[48], b[48];
	size_t n, i;

	for (n = 0; n <= 40; n++) {
		memset(a, 'x', n);
		a[n] = '\0';
		memcpy(b, a, n + 1);
		b[n] = 'x';
		b[n + 1] = '\0';
		ck_assert_msg(ud_map_hash(a) != ud_map_hash(b), "length %zu and %zu", n, n + 1);
		for (i = 0; i < n; i++) {
			memcpy(b, a, n + 1);
			b[i] = 'y';
			ck_assert_msg(ud_map_hash(a) != ud_map_hash(b), "length %zu, byte %zu", n,
				      i);
			b[i] = 'x' ^ 0x40; /* a high bit of the byte */
			ck_assert_msg(ud_map_hash(a) != ud_map_hash(b), "length %zu, byte %zu", n,
				      i);
		}
	}
}
END_TEST

/*
 * Keys alike but for a counter (names, paths) spread over the table: the
 * mean distance of a key from its first slot stays what linear probing
 * at this load gives (under a third of a slot), and each bit of the hash
 * is set for about half of the keys.
 */
START_TEST(test_hash_spreads)
{
	static const char *const shapes[][2] = {
		{"k", ""}, {"__NR_syscall_", ""}, {"include/uapi/linux/h", ".h"}, {"", ""}};
	size_t s;

	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		struct ud_map m = UD_MAP_INIT;
		size_t i, far = 0, longest = 0, ones[64] = {0};
		char key[64];
		int k, bit;

		for (k = 0; k < MANY; k++) {
			size_t h;

			snprintf(key, sizeof(key), "%s%d%s", shapes[s][0], k, shapes[s][1]);
			h = ud_map_hash(key);
			for (bit = 0; bit < 64; bit++)
				ones[bit] += (h >> bit) & 1;
			ud_map_put_hashed(&m, key, h, val(1));
		}
		for (i = 0; i < m.cap; i++) {
			size_t d;

			if (m.slots[i].key == NULL)
				continue;
			d = (i - m.slots[i].hash) & (m.cap - 1);
			far += d;
			longest = d > longest ? d : longest;
		}
		ck_assert_msg(far * 3 < m.n, "%s: %zu slots from home in all", shapes[s][0], far);
		ck_assert_msg(longest < 64, "%s: %zu slots from home", shapes[s][0], longest);
		for (bit = 0; bit < 64; bit++)
			ck_assert_msg(ones[bit] > MANY * 47 / 100 && ones[bit] < MANY * 53 / 100,
				      "%s: bit %d set %zu times", shapes[s][0], bit, ones[bit]);
		ud_map_free(&m, NULL);
	}
}
END_TEST

/* Removal leaves a dead slot the same key's probe takes again. */
START_TEST(test_dead_slot_reuse)
{
	struct ud_map m = UD_MAP_INIT;
	size_t cap, used;
	int i;

	ud_map_put(&m, "keep", val(1));
	ud_map_put(&m, "churn", val(2));
	cap = m.cap;
	used = m.used;
	for (i = 0; i < 1000; i++) {
		ck_assert_ptr_eq(ud_map_del(&m, "churn"), val((uintptr_t)i + 2));
		ck_assert_uint_eq(m.used, used); /* dead, not free */
		ck_assert_ptr_null(ud_map_put(&m, "churn", val((uintptr_t)i + 3)));
		ck_assert_uint_eq(m.used, used); /* the dead slot again */
		if (i == 10)
			break;
	}
	for (; i < 1000; i++) {
		ud_map_del(&m, "churn");
		ud_map_put(&m, "churn", val((uintptr_t)i + 3));
	}
	ck_assert_uint_eq(m.used, used);
	ck_assert_ptr_eq(ud_map_get(&m, "churn"), val(1002));
	ck_assert_uint_eq(m.cap, cap);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_ptr_eq(ud_map_get(&m, "keep"), val(1));
	check_shape(&m);
	ud_map_free(&m, NULL);
}
END_TEST

/* Many different keys coming and going: dead slots are swept, the table does not grow. */
START_TEST(test_churn_does_not_grow)
{
	struct ud_map m = UD_MAP_INIT;
	char key[32], first[32];
	int i, bad = 0;

	for (i = 0; i < MANY; i++) {
		snprintf(key, sizeof(key), "tmp/%d", i);
		if (ud_map_put(&m, key, val((uintptr_t)i + 1)) != NULL)
			miss(&bad, first, sizeof(first), key);
		if (i > 0) {
			snprintf(key, sizeof(key), "tmp/%d", i - 1);
			if (ud_map_del(&m, key) != val((uintptr_t)i))
				miss(&bad, first, sizeof(first), key);
		}
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_uint_le(m.cap, 16);
	check_shape(&m);
	snprintf(key, sizeof(key), "tmp/%d", MANY - 1);
	ck_assert_ptr_eq(ud_map_get(&m, key), val(MANY));
	ud_map_free(&m, NULL);
}
END_TEST

/* Room made for n keys: putting them grows the table no more, and what was there stays. */
START_TEST(test_reserve)
{
	struct ud_map m = UD_MAP_INIT;
	char key[32], first[32];
	size_t cap;
	int i, bad = 0;

	ud_map_put(&m, "before", val(1));
	ud_map_reserve(&m, 1000);
	cap = m.cap;
	ck_assert_uint_ge(cap, 2 * 1001);
	ck_assert_ptr_eq(ud_map_get(&m, "before"), val(1));
	check_shape(&m);
	for (i = 0; i < 999; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		if (ud_map_put(&m, key, val((uintptr_t)i + 2)) != NULL)
			miss(&bad, first, sizeof(first), key);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	ck_assert_uint_eq(m.cap, cap);
	ck_assert_uint_eq(m.n, 1000);
	/* a smaller reservation keeps the table */
	ud_map_reserve(&m, 10);
	ck_assert_uint_eq(m.cap, cap);
	for (i = 0; i < 999; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		if (ud_map_get(&m, key) != val((uintptr_t)i + 2))
			miss(&bad, first, sizeof(first), key);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	check_shape(&m);
	ud_map_free(&m, NULL);
	ud_map_reserve(&m, 0);
	ck_assert_uint_eq(m.cap, 16);
	ud_map_free(&m, NULL);
}
END_TEST

static void
key_of(char *buf, size_t size, int i)
{
	snprintf(buf, size, "arch/x%d/include/uapi/asm/h%d.h", i % 97, i);
}

START_TEST(test_many)
{
	struct ud_map m = UD_MAP_INIT;
	char key[64], first[64];
	size_t live = 0, cap = 0;
	int i, bad = 0, grew = 0;

	/* put every key; delete every third one as it goes, a few steps behind */
	for (i = 0; i < MANY; i++) {
		key_of(key, sizeof(key), i);
		if (ud_map_put(&m, key, val((uintptr_t)i + 1)) != NULL)
			miss(&bad, first, sizeof(first), key);
		live++;
		if (i >= 5 && (i - 5) % 3 == 0) {
			key_of(key, sizeof(key), i - 5);
			if (ud_map_del(&m, key) != val((uintptr_t)i - 4))
				miss(&bad, first, sizeof(first), key);
			live--;
		}
		grew += m.cap != cap;
		cap = m.cap;
		if (i % 9973 == 0)
			check_shape(&m);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	ck_assert_uint_eq(m.n, live);
	ck_assert_int_gt(grew, 10);	    /* 16 to 2^18 */
	ck_assert_uint_ge(m.cap, 2 * live); /* grown */
	check_shape(&m);
	for (i = 0; i < MANY; i++) {
		bool gone = i < MANY - 5 && i % 3 == 0;

		key_of(key, sizeof(key), i);
		if (ud_map_has(&m, key) == gone ||
		    ud_map_get(&m, key) != (gone ? NULL : val((uintptr_t)i + 1)))
			miss(&bad, first, sizeof(first), key);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	/* replace half of what is left, delete the rest, and put the deleted ones back */
	for (i = 0; i < MANY; i++) {
		if (i < MANY - 5 && i % 3 == 0)
			continue;
		key_of(key, sizeof(key), i);
		if (i % 2 == 0 ? ud_map_put(&m, key, val((uintptr_t)i + 2)) != val((uintptr_t)i + 1)
			       : ud_map_del(&m, key) != val((uintptr_t)i + 1))
			miss(&bad, first, sizeof(first), key);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	check_shape(&m);
	for (i = 0; i < MANY - 5; i += 3) {
		key_of(key, sizeof(key), i);
		if (ud_map_put(&m, key, val((uintptr_t)i + 7)) != NULL)
			miss(&bad, first, sizeof(first), key);
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	check_shape(&m);
	live = 0;
	for (i = 0; i < MANY; i++) {
		void *want = NULL;

		if (i < MANY - 5 && i % 3 == 0)
			want = val((uintptr_t)i + 7);
		else if (i % 2 == 0)
			want = val((uintptr_t)i + 2);
		key_of(key, sizeof(key), i);
		if (ud_map_get(&m, key) != want || ud_map_has(&m, key) != (want != NULL))
			miss(&bad, first, sizeof(first), key);
		live += want != NULL;
	}
	ck_assert_msg(bad == 0, "%d wrong, the first %s", bad, first);
	ck_assert_uint_eq(m.n, live);
	ud_map_free(&m, NULL);
}
END_TEST

/* Iteration visits every live key once, with its value. */
START_TEST(test_iterate)
{
	struct ud_map m = UD_MAP_INIT;
	unsigned char *seen = ud_xcalloc(MANY, 1);
	const char *key;
	void *value;
	size_t i = 0, visits = 0;
	char buf[32], first[32];
	int k, bad = 0;

	/* an empty map: nothing, before and after a table exists */
	ck_assert(!ud_map_next(&m, &i, &key, &value));
	ud_map_put(&m, "x", val(1));
	ud_map_del(&m, "x");
	i = 0;
	ck_assert(!ud_map_next(&m, &i, &key, &value));

	for (k = 0; k < MANY; k++) {
		snprintf(buf, sizeof(buf), "k%d", k);
		ud_map_put(&m, buf, val((uintptr_t)k + 1));
	}
	for (k = 0; k < MANY; k += 2) {
		snprintf(buf, sizeof(buf), "k%d", k);
		ud_map_del(&m, buf);
	}
	for (i = 0; ud_map_next(&m, &i, &key, &value);) {
		int n = atoi(key + 1);

		visits++;
		if (key[0] != 'k' || n < 0 || n >= MANY || n % 2 != 1 ||
		    value != val((uintptr_t)n + 1) || seen[n]) {
			miss(&bad, first, sizeof(first), key);
			continue;
		}
		seen[n] = 1;
	}
	ck_assert_msg(bad == 0, "%d wrong or visited twice, the first %s", bad, first);
	ck_assert_uint_eq(visits, MANY / 2);
	ck_assert_uint_eq(visits, m.n);
	/* the value may be left out */
	visits = 0;
	for (i = 0; ud_map_next(&m, &i, &key, NULL);)
		visits++;
	ck_assert_uint_eq(visits, m.n);
	free(seen);
	ud_map_free(&m, NULL);
}
END_TEST

/* Deleting the current key while iterating: every other key is still visited once. */
START_TEST(test_delete_while_iterating)
{
	struct ud_map m = UD_MAP_INIT;
	unsigned char seen[1000] = {0};
	const char *key;
	void *value;
	size_t i, visits = 0;
	char buf[32];
	int k;

	for (k = 0; k < 1000; k++) {
		snprintf(buf, sizeof(buf), "p/%d", k);
		ud_map_put(&m, buf, val((uintptr_t)k + 1));
	}
	for (i = 0; ud_map_next(&m, &i, &key, &value);) {
		int n = atoi(key + 2);

		ck_assert_msg(!seen[n], "%s visited twice", key);
		seen[n] = 1;
		visits++;
		if (n % 3 != 0) {
			char *copy = ud_xstrdup(key); /* key goes with the slot */

			ck_assert_ptr_eq(ud_map_del(&m, copy), value);
			ck_assert(!ud_map_has(&m, copy));
			free(copy);
		}
	}
	ck_assert_uint_eq(visits, 1000);
	ck_assert_uint_eq(m.n, 334);
	check_shape(&m);
	for (k = 0; k < 1000; k++) {
		snprintf(buf, sizeof(buf), "p/%d", k);
		ck_assert(ud_map_has(&m, buf) == (k % 3 == 0));
	}
	/* and all of them, down to an empty map, by the key iteration gave */
	for (i = 0; ud_map_next(&m, &i, &key, &value);)
		ck_assert_ptr_eq(ud_map_del(&m, key), value);
	ck_assert_uint_eq(m.n, 0);
	i = 0;
	ck_assert(!ud_map_next(&m, &i, &key, &value));
	ud_map_free(&m, NULL);
}
END_TEST

static int freed;

static void
free_counted(void *v)
{
	freed++;
	free(v);
}

START_TEST(test_free_values)
{
	struct ud_map m = UD_MAP_INIT;
	char buf[32];
	int k;

	freed = 0;
	for (k = 0; k < 500; k++) {
		snprintf(buf, sizeof(buf), "v%d", k);
		ck_assert_ptr_null(ud_map_put(&m, buf, ud_xstrdup(buf)));
	}
	/* what del and put hand back is the caller's again */
	free(ud_map_del(&m, "v7"));
	free(ud_map_put(&m, "v8", ud_xstrdup("eight")));
	ck_assert_str_eq(ud_map_get(&m, "v8"), "eight");
	ck_assert_str_eq(ud_map_get(&m, "v9"), "v9");
	ud_map_free(&m, free_counted);
	ck_assert_int_eq(freed, 499); /* every live value once, the removed one not */
	ck_assert_ptr_null(m.slots);
	ck_assert_uint_eq(m.n, 0);
	ck_assert_uint_eq(m.used, 0);
	/* an empty map calls nothing */
	ud_map_free(&m, free_counted);
	ck_assert_int_eq(freed, 499);
}
END_TEST

/* A key that is a range of a larger text: found by its bytes alone, with no copy. */
START_TEST(test_ref_n)
{
	static const char text[] = "alpha beta alphabet";
	struct ud_map m = UD_MAP_INIT;
	void **v;

	ck_assert_ptr_null(ud_map_ref_n(&m, text, 5, false)); /* empty map */
	v = ud_map_ref_n(&m, text, 5, true);		      /* "alpha" */
	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_null(*v);
	*v = (void *)1;
	/* the same bytes elsewhere in the text, and as a string, are the same key */
	ck_assert_ptr_eq(*ud_map_ref_n(&m, text + 11, 5, false), (void *)1);
	ck_assert_ptr_eq(ud_map_get(&m, "alpha"), (void *)1);
	/* a longer or a shorter range is another key: no prefix matches */
	ck_assert_ptr_null(ud_map_ref_n(&m, text + 11, 8, false)); /* "alphabet" */
	ck_assert_ptr_null(ud_map_ref_n(&m, text, 4, false));	   /* "alph" */
	ud_map_put(&m, "alphabet", (void *)2);
	ck_assert_ptr_eq(*ud_map_ref_n(&m, text + 11, 8, false), (void *)2);
	ck_assert_ptr_eq(*ud_map_ref_n(&m, text, 5, false), (void *)1);
	/* insert of a key that is there gives its place, not a second entry */
	ck_assert_ptr_eq(*ud_map_ref_n(&m, text, 5, true), (void *)1);
	ck_assert_uint_eq(m.n, 2);
	ud_map_free(&m, NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_hashed);
	tcase_add_test(tc, test_hash_every_byte);
	tcase_add_test(tc, test_hash_spreads);
	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_dead_slot_reuse);
	tcase_add_test(tc, test_churn_does_not_grow);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_reserve);
	tcase_add_test(tc, test_iterate);
	tcase_add_test(tc, test_delete_while_iterating);
	tcase_add_test(tc, test_free_values);
	tcase_add_test(tc, test_ref_n);
	suite_add_tcase(s, tc);
	return test_run(s);
}
