// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON-RPC server (rpc.h) on libuv pipes.
 */
#include "config.h"

#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "rpc-int.h"
#include "uapid/util/buf.h"
#include "uapid/util/hash.h"
#include "uapid/io/log.h"
#include "uapid/daemon/rpc.h"
#include "uapid/util/xmalloc.h"

/*
 * A connection's life, each state after the one before it (set_state has
 * the transitions, conn_next their table).
 */
enum conn_state {
	CONN_OPEN,	/* its requests are read and answered */
	CONN_EOF,	/* its input ended: finished once all it sent is answered */
	CONN_FINISHING, /* closing once the queued replies are written (uv_shutdown) */
	CONN_CLOSING,	/* uv_close called: nothing more is read or sent */
	CONN_CLOSED,	/* the pipe's close callback ran (the struct waits for held answers) */
	CONN__COUNT,
};

/* May a connection in state [from] go to state [to]? */
static const bool conn_next[CONN__COUNT][CONN__COUNT] = {
	[CONN_OPEN] = {[CONN_EOF] = true, [CONN_FINISHING] = true, [CONN_CLOSING] = true},
	[CONN_EOF] = {[CONN_FINISHING] = true, [CONN_CLOSING] = true},
	[CONN_FINISHING] = {[CONN_CLOSING] = true},
	[CONN_CLOSING] = {[CONN_CLOSED] = true},
};
static_assert(ARRAY_SIZE(conn_next) == CONN__COUNT, "a row for every state");

struct ud_rpc_client {
	uv_pipe_t pipe;
	struct ud_rpc *r;
	struct ud_buf in; /* read into straight (alloc_cb): no copy per read */
	size_t scanned;	  /* in.data[0, scanned) holds no newline: not searched again */
	enum conn_state state;
	/* while open, what holds its requests back (may_handle, may_read): */
	bool paused;   /* replies wait unread: no more requests are read until they drain */
	bool backlog;  /* whole lines wait for a later turn of the loop: none is read meanwhile */
	unsigned held; /* requests answered later (ud_rpc_hold): no more are read meanwhile */
	bool reading;  /* uv_read_start is in effect */
	bool subscribed;
	uid_t uid;
	pid_t pid;
	struct ud_rpc_client *prev, *next;
};

struct ud_rpc {
	uv_loop_t *loop;
	uv_pipe_t server;
	char *path;
	bool ours; /* the path was bound here: removed at close, if it still names our socket */
	dev_t dev; /* what path named once it listened (lstat): what "our socket" is */
	ino_t ino;
	char *lost;	       /* why path no longer names our socket (logged once), or NULL */
	uv_timer_t watch_path; /* looks at path now and then (SOCKET_CHECK_MS) */
	/*
	 * Accepting paused: the descriptors left were under the reserve (or
	 * accept failed for want of one); a connection waits in the listen
	 * backlog until clients go or the retry timer finds room.
	 */
	bool accept_paused;
	bool conn_waiting; /* libuv holds an accepted connection we left untaken */
	bool closing;	   /* ud_rpc_close ran */
	uv_timer_t accept_retry;
	size_t fd_limit; /* RLIMIT_NOFILE's soft limit when it started */
	gid_t group;
	size_t max_request, max_queue, max_pending;
	struct ud_rpc_dispatch dispatch;
	struct ud_rpc_client *clients;
	size_t nclients, nsubscribers;
	uv_idle_t turn;	     /* runs while a client has a backlog: its next lines, a few per turn */
	uv_check_t turned;   /* after each turn's I/O: the next turn's budget starts afresh */
	uint64_t turn_start; /* when this turn handled its first line (uv_hrtime), or 0 */
	uint64_t turn_cpu;   /* the loop thread's CPU time at the end of the last turn (ns) */
	size_t turn_read;    /* bytes read over all clients this turn (TURN_READ_BUDGET) */
	uint64_t turn_wall;  /* uv_hrtime at the end of the last turn */
	uint64_t turn_idle;  /* the loop's time waiting for I/O then (uv_metrics_idle_time) */
	struct ud_rpc_loop_stats holds;
	int open_handles; /* server, turn, turned and the timers: r is freed when all are closed */
	size_t pending;	  /* the sum of every client's in.len */
};

struct write_req {
	uv_write_t req;
	struct ud_rpc_client *c;
	char *data;
	size_t len;
};

/* A reply this large is followed by giving the heap's free memory back. */
#define TRIM_AFTER (1u << 20)
/*
 * Request lines handled for one client before the loop turns to the
 * others: a client pipelining thousands of requests is served in slices,
 * and every other client is answered between them.
 */
#define LINES_PER_TURN 64
/*
 * And over all clients, one turn of the loop spends at most this long on
 * pipelined lines (each client's first line in a turn is always handled):
 * 20 clients pipelining thousands of requests each must not make a turn,
 * and so every other client's wait, 20 slices long.
 */
