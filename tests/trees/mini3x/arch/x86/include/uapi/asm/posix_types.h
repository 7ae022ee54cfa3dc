#ifndef _ASM_X86_POSIX_TYPES_H
#define _ASM_X86_POSIX_TYPES_H
typedef long __kernel_long_t;
#endif
