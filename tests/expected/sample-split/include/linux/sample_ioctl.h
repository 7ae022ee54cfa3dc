/*
 * sample_ioctl.h - an ioctl interface of a pretend driver, used by uapid's
 * examples.  Written for uapid; not taken from any kernel.
 */
#ifndef _LINUX_SAMPLE_IOCTL_H
#define _LINUX_SAMPLE_IOCTL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <uapi/linux/sample_ioctl.h>

struct sample_device {
	struct list_head requests;
	struct mutex lock;
};

int sample_submit(struct sample_device *dev, const struct sample_req *req);
#endif /* _LINUX_SAMPLE_IOCTL_H */
