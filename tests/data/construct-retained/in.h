#ifndef _LINUX_CONS_H
#define _LINUX_CONS_H

struct cons {
	int a;
#ifdef __KERNEL__
	int kernel_private;
#endif
	int b;
};

#ifdef __KERNEL__
void cons_init(struct cons *c);
#endif

#endif
