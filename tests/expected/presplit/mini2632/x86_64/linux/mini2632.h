#ifndef _LINUX_MINI2632_H
#define _LINUX_MINI2632_H


#include <linux/types.h>

struct mini2632_req {
	void *buf;
	char 		*name;
	const void *tab;
	__u32 len;
} __packed;

extern int mini2632_id(int x) __attribute_const__;
extern int mini2632_get(void) ;

static __inline__ int mini2632_ok(void) { __asm__ __volatile__("" ::: "memory"); return 1; }
static __inline__ void mini2632_barrier(__volatile__ int *p) { (void)p; }

#define MINI2632_USER 1

#if defined(__KERNEL__) && MINI_LEVEL >= 2
int level_kernel;
#else
int level_user;
#endif
#if defined __KERNEL__
int unparenthesised;
#endif
#if defined(__KERNEL__) && (defined(MINI_A) || defined(MINI_B))
int grouped;
#endif
int never_both;
#if defined(MINI_A)
int a;
#elif defined(__KERNEL__) && MINI_B
int b;
#else
int c;
#endif
#if __EXPORTED_HEADERS__
int exported_value;
#endif
#if MINI_F(1) || !defined(__KERNEL__)
int macro_call;
#endif
#if 0
int constant;
#endif

#endif /* _LINUX_MINI2632_H */
