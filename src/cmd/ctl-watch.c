// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl watch: the daemon's change notifications as they come.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "uapid/client/rpcclient.h"

static volatile sig_atomic_t stop_watching;

static void
on_signal(int sig)
{
	(void)sig;
	stop_watching = 1;
}

int
ctl_watch(struct ctl *ctl, int argc, char **argv)
{
	struct ud_rpc_conn c;
	struct sigaction sa;
	char *sock, *cause = NULL;
	json_t *r, *note;
	int rc = ctl_no_args("watch", argc, argv, ctl);

	if (rc != CTL_OK)
		return rc;
	if ((sock = ctl_socket(ctl, NULL)) == NULL)
		return CTL_UNREACHABLE;
	if ((rc = ud_rpc_connect(&c, sock, ctl->timeout_ms, &cause)) < 0) {
		fprintf(stderr,
			"uapictl: %s\nhint: is uapid running? start it with `uapid watch "
			"TREE`\n",
			cause);
		free(cause);
		free(sock);
		return CTL_UNREACHABLE;
	}
	free(sock);
	rc = ud_rpc_call(&c, "subscribe", NULL, &r, &cause);
	if (rc != 0) {
		fprintf(stderr, "uapictl: subscribe: %s\n", rc < 0 ? cause : ctl_str(r, "message"));
		free(cause);
		json_decref(r);
		ud_rpc_disconnect(&c);
		return rc < 0 ? CTL_UNREACHABLE : CTL_DAEMON_ERROR;
	}
	if (!ctl->json)
		printf("watching from clock %lld (interrupt to stop)\n", ctl_num(r, "clock"));
	fflush(stdout);
	json_decref(r);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: poll returns, the loop ends */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop_watching) {
		json_t *params, *f;
		size_t i;

		rc = ud_rpc_next_notification(&c, 500, &note, &cause);
		if (rc == -ETIMEDOUT || rc == -EINTR)
			continue;
		if (rc < 0) {
			fprintf(stderr, "uapictl: %s\n", cause);
			free(cause);
			ud_rpc_disconnect(&c);
			return CTL_UNREACHABLE;
		}
		params = json_object_get(note, "params");
		if (ctl->json) {
			char *s = json_dumps(note, JSON_COMPACT | JSON_PRESERVE_ORDER);

			puts(s);
			free(s);
		} else {
			json_t *br = json_object_get(params, "branches");

			printf("%sclock %lld%s  %s:", ctl_sgr(ctl, SGR_BOLD),
			       ctl_num(params, "clock"), ctl_sgr(ctl, SGR_RESET),
			       ctl_str(note, "method"));
			json_array_foreach(json_object_get(params, "files"), i, f)
			{
				printf(" %s", json_is_string(f) ? json_string_value(f)
								: ctl_str(f, "path"));
			}
			if (json_is_object(br))
				ctl_print_branches(ctl, br, " ");
			putchar('\n');
		}
		fflush(stdout);
		json_decref(note);
	}
	ud_rpc_disconnect(&c);
	return CTL_OK;
}
