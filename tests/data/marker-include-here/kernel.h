#ifndef _LINUX_MIH_H
#define _LINUX_MIH_H

#define MIH_BEFORE 1
#include <uapi/linux/test.h>
int mih_kernel;
#endif
