#ifndef _LINUX_NE_H
#define _LINUX_NE_H

#ifndef __KERNEL__
#define NE_USER 1
#else
#define NE_KERNEL 1
#endif

#endif
