/* first comment */
 
/* second comment, not banner */
#ifndef _LINUX_WS_H
#define _LINUX_WS_H

struct ws { int x; };

#ifdef __KERNEL__
extern struct ws ws;
#endif
#endif
