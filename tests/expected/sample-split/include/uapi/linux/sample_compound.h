/*
 * sample_compound.h - a compound __KERNEL__ condition and a kernel-only
 * field inside a struct: both stay as they are, with a warning.
 * Written for uapid.
 */
#ifndef _UAPI_LINUX_SAMPLE_COMPOUND_H
#define _UAPI_LINUX_SAMPLE_COMPOUND_H

struct sample_stats {
	unsigned long packets;
#ifdef __KERNEL__
	unsigned long internal_drops;
#endif
};



#endif /* _UAPI_LINUX_SAMPLE_COMPOUND_H */
