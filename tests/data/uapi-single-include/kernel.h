#ifndef _ASM_TYPES_H
#define _ASM_TYPES_H

#include <uapi/asm/types.h>

/*
 * These aren't exported outside the kernel.
 */

#define BITS_PER_LONG 32

#endif
