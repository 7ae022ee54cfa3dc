#ifndef _UAPI_ASM_GENERIC_TYPES_H
#define _UAPI_ASM_GENERIC_TYPES_H
typedef unsigned int __u32;
#endif /* _UAPI_ASM_GENERIC_TYPES_H */