#define TURN_BUDGET_NS (5u * 1000 * 1000)
/*
 * And at most this many bytes read over all clients: 40 clients each
 * streaming a long line would otherwise have the loop copy and fault in
 * tens of MiB in one turn (80 ms of CPU, measured), every other client
 * waiting.  Reading into fresh pages costs about 11 ms of CPU a MiB on a
 * virtual machine that traps each page fault (measured: 2 MiB a turn, 22
 * ms), so a turn's share is about TURN_BUDGET_NS's.  Past it a client's
 * read waits for the next turn (alloc_cb hands libuv no buffer:
 * UV_ENOBUFS, and the socket stays readable).
 */
#define TURN_READ_BUDGET (512u << 10)
/*
 * But a client holding less than this is always read: the budget spent on
 * long lines must not keep a short request (a status) waiting turn after
 * turn (measured: 0.5-0.7 s with 40 long lines streaming).
 */
#define SHORT_INPUT (64u << 10)
/*
 * A request line this long is parsed on the thread pool (8 MiB of JSON
 * take the loop a second or more); its client waits meanwhile.
 */
#define PARSE_ON_POOL (1u << 20)

/*
 * A long line parsed on the pool.  The job reads only what it holds: the
 * storage the line is in (the client's input buffer, handed over, or a
 * copy) and the bound on a batch.
 */
struct parse_job {
	uv_work_t req;
	struct ud_rpc_client *c;
	char *buf;	  /* the job's own: freed on the pool */
	const char *line; /* in buf */
	size_t len, max_batch;
	json_t *parsed; /* the request, or NULL with error (NULL too: a blank line) */
	char *error;
};

static void drain_input(struct ud_rpc_client *c);

static void
set_state(struct ud_rpc_client *c, enum conn_state to)
{
	assert(conn_next[c->state][to]);
	c->state = to;
}

/* Is it still answered (neither finishing nor closing)? */
static bool
live(const struct ud_rpc_client *c)
{
	return c->state == CONN_OPEN || c->state == CONN_EOF;
}

/* May its request lines be handled now? */
static bool
may_handle(const struct ud_rpc_client *c)
{
	return live(c) && !c->paused && c->held == 0;
}

/* May more of its requests be read now?  (Not while lines of it wait their turn.) */
static bool
may_read(const struct ud_rpc_client *c)
{
	return may_handle(c) && c->state == CONN_OPEN && !c->backlog;
}
static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);
static void end_of_input(struct ud_rpc_client *c);
static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void refuse_largest(struct ud_rpc *r);
static void update_reading(struct ud_rpc_client *c);
static void resume(struct ud_rpc_client *c);
static void parse_on_pool(struct ud_rpc_client *c, size_t start, size_t len);
static void on_accept_retry(uv_timer_t *t);

static void
on_client_closed(uv_handle_t *h)
{
	struct ud_rpc_client *c = h->data;

	ud_buf_free(&c->in);
	set_state(c, CONN_CLOSED);
	if (c->held == 0)
		free(c); /* else the last held answer frees it */
}

static void
trim_work_cb(uv_work_t *req)
{
	(void)req;
#ifdef HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
}

static void
trim_after_cb(uv_work_t *req, int status)
{
	(void)status;
	free(req);
}

/*
 * After a large request or reply, the heap's free pages go back to the
 * system: one client's 8 MiB line must not leave the daemon's RSS at its
 * peak for the rest of its life.  On the pool: malloc_trim walks the whole
 * heap, milliseconds the loop does not wait for (it touches none of ours).
 */
static void
give_back_memory(struct ud_rpc *r)
{
	uv_work_t *req = ud_xcalloc(1, sizeof(*req));

	if (uv_queue_work(r->loop, req, trim_work_cb, trim_after_cb) < 0) {
		trim_work_cb(req); /* the pool will not take it: done here */
		free(req);
	}
}

/* The client's unhandled input is dropped (it is closing: nothing more is read). */
static void
drop_input(struct ud_rpc_client *c)
{
	bool large = c->in.alloc >= TRIM_AFTER;

	c->r->pending -= c->in.len;
	ud_buf_free(&c->in);
	c->scanned = 0;
	if (large)
		give_back_memory(c->r);
}

static void
close_client(struct ud_rpc_client *c)
{
	struct ud_rpc *r = c->r;

	if (c->state >= CONN_CLOSING)
		return;
	set_state(c, CONN_CLOSING);
	drop_input(c);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		r->clients = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	r->nclients--;
	if (c->subscribed)
		r->nsubscribers--;
	uv_close((uv_handle_t *)&c->pipe, on_client_closed); /* its descriptor is closed now */
	if (r->accept_paused && !r->closing) /* one descriptor more: look again, on the next turn */
		(void)uv_timer_start(&r->accept_retry, on_accept_retry, 0, 0);
}

