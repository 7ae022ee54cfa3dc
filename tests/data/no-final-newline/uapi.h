#ifndef _UAPI_LINUX_NFN_H
#define _UAPI_LINUX_NFN_H
int shared;
#endif /* _UAPI_LINUX_NFN_H */
