#ifndef _LINUX_MINI36_H
#define _LINUX_MINI36_H


#include <linux/types.h>

struct mini36_req {
	void *buf;
	char 		*name;
	const void *tab;
	__u32 len;
} __attribute__((packed));

extern int mini36_id(int x) __attribute_const__;
extern int mini36_get(void) ;

static __inline__ int mini36_ok(void) { __asm__ __volatile__("" ::: "memory"); return 1; }
static __inline__ void mini36_barrier(__volatile__ int *p) { (void)p; }

#define MINI36_USER 1

int level_user;
int always_either;
#if defined(MINI_A)
int a;
#else
int c;
#endif
int exported_value;
int macro_call;
#if 0
int constant;
#endif

#endif /* _LINUX_MINI36_H */
