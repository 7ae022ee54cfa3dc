/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uapid watch: the daemon.  It runs in the foreground (systemd or the
 * shell manages it), keeps a tree's split and installed headers current
 * in its state directory (engine.h) as the watcher (watch.h) and the
 * scheduler (sched.h) say, listens on its socket, and speaks systemd's
 * notify protocol when systemd started it.
 */
#ifndef UAPID_DAEMON_H
#define UAPID_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

struct ud_daemon_opts {
	const char *tree;
	const char *state_dir; /* NULL: $STATE_DIRECTORY, else $XDG_STATE_HOME/uapid/<tree id> */
	const char *socket;    /* NULL: $RUNTIME_DIRECTORY/uapid.sock, else ... (see daemon.c) */
	const char *arch;
	const char *markers;
	unsigned settle_ms;
	gid_t socket_group; /* (gid_t)-1: the owner only */
	bool verbose;
	bool quiet;		    /* no progress line for the first scan */
	bool branches;		    /* keep the repository's uapi branches current (follow.h) */
	const char *split_branch;   /* NULL: uapi/split; "-": none */
	const char *headers_branch; /* NULL: uapi/headers; "-": none */
	/*
	 * The history kept (store.h's retention): keep_events 0 for the default
	 * 100,000; keep_days -1 for the default 30, 0 for the count alone.
	 */
	long keep_events;
	long keep_days;
};

/* Runs until SIGTERM or SIGINT; returns an exit status (0, or 2 for a start-up error). */
int ud_daemon_run(const struct ud_daemon_opts *o);
/*
 * The tree's id for default paths: its directory name and a hash of its
 * canonical path ("linux-1a2b3c4d"), malloc'd.
 */
char *ud_daemon_tree_id(const char *root);
/* The default state directory and socket of a tree (malloc'd), as uapid watch picks them. */
char *ud_daemon_default_state_dir(const char *root);
char *ud_daemon_default_socket(const char *root);

#endif /* UAPID_DAEMON_H */
