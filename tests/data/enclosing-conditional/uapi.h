#ifndef _UAPI_ASM_ENC_H
#define _UAPI_ASM_ENC_H

#ifndef __ASSEMBLY__
struct enc_regs {
	long r;
};


#ifdef CONFIG_ENC
#define ENC_USER_NOTE 1
#endif
#endif /* __ASSEMBLY__ */

#endif /* _UAPI_ASM_ENC_H */
