/*
 * This program is free software; you can redistribute it under the
 * terms of the GNU General Public License version 2.
 */
#ifndef _UAPI_LINUX_LATER_H
#define _UAPI_LINUX_LATER_H

#include <linux/types.h>


/*
 * Maintained by Someone <someone@example.org>: an address alone this far down stays
 */


struct later { __u32 x; };

#endif /* _UAPI_LINUX_LATER_H */
