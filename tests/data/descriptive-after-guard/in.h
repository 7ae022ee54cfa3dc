#ifndef _LINUX_DESC_H
#define _LINUX_DESC_H

/*
 * Definitions for the desc interface.
 */

#include <linux/types.h>

struct desc { __u32 x; };

#ifdef __KERNEL__
extern struct desc desc;
#endif
#endif /* _LINUX_DESC_H */
