#ifndef _LINUX_COMP_H
#define _LINUX_COMP_H

#if defined(__KERNEL__) && defined(CONFIG_COMP)
int comp_kernel_cfg;
#endif

#ifdef __KERNEL__
int comp_kernel;
#endif

#endif
