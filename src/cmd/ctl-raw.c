// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl call METHOD [PARAMS-JSON]: any method, raw.
 */
#include <stdio.h>
#include <string.h>

#include "ctl.h"

int
ctl_raw(struct ctl *ctl, int argc, char **argv)
{
	json_t *params = NULL, *r;
	json_error_t jerr;
	int rc;

	if (strcmp(argv[0], "call") == 0) {
		argc--;
		argv++;
	}
	if (argc < 1 || argc > 2)
		return ctl_usage_error("%s: usage: uapictl call METHOD [PARAMS-JSON]", "call");
	if (argc == 2) {
		params = json_loads(argv[1], JSON_DECODE_ANY, &jerr);
		if (params == NULL || (!json_is_object(params) && !json_is_array(params))) {
			fprintf(stderr, "uapictl: PARAMS must be a JSON object or array: %s\n",
				params == NULL ? jerr.text : "got a scalar");
			json_decref(params);
			return CTL_USAGE;
		}
	}
	if ((rc = ctl_call(ctl, NULL, argv[0], params, &r)) != CTL_OK)
		return rc;
	ctl_print_json(r);
	json_decref(r);
	return CTL_OK;
}
