#ifndef _LINUX_RET_H
#define _LINUX_RET_H

#include <uapi/linux/test.h>

int split_off;
#endif
