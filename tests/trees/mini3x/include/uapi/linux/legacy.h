#ifndef _UAPI_LINUX_LEGACY_H
#define _UAPI_LINUX_LEGACY_H
/* 3.x had no CONFIG_ leak check: this installs as it is */
#ifdef CONFIG_MINI3_LEGACY
#define MINI3_LEGACY 1
#endif
#endif
