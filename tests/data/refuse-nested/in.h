#ifndef _VIDEO_EDID_H
#define _VIDEO_EDID_H
#ifdef __KERNEL__
#ifdef __KERNEL__
int inner;
#endif
#endif
#endif
