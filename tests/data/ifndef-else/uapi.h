#ifndef _UAPI_LINUX_NE_H
#define _UAPI_LINUX_NE_H

#ifndef __KERNEL__
#define NE_USER 1
#endif

#endif /* _UAPI_LINUX_NE_H */
