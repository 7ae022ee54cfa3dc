/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the RPC server: its socket (rpc-socket.c), for rpc.c.  Not a
 * public header.
 */
#ifndef UAPID_RPC_INT_H
#define UAPID_RPC_INT_H

#include <stdbool.h>
#include <sys/types.h>
#include <uv.h>

/*
 * Binds server to path, 0600 (0660 and group's when group is not -1):
 * its directory is made, a stale socket (no one answers) replaced; one
 * that is not a socket, or where a daemon answers, is refused.  0, or a
 * negative errno with *cause; on failure no socket is left at path.
 */
int ud_rpc_bind(uv_pipe_t *server, const char *path, gid_t group, char **cause);

/*
 * May the peer of pipe talk to us?  The daemon's own user, root, or a
 * member of group (not -1).  Its *uid and *pid are set for the log.
 */
bool ud_rpc_peer_allowed(uv_pipe_t *pipe, gid_t group, uid_t *uid, pid_t *pid);

#endif /* UAPID_RPC_INT_H */
