// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl preview: the texts the split gives a header.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"

static void
print_text(const struct ctl *ctl, const char *what, const char *path, json_t *text, bool heading)
{
	const char *s = json_string_value(text);

	if (heading)
		printf("%s==> %s: %s <==%s\n", ctl_sgr(ctl, SGR_BOLD), what, path,
		       ctl_sgr(ctl, SGR_RESET));
	if (s == NULL) {
		if (heading)
			printf("(none)\n");
		return;
	}
	fputs(s, stdout);
	if (heading && s[0] != '\0' && s[strlen(s) - 1] != '\n')
		putchar('\n');
}

int
ctl_preview(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"stdin", no_argument, NULL, 'i'}, {"kernel", no_argument, NULL, 'k'},
		{"uapi", no_argument, NULL, 'u'},  {"installed", no_argument, NULL, 'I'},
		{"json", no_argument, NULL, 'j'},  {NULL, 0, NULL, 0},
	};
	static const char usage[] =
		"preview: usage: uapictl preview [--stdin] [--kernel | --uapi | --installed] FILE";
	bool from_stdin = false;
	int only = 0, opt, rc;
	json_t *params, *r, *inst;

	while ((opt = ctl_next_opt(argc, argv, "ikuIj", longopts)) != -1) {
		switch (opt) {
		case 'i':
			from_stdin = true;
			break;
		case 'k':
		case 'u':
		case 'I':
			if (only != 0 && only != opt)
				return ctl_usage_error("%s", usage);
			only = opt;
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			return ctl_usage_error("%s", usage);
		}
	}
	if (argc - optind != 1)
		return ctl_usage_error("%s", usage);
	if ((params = ctl_path_params(argv[optind], from_stdin)) == NULL)
		return CTL_USAGE;
	if ((rc = ctl_call(ctl, argv[optind], "preview", params, &r)) != CTL_OK)
		return rc;
	/*
	 * A header the split cannot decide has no kernel or uapi text: said,
	 * with why, and exit 1 (as `uapid split`), not an empty answer.
	 */
	rc = strcmp(ctl_str(r, "outcome"), "needs-coaching") == 0 ||
			     ctl_has_error(json_object_get(r, "diagnostics"))
		     ? CTL_FINDINGS
		     : CTL_OK;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return rc;
	}
	inst = json_object_get(r, "installed");
	if (only != 0 && rc != CTL_OK) {
		fprintf(stderr, "uapictl: %s: %s: the split gives no text until it is decided\n",
			ctl_str(r, "path"), ctl_str(r, "outcome"));
		fflush(stdout);
		ctl_print_diags(ctl, ctl_str(r, "path"), json_object_get(r, "diagnostics"));
		fprintf(stderr, "uapictl: hint: a coaching marker decides it: `uapictl marker "
				"add FILE ACTION SELECTOR` (see uapid(1), MARKERS)\n");
	} else if (only == 'k') {
		print_text(ctl, "kernel", ctl_str(r, "path"), json_object_get(r, "kernel"), false);
	} else if (only == 'u') {
		print_text(ctl, "uapi", ctl_str(r, "uapi_path"), json_object_get(r, "uapi"), false);
	} else if (only == 'I') {
		print_text(ctl, "installed", ctl_str(inst, "path"), json_object_get(inst, "text"),
			   false);
	} else {
		printf("%s: %s%s%s\n", ctl_str(r, "path"),
		       ctl_outcome_color(ctl, ctl_str(r, "outcome")), ctl_str(r, "outcome"),
		       ctl_sgr(ctl, SGR_RESET));
		ctl_print_diags(ctl, ctl_str(r, "path"), json_object_get(r, "diagnostics"));
		if (strcmp(ctl_str(r, "outcome"), "uapi") != 0)
			print_text(ctl, "kernel", ctl_str(r, "path"), json_object_get(r, "kernel"),
				   true);
		print_text(ctl, "uapi", ctl_str(r, "uapi_path"), json_object_get(r, "uapi"), true);
		if (json_is_object(inst)) {
			print_text(ctl, "installed", ctl_str(inst, "path"),
				   json_object_get(inst, "text"), true);
			ctl_print_diags(ctl, ctl_str(inst, "path"),
					json_object_get(inst, "diagnostics"));
		}
	}
	json_decref(r);
	return rc;
}
