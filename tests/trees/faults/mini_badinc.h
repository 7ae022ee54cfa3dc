/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_BADINC_H
#define _UAPI_LINUX_MINI_BADINC_H

#include <linux/types.h>
#include <linux/not_exported.h>

#endif
