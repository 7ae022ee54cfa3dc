// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon (daemon.h): one libuv loop holding the watcher, the
 * scheduler, the engine's batches, the socket, the signals and the
 * systemd watchdog.  This file is its life; its work and its socket's
 * methods are the other parts (daemon-int.h).
 *
 * Start-up, in order: the tree and the state directory are checked and
 * the state directory locked (one daemon per state directory); the store
 * is opened; the socket is bound (or taken from systemd); the watches are
 * set, so that nothing changed during the first scan is missed; the first
 * scan runs, with a progress line on a terminal and STATUS= under
 * systemd; READY=1 follows it.  Every failure before the loop runs is a
 * one-line error and exit status 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <jansson.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>
#include <uv.h>

#include "daemon-int.h"
#include "uapid/io/discover.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/log.h"
#include "uapid/util/path.h"
#include "uapid/io/tree.h"
#include "uapid/util/xmalloc.h"

/* A libuv call that failed, named in the log: false. */
static bool
uv_ok(int rc, const char *what)
{
	if (rc == 0)
		return true;
	ud_log(LOG_ERR, "%s: %s", what, uv_strerror(rc));
	return false;
}

/* --- paths ---------------------------------------------------------------- */

char *
ud_daemon_tree_id(const char *root)
{
	return ud_tree_id(root);
}

static const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' ? v : NULL;
}

char *
ud_daemon_default_state_dir(const char *root)
{
	const char *s = env("STATE_DIRECTORY"), *x = env("XDG_STATE_HOME"), *home = env("HOME");
	char *id, *dir;

	if (s != NULL) /* systemd: the first of StateDirectory='s paths */
		return ud_xstrndup(s, strcspn(s, ":"));
	id = ud_daemon_tree_id(root);
	if (x != NULL)
		dir = ud_xasprintf("%s/uapid/%s", x, id);
	else
		dir = ud_xasprintf("%s/.local/state/uapid/%s", home != NULL ? home : "/tmp", id);
	free(id);
	return dir;
}

char *
ud_daemon_default_socket(const char *root)
{
	const char *r = env("RUNTIME_DIRECTORY");

	if (r != NULL)
		return ud_xasprintf("%.*s/uapid.sock", (int)strcspn(r, ":"), r);
	return ud_user_socket(root);
}

/* --- the state directory --------------------------------------------------- */

/*
 * A "hint:" line after a start-up error the user can do something about,
 * as the batch commands give one (report.h): under systemd the options
 * are the unit's (StateDirectory=, the socket unit), so it names those.
 */
static void
hint_state_dir(const struct daemon *d, const char *why)
{
	if (d->systemd)
		ud_log(LOG_INFO, "hint: %s, or give the instance another StateDirectory=", why);
	else
		ud_log(LOG_INFO, "hint: %s, or give this one its own --state-dir DIR", why);
}

/*
 * The state directory is private, whatever the umask, as under the unit
 * (StateDirectoryMode=0700, UMask=0077): the markers, the classification
 * and the outputs are its owner's.  Made 0700 (its parents as usual); one
 * that exists with wider modes, or wider files in it (made by hand, or by
 * an older uapid), is tightened, and the log says so.
 */
