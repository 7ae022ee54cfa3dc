#ifndef _UAPI_LINUX_RET_H
#define _UAPI_LINUX_RET_H

#ifdef __KERNEL__
int kept_as_is;
#endif


#endif /* _UAPI_LINUX_RET_H */
