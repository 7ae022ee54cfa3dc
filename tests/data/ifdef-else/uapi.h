#ifndef _UAPI_LINUX_IE_H
#define _UAPI_LINUX_IE_H

#ifndef __KERNEL__
typedef unsigned int ie_t;
#endif

#endif /* _UAPI_LINUX_IE_H */
