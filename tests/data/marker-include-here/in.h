#ifndef _LINUX_MIH_H
#define _LINUX_MIH_H

#ifdef __KERNEL__
#define MIH_BEFORE 1
// DISINTEGRATE: INCLUDE UAPI HERE
int mih_kernel;
#endif

#define MIH_USER 2

#endif