static void
on_shutdown(uv_shutdown_t *req, int status)
{
	struct ud_rpc_client *c = req->handle->data;

	(void)status;
	free(req);
	close_client(c);
}

/*
 * Closes the connection once the replies already queued are written: at
 * the client's end of input (a client may send its requests, close its
 * side and read the answers) and after the error for an overlong request.
 */
static void
finish_client(struct ud_rpc_client *c)
{
	uv_shutdown_t *req;

	if (!live(c))
		return;
	set_state(c, CONN_FINISHING);
	(void)uv_read_stop((uv_stream_t *)&c->pipe); /* cannot fail */
	c->reading = false;
	drop_input(c);
	req = ud_xcalloc(1, sizeof(*req));
	if (uv_shutdown(req, (uv_stream_t *)&c->pipe, on_shutdown) < 0) {
		free(req);
		close_client(c);
	}
}

static size_t
queued(struct ud_rpc_client *c)
{
	return uv_stream_get_write_queue_size((uv_stream_t *)&c->pipe);
}

static void
on_written(uv_write_t *req, int status)
{
	struct write_req *w = (struct write_req *)req;
	struct ud_rpc_client *c = w->c;
	bool large = w->len >= TRIM_AFTER;

	free(w->data);
	free(w);
	if (large)
		give_back_memory(c->r);
	if (status < 0 && status != UV_ECANCELED) {
		/* the peer hung up before reading: a closed client, not an error of ours */
		ud_log(LOG_DEBUG, "socket: a client went before its reply was written: %s",
		       uv_strerror(status));
		close_client(c);
		return;
	}
	/* the client read its replies: take its requests again (cancelled writes come
	 * before the close callback, so c is still there) */
	if (status == 0 && c->paused && live(c) && queued(c) <= c->r->max_queue / 2) {
		c->paused = false;
		resume(c);
	}
}

/*
 * Sends one line (text without its newline, malloc'd: taken, freed once
 * written); false when the client is gone.
 */
static bool
send_line(struct ud_rpc_client *c, char *text)
{
	static char newline[] = "\n";
	struct write_req *w;
	uv_buf_t bufs[2];

	if (text == NULL)
		return true;
	if (!live(c)) {
		free(text);
		return false;
	}
	w = ud_xcalloc(1, sizeof(*w));
	w->c = c;
	w->data = text;
	w->len = strlen(text);
	bufs[0] = uv_buf_init(w->data, (unsigned)w->len);
	bufs[1] = uv_buf_init(newline, 1);
	if (uv_write(&w->req, (uv_stream_t *)&c->pipe, bufs, 2, on_written) < 0) {
		free(w->data);
		free(w);
		close_client(c);
		return false;
	}
	/*
	 * A client that sends requests and does not read the replies would make
	 * us buffer without end: past the bound, stop reading its requests until
	 * it has read half of what waits (subscribers that do not read are
	 * disconnected instead, in ud_rpc_notify_all).
	 */
	if (!c->paused && queued(c) > c->r->max_queue) {
		c->paused = true;
		update_reading(c);
	}
	return true;
}

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/*
 * Reads go straight into the client's input buffer: a long line is not
 * copied per read.  No buffer for a long line once the turn's read budget
 * is spent: the read is left for the next turn.
 */
static void
alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct ud_rpc_client *c = h->data;
	size_t left = TURN_READ_BUDGET - min_size(c->r->turn_read, TURN_READ_BUDGET);

	/* the budget holds back long lines, never a client's next short request */
	if (left == 0 && c->in.len < SHORT_INPUT)
		left = SHORT_INPUT;
	if (left == 0) {
		*buf = uv_buf_init(NULL, 0);
		return;
	}
	ud_buf_grow(&c->in, min_size(suggested, left));
	buf->base = c->in.data + c->in.len;
	buf->len = min_size(c->in.alloc - c->in.len - 1, left); /* the NUL's byte stays */
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct ud_rpc_client *c = s->data;

	(void)buf; /* it is c->in's */
	if (n == UV_ENOBUFS)
		return; /* the turn's read budget is spent: read on in the next */
	if (n == UV_EOF)
		end_of_input(c);
	else if (n < 0)
		close_client(c);
	if (n < 0)
		return;
	c->in.len += (size_t)n;
	c->in.data[c->in.len] = '\0';
	c->r->pending += (size_t)n;
	c->r->turn_read += (size_t)n;
	drain_input(c);
	update_reading(c);
	if (c->r->pending > c->r->max_pending)
		refuse_largest(c->r);
}

