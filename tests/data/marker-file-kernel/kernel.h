#ifndef _LINUX_MFK_H
#define _LINUX_MFK_H

#include <uapi/linux/test.h>

#ifdef CONFIG_MFK
int mfk_only_in_kernel;
#endif
#endif
