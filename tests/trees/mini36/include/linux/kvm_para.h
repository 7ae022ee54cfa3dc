#ifndef _LINUX_KVM_PARA_H
#define _LINUX_KVM_PARA_H
#include <asm/kvm_para.h>
#ifdef __KERNEL__
int kvm_para_kernel;
#endif
#endif
