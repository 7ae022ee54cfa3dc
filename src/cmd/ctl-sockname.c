// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl sockname: the socket of the daemon for a path's tree.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl.h"

int
ctl_sockname(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	char *sock;
	int opt;

	while ((opt = ctl_next_opt(argc, argv, "j", longopts)) != -1) {
		if (opt != 'j')
			return ctl_usage_error("%s: usage: uapictl sockname [PATH]", "sockname");
		ctl->json = true;
	}
	if (argc - optind > 1)
		return ctl_usage_error("%s: usage: uapictl sockname [PATH]", "sockname");
	sock = ctl_socket(ctl, argc - optind == 1 ? argv[optind] : NULL);
	if (sock == NULL)
		return CTL_UNREACHABLE;
	if (ctl->json) {
		json_t *r = json_pack("{s:s}", "socket", sock), *st = NULL;

		/* the tree, from the daemon itself: editors root their client there */
		if (ctl_call(ctl, argc - optind == 1 ? argv[optind] : NULL, "status", NULL, &st) ==
		    CTL_OK)
			json_object_set(r, "tree", json_object_get(st, "tree"));
		json_decref(st);

		ctl_print_json(r);
		json_decref(r);
	} else {
		puts(sock);
	}
	free(sock);
	return CTL_OK;
}