static int
private_state_dir(struct daemon *d)
{
	char *cause = NULL, *dir = ud_xstrdup(d->state_dir), *parent;
	size_t changed = 0, n = strlen(dir);
	struct stat st;
	int rc;

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	parent = ud_path_dir(dir);
	free(dir);

	if (parent[0] != '\0' && strcmp(parent, d->state_dir) != 0)
		rc = ud_mkdir_p(parent, &cause);
	else
		rc = 0;
	free(parent);
	if (rc == 0 && mkdir(d->state_dir, 0700) < 0 && errno != EEXIST)
		rc = -errno, cause = ud_xasprintf("%s: cannot create directory: %s", d->state_dir,
						  strerror(errno));
	if (rc == 0 && stat(d->state_dir, &st) < 0)
		rc = -errno, cause = ud_xasprintf("%s: %s", d->state_dir, strerror(errno));
	if (rc == 0 && !S_ISDIR(st.st_mode))
		rc = -ENOTDIR, cause = ud_xasprintf("%s: not a directory", d->state_dir);
	if (rc == 0)
		rc = ud_make_private(d->state_dir, &changed, &cause);
	if (rc < 0) {
		ud_log(LOG_ERR, "state directory: %s", cause);
		hint_state_dir(d, "create it, writable for this user");
		free(cause);
		return -1;
	}
	if ((st.st_mode & 077) != 0)
		ud_log(LOG_NOTICE,
		       "state directory %s was %04o: made private (0700), with %zu file%s and "
		       "director%s in it",
		       d->state_dir, (unsigned)(st.st_mode & 07777), changed - 1,
		       changed - 1 == 1 ? "" : "s", changed - 1 == 1 ? "y" : "ies");
	else if (changed > 0)
		ud_log(LOG_NOTICE, "state directory %s: %zu file%s or director%s made private",
		       d->state_dir, changed, changed == 1 ? "" : "s", changed == 1 ? "y" : "ies");
	return 0;
}

static int
lock_state_dir(struct daemon *d)
{
	char *path = ud_xasprintf("%s/lock", d->state_dir);
	char pid[32];
	int fd, n;

	if (private_state_dir(d) < 0) {
		free(path);
		return -1;
	}
	if (access(d->state_dir, W_OK) < 0) {
		ud_log(LOG_ERR, "state directory %s: not writable: %s", d->state_dir,
		       strerror(errno));
		hint_state_dir(d, "make it writable for this user");
		free(path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		ud_log(LOG_ERR, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char other[32] = "";
		ssize_t r = read(fd, other, sizeof(other) - 1);

		other[r > 0 ? r : 0] = '\0';
		other[strcspn(other, "\n")] = '\0';
		ud_log(LOG_ERR, "%s: another uapid watch uses this state directory%s%s%s",
		       d->state_dir, other[0] ? " (pid " : "", other, other[0] ? ")" : "");
		if (other[0] != '\0') {
			char *why =
				ud_xasprintf("stop that daemon (kill %s, or stop its unit)", other);

			hint_state_dir(d, why);
			free(why);
		} else {
			hint_state_dir(d, "stop that daemon");
		}
		close(fd);
		free(path);
		return -1;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)n) != n)
		ud_log(LOG_WARNING, "%s: cannot record the pid: %s", path, strerror(errno));
	d->lock_fd = fd;
	free(path);
	return 0;
}

/* --- systemd ---------------------------------------------------------------- */

void
ud_daemon_notify_status(struct daemon *d, const char *fmt, ...)
{
	struct ud_buf b = UD_BUF_INIT;
	va_list ap;

	if (!d->systemd)
		return;
	ud_buf_addstr(&b, "STATUS=");
	va_start(ap, fmt);
	ud_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	sd_notify(0, ud_buf_str(&b));
	ud_buf_free(&b);
}

void
ud_daemon_send_status(struct daemon *d)
{
	struct ud_buf line = UD_BUF_INIT;

	ud_daemon_status_line(d, &line);
	ud_daemon_notify_status(d, "%s", ud_buf_str(&line));
	ud_buf_free(&line);
	d->last_status_ns = uv_hrtime();
}

static void
on_status_timer(uv_timer_t *t)
{
	ud_daemon_send_status(t->data);
}

/*
 * The service's STATUS= after a batch, at most once a second (a burst
 * takes many batches; sd_notify blocks when the manager reads slowly).
 */
void
ud_daemon_update_status(struct daemon *d)
{
	uint64_t since = uv_hrtime() - d->last_status_ns;

	if (!d->systemd || d->stopping)
		return;
	if (since >= 1000000000ULL)
		ud_daemon_send_status(d);
	else if (!uv_is_active((uv_handle_t *)&d->status_timer))
		(void)uv_ok(uv_timer_start(&d->status_timer, on_status_timer,
					   (1000000000ULL - since) / 1000000 + 1, 0),
			    "status timer");
}

static void
on_watchdog(uv_timer_t *t)
{
	(void)t;
	sd_notify(0, "WATCHDOG=1");
}

