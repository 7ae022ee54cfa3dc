#ifndef _LINUX_MFR_H
#define _LINUX_MFR_H

#include <uapi/linux/test.h>

int first;
#endif
