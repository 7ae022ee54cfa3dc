// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A batch command's heap in transparent huge pages (hugeheap.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "uapid/hugeheap.h"

/* The allocators the sanitizers put in glibc's place do not heed mallopt. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTHER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
	__has_feature(memory_sanitizer)
#define OTHER_ALLOCATOR 1
#endif
#endif
#if !defined(OTHER_ALLOCATOR) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
#define HUGEHEAP 1
#endif

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/*
 * A reservation is made of blocks of half glibc's largest mmap threshold
 * (32 MiB on 64-bit systems), which is set so that they come from the heap.
 */
#define MMAP_THRESHOLD (((size_t)4 << 20) * sizeof(long))
#define BLOCK (MMAP_THRESHOLD / 2)
#define MAX_BLOCKS 16

/* The free blocks one line of /proc/buddyinfo counts, in blocks of order. */
static size_t
zone_free_blocks(const char *p, unsigned order)
{
	size_t total = 0;
	unsigned o = 0;

	p += 4; /* "zone" */
	while (*p == ' ')
		p++;
	while (*p != ' ' && *p != '\n' && *p != '\0')
		p++; /* the zone's name */
	for (;;) {
		char *end;
		unsigned long long n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		n = strtoull(p, &end, 10);
		if (o >= order && o - order < 32)
			total += (size_t)n << (o - order);
		p = end;
		o++;
	}
	return total;
}

size_t
ud_hugeheap_free_blocks(const char *buddyinfo, unsigned order)
{
	const char *line = buddyinfo;
	size_t total = 0;

	/* "Node 0, zone   Normal  74058  65611 ...": a count per order from 0 */
	while (line != NULL && *line != '\0') {
		const char *eol = strchr(line, '\n'), *zone = strstr(line, "zone");

		if (zone != NULL && (eol == NULL || zone < eol))
			total += zone_free_blocks(zone, order);
		line = eol != NULL ? eol + 1 : NULL;
	}
	return total;
}

#ifdef HUGEHEAP
/* Set before any thread starts, read-only after. */
static size_t reserve_bytes, huge_page;
static _Thread_local int reserved;

/* The bracketed word of a sysfs choice ("always [madvise] never"), or "". */
static void
sysfs_choice(const char *path, char *word, size_t cap)
{
	char line[128], *open, *close;
	FILE *f = fopen(path, "r");

	word[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(line, sizeof(line), f) != NULL && (open = strchr(line, '[')) != NULL &&
	    (close = strchr(open, ']')) != NULL && (size_t)(close - open) <= cap) {
		memcpy(word, open + 1, (size_t)(close - open - 1));
		word[close - open - 1] = '\0';
	}
	fclose(f);
}

static size_t
sysfs_number(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return (size_t)v;
}

/* The free huge pages /proc/buddyinfo counts (order: a huge page's, in base pages). */
static size_t
free_huge_pages(unsigned order)
{
	char text[4096];
	size_t n;
	FILE *f = fopen("/proc/buddyinfo", "r");

	if (f == NULL)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return ud_hugeheap_free_blocks(text, order);
}

/* Advises the huge pages wholly inside [start, end). */
static void
advise(uintptr_t start, uintptr_t end)
{
	uintptr_t a = (start + huge_page - 1) & ~(uintptr_t)(huge_page - 1);
	uintptr_t e = end & ~(uintptr_t)(huge_page - 1);

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
}

/*
 * The last block of each reservation, kept: the blocks freed before it
 * then stay in their heap, which glibc would otherwise give back (a thread
 * heap left wholly free is unmapped, whatever the trim threshold).
 */
static void *volatile pins[64]; /* volatile: written only, but seen by leak checkers */
static size_t npins;

/*
 * Allocates reserve_bytes in blocks and one more, advises them (the
 * blocks of one heap lie end to end: advised as one span, so that no huge
 * page is lost at their seams), keeps the last and frees the others.
 */
static void
reserve(void)
{
	void *block[MAX_BLOCKS];
	size_t n = 0, i, pin;
	uintptr_t span_start = 0, span_end = 0;

	while (n < MAX_BLOCKS && (n == 0 || (n - 1) * BLOCK < reserve_bytes)) {
		uintptr_t p;

		block[n] = malloc(BLOCK);
		if (block[n] == NULL)
			break;
		p = (uintptr_t)block[n++];
		/* a malloc chunk's header lies between two neighbours */
		if (span_end != 0 && p >= span_end && p - span_end <= 64) {
			span_end = p + BLOCK;
			continue;
		}
		if (span_end != 0)
			advise(span_start, span_end);
		span_start = p;
		span_end = p + BLOCK;
	}
	if (span_end != 0)
		advise(span_start, span_end);
	if (n == 0)
		return;
	pin = __atomic_fetch_add(&npins, 1, __ATOMIC_RELAXED);
	if (pin < sizeof(pins) / sizeof(pins[0]))
		pins[pin] = block[--n];
	for (i = n; i-- > 0;)
		free(block[i]);
}
#endif

bool
ud_hugeheap_start(size_t nthreads, size_t per_thread)
{
#ifdef HUGEHEAP
	const char *env = getenv("UAPID_HUGE_PAGES");
	char enabled[32];
	long page = sysconf(_SC_PAGESIZE);
	size_t want, order = 0;

	if (reserve_bytes != 0)
		return true;
	if ((env != NULL && strcmp(env, "0") == 0) || page <= 0 || per_thread == 0)
		return false;
	sysfs_choice(THP_DIR "/enabled", enabled, sizeof(enabled));
	if (strcmp(enabled, "always") != 0 && strcmp(enabled, "madvise") != 0)
		return false;
	huge_page = sysfs_number(THP_DIR "/hpage_pmd_size");
	if (huge_page <= (size_t)page || (huge_page & (huge_page - 1)) != 0)
		return false;
	while (((size_t)page << order) < huge_page)
		order++;
	/*
	 * Twice what the threads could touch, free as whole huge pages:
	 * else a fault could wait for the kernel to compact memory.
	 */
	want = 2 * (nthreads > 0 ? nthreads : 1) * ((per_thread + huge_page - 1) / huge_page);
	if (free_huge_pages((unsigned)order) < want)
		return false;
	if (mallopt(M_MMAP_THRESHOLD, (int)MMAP_THRESHOLD) == 0 ||
	    mallopt(M_TRIM_THRESHOLD, INT32_MAX) == 0)
		return false;
	reserve_bytes = per_thread;
	ud_hugeheap_thread();
	return true;
#else
	(void)nthreads;
	(void)per_thread;
	return false;
#endif
}

void
ud_hugeheap_thread(void)
{
#ifdef HUGEHEAP
	if (reserve_bytes == 0 || reserved)
		return;
	reserved = 1;
	reserve();
#endif
}