/*
 * Handles what the client sent and waits (unless an answer is held, or its
 * replies wait unread), then reads on, or ends it if its input had ended.
 */
static void
resume(struct ud_rpc_client *c)
{
	if (c->state >= CONN_CLOSING)
		return;
	if (c->held == 0)
		drain_input(c);
	if (c->state >= CONN_CLOSING)
		return;
	if (c->state == CONN_EOF && c->held == 0 && !c->backlog && !c->paused) {
		finish_client(c); /* the answers to what it sent still go out */
		return;
	}
	update_reading(c);
}

/*
 * The client's input ended (a client may send its requests, close its side
 * and read the answers).  A last request without its newline is still a
 * request, handled as the others are, a long one parsed on the pool; the
 * connection is finished once everything it sent is answered.
 */
static void
end_of_input(struct ud_rpc_client *c)
{
	set_state(c, CONN_EOF);
	update_reading(c);
	if (c->in.len > 0 && c->in.data[c->in.len - 1] != '\n') {
		ud_buf_addch(&c->in, '\n');
		c->r->pending++;
	}
	resume(c);
}

void
ud_rpc_hold(struct ud_rpc_client *c)
{
	c->held++;
	update_reading(c);
}

void
ud_rpc_answer(struct ud_rpc_client *c, char *line)
{
	c->held--;
	if (c->state >= CONN_CLOSING) {
		free(line);
		if (c->state == CONN_CLOSED && c->held == 0)
			free(c); /* its close callback ran while the answer was out */
		return;
	}
	send_line(c, line);
	resume(c);
}

/*
 * Reads the client's requests exactly when it may send more: not while
 * its replies wait unread, nor while whole lines of it wait their turn.
 */
static void
update_reading(struct ud_rpc_client *c)
{
	bool want = may_read(c);

	if (want == c->reading || c->state >= CONN_CLOSING)
		return;
	if (want) {
		if (uv_read_start((uv_stream_t *)&c->pipe, alloc_cb, on_read) < 0) {
			close_client(c);
			return;
		}
	} else {
		(void)uv_read_stop((uv_stream_t *)&c->pipe); /* cannot fail */
	}
	c->reading = want;
}

/* The loop turned: every client with a backlog gets its next slice of lines. */
static void
on_turn(uv_idle_t *h)
{
	struct ud_rpc *r = h->data;
	struct ud_rpc_client *c, *next;
	bool more = false;

	for (c = r->clients; c != NULL; c = next) {
		next = c->next;
		if (!c->backlog || !may_handle(c))
			continue;
		resume(c);
	}
	/* a paused client's backlog waits for its reader (on_written drains it then) */
	for (c = r->clients; c != NULL && !more; c = c->next)
		more = c->backlog && may_handle(c);
	if (!more)
		(void)uv_idle_stop(h); /* cannot fail */
}

static void
parse_work_cb(uv_work_t *req)
{
	struct parse_job *j = req->data;

	j->parsed = ud_rpc_parse_line(j->line, j->len, &j->error);
	free(j->buf);
	j->buf = NULL;
	j->line = NULL;
	/* a batch refused is refused here, and its parsed calls freed here too */
	if (j->parsed != NULL &&
	    (j->error = ud_rpc_refuse_batch(j->parsed, j->max_batch)) != NULL) {
		json_decref(j->parsed);
		j->parsed = NULL;
	}
	trim_work_cb(req); /* what parsing the long line took goes back */
}

static void
parse_after_cb(uv_work_t *req, int status)
{
	struct parse_job *j = req->data;
	struct ud_rpc_client *c = j->c;
	char *reply = j->error;

	(void)status; /* not cancelled: nothing calls uv_cancel */
	if (j->parsed != NULL && c->state < CONN_CLOSING)
		reply = ud_rpc_handle_request(&c->r->dispatch, c, j->parsed);
	else
		json_decref(j->parsed);
	free(j);
	ud_rpc_answer(c, reply);
}

/*
 * Hands the long request line at start (len bytes, its newline after it)
 * to the pool to be parsed, and takes it and what came before it out of
 * the client's input; the client is held until it is answered.  Of the
 * line and what follows it, the shorter is copied: the line keeps the
 * input's storage when little follows it (as it does, read by read).
 */
