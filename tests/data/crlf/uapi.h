#ifndef _UAPI_LINUX_CRLF_H
#define _UAPI_LINUX_CRLF_H

int shared;

#endif /* _UAPI_LINUX_CRLF_H */
