#ifndef _ASM_X86_SAMPLE_REGS_H
#define _ASM_X86_SAMPLE_REGS_H

#ifndef __ASSEMBLY__
#ifdef __KERNEL__
struct sample_regs {
	unsigned long ip, sp;
};
#else
struct sample_regs {
	unsigned long long ip, sp;
};
#endif
#endif /* __ASSEMBLY__ */

#endif /* _ASM_X86_SAMPLE_REGS_H */
