#ifndef _LINUX_COMP_H
#define _LINUX_COMP_H

#include <uapi/linux/test.h>

int comp_kernel;
#endif
