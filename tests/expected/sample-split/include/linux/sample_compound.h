/*
 * sample_compound.h - a compound __KERNEL__ condition and a kernel-only
 * field inside a struct: both stay as they are, with a warning.
 * Written for uapid.
 */
#ifndef _LINUX_SAMPLE_COMPOUND_H
#define _LINUX_SAMPLE_COMPOUND_H

#include <uapi/linux/sample_compound.h>

#if defined(CONFIG_SAMPLE_DEBUG)
#define SAMPLE_DEBUG_LEVEL 3
#endif
extern struct sample_stats sample_global_stats;
#endif /* _LINUX_SAMPLE_COMPOUND_H */
