#ifndef _ASM_X86_BOOT_H
#define _ASM_X86_BOOT_H
#define NORMAL_VGA	0xffff
#ifdef __KERNEL__
#define BOOT_HEAP_SIZE	0x7000
#endif
#endif
