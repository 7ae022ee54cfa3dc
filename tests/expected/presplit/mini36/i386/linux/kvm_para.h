#ifndef _LINUX_KVM_PARA_H
#define _LINUX_KVM_PARA_H
#include <asm/kvm_para.h>
#endif
