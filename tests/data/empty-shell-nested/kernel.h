#ifndef _LINUX_SHELL_H
#define _LINUX_SHELL_H

#include <uapi/linux/test.h>

#ifndef __ASSEMBLY__
#ifdef CONFIG_64BIT
#else
#endif
#if defined(A)
#ifndef B
#endif
#endif
extern shell_t shell;
#endif /* __ASSEMBLY__ */
#endif /* _LINUX_SHELL_H */
