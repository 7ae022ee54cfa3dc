// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client side of the daemon's JSON-RPC socket (see rpcclient.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "uapid/util/hash.h"
#include "uapid/proto/protocol.h"
#include "uapid/client/rpcclient.h"
#include "uapid/util/xmalloc.h"

/* An answer line longer than this is a broken peer, not a big result. */
#define MAX_LINE ((size_t)256 << 20)

int
ud_rpc_connect(struct ud_rpc_conn *c, const char *path, int timeout_ms, char **cause)
{
	struct sockaddr_un sun;
	struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
	int fd, err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->timeout_ms = timeout_ms;
	c->next_id = 1;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		*cause = ud_xasprintf("%s: socket path longer than %zu bytes", path,
				      sizeof(sun.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		*cause = ud_xasprintf("socket: %s", strerror(err));
		return -err;
	}
	/* bounds connect() too, when the daemon's backlog is full */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		err = errno;
		*cause = ud_xasprintf("cannot connect to %s: %s", path, strerror(err));
		close(fd);
		return -err;
	}
	c->fd = fd;
	c->path = ud_xstrdup(path);
	c->queued = json_array();
	return 0;
}

static int
send_all(struct ud_rpc_conn *c, const char *p, size_t n, char **cause)
{
	while (n > 0) {
		ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			*cause = ud_xasprintf("%s: write: %s", c->path,
					      err == EAGAIN ? "timed out" : strerror(err));
			return -err;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Reads one line (a JSON value) within timeout_ms (-1: no limit): 0 with
 * *out, or a negative errno with *cause (-ETIMEDOUT without one).
 */
static int
read_message(struct ud_rpc_conn *c, int timeout_ms, json_t **out, char **cause)
{
	long long deadline = timeout_ms < 0 ? -1 : ud_now_ms() + timeout_ms;

	for (;;) {
		char *nl = c->in.len > 0 ? memchr(c->in.data, '\n', c->in.len) : NULL;
		char chunk[65536];
		struct pollfd p = {c->fd, POLLIN, 0};
		int wait;
		ssize_t n;

		if (nl != NULL) {
			size_t len = (size_t)(nl - c->in.data);
			json_error_t jerr;
			json_t *v = json_loadb(c->in.data, len, 0, &jerr);

			memmove(c->in.data, nl + 1, c->in.len - len - 1);
			ud_buf_setlen(&c->in, c->in.len - len - 1);
			if (v == NULL || (!json_is_object(v) && !json_is_array(v))) {
				*cause = ud_xasprintf("%s: answer is not a JSON-RPC object: %s",
						      c->path, v == NULL ? jerr.text : "a scalar");
				json_decref(v);
				return -EPROTO;
			}
			*out = v;
			return 0;
		}
		if (c->in.len > MAX_LINE) {
			*cause =
				ud_xasprintf("%s: answer longer than %zu bytes", c->path, MAX_LINE);
			return -EMSGSIZE;
		}
		wait = deadline < 0 ? -1 : (int)(deadline - ud_now_ms());
		if (deadline >= 0 && wait <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, wait);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return -ETIMEDOUT;
		n = read(c->fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			int err = errno;

			*cause = ud_xasprintf("%s: read: %s", c->path, strerror(err));
			return -err;
		}
		if (n == 0) {
			*cause = ud_xasprintf("%s: the daemon closed the connection", c->path);
			return -ECONNRESET;
		}
		ud_buf_add(&c->in, chunk, (size_t)n);
	}
}

int
ud_rpc_call(struct ud_rpc_conn *c, const char *method, json_t *params, json_t **result,
	    char **cause)
{
	long long id = c->next_id++;
	json_t *req = json_pack("{s:s, s:I, s:s}", "jsonrpc", "2.0", "id", (json_int_t)id, "method",
				method);
	char *text;
	int rc;

	if (params != NULL)
		json_object_set_new(req, "params", params);
	text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (strlen(text) > UD_RPC_MAX_REQUEST) {
		/* the daemon would refuse it and close the connection: not sent */
		*cause = ud_xasprintf("%s: the %s request is %zu bytes, over the daemon's bound of "
				      "%u bytes for one request: not sent",
				      c->path, method, strlen(text), UD_RPC_MAX_REQUEST);
		free(text);
		return -EMSGSIZE;
	}
	rc = send_all(c, text, strlen(text), cause);
	if (rc == 0)
		rc = send_all(c, "\n", 1, cause);
	free(text);
	if (rc < 0)
		return rc;
	for (;;) {
		json_t *m, *v;

		rc = read_message(c, c->timeout_ms, &m, cause);
		if (rc == -ETIMEDOUT) {
			*cause = ud_xasprintf("%s: no answer to %s within %d ms", c->path, method,
					      c->timeout_ms);
			return rc;
		}
		if (rc < 0)
			return rc;
		if (json_is_object(m) && json_object_get(m, "id") == NULL &&
		    json_is_string(json_object_get(m, "method"))) {
			json_array_append_new(c->queued, m);
			continue;
		}
		v = json_is_object(m) ? json_object_get(m, "id") : NULL;
		if (!json_is_integer(v) || json_integer_value(v) != id) {
			/* an error about the request line itself comes with a null id */
			if (!json_is_null(v) || json_object_get(m, "error") == NULL) {
				*cause = ud_xasprintf("%s: answer to another request", c->path);
				json_decref(m);
				return -EPROTO;
			}
		}
		if ((v = json_object_get(m, "error")) != NULL) {
			*result = json_incref(v);
			json_decref(m);
			return 1;
		}
		if ((v = json_object_get(m, "result")) != NULL) {
			*result = json_incref(v);
			json_decref(m);
			return 0;
		}
		*cause = ud_xasprintf("%s: answer has neither result nor error", c->path);
		json_decref(m);
		return -EPROTO;
	}
}

int
ud_rpc_next_notification(struct ud_rpc_conn *c, int timeout_ms, json_t **note, char **cause)
{
	for (;;) {
		json_t *m;
		int rc;

		if (json_array_size(c->queued) > 0) {
			*note = json_incref(json_array_get(c->queued, 0));
			json_array_remove(c->queued, 0);
			return 0;
		}
		rc = read_message(c, timeout_ms, &m, cause);
		if (rc < 0)
			return rc;
		if (json_is_object(m) && json_is_string(json_object_get(m, "method")) &&
		    json_object_get(m, "id") == NULL) {
			*note = m;
			return 0;
		}
		json_decref(m); /* a stray answer: not what the caller waits for */
	}
}

void
ud_rpc_disconnect(struct ud_rpc_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->path);
	c->path = NULL;
	json_decref(c->queued);
	c->queued = NULL;
	ud_buf_free(&c->in);
}
