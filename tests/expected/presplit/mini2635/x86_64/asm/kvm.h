#ifndef _ASM_X86_KVM_H
#define _ASM_X86_KVM_H
struct kvm_mini { __u32 flags; } __packed;
#endif
