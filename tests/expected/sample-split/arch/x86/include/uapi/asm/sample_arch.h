#ifndef _UAPI_ASM_X86_SAMPLE_ARCH_H
#define _UAPI_ASM_X86_SAMPLE_ARCH_H

#include "sample_regs.h"

#define SAMPLE_ARCH_BITS 64


#endif /* _UAPI_ASM_X86_SAMPLE_ARCH_H */
