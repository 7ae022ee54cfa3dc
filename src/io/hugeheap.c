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
#include <sys/prctl.h>
#include <sys/resource.h>
#endif

#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/hugeheap.h"

/* The allocators the sanitizers put in glibc's place do not heed mallopt. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_HWADDRESS__)
#define OTHER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
	__has_feature(memory_sanitizer) || __has_feature(hwaddress_sanitizer) ||                   \
	__has_feature(leak_sanitizer)
#define OTHER_ALLOCATOR 1
#endif
#endif
/* 64-bit only: a 32-bit glibc's thread heaps (1 MiB) cannot hold a reservation */
#if !defined(OTHER_ALLOCATOR) && defined(__GLIBC__) && defined(MADV_HUGEPAGE) &&                   \
	defined(PR_GET_THP_DISABLE) && UINTPTR_MAX > UINT32_MAX
#define HUGEHEAP 1
#endif

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/*
 * A reservation is made of blocks of 16 MiB, under the mmap threshold set
 * (so that they come from the heap: glibc's dynamic threshold would reach
 * 32 MiB on its own), a few to a 64 MiB thread heap.
 */
#define MMAP_THRESHOLD ((size_t)32 << 20)
#define BLOCK ((size_t)16 << 20)
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
/* Decided before any thread starts, read-only after. */
static enum { UNDECIDED, OFF, ON } decision;
static size_t per_thread_max, huge_page;
static bool advice_needed; /* THP "madvise": the advice is what makes them */
static _Thread_local bool reserved;

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

/* The number a file starts with, or `otherwise` (no file, "max", ...). */
static size_t
file_number(const char *path, size_t otherwise)
{
	unsigned long long v;
	FILE *f = fopen(path, "r");
	size_t n = otherwise;

	if (f == NULL)
		return otherwise;
	if (fscanf(f, "%llu", &v) == 1)
		n = (size_t)v;
	fclose(f);
	return n;
}

/*
 * How the kernel makes huge pages of huge_kb for this process: "always",
 * "madvise", or "" when it does not (off for the size, or the process).
 */
static void
thp_mode(size_t huge_kb, char *mode, size_t cap)
{
	char path[128];

	mode[0] = '\0';
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) > 0)
		return;
	/* 6.8 and later: a file per size; "inherit" (or none, before): the global one */
	snprintf(path, sizeof(path), THP_DIR "/hugepages-%zukB/enabled", huge_kb);
	sysfs_choice(path, mode, cap);
	if (mode[0] == '\0' || strcmp(mode, "inherit") == 0)
		sysfs_choice(THP_DIR "/enabled", mode, cap);
	if (strcmp(mode, "always") != 0 && strcmp(mode, "madvise") != 0)
		mode[0] = '\0';
}

/* The free huge pages /proc/buddyinfo counts (order: a huge page's, in base pages). */
static size_t
free_huge_pages(unsigned order)
{
	struct ud_buf text = UD_BUF_INIT;
	size_t n = 0;

	if (ud_read_file("/proc/buddyinfo", &text, NULL) == 0)
		n = ud_hugeheap_free_blocks(ud_buf_str(&text), order);
	ud_buf_free(&text);
	return n;
}

/*
 * The memory this process's cgroup (v2) and the ones above it still let
 * it have: the least of their memory.max - memory.current.
 */
static size_t
cgroup_room(void)
{
	char line[512], dir[600];
	size_t room = SIZE_MAX;
	char *slash;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (f == NULL)
		return room;
	line[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL && strncmp(line, "0::", 3) != 0)
		line[0] = '\0';
	fclose(f);
	if (strncmp(line, "0::", 3) != 0)
		return room;
	line[strcspn(line, "\n")] = '\0';
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup%s", line + 3);
	for (;;) {
		char path[640];
		size_t max, current;

		snprintf(path, sizeof(path), "%s/memory.max", dir);
		max = file_number(path, SIZE_MAX);
		snprintf(path, sizeof(path), "%s/memory.current", dir);
		current = file_number(path, 0);
		if (max != SIZE_MAX && (max > current ? max - current : 0) < room)
			room = max > current ? max - current : 0;
		slash = strrchr(dir, '/');
		if (slash == NULL || slash == dir + strlen("/sys/fs"))
			break;
		*slash = '\0';
	}
	return room;
}

/*
 * Whether the process must stay small: a limit on its address space or
 * data (the reserved heaps count in full), strict overcommit (they are
 * committed), or a cgroup without twice the room.
 */
static bool
memory_bounded(size_t need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		return true;
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		return true;
	if (file_number("/proc/sys/vm/overcommit_memory", 0) == 2)
		return true;
	return cgroup_room() / 2 < need;
}

