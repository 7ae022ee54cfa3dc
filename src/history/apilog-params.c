// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * api.log's parameters (apilog.h), read apart from the daemon's method
 * table so that the method itself is a few lines wherever the table lives.
 */
#include <errno.h>
#include <string.h>

#include "uapid/history/apilog.h"
#include "uapid/api/apisym.h"
#include "uapid/util/xmalloc.h"

/* the most symbols one call may ask about: an answer stays a few hundred KB */
#define MAX_SYMBOLS 64

/* -EINVAL with the message every method gives for a bad parameter (rpc.c) */
static int
bad_param(char **message, const char *field, const char *what)
{
	*message = ud_xasprintf("invalid params: \"%s\" %s", field, what);
	return -EINVAL;
}

static int
opt_string(json_t *params, const char *field, const char **out, char **message)
{
	json_t *v = json_object_get(params, field);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return bad_param(message, field, "must be a string");
	*out = json_string_value(v);
	return 0;
}

int
ud_apilog_params(json_t *params, struct ud_apilog_query *q, json_t **symbols, char **message)
{
	json_t *one = json_object_get(params, "symbol"), *list = json_object_get(params, "symbols");
	json_t *s;
	size_t i;
	int rc;

	memset(q, 0, sizeof(*q));
	*symbols = NULL;
	if ((rc = opt_string(params, "since", &q->since, message)) < 0 ||
	    (rc = opt_string(params, "until", &q->until, message)) < 0 ||
	    (rc = opt_string(params, "tags", &q->tags, message)) < 0)
		return rc;
	if ((one == NULL) == (list == NULL) || (one != NULL && !json_is_string(one)) ||
	    (list != NULL && (!json_is_array(list) || json_array_size(list) == 0 ||
			      json_array_size(list) > MAX_SYMBOLS)))
		return bad_param(message, "symbol",
				 "must be a string (or \"symbols\" an array of 1 to 64)");
	json_array_foreach(list, i, s)
	{
		if (!json_is_string(s))
			return bad_param(message, "symbols", "must hold strings");
	}
	*symbols = one != NULL ? json_pack("[O]", one) : json_incref(list);
	/* a name that is no symbol is the caller's error, not a symbol never seen */
	json_array_foreach(*symbols, i, s)
	{
		struct ud_apisym_query sq;

		if ((rc = ud_apisym_parse(json_string_value(s), &sq, message)) < 0) {
			json_decref(*symbols);
			*symbols = NULL;
			return rc;
		}
		ud_apisym_query_free(&sq);
	}
	return 0;
}
