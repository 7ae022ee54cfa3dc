#ifndef _NF_MINI_H
#define _NF_MINI_H
#ifdef __KERNEL__
int nf_mini_kernel;
#endif
#ifndef __KERNEL__
int nf_mini_user;
#else
int nf_mini_other;
#endif
#endif
