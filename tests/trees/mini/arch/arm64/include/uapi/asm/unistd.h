/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#define __ARCH_WANT_RENAMEAT
#include <asm-generic/unistd.h>
