#ifndef _LINUX_NE_H
#define _LINUX_NE_H

#include <uapi/linux/test.h>

#define NE_KERNEL 1
#endif
