#ifndef _UAPI_LINUX_MIH_H
#define _UAPI_LINUX_MIH_H


#define MIH_USER 2

#endif /* _UAPI_LINUX_MIH_H */