/*
 * A git index lock older than this is named as a problem: git holds it for
 * the length of a command (seconds, even for a large checkout); one this
 * old is likely left by a git that died, and batches wait for it forever.
 */
#define STALE_GIT_LOCK_S 60

char *
ud_daemon_git_lock_problem(struct daemon *d)
{
	char *lock = ud_sched_git_lockfile(d->root), *why = NULL;
	struct stat st;
	double age;

	if (lock != NULL && lstat(lock, &st) == 0 &&
	    (age = difftime(time(NULL), st.st_mtime)) >= STALE_GIT_LOCK_S)
		why = ud_xasprintf("%s is %.0f s old: changes wait until it goes (a git command "
				   "that died leaves it behind: remove it if no git runs)",
				   lock, age);
	free(lock);
	return why;
}

void
ud_daemon_status_line(struct daemon *d, struct ud_buf *out)
{
	struct ud_engine_counts c;

	ud_engine_counts(d->engine, &c);
	ud_buf_addf(out,
		    "%zu headers (%zu exported: %zu split, %zu moved, %zu need coaching), %zu "
		    "installed",
		    c.headers, c.exported, c.split, c.moved, c.needs_coaching,
		    c.installed - c.install_failed);
	if (c.install_failed > 0)
		ud_buf_addf(out, " (%zu failed)", c.install_failed);
	if (ud_watch_degraded(d->watch))
		ud_buf_addstr(out, "; rescanning periodically (watch limit)");
	if (d->fault != NULL)
		ud_buf_addstr(out,
			      "; not recorded (state directory failing: see status), retrying");
	if (ud_sched_waiting_for_git(d->sched)) {
		char *stale = ud_daemon_git_lock_problem(d);

		ud_buf_addstr(out, stale != NULL
					   ? "; waiting for a stale git index.lock (see status)"
					   : "; waiting for git");
		free(stale);
	}
}

/* path (relative to the working directory) as an absolute path; malloc'd. */
static char *
absolute_path(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return ud_xstrdup(path);
	return ud_xasprintf("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", path);
}

/*
 * Discovery: uapictl and editors look for a tree's daemon at
 * $XDG_RUNTIME_DIR/uapid/<tree id>.sock (or /tmp/uapid-<uid>/...), which is
 * where it listens by default; when it listens elsewhere (--socket,
 * systemd) a symlink there points at the socket.  Removed at the end.
 */
static void
publish_socket(struct daemon *d)
{
	char *std, *dir, *cause = NULL, *target_abs;

	/* under systemd the instance's own paths are the rule (discover.h) */
	std = getenv("RUNTIME_DIRECTORY") == NULL ? ud_user_socket(d->root) : NULL;
	if (std == NULL || strcmp(std, d->socket_path) == 0) {
		free(std);
		return;
	}
	dir = ud_xstrndup(std, (size_t)(strrchr(std, '/') - std));
	if (ud_private_dir(dir, &cause) == 0) {
		char target[PATH_MAX];
		ssize_t n = readlink(std, target, sizeof(target) - 1);

		if (n > 0)
			target[n] = '\0';
		/* a relative path would be read from the link's directory: absolute */
		target_abs = absolute_path(d->socket_path);
		/* another daemon of this tree answers there: its socket stays, ours is not found */
		if ((n <= 0 || strcmp(target, target_abs) != 0) && ud_socket_answers(std)) {
			ud_log(LOG_WARNING,
			       "not published for discovery: %s answers for this tree already",
			       std);
		} else {
			struct stat st;

			unlink(std);
			if (symlink(target_abs, std) == 0 && lstat(std, &st) == 0) {
				d->published = std, std = NULL;
				d->published_ino =
					st.st_ino; /* removed at the end only if still ours */
			}
		}
		free(target_abs);
	} else {
		ud_log(LOG_WARNING, "not published for discovery: %s", cause);
	}
	free(cause);
	free(dir);
	free(std);
}

