#ifndef _LINUX_OLDONLY_H
#define _LINUX_OLDONLY_H
#define MINI3_OLDONLY 1
#endif
