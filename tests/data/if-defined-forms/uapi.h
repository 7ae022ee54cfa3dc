#ifndef _UAPI_LINUX_FORMS_H
#define _UAPI_LINUX_FORMS_H

#if !defined(__KERNEL__)
int u1;
#endif
#if !defined(__KERNEL__)
int u3;
#endif

#endif /* _UAPI_LINUX_FORMS_H */
