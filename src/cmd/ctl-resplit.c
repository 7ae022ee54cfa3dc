// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl resplit: split again.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl.h"

int
ctl_resplit(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r;
	int opt, rc;

	while ((opt = ctl_next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j') {
			json_decref(params);
			return ctl_usage_error("%s: usage: uapictl resplit [PATH...]", "resplit");
		}
		ctl->json = true;
	}
	if (optind < argc) {
		json_t *paths = json_array();

		for (int i = optind; i < argc; i++) {
			char *abs = ctl_absolute_path(argv[i]);

			json_array_append_new(paths, json_string(abs));
			free(abs);
		}
		json_object_set_new(params, "paths", paths);
	}
	rc = ctl_call(ctl, optind < argc ? argv[optind] : NULL, "resplit", params, &r);
	if (rc != CTL_OK)
		return rc;
	if (ctl->json)
		ctl_print_json(r);
	else if (json_is_string(json_object_get(r, "queued")))
		printf("every header queued to be split again\n");
	else
		printf("%lld path%s queued to be split again\n", ctl_num(r, "queued"),
		       ctl_num(r, "queued") == 1 ? "" : "s");
	json_decref(r);
	return CTL_OK;
}
