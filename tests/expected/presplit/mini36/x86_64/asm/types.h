#ifndef _ASM_X86_TYPES_H
#define _ASM_X86_TYPES_H

#include <asm-generic/int-ll64.h>


#endif /* _ASM_X86_TYPES_H */
