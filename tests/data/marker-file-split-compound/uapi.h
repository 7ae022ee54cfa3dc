#ifndef _UAPI_LINUX_MSC_H
#define _UAPI_LINUX_MSC_H
#define MSC_USER 1
#endif /* _UAPI_LINUX_MSC_H */
