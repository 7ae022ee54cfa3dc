/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small primitives every layer uses, written once: FNV-1a (64-bit, and the
 * 32-bit form the socket's tree id keeps), the length of an array, and a
 * monotonic clock in milliseconds.
 *
 * FNV-1a's 64-bit offset basis is 14695981039346656037; four private
 * copies once used 1469598103934665603, one digit short, and their keys
 * are stored (the daemon's split and install keys), so a change here
 * changes stored keys: what was stored under the old ones is recomputed.
 */
#ifndef UAPID_UTIL_HASH_H
#define UAPID_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define UD_FNV64_BASIS 14695981039346656037ull
#define UD_FNV64_PRIME 1099511628211ull
#define UD_FNV32_BASIS 2166136261u
#define UD_FNV32_PRIME 16777619u

/* The number of elements of an array (not of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* h folded with n bytes at p: start from UD_FNV64_BASIS. */
static inline uint64_t
ud_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p, *end = b + n;

	for (; b < end; b++)
		h = (h ^ *b) * UD_FNV64_PRIME;
	return h;
}

/* h folded with the bytes of s, up to its NUL. */
static inline uint64_t
ud_fnv64_str(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * UD_FNV64_PRIME;
	return h;
}

/*
 * h folded with a separator byte that no text holds (0xff): hashing "ab"
 * then "c" differs from "a" then "bc" when each string is followed by one.
 */
static inline uint64_t
ud_fnv64_sep(uint64_t h)
{
	return (h ^ 0xff) * UD_FNV64_PRIME;
}

/* The 32-bit FNV-1a of s, from its basis. */
static inline uint32_t
ud_fnv32_str(const char *s)
{
	uint32_t h = UD_FNV32_BASIS;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * UD_FNV32_PRIME;
	return h;
}

/* Milliseconds on the monotonic clock: for intervals, never for dates. */
static inline int64_t
ud_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif /* UAPID_UTIL_HASH_H */
