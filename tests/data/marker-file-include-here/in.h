#ifndef _LINUX_MFI_H
#define _LINUX_MFI_H
#define MFI_USER 1
#ifdef __KERNEL__
#include <linux/a.h>
#define NEEDS_A A_VALUE
#include <linux/b.h>
int mfi;
#endif
#endif
