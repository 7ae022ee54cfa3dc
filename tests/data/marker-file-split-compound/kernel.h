#ifndef _LINUX_MSC_H
#define _LINUX_MSC_H

#include <uapi/linux/test.h>

#if defined(CONFIG_MSC)
int msc_kernel_cfg;
#endif
#endif
