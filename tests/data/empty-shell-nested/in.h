#ifndef _LINUX_SHELL_H
#define _LINUX_SHELL_H

#ifndef __ASSEMBLY__
#ifdef CONFIG_64BIT
typedef long shell_t;
#else
typedef int shell_t;
#endif
#if defined(A)
#ifndef B
#define AB 1
#endif
#endif
#ifdef __KERNEL__
extern shell_t shell;
#endif
#endif /* __ASSEMBLY__ */
#endif /* _LINUX_SHELL_H */
