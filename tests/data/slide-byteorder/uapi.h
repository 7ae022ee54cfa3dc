#ifndef _UAPI_LINUX_BO_H
#define _UAPI_LINUX_BO_H

#define BO_USER 1


#endif /* _UAPI_LINUX_BO_H */
