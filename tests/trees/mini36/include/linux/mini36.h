#ifndef _LINUX_MINI36_H
#define _LINUX_MINI36_H

#include <linux/compiler.h>
#include <linux/types.h>

struct mini36_req {
	void __user *buf;
	char __user
		*name;
	const void __user	*tab;
	__u32 len;
} __packed;

extern int mini36_id(int x) __attribute_const__;
extern int mini36_get(void) __attribute_const__ ;

static inline int mini36_ok(void) { asm volatile("" ::: "memory"); return 1; }
static inline void mini36_barrier(volatile int *p) { (void)p; }

#ifndef __EXPORTED_HEADERS__
#warning "mini36.h: not a header installed by make headers_install"
#endif
#ifdef __KERNEL__
extern int mini36_kernel_only(void);
#else
#define MINI36_USER 1
#endif /* __KERNEL__ */

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
#if !defined(__KERNEL__) && defined(__KERNEL__)
int never_both;
#endif
#if defined(__KERNEL__) || !defined(__KERNEL__)
int always_either;
#endif
#if defined(MINI_A)
int a;
#elif defined(__KERNEL__) && MINI_B
int b;
#elif !defined(__KERNEL__)
int c;
#else
int d;
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

#endif /* _LINUX_MINI36_H */
