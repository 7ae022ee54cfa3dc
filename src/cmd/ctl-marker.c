// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl marker list|add|rm: the coaching markers in the daemon's store.
 */
#include <getopt.h>
#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "uapid/util/xmalloc.h"

static void
print_markers(const struct ctl *ctl, json_t *markers, const char *only)
{
	json_t *m;
	size_t i;

	json_array_foreach(markers, i, m)
	{
		if (only != NULL && strcmp(only, ctl_str(m, "path")) != 0)
			continue;
		printf("%5lld  %-6s  %s %s", ctl_num(m, "id"), ctl_str(m, "origin"),
		       ctl_str(m, "path"), ctl_str(m, "action"));
		if (json_is_string(json_object_get(m, "selector"))) {
			printf(" '%s'", ctl_str(m, "selector"));
			if (ctl_num(m, "occurrence") > 1)
				printf("#%lld", ctl_num(m, "occurrence"));
		}
		if (json_is_string(json_object_get(m, "why")))
			printf("  %s# %s%s", ctl_sgr(ctl, SGR_DIM), ctl_str(m, "why"),
			       ctl_sgr(ctl, SGR_RESET));
		putchar('\n');
	}
}

/* A FILE argument as the store names it: relative to the tree when inside it. */
static char *
marker_path(const struct ctl *ctl, const char *file)
{
	json_t *r;
	char *abs = ctl_absolute_path(file), *rel = NULL;
	const char *tree;
	size_t n;

	if (ctl_call(ctl, file, "status", NULL, &r) != CTL_OK) {
		free(abs);
		return ud_xstrdup(file);
	}
	tree = ctl_str(r, "tree");
	n = strlen(tree);
	if (n > 0 && strncmp(abs, tree, n) == 0 && abs[n] == '/')
		rel = ud_xstrdup(abs + n + 1);
	json_decref(r);
	free(abs);
	return rel != NULL ? rel : ud_xstrdup(file);
}

/* Is FILE there, as given or (relative) in the daemon's tree? */
static bool
marker_file_exists(const struct ctl *ctl, const char *file)
{
	json_t *r;
	char *in_tree;
	bool ok;

	if (access(file, F_OK) == 0)
		return true;
	if (file[0] == '/' || ctl_call(ctl, file, "status", NULL, &r) != CTL_OK)
		return false;
	in_tree = ud_xasprintf("%s/%s", ctl_str(r, "tree"), file);
	ok = access(in_tree, F_OK) == 0;
	free(in_tree);
	json_decref(r);
	return ok;
}

int
ctl_marker(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"occurrence", required_argument, NULL, 'n'},
		{"why", required_argument, NULL, 'w'},
		{"json", no_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	static const char usage[] =
		"marker: usage: uapictl marker list [FILE] | marker add FILE ACTION [SELECTOR] "
		"[--occurrence N] [--why TEXT] | marker rm ID...";
	const char *why = NULL, *sub;
	long occurrence = 0;
	json_t *r = NULL;
	char *end;
	int opt, rc = CTL_OK;

	while ((opt = ctl_next_opt(argc, argv, "n:w:j", longopts)) != -1) {
		switch (opt) {
		case 'n':
			occurrence = strtol(optarg, &end, 10);
			if (*end != '\0' || occurrence < 1)
				return ctl_usage_error(
					"marker: --occurrence '%s' is not a number of 1 "
					"or more",
					optarg);
			break;
		case 'w':
			why = optarg;
			break;
		case 'j':
			ctl->json = true;
			break;
		default:
			return ctl_usage_error("%s", usage);
		}
	}
	if (optind >= argc)
		return ctl_usage_error("%s", usage);
	sub = argv[optind++];
	if (strcmp(sub, "list") == 0 || strcmp(sub, "ls") == 0) {
		char *only = NULL;

		if (argc - optind > 1)
			return ctl_usage_error("%s", usage);
		if (argc - optind == 1)
			only = marker_path(ctl, argv[optind]);
		rc = ctl_call(ctl, only != NULL ? argv[optind] : NULL, "markers.list", NULL, &r);
		if (rc == CTL_OK) {
			if (ctl->json)
				ctl_print_json(r);
			else
				print_markers(ctl, json_object_get(r, "markers"), only);
		}
		free(only);
	} else if (strcmp(sub, "add") == 0) {
		json_t *params;
		char *path;

		if (argc - optind < 2 || argc - optind > 3)
			return ctl_usage_error("%s", usage);
		/* a marker for a file that is not there would never apply: refused */
		if (!marker_file_exists(ctl, argv[optind])) {
			fprintf(stderr, "uapictl: marker add: %s: %s\n", argv[optind],
				strerror(ENOENT));
			return CTL_USAGE;
		}
		path = marker_path(ctl, argv[optind]);
		params = json_pack("{s:s, s:s}", "path", path, "action", argv[optind + 1]);
		if (argc - optind == 3)
			json_object_set_new(params, "selector", json_string(argv[optind + 2]));
		if (occurrence > 0)
			json_object_set_new(params, "occurrence", json_integer(occurrence));
		if (why != NULL)
			json_object_set_new(params, "why", json_string(why));
		rc = ctl_call(ctl, argv[optind], "markers.add", params, &r);
		if (rc == CTL_OK) {
			if (ctl->json)
				ctl_print_json(r);
			else
				printf("marker %lld added; %s is split again\n", ctl_num(r, "id"),
				       path);
		}
		free(path);
	} else if (strcmp(sub, "rm") == 0 || strcmp(sub, "remove") == 0) {
		if (optind >= argc)
			return ctl_usage_error("%s", usage);
		for (; optind < argc && rc == CTL_OK; optind++) {
			long long id = strtoll(argv[optind], &end, 10);

			if (*end != '\0' || end == argv[optind])
				return ctl_usage_error(
					"marker rm: '%s' is not a marker id (see uapictl "
					"marker list)",
					argv[optind]);
			json_decref(r);
			rc = ctl_call(ctl, NULL, "markers.remove", json_pack("{s:I}", "id", id),
				      &r);
			if (rc == CTL_OK && !ctl->json)
				printf("marker %lld removed\n", id);
		}
		if (rc == CTL_OK && ctl->json)
			ctl_print_json(r);
	} else {
		return ctl_usage_error("marker: '%s' is not list, add or rm", sub);
	}
	json_decref(r);
	return rc;
}
