/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MINI_UNTESTABLE_H
#define _UAPI_LINUX_MINI_UNTESTABLE_H
struct needs_other_headers x;
#endif
