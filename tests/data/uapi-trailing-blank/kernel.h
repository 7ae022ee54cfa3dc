#ifndef _LINUX_TB_H
#define _LINUX_TB_H

#include <uapi/linux/test.h>

extern struct tb tb;
#endif /* _LINUX_TB_H */
