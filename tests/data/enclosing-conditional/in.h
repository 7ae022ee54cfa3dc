#ifndef _ASM_ENC_H
#define _ASM_ENC_H

#ifndef __ASSEMBLY__
struct enc_regs {
	long r;
};

#ifdef __KERNEL__
extern void enc_kernel(void);
#endif

#ifdef CONFIG_ENC
#define ENC_USER_NOTE 1
#endif
#endif /* __ASSEMBLY__ */

#endif
