/*
 * Late banner
 * Copyright 2002 Somebody
 */
#ifndef _ASM_LATE_H
#define _ASM_LATE_H

#include <uapi/asm/late.h>


extern struct late late;

#endif /* _ASM_LATE_H */