static void
parse_on_pool(struct ud_rpc_client *c, size_t start, size_t len)
{
	struct parse_job *j = ud_xcalloc(1, sizeof(*j));
	size_t next = start + len + 1, rest = c->in.len - next;

	j->req.data = j;
	j->c = c;
	j->len = len;
	j->max_batch = c->r->dispatch.max_batch;
	if (rest < len) {
		struct ud_buf tail = UD_BUF_INIT;

		ud_buf_add(&tail, c->in.data + next, rest);
		j->buf = ud_buf_detach(&c->in, NULL);
		j->line = j->buf + start;
		c->in = tail;
	} else {
		j->buf = ud_xmalloc(len + 1);
		memcpy(j->buf, c->in.data + start, len);
		j->line = j->buf;
		memmove(c->in.data, c->in.data + next, rest);
		ud_buf_setlen(&c->in, rest);
	}
	c->r->pending -= next;
	c->scanned = 0;
	if (uv_queue_work(c->r->loop, &j->req, parse_work_cb, parse_after_cb) == 0) {
		ud_rpc_hold(c); /* the callback runs on a later turn of the loop */
		return;
	}
	/* the pool will not take it: done here */
	parse_work_cb(&j->req);
	send_line(c, j->parsed != NULL ? ud_rpc_handle_request(&c->r->dispatch, c, j->parsed)
				       : j->error);
	free(j);
}

/* Has this turn of the loop spent its budget on pipelined lines? */
static bool
turn_spent(struct ud_rpc *r)
{
	uint64_t now = uv_hrtime();

	if (r->turn_start == 0)
		r->turn_start = now;
	return now - r->turn_start > TURN_BUDGET_NS;
}

/* The CPU time the calling thread has used, in ns. */
static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The loop's I/O of this turn is done: the next turn has its budget again.
 * A turn that took the loop thread long is said in the debug log (CPU
 * time, not wall time: a busy machine's delays are not the loop's work):
 * what holds the loop is found, not guessed.
 */
#define SLOW_TURN_NS (20u * 1000 * 1000)

/* The turn that ended is counted: its CPU time, and its wall time less its wait for I/O. */
static void
count_turn(struct ud_rpc *r, uint64_t cpu, uint64_t wall, uint64_t idle)
{
	struct ud_rpc_loop_stats *st = &r->holds;
	uint64_t c = cpu - r->turn_cpu, busy = wall - r->turn_wall;

	busy = busy > idle - r->turn_idle ? busy - (idle - r->turn_idle) : 0;
	st->turns++;
	if (c > st->max_cpu_ns)
		st->max_cpu_ns = c;
	if (busy > st->max_busy_ns)
		st->max_busy_ns = busy;
	st->held_cpu += c > UD_RPC_HOLD_NS;
	st->held_busy += busy > UD_RPC_HOLD_NS;
}

static void
on_turned(uv_check_t *h)
{
	struct ud_rpc *r = h->data;
	uint64_t cpu = thread_cpu_ns(), wall = uv_hrtime(), idle = uv_metrics_idle_time(h->loop);

	if (r->turn_cpu != 0 && cpu - r->turn_cpu > SLOW_TURN_NS)
		ud_log(LOG_DEBUG, "loop: a turn took %.1f ms of CPU (%zu bytes of requests read)",
		       (double)(cpu - r->turn_cpu) / 1e6, r->turn_read);
	if (r->turn_cpu != 0)
		count_turn(r, cpu, wall, idle);
	r->turn_start = 0;
	r->turn_read = 0;
	r->turn_cpu = cpu;
	r->turn_wall = wall;
	r->turn_idle = idle;
}

void
ud_rpc_loop_stats(const struct ud_rpc *r, struct ud_rpc_loop_stats *out)
{
	*out = r->holds;
}

/*
 * Handles the whole request lines read so far: LINES_PER_TURN at most, and
 * past the first only while the turn's budget lasts (the rest wait for
 * on_turn), unless replies wait unread.  Only bytes not searched before
 * are searched for a newline: a long line read 64 KiB at a time is
 * scanned once, not once per read.
 */
static void
drain_input(struct ud_rpc_client *c)
{
	size_t start = 0, lines = 0;

	c->backlog = false;
	while (may_handle(c) && start < c->in.len) {
		size_t from = start > c->scanned ? start : c->scanned, len;
		char *nl = memchr(c->in.data + from, '\n', c->in.len - from);

		if (nl == NULL) {
			c->scanned = c->in.len;
			break;
		}
		c->scanned = (size_t)(nl - c->in.data);
		len = (size_t)(nl - (c->in.data + start));
		if (len > c->r->max_request)
			break;
		if (lines == LINES_PER_TURN || (lines > 0 && turn_spent(c->r))) {
			c->backlog = true;
			(void)uv_idle_start(&c->r->turn,
					    on_turn); /* fails only without a callback */
			break;
		}
		lines++;
		(void)turn_spent(c->r); /* the budget starts with the turn's first line */
		if (len >= PARSE_ON_POOL) {
			parse_on_pool(c, start, len);
			start = 0; /* the input now starts after that line */
			continue;  /* held: the next lines wait for its answer */
		}
		send_line(c, ud_rpc_handle_line(&c->r->dispatch, c, c->in.data + start, len));
		start += len + 1;
	}
	if (c->state >= CONN_CLOSING)
		return;
	if (start > 0) {
		memmove(c->in.data, c->in.data + start, c->in.len - start);
		ud_buf_setlen(&c->in, c->in.len - start);
		c->r->pending -= start;
		c->scanned = c->scanned > start ? c->scanned - start : 0;
	}
	if (c->in.len == 0) {
		ud_buf_free(&c->in); /* an idle client holds no read buffer */
		c->scanned = 0;
	}
	if (!c->paused && !c->backlog && c->in.len > c->r->max_request) {
		char *m = ud_xasprintf("invalid request: longer than %zu bytes: refused, the "
				       "connection is closed",
				       c->r->max_request);

		ud_log(LOG_WARNING, "socket: a request from pid %ld is over %zu bytes: refused",
		       (long)c->pid, c->r->max_request);
		send_line(c, ud_rpc_error_line(NULL, UD_RPC_INVALID_REQUEST, m));
		free(m);
		finish_client(c);
	}
}

