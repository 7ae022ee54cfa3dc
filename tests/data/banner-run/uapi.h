/* banner-run.h - a header opened by two comments */

/* Written 1997 by Somebody */


#ifndef _UAPI_LINUX_RUN_H
#define _UAPI_LINUX_RUN_H

#include <linux/types.h>

struct run { __u32 x; };

#endif /* _UAPI_LINUX_RUN_H */
