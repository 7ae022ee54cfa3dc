#ifndef _UAPI_LINUX_MFI_H
#define _UAPI_LINUX_MFI_H
#define MFI_USER 1
#endif /* _UAPI_LINUX_MFI_H */
