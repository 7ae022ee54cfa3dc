#ifndef _LINUX_NFN_H
#define _LINUX_NFN_H
int shared;
#ifdef __KERNEL__
int k;
#endif
#endif