#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <asm/types.h>

#ifndef __ASSEMBLY__
#ifdef	__KERNEL__
typedef __u32 __kernel_dev_t;
#endif /* __KERNEL__ */

typedef __u16 __bitwise __le16;
typedef __u32 __bitwise __le32;
#endif /*  __ASSEMBLY__ */
#endif /* _LINUX_TYPES_H */
