#ifndef _ASM_X86_ORDER_H
#error "include <asm/order.h> via <asm/x86.h> only"
#endif

#ifndef _UAPILINUX_KEXEC_H
#define _UAPILINUX_KEXEC_H

int kexec_user;

#endif /* _UAPILINUX_KEXEC_H */