/*
 * Many clients each holding a long unfinished line add up: past the bound
 * on all of them together, the client holding the most is refused (as an
 * overlong request is), until the rest is under the bound again.
 */
static void
refuse_largest(struct ud_rpc *r)
{
	while (r->pending > r->max_pending) {
		struct ud_rpc_client *c, *worst = NULL;
		char *m;

		for (c = r->clients; c != NULL; c = c->next)
			if (live(c) && (worst == NULL || c->in.len > worst->in.len))
				worst = c;
		if (worst == NULL || worst->in.len == 0)
			return;
		ud_log(LOG_WARNING,
		       "socket: %zu bytes of unfinished requests over all clients (at most %zu): "
		       "pid %ld holds the most (%zu): refused",
		       r->pending, r->max_pending, (long)worst->pid, worst->in.len);
		m = ud_xasprintf(
			"invalid request: the daemon holds %zu bytes of unfinished "
			"requests, yours the most (%zu): refused, the connection is closed",
			r->pending, worst->in.len);
		send_line(worst, ud_rpc_error_line(NULL, UD_RPC_INVALID_REQUEST, m));
		free(m);
		finish_client(worst);
	}
}

/*
 * Descriptors kept free for the daemon's own work (a batch opens headers,
 * SQLite its journal, git its objects): with fewer left, new connections
 * wait in the listen backlog, as OpenSMTPD's control.c keeps a reserve.  A
 * quarter of the limit when that is less (a daemon under ulimit -n 64).
 */
#define FD_RESERVE 64
/* While paused: how often the descriptors left are counted again. */
#define ACCEPT_RETRY_MS 500
/* How often the socket's path is looked at (one lstat): is it still ours? */
#define SOCKET_CHECK_MS 2000

/* Descriptors open in this process, or SIZE_MAX when not even one more can be opened. */
static size_t
fds_in_use(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	if (dir == NULL)
		return errno == EMFILE || errno == ENFILE ? SIZE_MAX
							  : 0; /* no /proc: not counted */
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(dir);
	return n > 0 ? n - 1 : 0; /* the directory's own descriptor */
}

static size_t
fd_reserve(const struct ud_rpc *r)
{
	return min_size(FD_RESERVE, r->fd_limit / 4);
}

/* Are fewer descriptors than the reserve left? */
static bool
fds_low(const struct ud_rpc *r)
{
	size_t used;

	if (r->fd_limit == 0)
		return false; /* unlimited */
	used = fds_in_use();
	return used == SIZE_MAX || used + fd_reserve(r) >= r->fd_limit;
}

static void accept_waiting(struct ud_rpc *r);

static void
on_accept_retry(uv_timer_t *t)
{
	accept_waiting(t->data);
}

/*
 * Stops taking connections (logged once a pause): a connection libuv
 * accepted waits with it untaken, which stops libuv's accepting until
 * uv_accept; the retry timer and every client that goes look again.
 */
static void
pause_accepting(struct ud_rpc *r, int status)
{
	if (!r->accept_paused) {
		if (status < 0)
			ud_log(LOG_WARNING,
			       "socket: cannot accept a connection: %s (%zu clients): new "
			       "connections wait until descriptors are free",
			       uv_strerror(status), r->nclients);
		else
			ud_log(LOG_WARNING,
			       "socket: %zu clients, fewer than %zu of %zu descriptors left: new "
			       "connections wait until clients go",
			       r->nclients, fd_reserve(r), r->fd_limit);
	}
	r->accept_paused = true;
	(void)uv_timer_start(&r->accept_retry, on_accept_retry, ACCEPT_RETRY_MS, 0);
}

