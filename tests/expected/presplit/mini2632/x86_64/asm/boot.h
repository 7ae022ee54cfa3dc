#ifndef _ASM_X86_BOOT_H
#define _ASM_X86_BOOT_H
#define NORMAL_VGA	0xffff
#endif
