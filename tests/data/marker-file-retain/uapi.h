#ifndef _UAPI_LINUX_MFR_H
#define _UAPI_LINUX_MFR_H
#ifdef __KERNEL__
int second_kept;
#endif
#endif /* _UAPI_LINUX_MFR_H */
