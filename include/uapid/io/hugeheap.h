/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A batch command's heap in transparent huge pages.
 *
 * The API commands build a model of every installed header of a release
 * (api-diff two of them: ~90 MB), and then exit.  Each 4 KiB page of it
 * is a page fault at its first touch, which on a virtual machine costs
 * 8-16 us with the hypervisor's share: 23,000 faults were a third of
 * api-diff's CPU.  A 2 MiB transparent huge page is one fault.
 *
 * glibc's malloc grows each arena's heap on demand and carves later
 * blocks from its free memory.  So a thread that allocates large blocks,
 * advises MADV_HUGEPAGE over them and frees them leaves that range,
 * advised, where its next allocations come from.  mallopt keeps such
 * blocks in the heap (M_MMAP_THRESHOLD) and the heap from being trimmed
 * (M_TRIM_THRESHOLD); a few bytes of the last block are kept, so that a
 * thread heap the others lie in is not unmapped once wholly free.  Only the pages touched
 * are ever made: a model of 90 MB then takes ~105 MB (the last huge page
 * of each reservation, and the seams between blocks, which malloc touched
 * before the advice and stay in 4 KiB pages).
 *
 * It is turned on only where it cannot stall or fail: when the kernel
 * makes transparent huge pages of 2 MiB for this process ("always" or
 * "madvise"), has twice the memory needed free as whole huge pages (from
 * /proc/buddyinfo: a huge page made by compacting fragmented memory can
 * cost milliseconds), and the process is not bounded (no address-space or
 * data limit, no strict overcommit, twice the room in its cgroup).
 * UAPID_HUGE_PAGES=0 turns it off, as do a C library other than 64-bit
 * glibc and the sanitizers' allocators.  The daemon does not use it: a
 * long-lived process keeps its footprint small.
 */
#ifndef UAPID_HUGEHEAP_H
#define UAPID_HUGEHEAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Decides, once, before any thread is started, whether this process's
 * heaps use huge pages, given that nthreads threads (this one included)
 * will reserve up to per_thread bytes each; when they do, reserves this
 * thread's.  Returns the decision (the first call's, on later calls).
 */
bool ud_hugeheap_start(size_t nthreads, size_t per_thread);

/*
 * In a thread started after ud_hugeheap_start: reserves bytes of its heap
 * (at most per_thread), once a thread; nothing when the decision was no.
 */
void ud_hugeheap_thread(size_t bytes);

/*
 * The free blocks of at least order (2^order base pages) a /proc/buddyinfo
 * text counts, in blocks of that order: what huge pages of that order the
 * kernel can hand out without compacting memory.
 */
size_t ud_hugeheap_free_blocks(const char *buddyinfo, unsigned order);

#endif
