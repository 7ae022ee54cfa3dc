#ifndef Y
#define Y
#ifdef __KERNEL__
int a;
#endif
#endif