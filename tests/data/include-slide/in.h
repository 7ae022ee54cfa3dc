#ifndef _LINUX_SLIDE_H
#define _LINUX_SLIDE_H

#define SLIDE_USER 1

#ifdef __KERNEL__
#include <linux/list.h>
#include <linux/spinlock.h>
#ifdef CONFIG_SLIDE
#include <linux/slide_cfg.h>
#endif

extern int slide_kernel;
#endif

#endif
