// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl classify: each line's class and the split's diagnostics.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"

int
ctl_classify(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"stdin", no_argument, NULL, 'i'},
						 {"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
	bool from_stdin = false;
	json_t *params, *r, *b;
	size_t i;
	int opt, rc;

	while ((opt = ctl_next_opt(argc, argv, "ij", longopts)) != -1) {
		if (opt == 'i')
			from_stdin = true;
		else if (opt == 'j')
			ctl->json = true;
		else
			return ctl_usage_error("%s: usage: uapictl classify [--stdin] FILE",
					       "classify");
	}
	if (argc - optind != 1)
		return ctl_usage_error("%s: usage: uapictl classify [--stdin] FILE", "classify");
	if ((params = ctl_path_params(argv[optind], from_stdin)) == NULL)
		return CTL_USAGE;
	if ((rc = ctl_call(ctl, argv[optind], "classify", params, &r)) != CTL_OK)
		return rc;
	/* an error diagnostic is exit 1, as `uapid classify` says it */
	rc = ctl_has_error(json_object_get(r, "diagnostics")) ? CTL_FINDINGS : CTL_OK;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return rc;
	}
	json_array_foreach(json_object_get(r, "blocks"), i, b)
	{
		char lines[48];
		const char *cls = ctl_str(b, "class");
		const char *col = strcmp(cls, "kernel") == 0	  ? ctl_sgr(ctl, SGR_DIM)
				  : strcmp(cls, "user-only") == 0 ? ctl_sgr(ctl, SGR_CYAN)
				  : strcmp(cls, "retained") == 0  ? ctl_sgr(ctl, SGR_YELLOW)
								  : "";

		if (ctl_num(b, "first") == ctl_num(b, "last"))
			snprintf(lines, sizeof(lines), "%lld", ctl_num(b, "first"));
		else
			snprintf(lines, sizeof(lines), "%lld-%lld", ctl_num(b, "first"),
				 ctl_num(b, "last"));
		printf("%11s  %s%-9s%s  %s\n", lines, col, cls, ctl_sgr(ctl, SGR_RESET),
		       ctl_str(b, "reason"));
	}
	ctl_print_diags(ctl, argv[optind], json_object_get(r, "diagnostics"));
	json_decref(r);
	return rc;
}
