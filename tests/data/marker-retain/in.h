#ifndef _LINUX_RET_H
#define _LINUX_RET_H

#ifdef __KERNEL__ // DISINTEGRATE: RETAIN
int kept_as_is;
#endif

#ifdef __KERNEL__
int split_off;
#endif

#endif
