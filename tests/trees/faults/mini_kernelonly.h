/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_KERNELONLY_H
#define _UAPI_LINUX_MINI_KERNELONLY_H

#ifdef __KERNEL__
#define MINI_MAX 16
#endif

struct mini_table {
	int entries[MINI_MAX];
};

#endif
