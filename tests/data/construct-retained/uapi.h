#ifndef _UAPI_LINUX_CONS_H
#define _UAPI_LINUX_CONS_H

struct cons {
	int a;
#ifdef __KERNEL__
	int kernel_private;
#endif
	int b;
};


#endif /* _UAPI_LINUX_CONS_H */
