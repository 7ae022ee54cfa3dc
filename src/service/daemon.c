/*
 * The daemon (daemon.h): one libuv loop holding the watcher, the
 * scheduler, the engine's batches, the socket, the signals and the
 * systemd watchdog.
 *
 * Start-up, in order: the tree and the state directory are checked and
 * the state directory locked (one daemon per state directory); the store
 * is opened; the socket is bound (or taken from systemd); the watches are
 * set, so that nothing changed during the first scan is missed; the first
 * scan runs, with a progress line on a terminal and STATUS= under
 * systemd; READY=1 follows it.  Every failure before the loop runs is a
 * one-line error and exit status 2.
 *
 * The socket answers JSON-RPC 2.0, one object per line; in this version
 * only "status" (the next issue brings the rest of the protocol).
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
#include <systemd/sd-daemon.h>
#include <unistd.h>
#include <uv.h>

#include "uapid/buf.h"
#include "uapid/daemon.h"
#include "uapid/engine.h"
#include "uapid/fsutil.h"
#include "uapid/log.h"
#include "uapid/sched.h"
#include "uapid/tree.h"
#include "uapid/watch.h"
#include "uapid/xmalloc.h"

/*
 * Without enough watches, how often the tree is looked at
 * (UAPID_RESCAN_MS changes it, for tests and for big trees).
 */
#define PERIODIC_RESCAN_MS 10000
#define MAX_LINE (1 << 20) /* a request line longer than this closes the connection */

struct client;

struct daemon {
	uv_loop_t loop;
	const struct ud_daemon_opts *o;
	char *root, *state_dir, *socket_path;
	int lock_fd;
	struct ud_engine *engine;
	struct ud_watch *watch;
	struct ud_sched *sched;
	uv_pipe_t server;
	bool server_open, socket_ours;
	uv_signal_t sigterm, sigint, sighup;
	uv_timer_t watchdog, rescan, status_timer;
	uint64_t last_status_ns; /* STATUS= goes out at most once a second */
	bool watchdog_on, rescan_on;
	bool systemd; /* NOTIFY_SOCKET is set */
	bool ready;   /* the first scan is recorded */
	bool stopping;
	int status;
	uint64_t scan_t0;
	uint64_t batches;
	uint64_t last_batch_ns, last_batch_at;
	struct client *clients;
};

struct client {
	uv_pipe_t pipe;
	struct daemon *d;
	struct ud_buf in;
	struct client *next;
	bool closing;
};

/* --- paths ---------------------------------------------------------------- */

