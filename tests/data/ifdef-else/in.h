#ifndef _LINUX_IE_H
#define _LINUX_IE_H

#ifdef __KERNEL__
typedef unsigned long ie_t;
#else
typedef unsigned int ie_t;
#endif

#endif
