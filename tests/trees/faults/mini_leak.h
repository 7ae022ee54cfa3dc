/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_LEAK_H
#define _UAPI_LINUX_MINI_LEAK_H
/* CONFIG_IN_A_COMMENT is fine */
#ifdef CONFIG_MINI_DEBUG
#define MINI_DEBUG 1
#endif
#endif
