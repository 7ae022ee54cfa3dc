#ifndef _LINUX_CRLF_H
#define _LINUX_CRLF_H

int shared;
#ifdef __KERNEL__
int k;
#endif

#endif
