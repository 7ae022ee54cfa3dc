/*
 * uapictl: a client for the uapid daemon's control socket.
 *
 * Sends one JSON-RPC 2.0 request as a line on the Unix socket and prints
 * the result.  The socket comes from --socket, else $UAPID_SOCKET, else
 * $XDG_RUNTIME_DIR/uapid/uapid.sock, else /run/uapid/uapid.sock.
 *
 * Exit status: 0 for a result, 1 for a JSON-RPC error answer, 2 for usage,
 * connection or protocol problems.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "uapid/buf.h"
#include "uapid/xmalloc.h"

static const char ctl_usage[] =
	"usage: uapictl [--socket PATH] [--timeout SECONDS] METHOD [PARAMS-JSON]\n"
	"       uapictl --version | --help\n";

static char *
default_socket(void)
{
	const char *s = getenv("UAPID_SOCKET"), *rt = getenv("XDG_RUNTIME_DIR");

	if (s != NULL && *s != '\0')
		return ud_xstrdup(s);
	if (rt != NULL && *rt != '\0')
		return ud_xasprintf("%s/uapid/uapid.sock", rt);
	return ud_xstrdup("/run/uapid/uapid.sock");
}

static int
connect_socket(const char *path, unsigned timeout)
{
	struct sockaddr_un sun;
	struct timeval tv = {(time_t)timeout, 0};
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "uapictl: %s: socket path longer than %zu bytes\n", path,
			sizeof(sun.sun_path) - 1);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fprintf(stderr, "uapictl: socket: %s\n", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		fprintf(stderr, "uapictl: cannot connect to %s: %s (is uapid running?)\n", path,
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int
send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads one line (the answer) into b; -1 on error or EOF before a newline. */
static int
read_line(int fd, struct ud_buf *b)
{
	char c[4096];

	for (;;) {
		ssize_t n = read(fd, c, sizeof(c));
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return b->len > 0 ? 0 : -1;
		ud_buf_add(b, c, (size_t)n);
		if ((nl = memchr(b->data, '\n', b->len)) != NULL) {
			b->len = (size_t)(nl - b->data);
			b->data[b->len] = '\0';
			return 0;
		}
		if (b->len > (size_t)64 * 1024 * 1024)
			return -1;
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"socket", required_argument, NULL, 's'},
		{"timeout", required_argument, NULL, 't'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *sock = NULL, *req_text;
	unsigned timeout = 30;
	json_t *params = NULL, *req, *resp, *v;
	json_error_t jerr;
	struct ud_buf line = UD_BUF_INIT;
	int opt, fd, status = 2;

	while ((opt = getopt_long(argc, argv, "s:t:Vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			free(sock);
			sock = ud_xstrdup(optarg);
			break;
		case 't':
			timeout = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'V':
			printf("uapictl %s\n", PACKAGE_VERSION);
			return 0;
		case 'h':
			fputs(ctl_usage, stdout);
			return 0;
		default:
			fputs(ctl_usage, stderr);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fputs(ctl_usage, stderr);
		free(sock);
		return 2;
	}
	if (optind + 1 < argc) {
		params = json_loads(argv[optind + 1], JSON_DECODE_ANY, &jerr);
		if (params == NULL || (!json_is_object(params) && !json_is_array(params))) {
			fprintf(stderr, "uapictl: PARAMS must be a JSON object or array: %s\n",
				params == NULL ? jerr.text : "got a scalar");
			json_decref(params);
			free(sock);
			return 2;
		}
	}
	if (sock == NULL)
		sock = default_socket();
	req = json_pack("{s:s, s:i, s:s}", "jsonrpc", "2.0", "id", 1, "method", argv[optind]);
	if (params != NULL)
		json_object_set_new(req, "params", params);
	req_text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	fd = connect_socket(sock, timeout ? timeout : 30);
	if (fd < 0)
		goto out;
	if (send_all(fd, req_text, strlen(req_text)) < 0 || send_all(fd, "\n", 1) < 0) {
		fprintf(stderr, "uapictl: %s: write: %s\n", sock, strerror(errno));
		goto close;
	}
	if (read_line(fd, &line) < 0) {
		fprintf(stderr, "uapictl: %s: no answer from the daemon\n", sock);
		goto close;
	}
	resp = json_loads(ud_buf_str(&line), 0, &jerr);
	if (resp == NULL || !json_is_object(resp)) {
		fprintf(stderr, "uapictl: %s: answer is not a JSON-RPC object: %s\n", sock,
			resp == NULL ? jerr.text : "not an object");
		json_decref(resp);
		goto close;
	}
	if ((v = json_object_get(resp, "error")) != NULL) {
		json_t *msg = json_object_get(v, "message");

		fprintf(stderr, "uapictl: %s: error %" JSON_INTEGER_FORMAT ": %s\n", argv[optind],
			json_integer_value(json_object_get(v, "code")),
			json_is_string(msg) ? json_string_value(msg) : "(no message)");
		status = 1;
	} else if ((v = json_object_get(resp, "result")) != NULL) {
		char *s = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);

		if (s != NULL)
			puts(s);
		free(s);
		status = 0;
	} else {
		fprintf(stderr, "uapictl: %s: answer has neither result nor error\n", sock);
	}
	json_decref(resp);
close:
	close(fd);
out:
	free(req_text);
	free(sock);
	ud_buf_free(&line);
	return status;
}
