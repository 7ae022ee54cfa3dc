#ifndef _ASM_X86_SAMPLE_ARCH_H
#define _ASM_X86_SAMPLE_ARCH_H

#include <uapi/asm/sample_arch.h>

static inline int sample_arch_ok(void) { return 1; }
#endif
