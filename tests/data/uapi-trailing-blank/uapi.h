#ifndef _UAPI_LINUX_TB_H
#define _UAPI_LINUX_TB_H

struct tb { int x; };


#endif /* _UAPI_LINUX_TB_H */
