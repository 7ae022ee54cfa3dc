#ifndef _ASM_M68K_TYPES_H
#define _ASM_M68K_TYPES_H

#include <asm-generic/int-ll64.h>


#endif /* _ASM_M68K_TYPES_H */
