#ifndef _LINUX_MFI_H
#define _LINUX_MFI_H

#include <linux/a.h>
#define NEEDS_A A_VALUE
#include <linux/b.h>
#include <uapi/linux/test.h>
int mfi;
#endif
