// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl api --log SYMBOL...: the history of userspace API symbols from
 * the daemon's api-log index (api.log; the daemon runs with --branches),
 * printed as `uapid api-log` prints it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "uapid/util/xmalloc.h"

static const char log_usage[] =
	"api --log: usage: uapictl api --log [--since REV] [--until REV] [--tags GLOB] SYMBOL...";

/* The change column: the change, after its symbol when it is another than the one asked. */
static char *
change_text(json_t *e, const char *asked)
{
	const char *sym = ctl_str(e, "symbol"), *kind = ctl_str(e, "kind");

	if (strcmp(sym, asked) == 0 || strcmp(kind, "header") == 0)
		return ud_xstrdup(ctl_str(e, "change"));
	if (strncmp(sym, kind, strlen(kind)) == 0)
		return ud_xasprintf("%s: %s", sym, ctl_str(e, "change"));
	return ud_xasprintf("%s %s: %s", kind, sym, ctl_str(e, "change"));
}

static void
print_answer(const struct ctl *ctl, json_t *a)
{
	json_t *h = json_object_get(a, "history"), *e;
	int wr = 0, wh = 0, wv = 1;
	size_t i;

	json_array_foreach(h, i, e)
	{
		const char *rel = json_is_string(json_object_get(e, "release"))
					  ? ctl_str(e, "release")
					  : "unreleased";
		int n = snprintf(NULL, 0, "%s:%lld", ctl_str(e, "header"),
				 (long long)json_integer_value(json_object_get(e, "line")));

		wr = (int)strlen(rel) > wr ? (int)strlen(rel) : wr;
		wh = n > wh ? n : wh;
		wv = (int)strlen(ctl_str(e, "verdict")) > wv ? (int)strlen(ctl_str(e, "verdict"))
							     : wv;
	}
	json_array_foreach(h, i, e)
	{
		const char *v =
			json_is_string(json_object_get(e, "verdict")) ? ctl_str(e, "verdict") : "-";
		const char *col = strcmp(v, "breaking") == 0 ? ctl_sgr(ctl, SGR_RED)
				  : strcmp(v, "review") == 0 ? ctl_sgr(ctl, SGR_YELLOW)
							     : "";
		char *where =
			ud_xasprintf("%s:%lld", ctl_str(e, "header"),
				     (long long)json_integer_value(json_object_get(e, "line")));
		char *change = change_text(e, ctl_str(a, "symbol"));

		printf("%-*s  %s  %.12s  %-*s  %s%-*s%s  %s\n", wr,
		       json_is_string(json_object_get(e, "release")) ? ctl_str(e, "release")
								     : "unreleased",
		       ctl_str(e, "date"), ctl_str(e, "commit"), wh, where, col, wv, v,
		       ctl_sgr(ctl, SGR_RESET), change);
		free(where);
		free(change);
	}
	printf("%s: %s\n", ctl_str(a, "symbol"), ctl_str(a, "summary"));
}

int
ctl_api_log(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"log", no_argument, NULL, 'l'},	 {"since", required_argument, NULL, 's'},
		{"until", required_argument, NULL, 'u'}, {"tags", required_argument, NULL, 't'},
		{"json", no_argument, NULL, 'j'},	 {NULL, 0, NULL, 0}};
	json_t *params = json_object(), *symbols = json_array(), *r, *a;
	bool found = true;
	size_t i;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "j", longopts, NULL)) != -1) {
		const char *key = opt == 's' ? "since" : opt == 'u' ? "until" : "tags";

		if (opt == 'l')
			continue;
		if (opt == 'j') {
			ctl->json = true;
			continue;
		}
		if (opt == '?') {
			json_decref(params);
			json_decref(symbols);
			fprintf(stderr, "uapictl: %s\n", log_usage);
			return CTL_USAGE;
		}
		json_object_set_new(params, key, json_string(optarg));
	}
	for (; optind < argc; optind++)
		json_array_append_new(symbols, json_string(argv[optind]));
	if (json_array_size(symbols) == 0) {
		json_decref(params);
		json_decref(symbols);
		fprintf(stderr, "uapictl: %s\n", log_usage);
		return CTL_USAGE;
	}
	json_object_set_new(params, "symbols", symbols);
	if ((rc = ctl_call(ctl, NULL, "api.log", params, &r)) != CTL_OK)
		return rc;
	json_array_foreach(json_object_get(r, "symbols"), i, a)
	{
		found &= json_is_true(json_object_get(a, "found"));
		if (!ctl->json) {
			if (i > 0)
				putchar('\n');
			print_answer(ctl, a);
		}
	}
	if (ctl->json)
		ctl_print_json(r);
	json_decref(r);
	/* as `uapid api-log`: a symbol the history does not hold is a finding */
	return found ? CTL_OK : CTL_DAEMON_ERROR;
}
