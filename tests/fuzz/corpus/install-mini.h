/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_H
#define _UAPI_LINUX_MINI_H

#include <linux/types.h>
#include <linux/compiler.h>

struct mini_req {
	__u32 flags;
	void __user *buf;
	__u64 addr;
} __packed;

static inline int mini_ok(void) { return 1; }

#ifdef __KERNEL__
int mini_kernel(void);
#elif defined(MINI_COMPAT)
#define MINI_COMPAT_API 1
#else
#define MINI_PLAIN_API 1
#endif

#if 0
This is documentation, kept as is.
#endif

#endif /* _UAPI_LINUX_MINI_H */
