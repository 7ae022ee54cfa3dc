// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON-RPC 2.0 request layer (rpc-request.h): parse, check, dispatch,
 * answer.  No I/O.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/buf.h"
#include "uapid/daemon/rpc-request.h"
#include "uapid/util/xmalloc.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII)

json_t *
ud_rpc_bad_param(int *code, char **message, const char *field, const char *what)
{
	*code = UD_RPC_INVALID_PARAMS;
	*message = ud_xasprintf("invalid params: \"%s\" %s", field, what);
	return NULL;
}

static json_t *
error_reply(json_t *id, int code, const char *message)
{
	return json_pack("{s:s, s:O?, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id, "error", "code",
			 code, "message", message);
}

/* The reply as text, the reply freed; NULL for no reply. */
static char *
dump(json_t *reply)
{
	char *s;

	if (reply == NULL)
		return NULL;
	s = json_dumps(reply, DUMP_FLAGS); /* NULL only when jansson runs out of memory */
	json_decref(reply);
	return s;
}

char *
ud_rpc_reply_line(json_t *id, json_t *result, int code, const char *message)
{
	if (result == NULL)
		return dump(error_reply(id, code != 0 ? code : UD_RPC_INTERNAL_ERROR,
					message != NULL ? message : "internal error"));
	return dump(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

char *
ud_rpc_error_line(json_t *id, int code, const char *message)
{
	return dump(error_reply(id, code, message));
}

/* One request: its reply, or NULL for a notification or an answer to come later. */
static json_t *
process(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, json_t *req, bool in_batch)
{
	json_t *id, *method, *params, *version, *result, *reply;
	char *message = NULL;
	int code = 0;
	size_t i;

	if (!json_is_object(req))
		return error_reply(NULL, UD_RPC_INVALID_REQUEST, "invalid request: not an object");
	id = json_object_get(req, "id");
	method = json_object_get(req, "method");
	params = json_object_get(req, "params");
	version = json_object_get(req, "jsonrpc");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id) && !json_is_null(id))
		return error_reply(NULL, UD_RPC_INVALID_REQUEST,
				   "invalid request: \"id\" must be a string, an integer or null");
	if (!json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0)
		return error_reply(id, UD_RPC_INVALID_REQUEST,
				   "invalid request: \"jsonrpc\" must be \"2.0\"");
	if (!json_is_string(method))
		return error_reply(id, UD_RPC_INVALID_REQUEST,
				   "invalid request: \"method\" must be a string");
	if (params != NULL && !json_is_object(params) && !json_is_array(params))
		return error_reply(id, UD_RPC_INVALID_REQUEST,
				   "invalid request: \"params\" must be an object or an array");
	for (i = 0; i < d->nmethods; i++)
		if (strcmp(d->methods[i].name, json_string_value(method)) == 0)
			break;
	if (i == d->nmethods) {
		char *m = ud_xasprintf("method not found: %s", json_string_value(method));

		reply = id != NULL ? error_reply(id, UD_RPC_METHOD_NOT_FOUND, m) : NULL;
		free(m);
		return reply;
	}
	if (params == NULL || json_is_array(params)) {
		/* by-position params are not used by any method: an empty object stands in */
		if (params != NULL && json_array_size(params) > 0)
			return id != NULL ? error_reply(id, UD_RPC_INVALID_PARAMS,
							"invalid params: give them by name, as an "
							"object")
					  : NULL;
		params = json_object();
	} else {
		json_incref(params);
	}
	if (d->methods[i].later != NULL && id != NULL && c != NULL && !in_batch &&
	    d->methods[i].later(d->ctx, c, id, params) == 1) {
		json_decref(params);
		return NULL; /* taken: ud_rpc_answer sends the reply */
	}
	result = d->methods[i].fn(d->ctx, c, params, &code, &message);
	json_decref(params);
	if (id == NULL) {
		json_decref(result);
		free(message);
		return NULL;
	}
	if (result == NULL) {
		reply = error_reply(id, code != 0 ? code : UD_RPC_INTERNAL_ERROR,
				    message != NULL ? message : "internal error");
		free(message);
		return reply;
	}
	return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result);
}

/*
 * A batch's replies, written out one by one as each call is answered: the
 * text grows, never a tree of every reply beside it.
 */
char *
ud_rpc_refuse_batch(const json_t *req, size_t max_batch)
{
	size_t max = max_batch > 0 ? max_batch : UD_RPC_MAX_BATCH;
	size_t n = json_array_size(req);
	char *m, *s;

	if (!json_is_array(req))
		return NULL;
	if (n == 0)
		return ud_rpc_error_line(NULL, UD_RPC_INVALID_REQUEST,
					 "invalid request: an empty batch");
	if (n <= max)
		return NULL;
	m = ud_xasprintf("invalid request: a batch of %zu calls: at most %zu, none was run", n,
			 max);
	s = ud_rpc_error_line(NULL, UD_RPC_INVALID_REQUEST, m);
	free(m);
	return s;
}

static char *
run_batch(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, json_t *batch)
{
	struct ud_buf out = UD_BUF_INIT;
	size_t i, n = json_array_size(batch), answered = 0;
	char *refused = ud_rpc_refuse_batch(batch, d->max_batch);

	if (refused != NULL)
		return refused;
	ud_buf_addch(&out, '[');
	for (i = 0; i < n; i++) {
		char *s = dump(process(d, c, json_array_get(batch, i), true));

		if (s == NULL)
			continue;
		if (answered++ > 0)
			ud_buf_addch(&out, ',');
		ud_buf_addstr(&out, s);
		free(s);
	}
	if (answered == 0) { /* notifications only: JSON-RPC sends nothing back */
		ud_buf_free(&out);
		return NULL;
	}
	ud_buf_addch(&out, ']');
	return ud_buf_detach(&out, NULL);
}

json_t *
ud_rpc_parse_line(const char *line, size_t len, char **error)
{
	json_error_t jerr;
	json_t *req;

	*error = NULL;
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (len == 0)
		return NULL;
	req = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
	if (req == NULL) {
		char *m = ud_xasprintf("parse error: %s (column %d)", jerr.text, jerr.column);

		*error = ud_rpc_error_line(NULL, UD_RPC_PARSE_ERROR, m);
		free(m);
	}
	return req;
}

char *
ud_rpc_handle_request(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, json_t *req)
{
	char *reply;

	if (json_is_array(req))
		reply = run_batch(d, c, req);
	else if (json_is_object(req))
		reply = dump(process(d, c, req, false));
	else /* valid JSON, but not a request: JSON-RPC calls that an invalid request */
		reply = ud_rpc_error_line(NULL, UD_RPC_INVALID_REQUEST,
					  "invalid request: not an object or a batch array");
	json_decref(req);
	return reply;
}

char *
ud_rpc_handle_line(const struct ud_rpc_dispatch *d, struct ud_rpc_client *c, const char *line,
		   size_t len)
{
	char *error;
	json_t *req = ud_rpc_parse_line(line, len, &error);

	return req != NULL ? ud_rpc_handle_request(d, c, req) : error;
}
