#ifndef _LINUX_KVM_H
#define _LINUX_KVM_H
#include <asm/kvm.h>
#endif
