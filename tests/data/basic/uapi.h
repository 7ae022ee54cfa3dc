/*
 * Banner of the basic case.
 */

#ifndef _UAPI_LINUX_BASIC_H
#define _UAPI_LINUX_BASIC_H

#include <linux/types.h>

struct basic_user {
	__u32 a;
};


#define BASIC_FLAG 1

#endif /* _UAPI_LINUX_BASIC_H */
