/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_KVM_H
#define _UAPI_LINUX_KVM_H
#define KVM_API_VERSION 12
#endif
