/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client side of the daemon's JSON-RPC socket, shared by uapictl's
 * commands and its LSP bridge: connect with a deadline, call a method and
 * wait for its answer (notifications that arrive meanwhile are queued),
 * read pushed notifications.
 *
 * Every wait is bounded by the connection's timeout, so a stuck daemon
 * never hangs an editor.
 */
#ifndef UAPID_RPCCLIENT_H
#define UAPID_RPCCLIENT_H

#include <jansson.h>
#include <stdbool.h>

#include "uapid/util/buf.h"

struct ud_rpc_conn {
	int fd;
	char *path;
	int timeout_ms;
	long long next_id;
	struct ud_buf in; /* bytes read, not yet a whole line */
	json_t *queued;	  /* notifications read while waiting for an answer */
};

/* Connects to the socket at path: 0, or a negative errno with *cause (malloc'd). */
int ud_rpc_connect(struct ud_rpc_conn *c, const char *path, int timeout_ms, char **cause);
/*
 * Calls method with params (a reference is stolen; NULL for none).  Returns
 * 0 with *result (the result), 1 with *result (the error object the daemon
 * answered), -EMSGSIZE with *cause when the request is over the daemon's
 * bound for one line (UD_RPC_MAX_REQUEST: it is not sent, the connection
 * stays usable), or another negative errno with *cause for a transport or
 * protocol failure (the connection is then unusable).
 */
int ud_rpc_call(struct ud_rpc_conn *c, const char *method, json_t *params, json_t **result,
		char **cause);
/*
 * The next notification (queued or read within timeout_ms; -1 waits for
 * ever): 0 with *note, -ETIMEDOUT, or another negative errno with *cause.
 */
int ud_rpc_next_notification(struct ud_rpc_conn *c, int timeout_ms, json_t **note, char **cause);
void ud_rpc_disconnect(struct ud_rpc_conn *c);

#endif /* UAPID_RPCCLIENT_H */
