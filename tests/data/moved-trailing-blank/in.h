#ifndef _LINUX_MTB_H
#define _LINUX_MTB_H

struct mtb { int x; };

#endif /* _LINUX_MTB_H */

