#ifndef _LINUX_FORMS_H
#define _LINUX_FORMS_H

#if defined(__KERNEL__)
int k1;
#endif
#if defined __KERNEL__
int k2;
#endif
#if !defined(__KERNEL__)
int u1;
#endif
#if defined(__KERNEL__)
int k3;
#else
int u3;
#endif

#endif
