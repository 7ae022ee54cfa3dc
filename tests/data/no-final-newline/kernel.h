#ifndef _LINUX_NFN_H
#define _LINUX_NFN_H

#include <uapi/linux/test.h>

int k;
#endif