static int
open_socket(struct daemon *d)
{
	struct ud_rpc_opts ro;
	char *cause = NULL;
	int n = sd_listen_fds(1), rc;

	memset(&ro, 0, sizeof(ro));
	ro.path = d->socket_path;
	ro.activated_fd = -1;
	ro.group = d->o->socket_group;
	if (n > 0) {
		if (n != 1 ||
		    sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1, NULL, 0) <= 0) {
			ud_log(LOG_ERR,
			       "socket activation: expected one listening Unix stream socket, "
			       "got %d file descriptors",
			       n);
			return -1;
		}
		ro.activated_fd = SD_LISTEN_FDS_START;
	}
	if ((rc = ud_rpc_open(&d->rpc, &d->loop, &ro, ud_daemon_methods, ud_daemon_nmethods, d,
			      &cause)) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		if (rc == -EADDRINUSE)
			ud_log(LOG_INFO,
			       "hint: stop that daemon (`uapictl --socket %s status` "
			       "names its tree), or listen elsewhere with --socket PATH",
			       d->socket_path);
		else if (rc == -EEXIST)
			ud_log(LOG_INFO, "hint: move that file away, or listen elsewhere with "
					 "--socket PATH");
		free(cause);
		return -1;
	}
	if (n > 0) {
		free(d->socket_path);
		d->socket_path = ud_xstrdup(ud_rpc_path(d->rpc));
		ud_log(LOG_INFO, "socket from systemd (%s)", d->socket_path);
	}
	publish_socket(d);
	return 0;
}
/* --- signals and shutdown ---------------------------------------------------------- */

