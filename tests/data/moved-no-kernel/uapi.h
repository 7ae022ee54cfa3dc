#ifndef _LINUX_PLAIN_H
#define _LINUX_PLAIN_H

#define PLAIN 1

#ifndef __KERNEL__
#include <stdint.h>
#endif

#endif
