/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_OLD_H
#define _UAPI_LINUX_MINI_OLD_H
#ifdef CONFIG_MINI_LEGACY
#define MINI_OLD 1
#endif
#endif
