#ifndef _LINUX_CONT_H
#define _LINUX_CONT_H

#include <uapi/linux/test.h>

int k;
int k2;
#endif
