#ifndef LINUX_KEXEC_H
#define LINUX_KEXEC_H

#include <uapi/linux/test.h>

int kexec_kernel;
#endif
