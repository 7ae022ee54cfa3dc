#ifndef _LINUX_MSC_H
#define _LINUX_MSC_H
#define MSC_USER 1
#if defined(__KERNEL__) && defined(CONFIG_MSC)
int msc_kernel_cfg;
#endif
#endif
