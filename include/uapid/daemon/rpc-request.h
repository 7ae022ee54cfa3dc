/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON-RPC 2.0 request layer, apart from any transport: one request
 * line in, its reply line out.  The socket (rpc.h) feeds it the lines its
 * clients send; the fuzz target feeds it anything.
 *
 * What one line may ask is bounded: a batch holds at most max_batch calls
 * (beyond that the whole batch is refused with -32600, none of it run), so
 * one line cannot make the daemon build a reply of unbounded size.
 */
#ifndef UAPID_RPC_REQUEST_H
#define UAPID_RPC_REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "uapid/proto/protocol.h"

struct ud_rpc_client;

/*
 * A method: returns its result (a new reference), or NULL with *code and
 * *message set (message malloc'd) for an error reply.  c is the client
 * that asked (opaque here; NULL when there is no socket).
 */
typedef json_t *(*ud_rpc_fn)(void *ctx, struct ud_rpc_client *c, json_t *params, int *code,
			     char **message);

/*
 * A method that may answer later, off the loop thread's turn (work that
 * grows with the request goes to the thread pool): called instead of fn
 * for a single request with an id from a socket client (a notification, a
 * call in a batch and a call with no client run fn).  Returns 1 when it
 * took the request: it held the client (ud_rpc_hold) and answers with
 * ud_rpc_answer, the line made by ud_rpc_reply_line; 0 to let fn run.
 */
typedef int (*ud_rpc_later_fn)(void *ctx, struct ud_rpc_client *c, json_t *id, json_t *params);

struct ud_rpc_method {
	const char *name;
	ud_rpc_fn fn;
	ud_rpc_later_fn later; /* NULL: always fn */
};

struct ud_rpc_dispatch {
	const struct ud_rpc_method *methods;
	size_t nmethods;
	void *ctx;	  /* handed to every method */
	size_t max_batch; /* 0: UD_RPC_MAX_BATCH */
};

/*
 * Runs the request or batch on one line (len bytes, no newline; trailing
 * blanks and a CR are ignored).  Returns the reply line (malloc'd, compact
 * JSON, ASCII, no newline), or NULL when nothing is to be answered: a blank
 * line, or notifications only.  Bad JSON, a bad request or a batch over
 * the bound is answered with the JSON-RPC error it calls for.
 */
char *ud_rpc_handle_line(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, const char *line,
			 size_t len);

/*
 * The reply line to request id: result (a reference taken over), or when
 * it is NULL the error code and message.  Touches only its arguments: a
 * pool thread may make it (with an id of its own, json_deep_copy'd).
 */
char *ud_rpc_reply_line(json_t *id, json_t *result, int code, const char *message);

/*
 * ud_rpc_handle_line in two halves.  The parse touches only its arguments
 * (any thread may run it: the socket parses long lines on the pool): the
 * request, or NULL with *error the reply line for bad JSON (NULL too for a
 * blank line).  The rest runs the methods, on their thread; it takes over
 * the reference to req.
 */
json_t *ud_rpc_parse_line(const char *line, size_t len, char **error);
char *ud_rpc_handle_request(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, json_t *req);

/*
 * The refusal of a batch that may not run (req an empty array, or one of
 * more than max_batch calls; 0: UD_RPC_MAX_BATCH) as a reply line, or NULL
 * when req is no such batch.  Touches only req: the socket refuses an
 * overlong batch on the pool, where the parsed batch is freed too.
 */
char *ud_rpc_refuse_batch(const json_t *req, size_t max_batch);

/* A JSON-RPC error reply with this id (may be NULL), as compact text (malloc'd). */
char *ud_rpc_error_line(json_t *id, int code, const char *message);

/* For methods: "invalid params: FIELD must be ..." as an error. */
json_t *ud_rpc_bad_param(int *code, char **message, const char *field, const char *what);

#endif /* UAPID_RPC_REQUEST_H */
