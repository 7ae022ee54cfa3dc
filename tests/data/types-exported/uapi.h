#ifndef _UAPI_LINUX_TYPES_H
#define _UAPI_LINUX_TYPES_H

#include <asm/types.h>


typedef __u32 __le32;

#endif /* _UAPI_LINUX_TYPES_H */
