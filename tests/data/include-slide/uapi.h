#ifndef _UAPI_LINUX_SLIDE_H
#define _UAPI_LINUX_SLIDE_H

#define SLIDE_USER 1


#endif /* _UAPI_LINUX_SLIDE_H */
