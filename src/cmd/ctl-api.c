// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl api: userspace API changes, symbol by symbol, with verdicts
 * (api --log: ctl-apilog.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "uapid/api/api.h"
#include "uapid/io/fsutil.h"

/* The accept file's lines that matched nothing, as `uapid api-diff --accept` warns of them. */
static void
print_unmatched(json_t *accept)
{
	json_t *u;
	size_t i;

	json_array_foreach(json_object_get(accept, "unmatched"), i, u)
		fprintf(stderr, "uapictl: %s:%lld: warning: accepted change matches nothing: %s\n",
			ctl_str(accept, "file"), ctl_num(u, "line"), ctl_str(u, "text"));
}

static int
api_usage(json_t *params)
{
	json_decref(params);
	return ctl_usage_error("%s", "api: usage: uapictl api [--since CLOCK|REV | --rev REV] "
				     "[--accept FILE]");
}

int
ctl_api(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {{"since", required_argument, NULL, 's'},
						 {"rev", required_argument, NULL, 'r'},
						 {"json", no_argument, NULL, 'j'},
						 {"accept", required_argument, NULL, 'a'},
						 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *r, *c, *sum;
	char *end;
	size_t i;
	int opt, rc;

	for (i = 1; i < (size_t)argc; i++)
		if (strcmp(argv[i], "--log") == 0) {
			json_decref(params);
			return ctl_api_log(ctl, argc, argv); /* another question: ctl-apilog.c */
		}
	while ((opt = ctl_next_opt(argc, argv, "s:r:j", longopts)) != -1) {
		if (opt == 's') {
			long long since = strtoll(optarg, &end, 10);

			/*
			 * --since is a CLOCK, or a REV as in `api --log --since
			 * REV` and `uapid api-log`: the changes since that
			 * revision are those against it (--rev).
			 */
			if (*optarg == '\0' || (end != optarg && *end == '\0' && since < 0)) {
				json_decref(params);
				return ctl_usage_error("api: --since '%s' is not a clock or a "
						       "revision",
						       optarg);
			}
			if (*end == '\0')
				json_object_set_new(params, "since", json_integer(since));
			else if (json_object_get(params, "rev") == NULL)
				json_object_set_new(params, "rev", json_string(optarg));
			else
				return api_usage(params);
		} else if (opt == 'r') {
			if (json_object_get(params, "rev") != NULL)
				return api_usage(params);
			json_object_set_new(params, "rev", json_string(optarg));
		} else if (opt == 'j') {
			ctl->json = true;
		} else if (opt == 'a') {
			/* the file is read here: the daemon may not see this user's files */
			struct ud_buf text = UD_BUF_INIT;
			char *cause = NULL;

			if (ud_read_file(optarg, &text, &cause) < 0) {
				fprintf(stderr, "uapictl: api: --accept: %s\n", cause);
				free(cause);
				ud_buf_free(&text);
				json_decref(params);
				return CTL_USAGE;
			}
			json_object_set_new(params, "accept",
					    json_stringn(ud_buf_str(&text), text.len));
			json_object_set_new(params, "accept_name", json_string(optarg));
			ud_buf_free(&text);
		} else {
			return api_usage(params);
		}
	}
	if (optind < argc ||
	    (json_object_get(params, "since") != NULL && json_object_get(params, "rev") != NULL))
		return api_usage(params);
	/*
	 * No option: the working tree against HEAD, what a maintainer asks
	 * ("what did my edit change"); clock 0 listed every header as new.
	 */
	if (json_object_get(params, "rev") == NULL && json_object_get(params, "since") == NULL)
		json_object_set_new(params, "rev", json_string("HEAD"));
	if ((rc = ctl_call(ctl, NULL, "api.changes", params, &r)) != CTL_OK)
		return rc;
	/* a breaking change is exit 1, as `uapid api-diff` says it */
	sum = json_object_get(r, "summary");
	rc = ctl_num(sum, "breaking") > 0 ? CTL_FINDINGS : CTL_OK;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return rc;
	}
	printf("clock %lld: %lld header%s changed, %lld added, %lld removed: %s%lld breaking%s, "
	       "%lld review, %lld compatible",
	       ctl_num(r, "clock"), ctl_num(sum, "headers_changed"),
	       ctl_num(sum, "headers_changed") == 1 ? "" : "s", ctl_num(sum, "headers_added"),
	       ctl_num(sum, "headers_removed"),
	       ctl_num(sum, "breaking") > 0 ? ctl_sgr(ctl, SGR_RED) : "", ctl_num(sum, "breaking"),
	       ctl_sgr(ctl, SGR_RESET), ctl_num(sum, "review"), ctl_num(sum, "compatible"));
	if (json_object_get(r, "accept") != NULL)
		printf(", %lld accepted", ctl_num(sum, "accepted"));
	putchar('\n');
	print_unmatched(json_object_get(r, "accept"));
	json_array_foreach(json_object_get(r, "changes"), i, c)
	{
		const char *v = ctl_str(c, "verdict");
		const char *col = strcmp(v, "breaking") == 0 ? ctl_sgr(ctl, SGR_RED)
				  : strcmp(v, "review") == 0 ? ctl_sgr(ctl, SGR_YELLOW)
							     : "";

		bool named = json_is_string(json_object_get(c, "symbol"));
		const char *kind =
			named ? ud_api_kind_shown(ctl_str(c, "kind"), ctl_str(c, "symbol")) : "";

		printf("%s:%lld: %s%s%s: %s%s%s%s%s\n", ctl_str(c, "header"),
		       ctl_num(c, "new_line") ? ctl_num(c, "new_line") : ctl_num(c, "old_line"),
		       col, v, ctl_sgr(ctl, SGR_RESET), kind, kind[0] ? " " : "",
		       ctl_str(c, "symbol"), named ? ": " : "", ctl_str(c, "reason"));
	}
	json_decref(r);
	return rc;
}
