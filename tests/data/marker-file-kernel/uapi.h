#ifndef _UAPI_LINUX_MFK_H
#define _UAPI_LINUX_MFK_H
#define MFK_USER 1
#endif /* _UAPI_LINUX_MFK_H */
