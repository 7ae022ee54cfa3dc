// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl headers: the headers with their outcome and export state.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"

int
ctl_headers(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"prefix", required_argument, NULL, 'p'}, {"outcome", required_argument, NULL, 'o'},
		{"exported", no_argument, NULL, 'e'},	  {"unexported", no_argument, NULL, 'u'},
		{"json", no_argument, NULL, 'j'},	  {NULL, 0, NULL, 0},
	};
	json_t *params = json_object(), *r, *h;
	size_t i, width = 0;
	int opt, rc;

	while ((opt = ctl_next_opt(argc, argv, "p:o:euj", longopts)) != -1) {
		switch (opt) {
		case 'p':
			json_object_set_new(params, "prefix", json_string(optarg));
			break;
		case 'o':
			json_object_set_new(params, "outcome", json_string(optarg));
			break;
		case 'e':
		case 'u':
			json_object_set_new(params, "exported", json_boolean(opt == 'e'));
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			json_decref(params);
			return ctl_usage_error("%s: see uapictl --help", "headers");
		}
	}
	if (optind < argc) {
		json_decref(params);
		return ctl_usage_error("headers: unexpected argument '%s'", argv[optind]);
	}
	if ((rc = ctl_call(ctl, NULL, "headers", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	json_array_foreach(json_object_get(r, "headers"), i, h)
	{
		size_t w = strlen(ctl_str(h, "outcome"));

		if (w > width)
			width = w;
	}
	json_array_foreach(json_object_get(r, "headers"), i, h)
	{
		printf("%s%-*s%s  %-10s  %s\n", ctl_outcome_color(ctl, ctl_str(h, "outcome")),
		       (int)width, ctl_str(h, "outcome"), ctl_sgr(ctl, SGR_RESET),
		       json_is_true(json_object_get(h, "exported")) ? "exported" : "-",
		       ctl_str(h, "path"));
	}
	json_decref(r);
	return CTL_OK;
}
