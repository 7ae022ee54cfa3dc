/*
 * This program is free software; you can redistribute it under the
 * terms of the GNU General Public License version 2.
 */
#ifndef _LINUX_LATER_H
#define _LINUX_LATER_H

#include <uapi/linux/test.h>

/* Copyright in a kernel-only part never moves */
extern struct later later;
#endif /* _LINUX_LATER_H */
