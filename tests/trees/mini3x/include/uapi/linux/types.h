#ifndef _UAPI_LINUX_TYPES_H
#define _UAPI_LINUX_TYPES_H
#include <asm-generic/types.h>
#ifdef __KERNEL__
typedef unsigned int kernel_only_t;
#endif
#endif /* _UAPI_LINUX_TYPES_H */