/* Advises the huge pages wholly inside [start, end). */
static void
advise(uintptr_t start, uintptr_t end)
{
	uintptr_t a = (start + huge_page - 1) & ~(uintptr_t)(huge_page - 1);
	uintptr_t e = end & ~(uintptr_t)(huge_page - 1);

	if (advice_needed && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
}

/*
 * What is left of each reservation's last block, kept: a heap other than
 * an arena's first is unmapped once wholly free, whatever the trim
 * threshold, and the reservation with it.
 */
static void *volatile pins[64]; /* volatile: written only, but seen by leak checkers */
static size_t npins;

/*
 * Allocates bytes in blocks, advises them (the blocks of one heap lie end
 * to end: advised as one span, so that no huge page is lost at their
 * seams), shrinks the last to a pin and frees the others: their memory,
 * advised, is where the thread's next allocations come from.
 */
static void
reserve(size_t bytes)
{
	void *block[MAX_BLOCKS];
	size_t n = 0, i, pin, got = 0;
	uintptr_t span_start = 0, span_end = 0;

	while (n < MAX_BLOCKS && got < bytes) {
		size_t size = bytes - got < BLOCK ? bytes - got : BLOCK;
		uintptr_t p;

		block[n] = malloc(size);
		if (block[n] == NULL)
			break;
		p = (uintptr_t)block[n++];
		got += size;
		/* a malloc chunk's header lies between two neighbours */
		if (span_end != 0 && p >= span_end && p - span_end <= 64) {
			span_end = p + size;
			continue;
		}
		if (span_end != 0)
			advise(span_start, span_end);
		span_start = p;
		span_end = p + size;
	}
	if (span_end != 0)
		advise(span_start, span_end);
	if (n == 0)
		return;
	/* shrunk in place: the rest of it goes back to the heap's top */
	pin = __atomic_fetch_add(&npins, 1, __ATOMIC_RELAXED);
	if (pin < ARRAY_SIZE(pins)) {
		void *small = realloc(block[n - 1], 16);

		pins[pin] = small != NULL ? small : block[n - 1];
		n--;
	}
	for (i = n; i-- > 0;)
		free(block[i]);
}

/* Whether the system makes huge pages for a heap of nthreads * per_thread bytes. */
static bool
system_allows(size_t nthreads, size_t per_thread)
{
	const char *env = getenv("UAPID_HUGE_PAGES");
	char mode[32];
	long page = sysconf(_SC_PAGESIZE);
	size_t need, order = 0;

	if ((env != NULL && strcmp(env, "0") == 0) || page <= 0 || per_thread == 0)
		return false;
	huge_page = file_number(THP_DIR "/hpage_pmd_size", 0);
	/* a huge page must fit a block many times (not arm64's 512 MiB of 64 KiB pages) */
	if (huge_page <= (size_t)page || (huge_page & (huge_page - 1)) != 0 ||
	    huge_page > BLOCK / 4 || huge_page > per_thread)
		return false;
	thp_mode(huge_page >> 10, mode, sizeof(mode));
	if (mode[0] == '\0')
		return false;
	/* "always" makes them unasked; advising would add compaction at faults */
	advice_needed = strcmp(mode, "madvise") == 0;
	need = (nthreads > 0 ? nthreads : 1) * per_thread;
	if (memory_bounded(need))
		return false;
	while (((size_t)page << order) < huge_page)
		order++;
	/* twice the need, free as whole huge pages: no fault waits for compaction */
	return free_huge_pages((unsigned)order) >= 2 * (need / huge_page + 1);
}
#endif

bool
ud_hugeheap_start(size_t nthreads, size_t per_thread)
{
#ifdef HUGEHEAP
	if (decision == UNDECIDED) {
		bool on = system_allows(nthreads, per_thread) &&
			  mallopt(M_MMAP_THRESHOLD, (int)MMAP_THRESHOLD) != 0 &&
			  mallopt(M_TRIM_THRESHOLD, INT32_MAX) != 0;

		decision = on ? ON : OFF;
		if (on) {
			per_thread_max = per_thread;
			ud_hugeheap_thread(per_thread);
		}
	}
	return decision == ON;
#else
	(void)nthreads;
	(void)per_thread;
	return false;
#endif
}

void
ud_hugeheap_thread(size_t bytes)
{
#ifdef HUGEHEAP
	if (decision != ON || reserved)
		return;
	reserved = true;
	reserve(bytes < per_thread_max ? bytes : per_thread_max);
#else
	(void)bytes;
#endif
}
