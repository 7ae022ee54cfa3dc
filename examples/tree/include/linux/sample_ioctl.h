/*
 * sample_ioctl.h - an ioctl interface of a pretend driver, used by uapid's
 * examples.  Written for uapid; not taken from any kernel.
 */

#ifndef _LINUX_SAMPLE_IOCTL_H
#define _LINUX_SAMPLE_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct sample_req {
	__u32 flags;
	__u64 addr;
};

#define SAMPLE_IOC_MAGIC	'S'
#define SAMPLE_IOC_SUBMIT	_IOW(SAMPLE_IOC_MAGIC, 1, struct sample_req)

#ifdef __KERNEL__
#include <linux/list.h>
#include <linux/mutex.h>

struct sample_device {
	struct list_head requests;
	struct mutex lock;
};

int sample_submit(struct sample_device *dev, const struct sample_req *req);
#else
#include <stdint.h>
#endif /* __KERNEL__ */

#endif /* _LINUX_SAMPLE_IOCTL_H */
