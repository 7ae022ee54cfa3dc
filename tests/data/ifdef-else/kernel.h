#ifndef _LINUX_IE_H
#define _LINUX_IE_H

#include <uapi/linux/test.h>

typedef unsigned long ie_t;
#endif
