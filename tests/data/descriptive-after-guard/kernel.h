#ifndef _LINUX_DESC_H
#define _LINUX_DESC_H

#include <uapi/linux/test.h>

extern struct desc desc;
#endif /* _LINUX_DESC_H */
