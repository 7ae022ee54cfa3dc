#ifndef _LINUX_LIC_H
#define _LINUX_LIC_H

/*
 *  Copyright (c) 1999 Somebody
 */

/*
 * Maintained by Someone <someone@example.org>
 */

/*
 * What this header describes: it stays where it is.
 */

#include <linux/types.h>

struct lic { __u32 x; };

#ifdef __KERNEL__
extern struct lic lic;
#endif
#endif /* _LINUX_LIC_H */
