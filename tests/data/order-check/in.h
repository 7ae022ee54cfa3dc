#ifndef _ASM_X86_ORDER_H
#error "include <asm/order.h> via <asm/x86.h> only"
#endif

#ifndef LINUX_KEXEC_H
#define LINUX_KEXEC_H

#ifdef __KERNEL__
int kexec_kernel;
#endif
int kexec_user;

#endif
