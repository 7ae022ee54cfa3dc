#ifndef _LINUX_FORMS_H
#define _LINUX_FORMS_H

#include <uapi/linux/test.h>

int k1;
int k2;
int k3;
#endif