char *
ud_daemon_tree_id(const char *root)
{
	const char *base = strrchr(root, '/');
	uint32_t h = 2166136261u;
	const char *c;
	struct ud_buf id = UD_BUF_INIT;

	for (c = root; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	base = base != NULL && base[1] != '\0' ? base + 1 : "root";
	for (c = base; *c != '\0'; c++)
		ud_buf_addch(&id, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
						  (*c >= '0' && *c <= '9') || *c == '.' ||
						  *c == '_' || *c == '-'
					  ? *c
					  : '_');
	ud_buf_addf(&id, "-%08x", h);
	return ud_buf_detach(&id, NULL);
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
	const char *r = env("RUNTIME_DIRECTORY"), *x = env("XDG_RUNTIME_DIR");
	char *id, *path;

	if (r != NULL)
		return ud_xasprintf("%.*s/uapid.sock", (int)strcspn(r, ":"), r);
	id = ud_daemon_tree_id(root);
	if (x != NULL)
		path = ud_xasprintf("%s/uapid/%s.sock", x, id);
	else
		path = ud_xasprintf("/tmp/uapid-%u/%s.sock", (unsigned)getuid(), id);
	free(id);
	return path;
}

/* --- the state directory --------------------------------------------------- */

static int
lock_state_dir(struct daemon *d)
{
	char *path = ud_xasprintf("%s/lock", d->state_dir), *cause = NULL;
	char pid[32];
	int fd, n;

	if (ud_mkdir_p(d->state_dir, &cause) < 0) {
		ud_log(LOG_ERR, "state directory: %s", cause);
		free(cause);
		free(path);
		return -1;
	}
	if (access(d->state_dir, W_OK) < 0) {
		ud_log(LOG_ERR, "state directory %s: not writable: %s", d->state_dir,
		       strerror(errno));
		free(path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
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

static void notify_status(struct daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
notify_status(struct daemon *d, const char *fmt, ...)
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

static void status_line(struct daemon *d, struct ud_buf *out);

static void
send_status(struct daemon *d)
{
	struct ud_buf line = UD_BUF_INIT;

	status_line(d, &line);
	notify_status(d, "%s", ud_buf_str(&line));
	ud_buf_free(&line);
	d->last_status_ns = uv_hrtime();
}

static void
on_status_timer(uv_timer_t *t)
{
	send_status(t->data);
}

/*
 * The service's STATUS= after a batch, at most once a second (a burst
 * takes many batches; sd_notify blocks when the manager reads slowly).
 */
static void
update_status(struct daemon *d)
{
	uint64_t since = uv_hrtime() - d->last_status_ns;

	if (!d->systemd || d->stopping)
		return;
	if (since >= 1000000000ULL)
		send_status(d);
	else if (!uv_is_active((uv_handle_t *)&d->status_timer))
		uv_timer_start(&d->status_timer, on_status_timer,
			       (1000000000ULL - since) / 1000000 + 1, 0);
}

static void
on_watchdog(uv_timer_t *t)
{
	(void)t;
	sd_notify(0, "WATCHDOG=1");
}

static void
status_line(struct daemon *d, struct ud_buf *out)
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
}

/* --- the socket --------------------------------------------------------------- */

static void
on_client_closed(uv_handle_t *h)
{
	struct client *c = h->data, **p;

	for (p = &c->d->clients; *p != NULL; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	ud_buf_free(&c->in);
	free(c);
}

static void
close_client(struct client *c)
{
	if (c->closing)
		return;
	c->closing = true;
	uv_close((uv_handle_t *)&c->pipe, on_client_closed);
}

struct write_req {
	uv_write_t req;
	char *data;
};

static void
on_written(uv_write_t *req, int status)
{
	struct write_req *w = (struct write_req *)req;

	(void)status;
	free(w->data);
	free(w);
}

static void
reply(struct client *c, json_t *msg)
{
	struct write_req *w;
	char *s = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
	uv_buf_t buf;

	json_decref(msg);
	if (s == NULL || c->closing) {
		free(s);
		return;
	}
	w = ud_xcalloc(1, sizeof(*w));
	w->data = ud_xasprintf("%s\n", s);
	free(s);
	buf = uv_buf_init(w->data, (unsigned)strlen(w->data));
	if (uv_write(&w->req, (uv_stream_t *)&c->pipe, &buf, 1, on_written) < 0) {
		free(w->data);
		free(w);
		close_client(c);
	}
}

static json_t *
rpc_error(json_t *id, int code, const char *message)
{
	return json_pack("{s:s, s:O?, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id, "error", "code",
			 code, "message", message);
}

static int
add_problem(const char *what, const char *reason, void *ctx)
{
	json_array_append_new(ctx, json_pack("{s:s, s:s}", "what", what, "reason", reason));
	return 0;
}

static json_t *
status_result(struct daemon *d)
{
	struct ud_engine_counts c;
	json_t *problems = json_array();
	struct ud_buf line = UD_BUF_INIT;

	ud_engine_counts(d->engine, &c);
	ud_store_each_problem(ud_engine_store(d->engine), add_problem, problems, NULL);
	status_line(d, &line);
	json_t *r = json_pack(
		"{s:s, s:s, s:s, s:s, s:I, s:b, s:b, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
		"s:I}, s:{s:I, s:f}, s:{s:I, s:b, s:b}, s:o, s:s}",
		"tree", d->root, "state_dir", d->state_dir, "socket", d->socket_path, "arch",
		d->o->arch, "clock", (json_int_t)ud_store_clock(ud_engine_store(d->engine)),
		"ready", d->ready, "busy",
		!d->ready || ud_engine_busy(d->engine) || ud_sched_busy(d->sched), "counts",
		"headers", (json_int_t)c.headers, "exported", (json_int_t)c.exported, "split",
		(json_int_t)c.split, "moved", (json_int_t)c.moved, "needs_coaching",
		(json_int_t)c.needs_coaching, "skipped", (json_int_t)c.skipped, "unreadable",
		(json_int_t)c.unreadable, "installed", (json_int_t)c.installed, "install_failed",
		(json_int_t)c.install_failed, "outputs", (json_int_t)c.outputs, "last_batch",
		"count", (json_int_t)d->batches, "ms", (double)d->last_batch_ns / 1e6, "watch",
		"directories", (json_int_t)ud_watch_count(d->watch), "degraded",
		ud_watch_degraded(d->watch), "waiting_for_git", ud_sched_waiting_for_git(d->sched),
		"problems", problems, "summary", ud_buf_str(&line));
	ud_buf_free(&line);
	return r;
}

static void
handle_line(struct client *c, const char *line)
{
	json_error_t jerr;
	json_t *req = json_loads(line, 0, &jerr), *id, *method;

	if (req == NULL) {
		reply(c, rpc_error(NULL, -32700, "parse error: not JSON"));
		return;
	}
	id = json_object_get(req, "id");
	method = json_object_get(req, "method");
	if (!json_is_object(req) || !json_is_string(method)) {
		reply(c, rpc_error(id, -32600, "invalid request: no \"method\" string"));
	} else if (strcmp(json_string_value(method), "status") == 0) {
		if (id != NULL)
			reply(c, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result",
					   status_result(c->d)));
	} else if (id != NULL) {
		reply(c, rpc_error(id, -32601, "method not found"));
	}
	json_decref(req);
}

static void
alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	(void)h;
	buf->base = ud_xmalloc(suggested);
	buf->len = suggested;
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct client *c = s->data;

	if (n < 0) {
		free(buf->base);
		close_client(c);
		return;
	}
	ud_buf_add(&c->in, buf->base, (size_t)n);
	free(buf->base);
	for (;;) {
		char *nl = c->in.len > 0 ? memchr(c->in.data, '\n', c->in.len) : NULL;
		size_t len;

		if (nl == NULL)
			break;
		*nl = '\0';
		len = (size_t)(nl - c->in.data) + 1;
		handle_line(c, c->in.data);
		memmove(c->in.data, c->in.data + len, c->in.len - len);
		ud_buf_setlen(&c->in, c->in.len - len);
	}
	if (c->in.len > MAX_LINE) {
		reply(c, rpc_error(NULL, -32600, "invalid request: line too long"));
		close_client(c);
	}
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct daemon *d = server->data;
	struct client *c;

	if (status < 0)
		return;
	c = ud_xcalloc(1, sizeof(*c));
	c->d = d;
	uv_pipe_init(&d->loop, &c->pipe, 0);
	c->pipe.data = c;
	c->next = d->clients;
	d->clients = c;
	if (uv_accept(server, (uv_stream_t *)&c->pipe) < 0 ||
	    uv_read_start((uv_stream_t *)&c->pipe, alloc_cb, on_read) < 0)
		close_client(c);
}

/* Binds the socket, or takes the one systemd passes; 0 or -1 after logging why. */
static int
open_socket(struct daemon *d)
{
	int n = sd_listen_fds(1), rc;
	char *dir, *cause = NULL;
	struct stat st;

	uv_pipe_init(&d->loop, &d->server, 0);
	d->server.data = d;
	d->server_open = true;
	if (n > 0) {
		if (n != 1 ||
		    sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1, NULL, 0) <= 0) {
			ud_log(LOG_ERR,
			       "socket activation: expected one listening Unix stream socket, "
			       "got %d file descriptors",
			       n);
			return -1;
		}
		if ((rc = uv_pipe_open(&d->server, SD_LISTEN_FDS_START)) < 0) {
			ud_log(LOG_ERR, "socket activation: %s", uv_strerror(rc));
			return -1;
		}
		{
			/* where systemd bound it, for status and the log */
			char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
			size_t len = sizeof(name);

			if (uv_pipe_getsockname(&d->server, name, &len) == 0 && len > 0) {
				free(d->socket_path);
				d->socket_path = ud_xstrndup(name, len);
			}
		}
		ud_log(LOG_INFO, "socket from systemd (%s)", d->socket_path);
	} else {
		if (strlen(d->socket_path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
			ud_log(LOG_ERR, "%s: socket path longer than %zu bytes", d->socket_path,
			       sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
			return -1;
		}
		dir = ud_xstrndup(d->socket_path,
				  (size_t)(strrchr(d->socket_path, '/') != NULL
						   ? strrchr(d->socket_path, '/') - d->socket_path
						   : 0));
		if (dir[0] != '\0' && ud_mkdir_p(dir, &cause) < 0) {
			ud_log(LOG_ERR, "socket directory: %s", cause);
			free(cause);
			free(dir);
			return -1;
		}
		free(dir);
		/* a socket left by a daemon that died: nobody answers on it */
		if (lstat(d->socket_path, &st) == 0 && S_ISSOCK(st.st_mode)) {
			int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
			struct sockaddr_un sun;

			memset(&sun, 0, sizeof(sun));
			sun.sun_family = AF_UNIX;
			memcpy(sun.sun_path, d->socket_path, strlen(d->socket_path) + 1);
			if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
				close(fd);
				ud_log(LOG_ERR, "%s: another daemon answers on this socket",
				       d->socket_path);
				return -1;
			}
			if (fd >= 0)
				close(fd);
			unlink(d->socket_path);
		}
		mode_t old = umask(0077);

		rc = uv_pipe_bind(&d->server, d->socket_path);
		umask(old);
		if (rc < 0) {
			ud_log(LOG_ERR, "%s: cannot listen: %s", d->socket_path, uv_strerror(rc));
			return -1;
		}
		d->socket_ours = true;
		/* the owner only (connecting needs write permission), set before anyone can connect
		 */
		if (chmod(d->socket_path, 0600) < 0) {
			ud_log(LOG_ERR, "%s: %s", d->socket_path, strerror(errno));
			return -1;
		}
	}
	if ((rc = uv_listen((uv_stream_t *)&d->server, 64, on_connection)) < 0) {
		ud_log(LOG_ERR, "%s: cannot listen: %s", d->socket_path, uv_strerror(rc));
		return -1;
	}
	return 0;
}

/* --- watching and batches --------------------------------------------------------- */

static const char *
watch_limit_now(void)
{
	static char v[32];
	FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "r");

	if (f == NULL || fgets(v, sizeof(v), f) == NULL)
		snprintf(v, sizeof(v), "unknown");
	if (f != NULL)
		fclose(f);
	v[strcspn(v, "\n")] = '\0';
	return v;
}

static uint64_t
rescan_ms(void)
{
	const char *v = getenv("UAPID_RESCAN_MS");
	long ms = v != NULL ? strtol(v, NULL, 10) : 0;

	return ms > 0 ? (uint64_t)ms : PERIODIC_RESCAN_MS;
}

static void
on_watch_event(void *ctx, const char *rel, unsigned kinds)
{
	struct daemon *d = ctx;

	if (strcmp(rel, ".git") == 0 || strncmp(rel, ".git/", 5) == 0)
		return; /* git's own files: its index lock is looked at before each batch */
	if (kinds & UD_WATCH_LIMIT) {
		ud_log(LOG_WARNING,
		       "the inotify watch limit is reached (%s is not watched): raise it with "
		       "'sysctl fs.inotify.max_user_watches=N' (now %s); until then the tree is "
		       "looked at every %.1f s",
		       rel[0] ? rel : ".", watch_limit_now(), (double)rescan_ms() / 1000);
		return; /* the periodic rescans start after the batch in progress */
	}
	if (kinds & UD_WATCH_RESCAN) {
		if (rel[0] == '\0') {
			ud_log(LOG_NOTICE,
			       "inotify events were lost (queue overflow): looking at the "
			       "whole tree again");
			ud_sched_full(d->sched);
		} else {
			ud_log(LOG_NOTICE, "%s: its watch was lost: looking at it again", rel);
			ud_sched_note(d->sched, rel, kinds);
		}
		return;
	}
	ud_sched_note(d->sched, rel, kinds);
}

static enum ud_watch_mode
watch_filter(void *ctx, const char *rel)
{
	struct daemon *d = ctx;

	return (enum ud_watch_mode)ud_engine_dir_interest(d->engine, rel);
}

static void
on_rescan(uv_timer_t *t)
{
	struct daemon *d = t->data;

	ud_sched_full(d->sched);
}

static void shutdown_daemon(struct daemon *d);

/* Watches the directories the install plan read from, as they become known. */
static void
watch_plan_dirs(struct daemon *d)
{
	const struct ud_strlist *dirs = ud_engine_plan_dirs(d->engine);
	size_t i;

	for (i = 0; i < dirs->n; i++)
		if (!ud_watch_has(d->watch, dirs->v[i]))
			(void)ud_watch_add(d->watch, dirs->v[i], NULL);
}

static void
after_batch(struct daemon *d, const struct ud_engine_report *r)
{
	d->batches++;
	d->last_batch_ns = r->ns;
	if (r->error < 0) {
		ud_log(LOG_ERR, "batch not recorded: %s (it is tried again)", r->cause);
		ud_sched_full(d->sched);
		return;
	}
	watch_plan_dirs(d);
	if (ud_watch_degraded(d->watch) && !d->rescan_on) {
		uint64_t ms = rescan_ms();

		uv_timer_start(&d->rescan, on_rescan, ms, ms);
		d->rescan_on = true;
		ud_store_set_problem(ud_engine_store(d->engine), "watch",
				     "inotify watch limit reached: periodic rescans", r->clock,
				     NULL);
	}
	if (r->written + r->removed + r->failed > 0 || r->full)
		ud_log(r->failed > 0 ? LOG_WARNING : LOG_INFO,
		       "%s: %zu path%s, %zu header%s split again, %zu installed header%s made, %zu "
		       "written, %zu removed%s%s, %.1f ms (clock %" PRId64 ")",
		       r->full ? "scan" : "batch", r->paths, r->paths == 1 ? "" : "s", r->resplit,
		       r->resplit == 1 ? "" : "s", r->reinstalled, r->reinstalled == 1 ? "" : "s",
		       r->written, r->removed, r->failed > 0 ? ", failed: " : "",
		       r->failed > 0 ? "see above" : "", (double)r->ns / 1e6, r->clock);
	update_status(d);
}

static void
on_batch_done(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;

	after_batch(d, r);
	ud_sched_done(d->sched);
	if (d->stopping)
		shutdown_daemon(d);
}

static void
run_batch(void *ctx, struct ud_sched_batch *b)
{
	struct daemon *d = ctx;

	if (d->stopping) {
		ud_sched_batch_free(b);
		ud_sched_done(d->sched);
		return;
	}
	ud_engine_batch(d->engine, b, on_batch_done, d);
}

static void
on_progress(void *ctx, size_t done, size_t total)
{
	struct daemon *d = ctx;
	double s = (double)(uv_hrtime() - d->scan_t0) / 1e9;

	if (d->ready)
		return;
	ud_log_progress("scanning: %zu/%zu files (%.0f/s)", done, total, s > 0 ? done / s : 0.0);
	notify_status(d, "scanning: %zu/%zu files", done, total);
}

static void
on_first_scan(void *ctx, const struct ud_engine_report *r)
{
	struct daemon *d = ctx;
	struct ud_buf line = UD_BUF_INIT;

	after_batch(d, r);
	d->ready = true;
	status_line(d, &line);
	ud_log(LOG_INFO, "ready: %s; watching %zu directories", ud_buf_str(&line),
	       ud_watch_count(d->watch));
	ud_buf_free(&line);
	if (d->systemd)
		send_status(d); /* what it serves, before it says it is ready */
	sd_notify(0, "READY=1");
	ud_sched_done(d->sched);
	if (d->stopping)
		shutdown_daemon(d);
}

/* --- signals and shutdown ---------------------------------------------------------- */

static void
close_handle(uv_handle_t *h)
{
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static void
shutdown_daemon(struct daemon *d)
{
	struct client *c;

	d->stopping = true;
	if (ud_engine_busy(d->engine))
		return; /* the batch finishes and is recorded first */
	sd_notify(0, "STOPPING=1");
	ud_watch_close(d->watch);
	d->watch = NULL;
	ud_sched_close(d->sched);
	d->sched = NULL;
	if (d->server_open)
		close_handle((uv_handle_t *)&d->server);
	for (c = d->clients; c != NULL; c = c->next)
		close_client(c);
	close_handle((uv_handle_t *)&d->sigterm);
	close_handle((uv_handle_t *)&d->sigint);
	close_handle((uv_handle_t *)&d->sighup);
	close_handle((uv_handle_t *)&d->watchdog);
	close_handle((uv_handle_t *)&d->rescan);
	close_handle((uv_handle_t *)&d->status_timer);
}

static void
on_stop_signal(uv_signal_t *s, int signum)
{
	struct daemon *d = s->data;

	if (d->stopping)
		return;
	ud_log(LOG_INFO, "%s: stopping%s", signum == SIGTERM ? "SIGTERM" : "SIGINT",
	       ud_engine_busy(d->engine) ? " once the batch in progress is recorded" : "");
	shutdown_daemon(d);
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
	} else {
		ud_log(LOG_INFO, "SIGHUP: markers reloaded; looking at the whole tree again");
	}
	ud_sched_full(d->sched);
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
		char cwd[PATH_MAX];
		char *abs =
			ud_xasprintf("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", d->state_dir);

		free(d->state_dir);
		d->state_dir = abs;
	}
	d->socket_path =
		d->o->socket != NULL ? ud_xstrdup(d->o->socket) : ud_daemon_default_socket(d->root);
	if (lock_state_dir(d) < 0)
		return -1;
	memset(&eo, 0, sizeof(eo));
	eo.root = d->root;
	eo.state_dir = d->state_dir;
	eo.arch = d->o->arch;
	eo.markers = d->o->markers;
	if (ud_engine_open(&d->engine, &d->loop, &eo, &cause) < 0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	ud_engine_set_progress(d->engine, on_progress, d);
	if (open_socket(d) < 0)
		return -1;
	d->sched = ud_sched_new(&d->loop, d->o->settle_ms, d->root, run_batch, d);
	if (ud_watch_open(&d->watch, &d->loop, d->root, on_watch_event, watch_filter, d, &cause) <
	    0) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	if ((rc = ud_watch_add(d->watch, "", &cause)) < 0 && rc != -ENOSPC) {
		ud_log(LOG_ERR, "%s", cause);
		free(cause);
		return -1;
	}
	uv_signal_init(&d->loop, &d->sigterm);
	uv_signal_init(&d->loop, &d->sigint);
	uv_signal_init(&d->loop, &d->sighup);
	d->sigterm.data = d->sigint.data = d->sighup.data = d;
	uv_signal_start(&d->sigterm, on_stop_signal, SIGTERM);
	uv_signal_start(&d->sigint, on_stop_signal, SIGINT);
	uv_signal_start(&d->sighup, on_hup, SIGHUP);
	uv_timer_init(&d->loop, &d->watchdog);
	uv_timer_init(&d->loop, &d->rescan);
	uv_timer_init(&d->loop, &d->status_timer);
	d->watchdog.data = d->rescan.data = d->status_timer.data = d;
	if (sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec > 0) {
		/* twice per period, as sd_watchdog_enabled(3) advises */
		uv_timer_start(&d->watchdog, on_watchdog, wd_usec / 2000, wd_usec / 2000);
		d->watchdog_on = true;
	}
	ud_log(LOG_INFO, "watching %s (arch %s): state in %s, socket %s", d->root, d->o->arch,
	       d->state_dir, d->socket_path);
	notify_status(d, "scanning %s", d->root);
	d->scan_t0 = uv_hrtime();
	/* the scheduler counts the first scan as its running batch */
	ud_sched_hold(d->sched);
	if (ud_engine_start(d->engine, on_first_scan, d, &cause) < 0) {
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
	uv_loop_init(&d.loop);
	if (start(&d) < 0) {
		status = 2;
		d.stopping = true;
		ud_watch_close(d.watch);
		ud_sched_close(d.sched);
		uv_walk(&d.loop, walk_close, NULL);
	}
	uv_run(&d.loop, UV_RUN_DEFAULT);
	uv_walk(&d.loop, walk_close, NULL);
	uv_run(&d.loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&d.loop) != 0)
		ud_log(LOG_WARNING, "the loop closed with handles still open");
	ud_engine_close(d.engine);
	if (d.socket_ours)
		unlink(d.socket_path);
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	if (status == 0)
		ud_log(LOG_INFO, "stopped");
	free(d.root);
	free(d.state_dir);
	free(d.socket_path);
	git_libgit2_shutdown();
	return status;
}
