#ifndef _LINUX_TB_H
#define _LINUX_TB_H

struct tb { int x; };

#ifdef __KERNEL__
extern struct tb tb;
#endif

#endif /* _LINUX_TB_H */


