#ifndef _LINUX_BO_H
#define _LINUX_BO_H

#include <linux/compiler.h>
#include <uapi/linux/test.h>

#include <linux/byteorder/generic.h>
#include <linux/late.h>
int bo;
#endif
