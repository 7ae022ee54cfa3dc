/*
 * Late banner
 * Copyright 2002 Somebody
 */
#ifndef _UAPI_ASM_LATE_H
#define _UAPI_ASM_LATE_H



#include <linux/types.h>

struct late { __u32 x; };

#endif /* _UAPI_ASM_LATE_H */
