#ifndef _NF_MINI_H
#define _NF_MINI_H
int nf_mini_user;
#endif
