// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl status: the daemon's tree, clock, counts and health.
 */
#include <stdio.h>
#include <time.h>

#include "ctl.h"

static void
print_time(const char *label, long long at)
{
	char when[64];
	time_t t = (time_t)at;
	struct tm tm;

	if (at <= 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(when, sizeof(when), "never");
	printf("%s%s", label, when);
}

int
ctl_status(struct ctl *ctl, int argc, char **argv)
{
	json_t *r, *counts, *last, *watch, *problems, *clients, *p;
	int rc = ctl_no_args("status", argc, argv, ctl);
	size_t i;

	if (rc != CTL_OK)
		return rc;
	if ((rc = ctl_call(ctl, NULL, "status", NULL, &r)) != CTL_OK)
		return rc;
	if (ctl->json) {
		ctl_print_json(r);
		json_decref(r);
		return CTL_OK;
	}
	counts = json_object_get(r, "counts");
	last = json_object_get(r, "last_batch");
	watch = json_object_get(r, "watch");
	problems = json_object_get(r, "problems");
	clients = json_object_get(r, "clients");
	printf("tree        %s%s%s\n", ctl_sgr(ctl, SGR_BOLD), ctl_str(r, "tree"),
	       ctl_sgr(ctl, SGR_RESET));
	printf("arch        %s\n", ctl_str(r, "arch"));
	printf("socket      %s\n", ctl_str(r, "socket"));
	printf("state       %s\n", ctl_str(r, "state_dir"));
	printf("clock       %lld, %s%s%s\n", ctl_num(r, "clock"),
	       json_is_true(json_object_get(r, "busy")) ? ctl_sgr(ctl, SGR_YELLOW)
							: ctl_sgr(ctl, SGR_GREEN),
	       !json_is_true(json_object_get(r, "ready")) ? "scanning the tree"
	       : json_is_true(json_object_get(r, "busy")) ? "busy"
							  : "idle",
	       ctl_sgr(ctl, SGR_RESET));
	printf("headers     %lld (%lld exported): %s%lld split%s, %s%lld moved%s, %s%lld need "
	       "coaching%s, %lld skipped, %lld unreadable\n",
	       ctl_num(counts, "headers"), ctl_num(counts, "exported"),
	       ctl_outcome_color(ctl, "split"), ctl_num(counts, "split"), ctl_sgr(ctl, SGR_RESET),
	       ctl_outcome_color(ctl, "moved"), ctl_num(counts, "moved"), ctl_sgr(ctl, SGR_RESET),
	       ctl_num(counts, "needs_coaching") > 0 ? ctl_sgr(ctl, SGR_RED) : "",
	       ctl_num(counts, "needs_coaching"), ctl_sgr(ctl, SGR_RESET),
	       ctl_num(counts, "skipped"), ctl_num(counts, "unreadable"));
	printf("outputs     %lld files; %lld installed headers (%lld failed)\n",
	       ctl_num(counts, "outputs"), ctl_num(counts, "installed"),
	       ctl_num(counts, "install_failed"));
	if (json_is_object(last)) {
		printf("batches     %lld, the last took %.1f ms, ", ctl_num(last, "count"),
		       json_number_value(json_object_get(last, "ms")));
		print_time("at ", ctl_num(last, "at"));
		putchar('\n');
	}
	if (json_is_object(watch))
		printf("watch       %lld directories, %s%s%s%s\n", ctl_num(watch, "directories"),
		       json_is_true(json_object_get(watch, "degraded")) ? ctl_sgr(ctl, SGR_RED)
									: ctl_sgr(ctl, SGR_GREEN),
		       json_is_true(json_object_get(watch, "degraded"))
			       ? "degraded (rescanning on a timer)"
			       : "healthy",
		       ctl_sgr(ctl, SGR_RESET),
		       json_is_true(json_object_get(watch, "waiting_for_git"))
			       ? ", waiting for git to finish"
			       : "");
	if (json_is_object(clients))
		printf("clients     %lld connected, %lld subscribed\n",
		       ctl_num(clients, "connected"), ctl_num(clients, "subscribed"));
	if (json_is_object(json_object_get(r, "branches"))) {
		ctl_print_branches(ctl, json_object_get(r, "branches"), "");
		putchar('\n');
	}
	if (json_array_size(problems) == 0) {
		printf("problems    none\n");
	} else {
		json_array_foreach(problems, i, p)
		{
			printf("%s%s%s: %s%s\n", i == 0 ? "problems    " : "            ",
			       ctl_sgr(ctl, SGR_RED), ctl_str(p, "what"), ctl_str(p, "reason"),
			       ctl_sgr(ctl, SGR_RESET));
		}
	}
	json_decref(r);
	return CTL_OK;
}
