/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's JSON-RPC 2.0 server on its Unix stream socket: one JSON
 * object (or batch array) per line, methods from a table, notifications
 * pushed to subscribers.
 *
 * Careful-daemon rules: a peer whose uid is not the daemon's (or root),
 * nor whose gid is the socket's group, is refused at accept (SO_PEERCRED);
 * a request line over the limit gets an error and the connection is
 * closed, never buffered; when the unhandled input of all clients together
 * passes its bound, the client holding the most is refused the same way;
 * a batch longer than its bound is refused whole (rpc-request.h); with fewer descriptors left
 * than a reserve, new connections wait in the backlog (logged once); a subscriber that does not
 * read and whose queue passes the bound is disconnected, with a log line; a malformed line gets an
 * error reply and the connection stays usable.
 */
#ifndef UAPID_RPC_H
#define UAPID_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uv.h>

#include "uapid/daemon/rpc-request.h"

#define UD_RPC_MAX_QUEUE (4u << 20) /* bytes waiting to be read by one client */
/* bytes of requests read and not yet handled, over every client together */
#define UD_RPC_MAX_PENDING (4 * UD_RPC_MAX_REQUEST)

struct ud_rpc;
struct ud_rpc_client;

struct ud_rpc_opts {
	const char *path;   /* the socket's path (bound here unless activated_fd >= 0) */
	int activated_fd;   /* a listening socket from systemd, or -1 */
	gid_t group;	    /* clients of this group are served too (mode 0660); (gid_t)-1: none */
	size_t max_request; /* 0: UD_RPC_MAX_REQUEST */
	size_t max_queue;   /* 0: UD_RPC_MAX_QUEUE */
	size_t max_pending; /* 0: UD_RPC_MAX_PENDING (at least max_request) */
	size_t max_batch;   /* 0: UD_RPC_MAX_BATCH */
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
/*
 * Does the path still name the socket it listens on?  NULL, or why not
 * (borrowed, valid until the next call): it was removed, another socket
 * (another daemon's) or a directory is there.  Looked at now; also every
 * few seconds on the loop, a change logged once.
 */
const char *ud_rpc_check_path(struct ud_rpc *r);
/* Subscribes or unsubscribes the client to pushed notifications. */
void ud_rpc_subscribe(struct ud_rpc_client *c, bool on);
/* Sends a notification to every subscriber (params: a reference is taken). */
void ud_rpc_notify_all(struct ud_rpc *r, const char *method, json_t *params);
/*
 * For a method that answers later (ud_rpc_later_fn): holds the client (it
 * stays allocated, even if it goes, and none of its further requests is
 * read) until ud_rpc_answer.  Loop thread only, as all of this API.
 */
void ud_rpc_hold(struct ud_rpc_client *c);
/*
 * The held request's reply line (malloc'd, taken; NULL: none), sent if the
 * client is still there; then its next requests are handled.
 */
void ud_rpc_answer(struct ud_rpc_client *c, char *line);
size_t ud_rpc_clients(const struct ud_rpc *r);
size_t ud_rpc_subscribers(const struct ud_rpc *r);
/*
 * Stops listening, closes every client, removes the socket it bound if
 * the path still names it (same device and inode): never another's.
 */
void ud_rpc_close(struct ud_rpc *r);
/*
 * How long the loop's turns held it (each turn from one uv_check to the
 * next): the CPU time of the loop thread, which a loaded machine does not
 * inflate, and the wall time less the wait for I/O, which counts blocking
 * system calls (fsync) and the scheduler's delays too.  A request read in
 * a turn waits for the rest of it.
 */
#define UD_RPC_HOLD_NS (50u * 1000 * 1000) /* a turn longer holds the loop */
struct ud_rpc_loop_stats {
	uint64_t turns;
	uint64_t max_cpu_ns, max_busy_ns;
	uint64_t held_cpu, held_busy; /* turns over UD_RPC_HOLD_NS, by each measure */
};
void ud_rpc_loop_stats(const struct ud_rpc *r, struct ud_rpc_loop_stats *out);

#endif /* UAPID_RPC_H */
