#ifndef _ASM_LATE_H
#define _ASM_LATE_H

/*
 * Late banner
 * Copyright 2002 Somebody
 */


#include <linux/types.h>

struct late { __u32 x; };

#ifdef __KERNEL__

extern struct late late;

#endif	/* __KERNEL__ */
#endif /* _ASM_LATE_H */
