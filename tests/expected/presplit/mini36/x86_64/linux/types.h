#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <asm/types.h>

#ifndef __ASSEMBLY__

typedef __u16 __bitwise __le16;
typedef __u32 __bitwise __le32;
#endif /*  __ASSEMBLY__ */
#endif /* _LINUX_TYPES_H */
