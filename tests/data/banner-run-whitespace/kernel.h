/* first comment */
#ifndef _LINUX_WS_H
#define _LINUX_WS_H

#include <uapi/linux/test.h>

extern struct ws ws;
#endif
