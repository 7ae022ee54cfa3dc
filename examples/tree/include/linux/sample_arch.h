#ifndef _LINUX_SAMPLE_ARCH_H
#define _LINUX_SAMPLE_ARCH_H
#include <asm/sample_arch.h>
#ifdef __KERNEL__
#elif defined(SAMPLE_LEGACY)
#define SAMPLE_OLD 1
#endif
#endif
