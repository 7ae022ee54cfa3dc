#ifndef _LINUX_ELIF_H
#define _LINUX_ELIF_H
#ifdef __KERNEL__
int a;
#elif defined(FOO)
int b;
#endif
#endif
