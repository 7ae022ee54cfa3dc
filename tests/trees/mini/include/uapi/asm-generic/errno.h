/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_GENERIC_ERRNO_H
#define _UAPI_ASM_GENERIC_ERRNO_H
#define EMINI 200
#endif
