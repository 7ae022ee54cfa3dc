/*
 * sample_compound.h - a compound __KERNEL__ condition and a kernel-only
 * field inside a struct: both stay as they are, with a warning.
 * Written for uapid.
 */
#ifndef _LINUX_SAMPLE_COMPOUND_H
#define _LINUX_SAMPLE_COMPOUND_H

struct sample_stats {
	unsigned long packets;
#ifdef __KERNEL__
	unsigned long internal_drops;
#endif
};

#if defined(__KERNEL__) && defined(CONFIG_SAMPLE_DEBUG)
#define SAMPLE_DEBUG_LEVEL 3
#endif

#ifdef __KERNEL__
extern struct sample_stats sample_global_stats;
#endif

#endif /* _LINUX_SAMPLE_COMPOUND_H */
