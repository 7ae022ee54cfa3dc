#ifndef _LINUX_MFR_H
#define _LINUX_MFR_H
#ifdef __KERNEL__
int first;
#endif
#ifdef __KERNEL__
int second_kept;
#endif
#endif
