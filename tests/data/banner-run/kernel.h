/* banner-run.h - a header opened by two comments */

/* Written 1997 by Somebody */

#ifndef _LINUX_RUN_H
#define _LINUX_RUN_H

#include <uapi/linux/test.h>

extern struct run run;
#endif
