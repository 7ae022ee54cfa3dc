#ifndef _UAPI_LINUX_MINI3_H
#define _UAPI_LINUX_MINI3_H

#include <linux/compiler.h>
#include <linux/types.h>

struct mini3_req {
	void __user *buf;
	char __user
		*name;
	__u32 len;
} __packed;

static inline int mini3_ok(void) { asm volatile("" ::: "memory"); return 1; }

#ifdef __KERNEL__
int mini3_kernel(void);
#endif

#endif /* _UAPI_LINUX_MINI3_H */
