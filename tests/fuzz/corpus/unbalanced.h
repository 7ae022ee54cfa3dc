#ifdef __KERNEL__
#ifdef __KERNEL__
#endif
#endif
#else
#endif
#if
