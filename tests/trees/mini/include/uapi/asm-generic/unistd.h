/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_GENERIC_UNISTD_H
#define _UAPI_ASM_GENERIC_UNISTD_H
#define __NR_read 63
#endif
