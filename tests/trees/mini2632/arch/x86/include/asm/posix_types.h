#ifdef __KERNEL__
# ifdef CONFIG_X86_32
#  include "posix_types_32.h"
# else
#  include "posix_types_64.h"
# endif
#else
# ifdef __i386__
typedef unsigned int	__kernel_size_t;
# else
typedef unsigned long	__kernel_size_t;
# endif
#endif
