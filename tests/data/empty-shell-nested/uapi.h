#ifndef _UAPI_LINUX_SHELL_H
#define _UAPI_LINUX_SHELL_H

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
#endif /* __ASSEMBLY__ */
#endif /* _UAPI_LINUX_SHELL_H */
