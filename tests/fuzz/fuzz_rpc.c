// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the daemon's JSON-RPC line handler (rpc-request.h), fed
 * the input cut into lines as the socket cuts a client's bytes.
 *
 * Invariants: no crash or sanitizer report; every reply is one line of
 * JSON-RPC 2.0: an object with "jsonrpc": "2.0", an "id" and exactly one
 * of "result" or an "error" with an integer code and a message, or an
 * array of such objects, no longer than the batch bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/daemon/rpc-request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_BATCH 8

static json_t *
echo(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)ctx, (void)c, (void)code, (void)message;
	return json_incref(params);
}

static json_t *
refuse(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)ctx, (void)c, (void)params;
	return ud_rpc_bad_param(code, message, "x", "is never right");
}

static json_t *
fail_silently(void *ctx, struct ud_rpc_client *c, json_t *params, int *code, char **message)
{
	(void)ctx, (void)c, (void)params, (void)code, (void)message;
	return NULL; /* no code, no message: an internal error */
}

static const struct ud_rpc_method methods[] = {
	{"status", echo, NULL},
	{"refuse", refuse, NULL},
	{"fail", fail_silently, NULL},
};

static void
check_reply(json_t *r)
{
	json_t *e = json_object_get(r, "error");

	if (!json_is_object(r) || !json_is_string(json_object_get(r, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(r, "jsonrpc")), "2.0") != 0 ||
	    json_object_get(r, "id") == NULL)
		abort();
	if ((e != NULL) == (json_object_get(r, "result") != NULL))
		abort();
	if (e != NULL && (!json_is_integer(json_object_get(e, "code")) ||
			  !json_is_string(json_object_get(e, "message"))))
		abort();
}

static void
check_line(const char *reply)
{
	json_error_t jerr;
	json_t *v;
	size_t i;

	if (strchr(reply, '\n') != NULL)
		abort();
	v = json_loads(reply, JSON_DECODE_ANY, &jerr);
	if (v == NULL)
		abort();
	if (json_is_array(v)) {
		if (json_array_size(v) == 0 || json_array_size(v) > MAX_BATCH)
			abort();
		for (i = 0; i < json_array_size(v); i++)
			check_reply(json_array_get(v, i));
	} else {
		check_reply(v);
	}
	json_decref(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ud_rpc_dispatch d = {methods, ARRAY_SIZE(methods), NULL, MAX_BATCH};
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *reply = ud_rpc_handle_line(&d, NULL, p, len);

		if (reply != NULL)
			check_line(reply);
		free(reply);
		p += len + 1;
	}
	return 0;
}
