/*
 * sample_types.h - plain types shared with userspace; nothing kernel-only,
 * so uapid moves it whole.  Written for uapid.
 */
#ifndef _LINUX_SAMPLE_TYPES_H
#define _LINUX_SAMPLE_TYPES_H

typedef unsigned int sample_id_t;

#ifndef __KERNEL__
#define SAMPLE_USER_HELPERS 1
#endif

#endif
