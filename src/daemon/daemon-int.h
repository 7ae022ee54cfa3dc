/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's parts (daemon.h), shared by its files and by nothing else:
 *
 *   daemon.c          its life: start-up in order, systemd (status,
 *                     watchdog), signals, shutdown
 *   daemon-work.c     the work: the watcher's events to the scheduler, its
 *                     batches to the engine, their reports to the socket's
 *                     subscribers; the branch follower
 *   daemon-methods.c  the socket's methods and their table (doc/protocol.md)
 *
 * Everything runs on the loop thread.
 */
#ifndef UAPID_DAEMON_INT_H
#define UAPID_DAEMON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "uapid/util/buf.h"
#include "uapid/daemon/daemon.h"
#include "uapid/daemon/engine.h"
#include "uapid/daemon/follow.h"
#include "uapid/io/progress.h"
#include "uapid/daemon/rpc.h"
#include "uapid/daemon/sched.h"
#include "uapid/daemon/watch.h"

struct daemon {
	uv_loop_t loop;
	const struct ud_daemon_opts *o;
	char *root, *state_dir, *socket_path;
	int lock_fd;
	struct ud_engine *engine;
	struct ud_watch *watch;
	struct ud_sched *sched;
	struct ud_rpc *rpc;
	struct ud_follow *follow; /* --branches: the uapi branches kept current, or NULL */
	char *published;     /* the discovery symlink made (publish_socket), removed at the end */
	ino_t published_ino; /* its inode: removed only if it is still the link made here */
	uv_signal_t sigterm, sigint, sighup;
	uv_timer_t watchdog, rescan, status_timer;
	uv_timer_t reread;  /* the paths that could not be read, looked at again (daemon-work.c) */
	unsigned reread_ms; /* its back-off; 0 while every path is read */
	/* the store's upkeep (daemon-work.c): when it last ran, and whether it runs now */
	uint64_t upkeep_ns;
	bool upkeep_on;
	uint64_t last_status_ns; /* STATUS= goes out at most once a second */
	bool watchdog_on, rescan_on;
	bool systemd; /* NOTIFY_SOCKET is set */
	bool ready;   /* the first scan is recorded */
	bool stopping;
	int status;
	struct ud_progress scan; /* the first scan's line on a terminal (progress.h) */
	uint64_t batches;
	uint64_t last_batch_ns, last_batch_at;
	/*
	 * A batch could not be recorded (a full disk, an I/O error): why
	 * (status's "state" problem; NULL when all is recorded), since when,
	 * and the back-off before the next try.
	 */
	char *fault;
	uint64_t fault_since;
	unsigned retry_ms, retries;
};

/* daemon.c */
/* The one-line summary of what is served (STATUS=, the ready line, status's "summary"). */
void ud_daemon_status_line(struct daemon *d, struct ud_buf *out);
/* STATUS= for systemd (nothing elsewhere). */
void ud_daemon_notify_status(struct daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The summary as STATUS= now; after a batch, at most once a second. */
void ud_daemon_send_status(struct daemon *d);
void ud_daemon_update_status(struct daemon *d);
/* Why git's index lock looks stale (malloc'd: its path and age), or NULL. */
char *ud_daemon_git_lock_problem(struct daemon *d);
/* Stops (once the batch in flight is recorded). */
void ud_daemon_shutdown(struct daemon *d);

/* daemon-work.c */
void ud_daemon_watch_event(void *ctx, const char *rel, unsigned kinds);
enum ud_watch_mode ud_daemon_watch_filter(void *ctx, const char *rel);
void ud_daemon_run_batch(void *ctx, struct ud_sched_batch *b);
void ud_daemon_progress(void *ctx, size_t done, size_t total);
void ud_daemon_first_scan_done(void *ctx, const struct ud_engine_report *r);
/*
 * The markers changed (in the store, or the file on SIGHUP): the engine and
 * the follower take them in; path (NULL: all) is split again.
 */
void ud_daemon_markers_changed(struct daemon *d, const char *path);

/* daemon-methods.c */
extern const struct ud_rpc_method ud_daemon_methods[];
extern const size_t ud_daemon_nmethods;

#endif /* UAPID_DAEMON_INT_H */
