/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_GENERIC_KVM_PARA_H
#define _UAPI_ASM_GENERIC_KVM_PARA_H
#endif
