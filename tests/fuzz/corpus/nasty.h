#ifndef X
#define X 1
#if defined(__KERNEL__) && defined(CONFIG_A)
int a; /* c
 */
#elif B
#endif
#ifdef __KERNEL__ /* multi
 line */
"/*" '"' x \
 y
#endif
#endif
