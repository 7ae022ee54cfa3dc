#ifndef _LINUX_MFK_H
#define _LINUX_MFK_H
#define MFK_USER 1
#ifdef CONFIG_MFK
int mfk_only_in_kernel;
#endif
#endif