/* Takes the connection libuv accepted: a client, unless its peer is refused. */
static void
take_client(struct ud_rpc *r)
{
	struct ud_rpc_client *c = ud_xcalloc(1, sizeof(*c));

	c->r = r;
	if (uv_pipe_init(r->loop, &c->pipe, 0) < 0) {
		free(c); /* not a handle yet: the connection waits in the backlog */
		return;
	}
	c->pipe.data = c;
	c->next = r->clients;
	if (r->clients != NULL)
		r->clients->prev = c;
	r->clients = c;
	r->nclients++;
	if (uv_accept((uv_stream_t *)&r->server, (uv_stream_t *)&c->pipe) < 0) {
		close_client(c);
		return;
	}
	if (!ud_rpc_peer_allowed(&c->pipe, r->group, &c->uid, &c->pid)) {
		ud_log(LOG_WARNING, "socket: refused uid %ld (pid %ld): not this daemon's user%s",
		       (long)c->uid, (long)c->pid, r->group != (gid_t)-1 ? " or group" : "");
		close_client(c);
		return;
	}
	update_reading(c);
}

/* While paused: the waiting connection is taken once descriptors are free again. */
static void
accept_waiting(struct ud_rpc *r)
{
	if (!r->accept_paused || r->closing)
		return;
	if (fds_low(r)) {
		(void)uv_timer_start(&r->accept_retry, on_accept_retry, ACCEPT_RETRY_MS, 0);
		return;
	}
	r->accept_paused = false;
	(void)uv_timer_stop(&r->accept_retry);
	ud_log(LOG_INFO, "socket: descriptors free again (%zu clients): accepting", r->nclients);
	if (r->conn_waiting) {
		r->conn_waiting = false;
		take_client(r); /* libuv accepts again from here */
	}
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct ud_rpc *r = server->data;

	if (status < 0 || r->accept_paused || fds_low(r)) {
		r->conn_waiting = status == 0; /* else libuv holds none (and goes on accepting) */
		pause_accepting(r, status);
		return;
	}
	take_client(r);
}

