#ifndef _ASM_GENERIC_INT_LL64_H
#define _ASM_GENERIC_INT_LL64_H

#ifndef __ASSEMBLY__
typedef unsigned int __u32;
typedef unsigned short __u16;
#ifdef __GNUC__
__extension__ typedef unsigned long long __u64;
#else
typedef unsigned long long __u64;
#endif
#endif /* __ASSEMBLY__ */

#endif /* _ASM_GENERIC_INT_LL64_H */
