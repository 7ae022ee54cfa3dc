# ifdef __i386__
typedef unsigned int	__kernel_size_t;
# else
typedef unsigned long	__kernel_size_t;
# endif
