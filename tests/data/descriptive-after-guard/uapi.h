#ifndef _UAPI_LINUX_DESC_H
#define _UAPI_LINUX_DESC_H

/*
 * Definitions for the desc interface.
 */

#include <linux/types.h>

struct desc { __u32 x; };

#endif /* _UAPI_LINUX_DESC_H */
