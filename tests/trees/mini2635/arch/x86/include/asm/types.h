#ifndef _ASM_X86_TYPES_H
#define _ASM_X86_TYPES_H

#include <asm-generic/int-ll64.h>

#ifdef __KERNEL__
#define BITS_PER_LONG 32
#endif

#endif /* _ASM_X86_TYPES_H */
