/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_TYPES_H
#define _UAPI_LINUX_TYPES_H

#include <asm/types.h>

#ifndef __EXPORTED_HEADERS__
#warning "Attempt to use kernel headers from user space"
#endif

#ifdef __KERNEL__
typedef unsigned int kernel_only_t;
#endif
#endif /* _UAPI_LINUX_TYPES_H */
