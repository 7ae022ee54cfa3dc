#ifndef _LINUX_CRLF_H
#define _LINUX_CRLF_H

#include <uapi/linux/test.h>

int k;
#endif
