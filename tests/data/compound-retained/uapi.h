#ifndef _UAPI_LINUX_COMP_H
#define _UAPI_LINUX_COMP_H

#if defined(__KERNEL__) && defined(CONFIG_COMP)
int comp_kernel_cfg;
#endif


#endif /* _UAPI_LINUX_COMP_H */
