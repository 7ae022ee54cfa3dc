/* banner */
#ifndef _A_H
#define _A_H
#include <linux/types.h>
#ifdef __KERNEL__
int k;
#else
int u;
#endif
struct s {
#ifdef __KERNEL__
 int x;
#endif
};
#endif
