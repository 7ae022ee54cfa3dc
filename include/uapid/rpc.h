/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's JSON-RPC 2.0 server on its Unix stream socket: one JSON
 * object (or batch array) per line, methods from a table, notifications
 * pushed to subscribers.
 *
 * Careful-daemon rules: a peer whose uid is not the daemon's (or root),
 * nor whose gid is the socket's group, is refused at accept (SO_PEERCRED);
 * a request line over the limit gets an error and the connection is
 * closed, never buffered; a subscriber that does not read and whose queue
 * passes the bound is disconnected, with a log line; a malformed line
 * gets an error reply and the connection stays usable.
 */
#ifndef UAPID_RPC_H
#define UAPID_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <uv.h>

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
#define UD_RPC_MAX_QUEUE (4u << 20)   /* bytes waiting to be read by one client */

struct ud_rpc;
struct ud_rpc_client;

/*
 * A method: returns its result (a new reference), or NULL with *code and
 * *message set (message malloc'd) for an error reply.
 */
typedef json_t *(*ud_rpc_fn)(void *ctx, struct ud_rpc_client *c, json_t *params, int *code,
			     char **message);

struct ud_rpc_method {
	const char *name;
	ud_rpc_fn fn;
};

struct ud_rpc_opts {
	const char *path;   /* the socket's path (bound here unless activated_fd >= 0) */
	int activated_fd;   /* a listening socket from systemd, or -1 */
	gid_t group;	    /* clients of this group are served too (mode 0660); (gid_t)-1: none */
	size_t max_request; /* 0: UD_RPC_MAX_REQUEST */
	size_t max_queue;   /* 0: UD_RPC_MAX_QUEUE */
};

/*
 * Listens (binding the path under umask 077, then mode 0600 or 0660 with
 * a group; a stale socket replaced; one a live daemon answers on refused)
 * or takes the activated socket.  Returns 0 or a negative errno with
 * *cause.
 */
int ud_rpc_open(struct ud_rpc **out, uv_loop_t *loop, const struct ud_rpc_opts *o,
		const struct ud_rpc_method *methods, size_t nmethods, void *ctx, char **cause);
/* Where it listens (for an activated socket, where systemd bound it). */
const char *ud_rpc_path(const struct ud_rpc *r);
/* Subscribes or unsubscribes the client to pushed notifications. */
void ud_rpc_subscribe(struct ud_rpc_client *c, bool on);
/* Sends a notification to every subscriber (params: a reference is taken). */
void ud_rpc_notify_all(struct ud_rpc *r, const char *method, json_t *params);
size_t ud_rpc_clients(const struct ud_rpc *r);
size_t ud_rpc_subscribers(const struct ud_rpc *r);
/* Stops listening, closes every client, removes the socket it bound. */
void ud_rpc_close(struct ud_rpc *r);

/* For methods: "invalid params: FIELD must be ..." as an error. */
json_t *ud_rpc_bad_param(int *code, char **message, const char *field, const char *what);

#endif /* UAPID_RPC_H */
