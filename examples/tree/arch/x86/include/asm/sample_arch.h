#ifndef _ASM_X86_SAMPLE_ARCH_H
#define _ASM_X86_SAMPLE_ARCH_H

#include "sample_regs.h"

#define SAMPLE_ARCH_BITS 64

#ifdef __KERNEL__
static inline int sample_arch_ok(void) { return 1; }
#endif

#endif
