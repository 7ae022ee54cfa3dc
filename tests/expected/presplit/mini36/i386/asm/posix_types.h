#ifndef _ASM_X86_POSIX_TYPES_H
#define _ASM_X86_POSIX_TYPES_H
typedef unsigned long	__kernel_size_t;
#endif
