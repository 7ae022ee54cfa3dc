/*
 *  Copyright (c) 1999 Somebody
 */
/*
 * Maintained by Someone <someone@example.org>
 */
#ifndef _LINUX_LIC_H
#define _LINUX_LIC_H

#include <uapi/linux/test.h>

extern struct lic lic;
#endif /* _LINUX_LIC_H */
