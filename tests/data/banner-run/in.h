/* banner-run.h - a header opened by two comments */

/* Written 1997 by Somebody */


#ifndef _LINUX_RUN_H
#define _LINUX_RUN_H

#include <linux/types.h>

struct run { __u32 x; };

#ifdef __KERNEL__
extern struct run run;
#endif
#endif
