/* no guard here */
int shared;
#ifdef __KERNEL__
int k;
#endif
