#ifndef _UAPI_ASM_X86_SAMPLE_REGS_H
#define _UAPI_ASM_X86_SAMPLE_REGS_H

#ifndef __ASSEMBLY__
#ifndef __KERNEL__
struct sample_regs {
	unsigned long long ip, sp;
};
#endif
#endif /* __ASSEMBLY__ */

#endif /* _UAPI_ASM_X86_SAMPLE_REGS_H */
