#ifndef _LINUX_BO_H
#define _LINUX_BO_H

#define BO_USER 1

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/byteorder/generic.h>
#include <linux/late.h>
int bo;
#endif

#endif
