/*
 * Banner of the basic case.
 */
#ifndef _LINUX_BASIC_H
#define _LINUX_BASIC_H

#include <linux/list.h>
#include <uapi/linux/test.h>

struct basic_kernel {
	struct list_head l;
};
#endif /* _LINUX_BASIC_H */
