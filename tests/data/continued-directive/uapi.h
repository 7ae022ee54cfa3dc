#ifndef _UAPI_LINUX_CONT_H
#define _UAPI_LINUX_CONT_H
#if !defined(__KERNEL__)
int u;
#endif
#ifndef __KERNEL__
int u2;
#endif
#endif /* _UAPI_LINUX_CONT_H */
