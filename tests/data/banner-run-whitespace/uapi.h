/* first comment */
 
/* second comment, not banner */
#ifndef _UAPI_LINUX_WS_H
#define _UAPI_LINUX_WS_H

struct ws { int x; };

#endif /* _UAPI_LINUX_WS_H */