/* The path names the socket bound here (NULL), or why not (static text). */
static const char *
path_lost(const struct ud_rpc *r)
{
	struct stat st;

	if (lstat(r->path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? "it was removed"
							   : "it cannot be looked at";
	if (S_ISDIR(st.st_mode))
		return "a directory is there now";
	if (!S_ISSOCK(st.st_mode))
		return "something that is not a socket is there now";
	if (st.st_dev != r->dev || st.st_ino != r->ino)
		return "another socket is there now (another daemon's?)";
	return NULL;
}

const char *
ud_rpc_check_path(struct ud_rpc *r)
{
	const char *why = r->ino != 0 ? path_lost(r) : NULL; /* 0: never known */

	if ((why == NULL) != (r->lost == NULL) || (why != NULL && strstr(r->lost, why) == NULL)) {
		free(r->lost);
		r->lost = why != NULL ? ud_xasprintf("%s no longer names this daemon's socket: %s; "
						     "clients cannot reach it (restart the daemon)",
						     r->path, why)
				      : NULL;
		if (why != NULL)
			ud_log(LOG_WARNING, "socket: %s", r->lost);
		else
			ud_log(LOG_INFO, "socket: %s names this daemon's socket again", r->path);
	}
	return r->lost;
}

static void
on_watch_path(uv_timer_t *t)
{
	(void)ud_rpc_check_path(t->data);
}

int
ud_rpc_open(struct ud_rpc **out, uv_loop_t *loop, const struct ud_rpc_opts *o,
	    const struct ud_rpc_method *methods, size_t nmethods, void *ctx, char **cause)
{
	struct ud_rpc *r = ud_xcalloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	r->loop = loop;
	r->path = ud_xstrdup(o->path);
	r->group = o->group;
	r->max_request = o->max_request > 0 ? o->max_request : UD_RPC_MAX_REQUEST;
	r->max_queue = o->max_queue > 0 ? o->max_queue : UD_RPC_MAX_QUEUE;
	r->max_pending = o->max_pending > 0 ? o->max_pending : UD_RPC_MAX_PENDING;
	if (r->max_pending < r->max_request)
		r->max_pending = r->max_request; /* one request as long as allowed still fits */
	r->dispatch.methods = methods;
	r->dispatch.nmethods = nmethods;
	r->dispatch.ctx = ctx;
	r->dispatch.max_batch = o->max_batch;
	/*
	 * A write to a client that has hung up must fail with EPIPE (a closed
	 * client, seen in on_written), never end the daemon with SIGPIPE: the
	 * unit's IgnoreSIGPIPE does not cover a daemon started by hand.
	 */
	signal(SIGPIPE, SIG_IGN);
	if ((rc = uv_pipe_init(loop, &r->server, 0)) < 0) {
		*cause = ud_xasprintf("socket: %s", uv_strerror(rc));
		free(r->path);
		free(r);
		return rc;
	}
	(void)uv_idle_init(loop, &r->turn);    /* cannot fail */
	(void)uv_check_init(loop, &r->turned); /* cannot fail */
	(void)uv_check_start(&r->turned, on_turned);
	uv_unref((uv_handle_t *)&r->turned);	     /* it keeps no loop running */
	(void)uv_timer_init(loop, &r->accept_retry); /* cannot fail */
	(void)uv_timer_init(loop, &r->watch_path);
	r->server.data = r->turn.data = r->turned.data = r;
	r->accept_retry.data = r->watch_path.data = r;
	r->open_handles = 5;
	{
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
			r->fd_limit = (size_t)rl.rlim_cur;
	}
	if (o->activated_fd >= 0) {
		char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
		size_t len = sizeof(name);

		if ((rc = uv_pipe_open(&r->server, o->activated_fd)) < 0) {
			*cause = ud_xasprintf("socket activation: %s", uv_strerror(rc));
			goto fail;
		}
		if (uv_pipe_getsockname(&r->server, name, &len) == 0 && len > 0) {
			free(r->path);
			r->path = ud_xstrndup(name, len);
		}
	} else if ((rc = ud_rpc_bind(&r->server, r->path, r->group, cause)) < 0) {
		goto fail;
	} else {
		r->ours = true; /* removed at close */
	}
	{
		/* what "our socket" is: at stop the path is removed only if it still names it */
		struct stat st;

		if (lstat(r->path, &st) == 0) {
			r->dev = st.st_dev;
			r->ino = st.st_ino;
			(void)uv_timer_start(&r->watch_path, on_watch_path, SOCKET_CHECK_MS,
					     SOCKET_CHECK_MS);
			uv_unref((uv_handle_t *)&r->watch_path); /* it keeps no loop running */
		} else {
			r->ours = false; /* nothing to recognise it by: never removed */
		}
	}
	if ((rc = uv_listen((uv_stream_t *)&r->server, 511, on_connection)) < 0) {
		*cause = ud_xasprintf("%s: cannot listen: %s", r->path, uv_strerror(rc));
		goto fail;
	}
	*out = r;
	return 0;
fail:
	ud_rpc_close(r);
	return rc;
}

const char *
ud_rpc_path(const struct ud_rpc *r)
{
	return r->path;
}

void
ud_rpc_subscribe(struct ud_rpc_client *c, bool on)
{
	if (c->subscribed == on)
		return;
	c->subscribed = on;
	if (on)
		c->r->nsubscribers++;
	else
		c->r->nsubscribers--;
}

void
ud_rpc_notify_all(struct ud_rpc *r, const char *method, json_t *params)
{
	json_t *msg =
		json_pack("{s:s, s:s, s:O}", "jsonrpc", "2.0", "method", method, "params", params);
	char *s = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	struct ud_rpc_client *c, *next;

	json_decref(msg);
	for (c = r->clients; s != NULL && c != NULL; c = next) {
		next = c->next;
		if (!c->subscribed || c->state >= CONN_CLOSING)
			continue;
		if (uv_stream_get_write_queue_size((uv_stream_t *)&c->pipe) > r->max_queue) {
			ud_log(LOG_WARNING,
			       "socket: subscriber pid %ld does not read (over %zu bytes waiting): "
			       "disconnected",
			       (long)c->pid, r->max_queue);
			close_client(c);
			continue;
		}
		send_line(c, ud_xstrdup(s));
	}
	free(s);
}

size_t
ud_rpc_clients(const struct ud_rpc *r)
{
	return r->nclients;
}

size_t
ud_rpc_subscribers(const struct ud_rpc *r)
{
	return r->nsubscribers;
}

static void
on_handle_closed(uv_handle_t *h)
{
	struct ud_rpc *r = h->data;

	if (--r->open_handles > 0)
		return;
	free(r->lost);
	free(r->path);
	free(r);
}

void
ud_rpc_close(struct ud_rpc *r)
{
	if (r == NULL)
		return;
	r->closing = true;
	while (r->clients != NULL)
		close_client(r->clients);
	/*
	 * Removed only if the path still names the socket bound here: another
	 * daemon may have bound it since (after someone removed ours), and its
	 * clients must still find it.
	 */
	if (r->ours && path_lost(r) == NULL)
		unlink(r->path);
	else if (r->ours)
		ud_log(LOG_WARNING,
		       "socket: %s left as it is: it no longer names this daemon's socket",
		       r->path);
	uv_close((uv_handle_t *)&r->accept_retry, on_handle_closed);
	uv_close((uv_handle_t *)&r->watch_path, on_handle_closed);
	uv_close((uv_handle_t *)&r->turn, on_handle_closed);
	uv_close((uv_handle_t *)&r->turned, on_handle_closed);
	uv_close((uv_handle_t *)&r->server, on_handle_closed);
}
