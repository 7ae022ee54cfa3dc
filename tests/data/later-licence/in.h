#ifndef _LINUX_LATER_H
#define _LINUX_LATER_H

#include <linux/types.h>

#ifdef __KERNEL__
/* Copyright in a kernel-only part never moves */
extern struct later later;
#endif

/*
 * Maintained by Someone <someone@example.org>: an address alone this far down stays
 */

/*
 * This program is free software; you can redistribute it under the
 * terms of the GNU General Public License version 2.
 */

struct later { __u32 x; };

#endif /* _LINUX_LATER_H */
