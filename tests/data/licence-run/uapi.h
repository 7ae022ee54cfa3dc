/*
 *  Copyright (c) 1999 Somebody
 */
/*
 * Maintained by Someone <someone@example.org>
 */
#ifndef _UAPI_LINUX_LIC_H
#define _UAPI_LINUX_LIC_H



/*
 * What this header describes: it stays where it is.
 */

#include <linux/types.h>

struct lic { __u32 x; };

#endif /* _UAPI_LINUX_LIC_H */
