#ifndef _LINUX_CONT_H
#define _LINUX_CONT_H
#\
	if defined(__KERNEL__)
int k;
#else
int u;
#endif
# \
ifdef __KERNEL__
int k2;
#else
int u2;
#endif
#endif
