/*
 * sample_ioctl.h - an ioctl interface of a pretend driver, used by uapid's
 * examples.  Written for uapid; not taken from any kernel.
 */

#ifndef _UAPI_LINUX_SAMPLE_IOCTL_H
#define _UAPI_LINUX_SAMPLE_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct sample_req {
	__u32 flags;
	__u64 addr;
};

#define SAMPLE_IOC_MAGIC	'S'
#define SAMPLE_IOC_SUBMIT	_IOW(SAMPLE_IOC_MAGIC, 1, struct sample_req)

#ifndef __KERNEL__
#include <stdint.h>
#endif /* __KERNEL__ */

#endif /* _UAPI_LINUX_SAMPLE_IOCTL_H */
