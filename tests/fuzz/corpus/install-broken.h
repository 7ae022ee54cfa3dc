/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_BROKEN_H
#define _UAPI_LINUX_MINI_BROKEN_H

#include <linux/types.h>

struct mini_broken {
	__u32 a;
	undefined_type_t b;
};

#endif
