/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UAPI_LINUX_MINI_NONOTE_H
#define _UAPI_LINUX_MINI_NONOTE_H
#define MINI_NONOTE 1
#endif
