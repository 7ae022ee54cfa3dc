// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl changes: the files whose outcome or outputs changed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl.h"
#include "uapid/util/buf.h"

int
ctl_changes(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"since", required_argument, NULL, 's'},
						 {"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r, *f, *k;
	char *end;
	size_t i, j;
	int opt, rc;

	while ((opt = ctl_next_opt(argc, argv, "s:j", longopts)) != -1) {
		if (opt == 's') {
			long long since = strtoll(optarg, &end, 10);

			if (*end != '\0' || end == optarg || since < 0) {
				json_decref(params);
				return ctl_usage_error(
					"changes: --since '%s' is not a clock (an integer "
					"from status or an earlier changes)",
					optarg);
			}
			json_object_set_new(params, "since", json_integer(since));
		} else if (opt == 'j') {
			ctl->json = true;
		} else {
			json_decref(params);
			return ctl_usage_error("%s: usage: uapictl changes [--since CLOCK]",
					       "changes");
		}
	}
	if (optind < argc) {
		json_decref(params);
		return ctl_usage_error("changes: unexpected argument '%s'", argv[optind]);
	}
	if (json_object_get(params, "since") == NULL) {
		/*
		 * What is new since it connected: its clock then, not 0 (the
		 * whole history, which grows with the daemon's life).
		 */
		json_t *st;

		if ((rc = ctl_call(ctl, NULL, "status", json_object(), &st)) != CTL_OK) {
			json_decref(params);
			return rc;
		}
		json_object_set_new(params, "since", json_integer(ctl_num(st, "clock")));
		json_decref(st);
	}
	if ((rc = ctl_call(ctl, NULL, "changes", params, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	printf("clock %lld%s\n", ctl_num(r, "clock"),
	       json_is_true(json_object_get(r, "fresh_instance"))
		       ? " (fresh instance: the clock given is not in this daemon's history; every "
			 "file follows)"
		       : "");
	json_array_foreach(json_object_get(r, "files"), i, f)
	{
		struct ud_buf kinds = UD_BUF_INIT;

		json_array_foreach(json_object_get(f, "kinds"), j, k)
		{
			if (j > 0)
				ud_buf_addch(&kinds, ',');
			ud_buf_addstr(&kinds, json_string_value(k) ? json_string_value(k) : "?");
		}
		printf("%8lld  %-16s  %s\n", ctl_num(f, "clock"), ud_buf_str(&kinds),
		       ctl_str(f, "path"));
		ud_buf_free(&kinds);
	}
	json_decref(r);
	return CTL_OK;
}
