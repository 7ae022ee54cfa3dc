#ifndef _LINUX_FORMS_H
#define _LINUX_FORMS_H

#ndif
#\
																															if defined(__KERNEL__)
int k3;
#else
’’’’’int u3;
#endif

#endif
