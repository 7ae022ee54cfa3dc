#ifndef _LINUX_SLIDE_H
#define _LINUX_SLIDE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#ifdef CONFIG_SLIDE
#include <linux/slide_cfg.h>
#endif
#include <uapi/linux/test.h>

extern int slide_kernel;
#endif
