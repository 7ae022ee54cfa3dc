#ifndef _LINUX_MINI2635_H
#define _LINUX_MINI2635_H


#include <linux/types.h>

struct mini2635_req {
	void *buf;
	char 		*name;
	const void *tab;
	__u32 len;
} __packed;

extern int mini2635_id(int x) __attribute_const__;
extern int mini2635_get(void) ;

static __inline__ int mini2635_ok(void) { __asm__ __volatile__("" ::: "memory"); return 1; }
static __inline__ void mini2635_barrier(__volatile__ int *p) { (void)p; }

#define MINI2635_USER 1

int level_user;
int always_either;
#if defined(MINI_A)
int a;
#else
int c;
#endif
#if __EXPORTED_HEADERS__
int exported_value;
#endif
int macro_call;
#if 0
int constant;
#endif

#endif /* _LINUX_MINI2635_H */
