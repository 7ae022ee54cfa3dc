#ifndef _LINUX_SKIP_H
#define _LINUX_SKIP_H
#ifdef __KERNEL__
int skipped;
#endif
#endif
