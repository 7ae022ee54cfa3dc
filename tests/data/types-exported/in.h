#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <asm/types.h>

#ifdef __KERNEL__
typedef unsigned int kernel_only_t;
#endif

typedef __u32 __le32;

#endif
