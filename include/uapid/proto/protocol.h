/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the daemon and its clients agree on, apart from either: the
 * JSON-RPC 2.0 error codes and the bounds of one request.  The socket's
 * methods and their fields are doc/protocol.md's (uapid-protocol(7)).
 */
#ifndef UAPID_PROTO_PROTOCOL_H
#define UAPID_PROTO_PROTOCOL_H

/* JSON-RPC 2.0 error codes. */
enum {
	UD_RPC_PARSE_ERROR = -32700,
	UD_RPC_INVALID_REQUEST = -32600,
	UD_RPC_METHOD_NOT_FOUND = -32601,
	UD_RPC_INVALID_PARAMS = -32602,
	UD_RPC_INTERNAL_ERROR = -32603,
	UD_RPC_SERVER_ERROR = -32000, /* the request was fine; the daemon could not do it */
};

#define UD_RPC_MAX_REQUEST (8u << 20) /* bytes in one request line */
#define UD_RPC_MAX_BATCH 1000u	      /* calls in one batch array */

#endif /* UAPID_PROTO_PROTOCOL_H */
