#ifndef _ASM_ENC_H
#define _ASM_ENC_H

#include <uapi/linux/test.h>

#ifndef __ASSEMBLY__
extern void enc_kernel(void);
#ifdef CONFIG_ENC
#endif
#endif /* __ASSEMBLY__ */
#endif
