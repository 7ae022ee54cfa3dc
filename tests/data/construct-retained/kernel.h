#ifndef _LINUX_CONS_H
#define _LINUX_CONS_H

#include <uapi/linux/test.h>

void cons_init(struct cons *c);
#endif
