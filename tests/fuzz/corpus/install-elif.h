#if defined(X)
x
#elif !defined(__KERNEL__)
u
#else
z
#endif
#ifdef __KERNEL__
#elif Y
#endif