static void
close_handle(uv_handle_t *h)
{
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

void
ud_daemon_shutdown(struct daemon *d)
{
	d->stopping = true;
	if (ud_engine_busy(d->engine))
		return; /* the batch finishes and is recorded first */
	sd_notify(0, "STOPPING=1");
	ud_watch_close(d->watch);
	d->watch = NULL;
	ud_sched_close(d->sched);
	d->sched = NULL;
	ud_rpc_close(d->rpc);
	d->rpc = NULL;
	ud_follow_close(d->follow); /* an update in progress finishes first */
	d->follow = NULL;
	close_handle((uv_handle_t *)&d->sigterm);
	close_handle((uv_handle_t *)&d->sigint);
	close_handle((uv_handle_t *)&d->sighup);
	close_handle((uv_handle_t *)&d->watchdog);
	close_handle((uv_handle_t *)&d->rescan);
	close_handle((uv_handle_t *)&d->status_timer);
	close_handle((uv_handle_t *)&d->reread);
}

static void
on_stop_signal(uv_signal_t *s, int signum)
{
	struct daemon *d = s->data;

	if (d->stopping)
		return;
	ud_log(LOG_INFO, "%s: stopping%s", signum == SIGTERM ? "SIGTERM" : "SIGINT",
	       ud_engine_busy(d->engine) ? " once the batch in progress is recorded" : "");
	ud_daemon_shutdown(d);
}

static void
on_hup(uv_signal_t *s, int signum)
{
	struct daemon *d = s->data;
	char *cause = NULL;

	(void)signum;
	if (d->stopping)
		return;
	sd_notify(0, "RELOADING=1");
	if (ud_engine_reload_markers(d->engine, &cause) < 0) {
		ud_log(LOG_ERR, "SIGHUP: markers not reloaded, the old ones stay: %s", cause);
		free(cause);
		ud_sched_full(d->sched);
	} else {
		ud_log(LOG_INFO, "SIGHUP: markers reloaded; looking at the whole tree again%s",
		       ud_engine_busy(d->engine) ? " once the batch in progress is recorded" : "");
		ud_daemon_markers_changed(d, NULL);
	}
	sd_notify(0, "READY=1");
}
/* --- running ------------------------------------------------------------------------ */

static int
start(struct daemon *d)
{
	struct ud_engine_opts eo;
	struct ud_tree tree;
	char *cause = NULL;
	uint64_t wd_usec = 0;
	int rc;

	if (ud_tree_open(&tree, d->o->tree, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	d->root = ud_xstrdup(tree.root);
	ud_tree_close(&tree);
	{
		char *inc = ud_xasprintf("%s/include", d->root);
		bool ok = ud_is_dir(inc);

		free(inc);
		if (!ok) {
			ud_log(LOG_ERR, "%s: no include/ directory: not a kernel tree", d->root);
			return -1;
		}
	}
	d->state_dir = d->o->state_dir != NULL ? ud_xstrdup(d->o->state_dir)
					       : ud_daemon_default_state_dir(d->root);
	if (d->state_dir[0] != '/') {
		char *abs = absolute_path(d->state_dir);

		free(d->state_dir);
		d->state_dir = abs;
	}
	d->socket_path =
		d->o->socket != NULL ? ud_xstrdup(d->o->socket) : ud_daemon_default_socket(d->root);
	if (d->socket_path[0] != '/') {
		/*
		 * Absolute: the discovery link and status name it for clients in other
		 * directories.  Unless that no longer fits in sun_path: then it is bound
		 * as given and published absolute (publish_socket).
		 */
		char *abs = absolute_path(d->socket_path);

		if (strlen(abs) < sizeof(((struct sockaddr_un *)0)->sun_path)) {
			free(d->socket_path);
			d->socket_path = abs;
		} else {
			free(abs);
		}
	}
	if (d->o->branches) {
		/* found now, not after the scan: a wrong tree is a start-up error like the others
		 */
		git_repository *repo = NULL;

		if (git_repository_open_ext(&repo, d->root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) <
		    0) {
			ud_log(LOG_ERR, "--branches: %s is not the top of a git repository",
			       d->root);
			return -1;
		}
		git_repository_free(repo);
	}
	if (d->o->socket == NULL && env("RUNTIME_DIRECTORY") == NULL) {
		/* the per-user runtime directory: ours alone, or not used */
		char *dir = ud_xstrndup(d->socket_path,
					(size_t)(strrchr(d->socket_path, '/') - d->socket_path));
		int private = ud_private_dir(dir, &cause);

		free(dir);
		if (private < 0) {
			ud_log(LOG_ERR, "socket: %s", cause);
			free(cause);
			return -1;
		}
	}
	if (lock_state_dir(d) < 0)
		return -1;
	memset(&eo, 0, sizeof(eo));
	eo.root = d->root;
	eo.state_dir = d->state_dir;
	eo.arch = d->o->arch;
	eo.markers = d->o->markers;
	if ((rc = ud_engine_open(&d->engine, &d->loop, &eo, &cause)) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		if (rc == -EPROTO) /* newer, or not ours: never rewritten */
			hint_state_dir(d, "run the uapid that wrote the database, or move it away "
					  "(the state is built anew from the tree)");
		else if (rc == -EROFS)
			hint_state_dir(d, "make the database writable for this user");
		else if (rc == -EBUSY)
			hint_state_dir(d, "stop the process that writes it");
		free(cause);
		return -1;
	}
	ud_engine_set_progress(d->engine, ud_daemon_progress, d);
	if (open_socket(d) < 0)
		return -1;
	d->sched = ud_sched_new(&d->loop, d->o->settle_ms, d->root, ud_daemon_run_batch, d);
	if (d->sched == NULL) {
		ud_log(LOG_ERR, "the scheduler's timer: refused by libuv");
		return -1;
	}
	if (ud_watch_open(&d->watch, &d->loop, d->root, ud_daemon_watch_event,
			  ud_daemon_watch_filter, d, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	if ((rc = ud_watch_add(d->watch, "", &cause)) < 0 && rc != -ENOSPC) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	if (!uv_ok(uv_signal_init(&d->loop, &d->sigterm), "SIGTERM") ||
	    !uv_ok(uv_signal_init(&d->loop, &d->sigint), "SIGINT") ||
	    !uv_ok(uv_signal_init(&d->loop, &d->sighup), "SIGHUP") ||
	    !uv_ok(uv_timer_init(&d->loop, &d->watchdog), "watchdog timer") ||
	    !uv_ok(uv_timer_init(&d->loop, &d->rescan), "rescan timer") ||
	    !uv_ok(uv_timer_init(&d->loop, &d->status_timer), "status timer") ||
	    !uv_ok(uv_timer_init(&d->loop, &d->reread), "reread timer"))
		return -1;
	d->sigterm.data = d->sigint.data = d->sighup.data = d;
	d->watchdog.data = d->rescan.data = d->status_timer.data = d->reread.data = d;
	if (!uv_ok(uv_signal_start(&d->sigterm, on_stop_signal, SIGTERM), "SIGTERM") ||
	    !uv_ok(uv_signal_start(&d->sigint, on_stop_signal, SIGINT), "SIGINT") ||
	    !uv_ok(uv_signal_start(&d->sighup, on_hup, SIGHUP), "SIGHUP"))
		return -1;
	if (sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec > 0) {
		/* twice per period, as sd_watchdog_enabled(3) advises */
		if (!uv_ok(uv_timer_start(&d->watchdog, on_watchdog, wd_usec / 2000,
					  wd_usec / 2000),
			   "watchdog timer"))
			return -1;
		d->watchdog_on = true;
	}
	ud_log(LOG_INFO, "watching %s (arch %s): state in %s, socket %s", d->root, d->o->arch,
	       d->state_dir, d->socket_path);
	ud_daemon_notify_status(d, "scanning %s", d->root);
	ud_progress_start(&d->scan, "scanning", "files", d->o->quiet);
	/* the scheduler counts the first scan as its running batch */
	ud_sched_hold(d->sched);
	if (ud_engine_start(d->engine, ud_daemon_first_scan_done, d, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

static void
walk_close(uv_handle_t *h, void *arg)
{
	(void)arg;
	close_handle(h);
}

int
ud_daemon_run(const struct ud_daemon_opts *o)
{
	struct daemon d;
	int status = 0;

	memset(&d, 0, sizeof(d));
	d.o = o;
	d.lock_fd = -1;
	d.systemd = getenv("NOTIFY_SOCKET") != NULL;
	ud_log_init();
	ud_log_set_level(o->verbose ? LOG_DEBUG : LOG_INFO);
	json_object_seed(0);
	git_libgit2_init();
	/*
	 * Two malloc arenas, not one per pool thread: the pool's buffers are
	 * short-lived and freed on the loop thread, and per-thread arenas
	 * would keep their pages (RSS) long after a scan.
	 */
	mallopt(M_ARENA_MAX, 2);
	/*
	 * A block of 1 MiB or more is a mapping of its own, whatever was freed
	 * before (glibc otherwise raises the bound to the largest block freed:
	 * after one 8 MiB request, every client's long line lived in the heap
	 * and grew by realloc's copy: an eighth of the loop thread's time in
	 * tests/lib/faults.py's partial-lines, measured).  realloc moves a mapping
	 * with mremap, and free gives it back at once.
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	if (!uv_ok(uv_loop_init(&d.loop), "the event loop")) {
		git_libgit2_shutdown();
		return 2;
	}
	/* the loop's wait for I/O counted: status says how long its turns held it */
	(void)uv_loop_configure(&d.loop, UV_METRICS_IDLE_TIME);
	if (start(&d) < 0) {
		status = 2;
		d.stopping = true;
		ud_watch_close(d.watch);
		ud_sched_close(d.sched);
		ud_rpc_close(d.rpc);
		uv_walk(&d.loop, walk_close, NULL);
	}
	/* it runs until every handle is closed: a non-zero return would be a uv_stop() */
	if (uv_run(&d.loop, UV_RUN_DEFAULT) != 0)
		ud_log(LOG_WARNING, "the loop stopped with handles still active");
	uv_walk(&d.loop, walk_close, NULL);
	(void)uv_run(&d.loop, UV_RUN_DEFAULT); /* their close callbacks: nothing else runs */
	if (uv_loop_close(&d.loop) != 0)
		ud_log(LOG_WARNING, "the loop closed with handles still open");
	ud_engine_close(d.engine);
	if (d.published != NULL) {
		struct stat st;

		/* another daemon of this tree may have published its own link since */
		if (lstat(d.published, &st) == 0 && st.st_ino == d.published_ino)
			unlink(d.published);
		free(d.published);
	}
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	if (status == 0)
		ud_log(LOG_INFO, "stopped");
	free(d.root);
	free(d.state_dir);
	free(d.socket_path);
	free(d.fault);
	git_libgit2_shutdown();
	return status;
}
