#ifndef _ASM_X86_SAMPLE_REGS_H
#define _ASM_X86_SAMPLE_REGS_H

#include <uapi/asm/sample_regs.h>

#ifndef __ASSEMBLY__
struct sample_regs {
	unsigned long ip, sp;
};
#endif /* __ASSEMBLY__ */
#endif /* _ASM_X86_SAMPLE_REGS_H */
