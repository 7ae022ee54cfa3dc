/*
 * Banner of the basic case.
 */

#ifndef _LINUX_BASIC_H
#define _LINUX_BASIC_H

#include <linux/types.h>

struct basic_user {
	__u32 a;
};

#ifdef __KERNEL__
#include <linux/list.h>

struct basic_kernel {
	struct list_head l;
};
#endif /* __KERNEL__ */

#define BASIC_FLAG 1

#endif /* _LINUX_BASIC_H */
