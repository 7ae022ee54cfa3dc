// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapictl lsp: a Language Server Protocol bridge between an editor and the
 * uapid daemon of the edited file's tree.
 *
 * It speaks LSP (Content-Length framed JSON-RPC) on stdin/stdout.  For each
 * open header it finds the tree's daemon by the discovery rule, sends the
 * buffer's text to `classify` (debounced while typing) and `preview`, and
 * publishes what comes back:
 *  - diagnostics: the split's blockers (errors), __KERNEL__ conditionals the
 *    split retains (warnings), the kernel's header checks on the installed
 *    result (errors and warnings);
 *  - the kernel-only, user-only and retained ranges, as the custom
 *    notification `uapid/regions`, as clangd's `textDocument/inactiveRegions`
 *    for clients that announce it, and as semantic tokens for the rest;
 *  - hover: a line's class and the reason; code actions: a coaching marker
 *    for the conditional under the cursor, and the split preview.
 * When no daemon serves the file's tree it publishes nothing and looks
 * again at most every few seconds: silent and cheap.  Every daemon call is
 * bounded by a short timeout, so a stuck daemon never stalls the editor.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "lsp-int.h"
#include "uapid/util/hash.h"
#include "uapid/api/api.h"
#include "uapid/util/buf.h"
#include "uapid/io/discover.h"
#include "uapid/core/lex.h"
#include "uapid/client/lsp-frame.h"
#include "uapid/core/markers.h"
#include "uapid/proto/protocol.h"
#include "uapid/client/rpcclient.h"
#include "uapid/util/xmalloc.h"

#define DEBOUNCE_MS 150	       /* after the last change, before classifying */
#define REDISCOVER_MS 5000     /* how often a file without a daemon looks again */
#define DAEMON_TIMEOUT_MS 2000 /* for one call to the daemon */

/* The LSP's own error codes the bridge answers with (JSON-RPC's: proto/protocol.h). */
enum {
	LSP_REQUEST_FAILED = -32803,
	LSP_SERVER_NOT_INITIALIZED = -32002,
};

/* The semantic token legend: kernel-only lines are comments (dimmed everywhere). */
enum { TOK_COMMENT, TOK_USER_ONLY, TOK_RETAINED };
#define MOD_KERNEL_ONLY 1u

/* ---- framing ---- */

static void
send_message(json_t *m)
{
	char *body, *framed;
	size_t len, off = 0;

	json_object_set_new(m, "jsonrpc", json_string("2.0"));
	body = json_dumps(m, JSON_COMPACT);
	json_decref(m);
	if (body == NULL)
		return;
	framed = ud_lsp_frame(body, strlen(body), &len);
	free(body);
	while (off < len) {
		ssize_t w = write(STDOUT_FILENO, framed + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(framed);
}

static void
reply(json_t *id, json_t *result)
{
	send_message(json_pack("{s:O, s:o}", "id", id, "result", result ? result : json_null()));
}

static void
reply_error(json_t *id, int code, const char *message)
{
	send_message(json_pack("{s:O, s:{s:i, s:s}}", "id", id ? id : json_null(), "error", "code",
			       code, "message", message));
}

void
lsp_notify(const char *method, json_t *params)
{
	send_message(json_pack("{s:s, s:o}", "method", method, "params", params));
}

/* Logs to the editor's log (window/logMessage), as LSP servers do. */
void
lsp_log(int type, const char *fmt, ...)
{
	struct ud_buf b = UD_BUF_INIT;
	va_list ap;
	char *text;

	va_start(ap, fmt);
	ud_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	text = ud_buf_detach(&b, NULL);

	lsp_notify("window/logMessage", json_pack("{s:i, s:s}", "type", type, "message", text));
	free(text);
}

/* ---- documents ---- */

static char *
uri_to_path(const char *uri)
{
	struct ud_buf b = UD_BUF_INIT;
	const char *p;

	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	for (p = uri + 7; *p != '\0'; p++) {
		if (*p == '%' && p[1] != '\0' && p[2] != '\0') {
			char hex[3] = {p[1], p[2], '\0'};

			ud_buf_addch(&b, (char)strtol(hex, NULL, 16));
			p += 2;
		} else {
			ud_buf_addch(&b, *p);
		}
	}
	return ud_buf_detach(&b, NULL);
}

static struct doc *
find_doc(struct lsp *s, const char *uri)
{
	for (size_t i = 0; i < s->ndocs; i++)
		if (strcmp(s->docs[i].uri, uri) == 0)
			return &s->docs[i];
	return NULL;
}

static void
doc_free(struct doc *d)
{
	free(d->uri);
	free(d->path);
	free(d->socket);
	free(d->tree);
	ud_buf_free(&d->text);
	json_decref(d->blocks);
}

/* The daemon's socket for the document, looked up again when it had none for a while. */
static const char *
doc_socket(struct doc *d)
{
	char *sock, *tree;

	if (d->socket == NULL && ud_now_ms() - d->discovered_ms >= REDISCOVER_MS) {
		d->discovered_ms = ud_now_ms();
		if (ud_discover_socket(d->path, &sock, &tree) == 0) {
			d->socket = sock;
			free(d->tree);
			d->tree = tree;
		}
	}
	return d->socket;
}

/* ---- the daemon ---- */

static struct peer *
peer_for(struct lsp *s, const char *socket)
{
	struct peer *p;
	char *cause = NULL;

	for (size_t i = 0; i < s->npeers; i++)
		if (strcmp(s->peers[i].socket, socket) == 0) {
			p = &s->peers[i];
			goto have;
		}
	if (s->npeers == s->apeers) {
		s->apeers = s->apeers ? 2 * s->apeers : 4;
		s->peers = ud_xrealloc(s->peers, (s->apeers) * sizeof(*s->peers));
	}
	p = &s->peers[s->npeers++];
	memset(p, 0, sizeof(*p));
	p->socket = ud_xstrdup(socket);
	p->conn.fd = -1;
have:
	if (p->up)
		return p;
	if (ud_now_ms() < p->retry_ms)
		return NULL;
	if (ud_rpc_connect(&p->conn, socket, DAEMON_TIMEOUT_MS, &cause) < 0) {
		free(cause);
		p->conn.fd = -1;
		p->retry_ms = ud_now_ms() + REDISCOVER_MS;
		return NULL;
	}
	p->up = true;
	return p;
}

/*
 * Calls the daemon at socket: 0 with *result, 1 with the daemon's error
 * object, -1 when it is not reachable (quietly: the editor goes on) or
 * when the request is over the daemon's bound for one request (not sent;
 * s->refused says why, for the caller to tell the editor).
 */
int
lsp_daemon_call(struct lsp *s, const char *socket, const char *method, json_t *params,
		json_t **result)
{
	struct peer *p = peer_for(s, socket);
	char *cause = NULL;
	int rc;

	*result = NULL;
	free(s->refused);
	s->refused = NULL;
	if (p == NULL) {
		json_decref(params);
		return -1;
	}
	rc = ud_rpc_call(&p->conn, method, params, result, &cause);
	if (rc == -EMSGSIZE) { /* the connection is still good */
		lsp_log(2, "uapid: %s", cause);
		free(s->refused);
		s->refused = cause;
		return -1;
	}
	if (rc < 0) {
		lsp_log(2, "uapid: %s", cause);
		free(cause);
		ud_rpc_disconnect(&p->conn);
		p->up = false;
		p->retry_ms = ud_now_ms() + REDISCOVER_MS;
		return -1;
	}
	return rc;
}

/* ---- positions ---- */

/* The byte offsets where each physical line of text starts (n+1 entries, the last = len). */
static size_t *
line_starts(const char *text, size_t len, size_t *nlines)
{
	size_t n = 1, i, *v;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	v = ud_xrealloc(NULL, (n + 1) * sizeof(*v));
	n = 0;
	v[n++] = 0;
	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			v[n++] = i + 1;
	v[n] = len;
	*nlines = n;
	return v;
}

/* Length of 0-based line li in UTF-16 code units, without its line ending. */
static unsigned
line_utf16(const char *text, const size_t *starts, size_t nlines, size_t li)
{
	size_t b, e;
	unsigned n = 0;

	if (li >= nlines)
		return 0;
	b = starts[li];
	e = li + 1 < nlines ? starts[li + 1] - 1 : starts[nlines];
	if (e > b && text[e - 1] == '\r')
		e--;
	for (size_t i = b; i < e; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c & 0xc0) == 0x80)
			continue;	/* continuation byte */
		n += c >= 0xf0 ? 2 : 1; /* astral characters are surrogate pairs */
	}
	return n;
}

/* An LSP range over 1-based lines first..last, whole lines. */
static json_t *
lines_range(const char *text, const size_t *starts, size_t nlines, long long first, long long last)
{
	if (first < 1)
		first = 1;
	if (last < first)
		last = first;
	return json_pack("{s:{s:I, s:i}, s:{s:I, s:i}}", "start", "line", (json_int_t)(first - 1),
			 "character", 0, "end", "line", (json_int_t)(last - 1), "character",
			 (int)line_utf16(text, starts, nlines, (size_t)(last - 1)));
}

/* ---- publishing ---- */

static int
lsp_severity(const char *sev)
{
	if (strcmp(sev, "error") == 0)
		return 1;
	if (strcmp(sev, "warning") == 0)
		return 2;
	return 3;
}

const char *
lsp_jstr(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "";
}

long long
lsp_jnum(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static json_t *
diagnostic(json_t *range, int severity, const char *code, const char *message)
{
	return json_pack("{s:o, s:i, s:s, s:s, s:s}", "range", range, "severity", severity,
			 "source", "uapid", "code", code, "message", message);
}

/* What the daemon says of a buffer. */
struct answers {
	json_t *cls; /* "classify" */
	json_t *pre; /* "preview", or NULL */
	json_t *api; /* "api.changes" (a uapi header), or NULL */
};

/* A call about d's buffer (path and text). */
static int
buffer_call(struct lsp *s, struct doc *d, const char *sock, const char *method, json_t **result)
{
	return lsp_daemon_call(s, sock, method,
			       json_pack("{s:s, s:s%}", "path", d->path, "text",
					 ud_buf_str(&d->text), d->text.len),
			       result);
}

/*
 * Asks the tree's daemon about d's buffer; false when it does not
 * classify it (not a header of the tree, which the daemon says, or no
 * daemon): nothing to publish then.
 */
static bool
fetch(struct lsp *s, struct doc *d, const char *sock, struct answers *a)
{
	memset(a, 0, sizeof(*a));
	if (buffer_call(s, d, sock, "classify", &a->cls) != 0) {
		json_decref(a->cls);
		a->cls = NULL;
		if (s->refused != NULL && !d->told_too_big) {
			/* but a buffer too large for the daemon: the user would wait for ever */
			lsp_notify("window/showMessage",
				   json_pack("{s:i, s:s+}", "type", 2, "message",
					     "uapid: this buffer is not classified: ", s->refused));
			d->told_too_big = true;
		}
		free(s->refused);
		s->refused = NULL;
		return false;
	}
	d->told_too_big = false;
	if (buffer_call(s, d, sock, "preview", &a->pre) != 0) {
		json_decref(a->pre);
		a->pre = NULL;
	}
	/* a uapi header: what this buffer changes in the userspace API */
	if (lsp_is_uapi_doc(d))
		a->api = lsp_fetch_api(s, d, sock);
	return true;
}

/* The buffer being rendered: its text, where its lines start, its tokens. */
struct view {
	const char *text;
	size_t *starts, nlines;
	struct ud_lexed lx;
};

static json_t *
view_range(const struct view *v, long long first, long long last)
{
	return lines_range(v->text, v->starts, v->nlines, first, last);
}

/* What the editor shows of a buffer. */
struct rendered {
	json_t *diags, *regions, *inactive;
};

/* The split's diagnostics and the blocks: a retained one warned of, every class a region. */
static void
render_blocks(const struct view *v, json_t *cls, struct rendered *r)
{
	json_t *b, *x;
	size_t i;

	json_array_foreach(json_object_get(cls, "diagnostics"), i, x)
	{
		json_array_append_new(r->diags, diagnostic(view_range(v, lsp_jnum(x, "line"),
								      lsp_jnum(x, "line")),
							   lsp_severity(lsp_jstr(x, "severity")),
							   "split", lsp_jstr(x, "message")));
	}
	json_array_foreach(json_object_get(cls, "blocks"), i, b)
	{
		const char *cls_name = lsp_jstr(b, "class");
		long long first = lsp_jnum(b, "first"), last = lsp_jnum(b, "last");

		if (strcmp(cls_name, "retained") == 0) {
			char *msg =
				ud_xasprintf("__KERNEL__ conditional retained in the uapi header: "
					     "%s",
					     lsp_jstr(b, "reason"));

			json_array_append_new(r->diags, diagnostic(view_range(v, first, first), 2,
								   "retained", msg));
			free(msg);
		}
		if (strcmp(cls_name, "kernel") == 0 || strcmp(cls_name, "user-only") == 0 ||
		    strcmp(cls_name, "retained") == 0) {
			bool directive;
			/* what a reader sees it as: an `#ifdef __KERNEL__` opens kernel code */
			const char *label = lsp_region_label(&v->lx, json_object_get(cls, "blocks"),
							     i, &directive);

			json_array_append_new(r->regions,
					      json_pack("{s:o, s:s, s:s, s:s, s:b}", "range",
							view_range(v, first, last), "class",
							cls_name, "reason", lsp_jstr(b, "reason"),
							"label", label, "directive", directive));
			if (strcmp(cls_name, "kernel") == 0)
				json_array_append_new(r->inactive, view_range(v, first, last));
		}
	}
}

/* The kernel's checks, run on the installed form, which another file may hold. */
static void
render_installed(const struct view *v, json_t *pre, struct rendered *r)
{
	json_t *inst = pre != NULL ? json_object_get(pre, "installed") : NULL, *x;
	size_t i;

	json_array_foreach(json_object_get(inst, "diagnostics"), i, x)
	{
		bool same = strcmp(lsp_jstr(pre, "outcome"), "uapi") == 0;
		char *msg = same ? ud_xstrdup(lsp_jstr(x, "message"))
				 : ud_xasprintf("in the installed %s, line %lld: %s",
						lsp_jstr(inst, "path"), lsp_jnum(x, "line"),
						lsp_jstr(x, "message"));
		long long line = same ? lsp_jnum(x, "line") : 1;

		json_array_append_new(r->diags, diagnostic(view_range(v, line, line),
							   lsp_severity(lsp_jstr(x, "severity")),
							   "check", msg));
		free(msg);
	}
}

/*
 * The userspace API changes that are not compatible (nor accepted), on
 * their lines, saying what they are against when it is a revision.
 */
static void
render_api(const struct view *v, json_t *api, struct rendered *r)
{
	const char *rev = lsp_jstr(json_object_get(api, "baseline"), "rev");
	char *since = rev[0] != '\0' ? ud_xasprintf(" since %s", rev) : ud_xstrdup("");
	json_t *ch;
	size_t i;

	json_array_foreach(json_object_get(api, "changes"), i, ch)
	{
		const char *verdict = lsp_jstr(ch, "verdict");
		long long line = lsp_jnum(ch, "new_line") > 0 ? lsp_jnum(ch, "new_line")
							      : lsp_jnum(ch, "old_line");
		char *msg;
		const char *kind;

		if (strcmp(verdict, "compatible") == 0 || strcmp(verdict, "accepted") == 0)
			continue;
		if (line < 1 || (size_t)line > v->nlines)
			line = 1;
		kind = ud_api_kind_shown(lsp_jstr(ch, "kind"), lsp_jstr(ch, "symbol"));
		/* which axis it is on: a program as built (binary), or rebuilt (source) */
		msg = ud_xasprintf(
			"%s userspace API change%s: %s%s%s: %s%s%s%s%s%s",
			strcmp(verdict, "breaking") == 0 ? "breaking" : "to review:", since, kind,
			kind[0] ? " " : "", lsp_jstr(ch, "symbol"), lsp_jstr(ch, "reason"),
			lsp_jstr(ch, "binary")[0] ? " [binary: " : "", lsp_jstr(ch, "binary"),
			lsp_jstr(ch, "binary")[0] ? ", source: " : "", lsp_jstr(ch, "source"),
			lsp_jstr(ch, "binary")[0] ? "]" : "");
		json_array_append_new(r->diags, diagnostic(view_range(v, line, line),
							   strcmp(verdict, "breaking") == 0 ? 2 : 3,
							   "api", msg));
		free(msg);
	}
	free(since);
}

/* The answers about d's buffer as the editor shows them. */
static void
render(struct doc *d, const struct answers *a, struct rendered *r)
{
	struct ud_diags lex_diags = UD_DIAGS_INIT;
	struct view v;

	v.text = ud_buf_str(&d->text);
	v.starts = line_starts(v.text, d->text.len, &v.nlines);
	ud_lex(v.text, d->text.len, &v.lx, &lex_diags); /* a text it refuses: every line plain */
	r->diags = json_array();
	r->regions = json_array();
	r->inactive = json_array();
	render_blocks(&v, a->cls, r);
	render_installed(&v, a->pre, r);
	render_api(&v, a->api, r);
	ud_lexed_free(&v.lx);
	ud_diags_free(&lex_diags);
	free(v.starts);
}

/* Classifies the document's buffer and publishes everything that follows from it. */
static void
refresh(struct lsp *s, struct doc *d)
{
	const char *sock = doc_socket(d);
	struct answers a;
	struct rendered r;

	d->due_ms = 0;
	/* never a version older than one published: the editor would show stale results */
	if (d->published && d->version < d->published_version)
		return;
	if (sock == NULL || !fetch(s, d, sock, &a))
		return;
	render(d, &a, &r);
	lsp_notify("textDocument/publishDiagnostics",
		   json_pack("{s:s, s:I, s:o}", "uri", d->uri, "version", (json_int_t)d->version,
			     "diagnostics", r.diags));
	lsp_notify("uapid/regions", json_pack("{s:{s:s, s:I}, s:s, s:o}", "textDocument", "uri",
					      d->uri, "version", (json_int_t)d->version, "outcome",
					      a.pre != NULL ? lsp_jstr(a.pre, "outcome") : "",
					      "regions", r.regions));
	if (s->inactive_regions)
		lsp_notify("textDocument/inactiveRegions",
			   json_pack("{s:{s:s, s:I}, s:o}", "textDocument", "uri", d->uri,
				     "version", (json_int_t)d->version, "regions", r.inactive));
	else
		json_decref(r.inactive);
	d->published = true;
	d->published_version = d->version;
	json_decref(d->blocks);
	d->blocks = json_incref(json_object_get(a.cls, "blocks"));
	json_decref(a.cls);
	json_decref(a.pre);
	json_decref(a.api);
}

/* ---- requests ---- */

static json_t *
initialize_result(void)
{
	return json_pack(
		"{s:{s:{s:b, s:i, s:{s:b}}, s:b, s:b, s:{s:[s, s, s]}, s:{s:{s:[s, s, s], s:[s]}, "
		"s:b}}, s:{s:s, s:s}}",
		"capabilities", "textDocumentSync", "openClose", 1, "change", 1, "save",
		"includeText", 0, "hoverProvider", 1, "codeActionProvider", 1,
		"executeCommandProvider", "commands", "uapid.addMarker", "uapid.preview",
		"uapid.status", "semanticTokensProvider", "legend", "tokenTypes", "comment",
		"uapidUserOnly", "uapidRetained", "tokenModifiers", "uapidKernelOnly", "full", 1,
		"serverInfo", "name", "uapictl lsp", "version", PACKAGE_VERSION);
}

/*
 * What the hover says about the line's region: its class and the reason;
 * for a directive the split rewrites (an `#ifdef __KERNEL__` written as
 * `#ifndef`, its #else, its #endif), what it opens and what the split does
 * with it.  NULL when the line has no region.
 */
static char *
block_text(struct doc *d, long long line)
{
	struct ud_lexed lx;
	struct ud_diags diags = UD_DIAGS_INIT;
	const char *label;
	bool directive, found = false;
	json_t *b = NULL;
	size_t i;
	char *md;

	json_array_foreach(d->blocks, i, b)
	{
		if ((found = lsp_jnum(b, "first") <= line && line <= lsp_jnum(b, "last")))
			break;
	}
	if (!found)
		return NULL;
	ud_lex(ud_buf_str(&d->text), d->text.len, &lx, &diags);
	label = lsp_region_label(&lx, d->blocks, i, &directive);
	ud_lexed_free(&lx);
	ud_diags_free(&diags);
	if (!directive)
		return ud_xasprintf("**uapid: %s** (lines %lld-%lld)\n\n%s", lsp_jstr(b, "class"),
				    lsp_jnum(b, "first"), lsp_jnum(b, "last"),
				    lsp_jstr(b, "reason"));
	md = ud_xasprintf("**uapid: a directive the split rewrites** (line %lld)\n\n%s%s%s%s",
			  lsp_jnum(b, "first"), label[0] != '\0' ? "It opens " : "",
			  strcmp(label, "kernel only") == 0	 ? "kernel-only code. "
			  : strcmp(label, "userspace only") == 0 ? "userspace-only code. "
								 : "",
			  "The split: ", lsp_jstr(b, "reason"));
	return md;
}

/*
 * A line's class and reason; on a symbol of a uapi header, its history too
 * when the daemon keeps one (api.log, uapid watch --branches).
 */
static json_t *
hover(struct lsp *s, struct doc *d, long long line, long long character)
{
	char *block = block_text(d, line);
	char *md, *history = NULL, *sym;
	json_t *r;

	if (d->socket != NULL && strstr(d->path, "/include/uapi/") != NULL &&
	    (sym = lsp_symbol_at(ud_buf_str(&d->text), d->text.len, line - 1, character)) != NULL) {
		json_t *a = NULL;

		if (lsp_daemon_call(s, d->socket, "api.log", json_pack("{s:s}", "symbol", sym),
				    &a) == 0)
			history =
				lsp_history_text(json_array_get(json_object_get(a, "symbols"), 0));
		json_decref(a);
		free(sym);
	}
	if (block == NULL && history == NULL)
		return json_null();
	if (block == NULL)
		md = ud_xasprintf("**uapid:** %s", history);
	else if (history != NULL)
		md = ud_xasprintf("%s\n\n**userspace API:** %s", block, history);
	else
		md = ud_xstrdup(block);
	free(history);
	free(block);
	r = json_pack("{s:{s:s, s:s}}", "contents", "kind", "markdown", "value", md);
	free(md);
	return r;
}

/*
 * The conditional directive that opens the group around 1-based line
 * 'line' (or the directive on it), as a marker selector and occurrence.
 */
static bool
group_selector(struct doc *d, long long line, char **selector, unsigned *occurrence)
{
	struct ud_lexed lx;
	struct ud_diags diags = UD_DIAGS_INIT;
	size_t *stack, depth = 0, li, target = (size_t)-1;
	bool found = false;

	*selector = NULL;
	if (ud_lex(ud_buf_str(&d->text), d->text.len, &lx, &diags) < 0) {
		ud_lexed_free(&lx);
		ud_diags_free(&diags);
		return false;
	}
	stack = ud_xrealloc(NULL, (lx.nlines + 1) * sizeof(*stack));
	for (li = 0; li < lx.nlines && target == (size_t)-1; li++) {
		const struct ud_line *l = &lx.lines[li];
		bool here = l->first <= line && line <= l->last;

		switch (l->dir) {
		case UD_DIR_IF:
		case UD_DIR_IFDEF:
		case UD_DIR_IFNDEF:
			stack[depth++] = li;
			if (here)
				target = li;
			break;
		case UD_DIR_ENDIF:
			if (here && depth > 0)
				target = stack[depth - 1];
			if (depth > 0)
				depth--;
			break;
		default:
			if (here && depth > 0)
				target = stack[depth - 1];
			break;
		}
	}
	if (target != (size_t)-1) {
		char *want = ud_selector_normalize(lx.lines[target].dtext);

		*occurrence = 0;
		for (li = 0; li <= target; li++) {
			char *n;

			if (lx.lines[li].dir == UD_DIR_NONE)
				continue;
			n = ud_selector_normalize(lx.lines[li].dtext);
			*occurrence += strcmp(n, want) == 0;
			free(n);
		}
		*selector = want;
		found = true;
	}
	free(stack);
	ud_lexed_free(&lx);
	ud_diags_free(&diags);
	return found;
}

static void
add_action(json_t *list, struct doc *d, const char *title, const char *action, const char *selector,
	   unsigned occurrence)
{
	json_t *arg =
		json_pack("{s:s, s:s, s:s}", "uri", d->uri, "path", d->path, "action", action);

	if (selector != NULL) {
		json_object_set_new(arg, "selector", json_string(selector));
		json_object_set_new(arg, "occurrence", json_integer(occurrence));
	}
	json_array_append_new(list, json_pack("{s:s, s:s, s:{s:s, s:s, s:[o]}}", "title", title,
					      "kind", "quickfix", "command", "title", title,
					      "command", "uapid.addMarker", "arguments", arg));
}

static json_t *
code_actions(struct doc *d, long long line)
{
	json_t *list = json_array();
	char *sel = NULL, *title;
	unsigned occ = 0;

	if (d->socket == NULL)
		return list;
	if (group_selector(d, line, &sel, &occ)) {
		static const struct {
			const char *action, *what;
		} acts[] = {
			{"retain", "keep it whole in the uapi header"},
			{"kernel", "it belongs to the kernel header"},
			{"uapi", "it belongs to the uapi header"},
		};

		for (size_t i = 0; i < ARRAY_SIZE(acts); i++) {
			title = ud_xasprintf("uapid: coach %s (#%u): %s", sel, occ, acts[i].what);
			add_action(list, d, title, acts[i].action, sel, occ);
			free(title);
		}
		if (strstr(sel, "defined(__KERNEL__) &&") != NULL ||
		    strstr(sel, "defined __KERNEL__ &&") != NULL) {
			title = ud_xasprintf("uapid: coach %s: split the __KERNEL__ conjunct off",
					     sel);
			add_action(list, d, title, "split-compound", sel, occ);
			free(title);
		}
		title = ud_xasprintf("uapid: put the uapi #include after %s", sel);
		add_action(list, d, title, "include-here", sel, occ);
		free(title);
	}
	add_action(list, d, "uapid: leave this header alone (skip marker)", "skip", NULL, 0);
	json_array_append_new(list,
			      json_pack("{s:s, s:{s:s, s:s, s:[{s:s, s:s}]}}", "title",
					"uapid: preview the split", "command", "title",
					"uapid: preview the split", "command", "uapid.preview",
					"arguments", "uri", d->uri, "path", d->path));
	free(sel);
	return list;
}

static json_t *
semantic_tokens(struct doc *d)
{
	const char *text = ud_buf_str(&d->text);
	size_t nlines, *starts = line_starts(text, d->text.len, &nlines), i;
	json_t *data = json_array(), *b;
	long long prev = 0;

	json_array_foreach(d->blocks, i, b)
	{
		const char *c = lsp_jstr(b, "class");
		int type;
		unsigned mods = 0;

		if (strcmp(c, "kernel") == 0) {
			type = TOK_COMMENT;
			mods = MOD_KERNEL_ONLY;
		} else if (strcmp(c, "user-only") == 0) {
			type = TOK_USER_ONLY;
		} else if (strcmp(c, "retained") == 0) {
			type = TOK_RETAINED;
		} else {
			continue;
		}
		/* one token a line: clients need not support multi-line tokens */
		for (long long l = lsp_jnum(b, "first"); l <= lsp_jnum(b, "last"); l++) {
			unsigned w = line_utf16(text, starts, nlines, (size_t)(l - 1));

			if (w == 0)
				continue;
			json_array_append_new(data, json_integer(l - 1 - prev));
			json_array_append_new(data, json_integer(0));
			json_array_append_new(data, json_integer(w));
			json_array_append_new(data, json_integer(type));
			json_array_append_new(data, json_integer(mods));
			prev = l - 1;
		}
	}
	free(starts);
	return json_pack("{s:o}", "data", data);
}

static void
execute_command(struct lsp *s, json_t *id, json_t *params)
{
	const char *cmd = lsp_jstr(params, "command");
	json_t *arg = json_array_get(json_object_get(params, "arguments"), 0), *r = NULL;
	struct doc *d = json_is_object(arg) ? find_doc(s, lsp_jstr(arg, "uri")) : NULL;
	const char *path = json_is_object(arg) ? lsp_jstr(arg, "path") : "";
	char *sock = NULL, *tree = NULL;
	int rc;

	if (strcmp(cmd, "uapid.addMarker") != 0 && strcmp(cmd, "uapid.preview") != 0 &&
	    strcmp(cmd, "uapid.status") != 0) {
		reply_error(id, UD_RPC_INVALID_PARAMS, "unknown command");
		return;
	}
	if (d != NULL && doc_socket(d) != NULL)
		sock = ud_xstrdup(d->socket);
	else if (path[0] != '\0' && ud_discover_socket(path, &sock, &tree) < 0)
		sock = NULL;
	free(tree);
	if (sock == NULL) {
		reply_error(id, LSP_REQUEST_FAILED,
			    "no uapid daemon serves this file's tree "
			    "(start one with `uapid watch TREE`)");
		return;
	}
	if (strcmp(cmd, "uapid.addMarker") == 0) {
		json_t *p = json_deep_copy(arg);

		json_object_del(p, "uri");
		rc = lsp_daemon_call(s, sock, "markers.add", p, &r);
	} else if (strcmp(cmd, "uapid.preview") == 0) {
		json_t *p = json_pack("{s:s}", "path", d != NULL ? d->path : path);

		if (d != NULL)
			json_object_set_new(p, "text",
					    json_stringn(ud_buf_str(&d->text), d->text.len));
		rc = lsp_daemon_call(s, sock, "preview", p, &r);
	} else {
		rc = lsp_daemon_call(s, sock, "status", NULL, &r);
	}
	free(sock);
	if (rc < 0) {
		reply_error(id, LSP_REQUEST_FAILED, "the uapid daemon did not answer");
	} else if (rc == 1) {
		reply_error(id, LSP_REQUEST_FAILED, lsp_jstr(r, "message"));
		json_decref(r);
	} else {
		reply(id, r);
		/* a new marker changes how the buffer splits: show it at once */
		if (d != NULL && strcmp(cmd, "uapid.addMarker") == 0)
			refresh(s, d);
	}
}

static void
open_doc(struct lsp *s, json_t *td)
{
	const char *uri = lsp_jstr(td, "uri");
	json_t *text = json_object_get(td, "text");
	char *path = uri_to_path(uri);
	struct doc *d;

	if (path == NULL || !json_is_string(text)) {
		free(path);
		return;
	}
	if ((d = find_doc(s, uri)) == NULL) {
		if (s->ndocs == s->adocs) {
			s->adocs = s->adocs ? 2 * s->adocs : 8;
			s->docs = ud_xrealloc(s->docs, (s->adocs) * sizeof(*s->docs));
		}
		d = &s->docs[s->ndocs++];
		memset(d, 0, sizeof(*d));
		d->uri = ud_xstrdup(uri);
		d->path = path;
		d->discovered_ms = -REDISCOVER_MS;
	} else {
		free(path);
		ud_buf_reset(&d->text);
	}
	ud_buf_add(&d->text, json_string_value(text), json_string_length(text));
	d->version = lsp_jnum(td, "version");
	d->published = false; /* opened again: its versions start again */
	refresh(s, d);
}

static void
close_doc(struct lsp *s, const char *uri)
{
	struct doc *d = find_doc(s, uri);

	if (d == NULL)
		return;
	if (d->published)
		lsp_notify("textDocument/publishDiagnostics",
			   json_pack("{s:s, s:[]}", "uri", d->uri, "diagnostics"));
	doc_free(d);
	*d = s->docs[--s->ndocs];
}

static void
change_doc(struct lsp *s, json_t *params)
{
	json_t *td = json_object_get(params, "textDocument"), *ch, *c;
	struct doc *d = find_doc(s, lsp_jstr(td, "uri"));
	size_t i;

	if (d == NULL)
		return;
	if (json_is_integer(json_object_get(td, "version")) &&
	    lsp_jnum(td, "version") < d->version) {
		/* LSP's versions only grow: an older one arriving late is not the text now */
		lsp_log(2, "uapictl lsp: %s: version %lld after %lld: ignored", d->uri,
			lsp_jnum(td, "version"), d->version);
		return;
	}
	ch = json_object_get(params, "contentChanges");
	/* full sync (as announced): the last change holding the whole text wins */
	json_array_foreach(ch, i, c)
	{
		json_t *t = json_object_get(c, "text");

		if (json_object_get(c, "range") == NULL && json_is_string(t)) {
			ud_buf_reset(&d->text);
			ud_buf_add(&d->text, json_string_value(t), json_string_length(t));
		}
	}
	if (json_is_integer(json_object_get(td, "version")))
		d->version = lsp_jnum(td, "version");
	d->due_ms = ud_now_ms() + DEBOUNCE_MS;
}

/*
 * An LSP position's line or character: an integer in LSP's uinteger range
 * (0 to 2^31 - 1), so that line + 1 and the arithmetic on it cannot
 * overflow; false when it is missing or out of range.
 */
static bool
position_part(json_t *pos, const char *key, long long *out)
{
	json_t *v = json_object_get(pos, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT32_MAX)
		return false;
	*out = (long long)json_integer_value(v);
	return true;
}

/* ---- dispatch: one handler a method ---- */

/* What a handler is given: the message's parts (borrowed). */
struct call {
	struct lsp *s;
	json_t *id;	/* NULL for a notification */
	json_t *params; /* NULL when absent */
	int *status;	/* the exit status, for "exit" */
};

/* A handler returns false when the bridge should exit (with *status). */
typedef bool (*lsp_handler)(struct call *c);

static bool
on_exit_request(struct call *c)
{
	*c->status = c->s->shutdown ? 0 : 1;
	return false;
}

static bool
on_initialize(struct call *c)
{
	json_t *caps = json_object_get(c->params, "capabilities");

	c->s->inactive_regions =
		json_is_true(json_object_get(json_object_get(json_object_get(caps, "textDocument"),
							     "inactiveRegionsCapabilities"),
					     "inactiveRegions"));
	c->s->initialized = true;
	reply(c->id, initialize_result());
	lsp_configure(c->s, json_object_get(c->params, "initializationOptions"));
	return true;
}

/* workspace/didChangeConfiguration: {"settings": {"uapid": {"baseline", "accept"}}} */
static bool
on_did_change_configuration(struct call *c)
{
	lsp_configure(c->s, json_object_get(c->params, "settings"));
	return true;
}

static bool
on_shutdown_request(struct call *c)
{
	c->s->shutdown = true;
	reply(c->id, json_null());
	return true;
}

static struct doc *
call_doc(struct call *c)
{
	return find_doc(c->s, lsp_jstr(json_object_get(c->params, "textDocument"), "uri"));
}

static bool
on_did_open(struct call *c)
{
	open_doc(c->s, json_object_get(c->params, "textDocument"));
	return true;
}

static bool
on_did_change(struct call *c)
{
	change_doc(c->s, c->params);
	return true;
}

static bool
on_did_save(struct call *c)
{
	struct doc *d = call_doc(c);

	if (d != NULL)
		refresh(c->s, d);
	return true;
}

static bool
on_did_close(struct call *c)
{
	close_doc(c->s, lsp_jstr(json_object_get(c->params, "textDocument"), "uri"));
	return true;
}

static bool
on_hover(struct call *c)
{
	json_t *pos = json_object_get(c->params, "position");
	struct doc *d = call_doc(c);
	long long line, character;

	if (!position_part(pos, "line", &line) || !position_part(pos, "character", &character)) {
		reply_error(c->id, UD_RPC_INVALID_PARAMS,
			    "position: line and character must be integers from 0 to 2^31-1");
		return true;
	}
	reply(c->id, d != NULL ? hover(c->s, d, line + 1, character) : json_null());
	return true;
}

static bool
on_code_action(struct call *c)
{
	json_t *start = json_object_get(json_object_get(c->params, "range"), "start");
	struct doc *d = call_doc(c);
	long long line;

	if (!position_part(start, "line", &line)) {
		reply_error(c->id, UD_RPC_INVALID_PARAMS,
			    "range.start.line must be an integer from 0 to 2^31-1");
		return true;
	}
	reply(c->id, d != NULL ? code_actions(d, line + 1) : json_array());
	return true;
}

static bool
on_semantic_tokens(struct call *c)
{
	struct doc *d = call_doc(c);

	if (d != NULL && d->due_ms != 0)
		refresh(c->s, d); /* tokens for the text the editor has now */
	reply(c->id, d != NULL ? semantic_tokens(d) : json_pack("{s:[]}", "data"));
	return true;
}

static bool
on_execute_command(struct call *c)
{
	execute_command(c->s, c->id, c->params);
	return true;
}

/* When a method may come (LSP's life cycle). */
enum lsp_when {
	ANYTIME,	/* even after shutdown: exit */
	UNTIL_SHUTDOWN, /* before shutdown, initialized or not: initialize */
	INITIALIZED,	/* after initialize, before shutdown: all the rest */
};

static const struct {
	const char *method;
	lsp_handler fn;
	enum lsp_when when;
} lsp_methods[] = {
	{"exit", on_exit_request, ANYTIME},
	{"initialize", on_initialize, UNTIL_SHUTDOWN},
	{"shutdown", on_shutdown_request, INITIALIZED},
	{"textDocument/didOpen", on_did_open, INITIALIZED},
	{"textDocument/didChange", on_did_change, INITIALIZED},
	{"textDocument/didSave", on_did_save, INITIALIZED},
	{"textDocument/didClose", on_did_close, INITIALIZED},
	{"textDocument/hover", on_hover, INITIALIZED},
	{"textDocument/codeAction", on_code_action, INITIALIZED},
	{"textDocument/semanticTokens/full", on_semantic_tokens, INITIALIZED},
	{"workspace/executeCommand", on_execute_command, INITIALIZED},
	{"workspace/didChangeConfiguration", on_did_change_configuration, INITIALIZED},
};

/* Handles one message; returns false when the bridge should exit (with *status). */
static bool
handle(struct lsp *s, json_t *m, int *status)
{
	const char *method = lsp_jstr(m, "method");
	struct call c = {s, json_object_get(m, "id"), json_object_get(m, "params"), status};
	size_t i;

	if (method[0] == '\0') {
		if (c.id != NULL && json_object_get(m, "result") == NULL &&
		    json_object_get(m, "error") == NULL)
			reply_error(c.id, UD_RPC_INVALID_REQUEST, "a request needs a method");
		return true; /* an answer to a request of ours: none are sent */
	}
	for (i = 0; i < ARRAY_SIZE(lsp_methods); i++)
		if (strcmp(lsp_methods[i].method, method) == 0)
			break;
	/* after shutdown only exit: a request is invalid, a notification dropped (LSP 3.17) */
	if (s->shutdown && (i == ARRAY_SIZE(lsp_methods) || lsp_methods[i].when != ANYTIME)) {
		if (c.id != NULL)
			reply_error(c.id, UD_RPC_INVALID_REQUEST,
				    "the server is shut down: only exit is allowed");
		return true;
	}
	if (!s->initialized &&
	    (i == ARRAY_SIZE(lsp_methods) || lsp_methods[i].when == INITIALIZED)) {
		if (c.id != NULL)
			reply_error(c.id, LSP_SERVER_NOT_INITIALIZED, "initialize first");
		return true;
	}
	if (i == ARRAY_SIZE(lsp_methods)) {
		if (c.id != NULL)
			reply_error(c.id, UD_RPC_METHOD_NOT_FOUND,
				    "method not handled by uapictl lsp");
		return true;
	}
	return lsp_methods[i].fn(&c);
}

int
ctl_lsp(struct ctl *ctl, int argc, char **argv)
{
	struct lsp s;
	int status = 1;

	(void)ctl;
	memset(&s, 0, sizeof(s));
	lsp_baseline_init(&s.base);
	if ((status = lsp_options(&s, argc, argv)) != CTL_OK) {
		lsp_baseline_free(&s.base);
		return status;
	}
	status = 1;
	for (;;) {
		long long next, now = ud_now_ms();
		struct pollfd p = {STDIN_FILENO, POLLIN, 0};
		char chunk[65536];
		json_t *m;
		ssize_t n;
		int rc;

		char *cause = NULL;

		/* messages already read go first */
		while ((rc = ud_lsp_take_message(&s.in, &m, &cause)) == 1) {
			if (m == NULL) {
				reply_error(NULL, UD_RPC_PARSE_ERROR, "parse error");
				continue;
			}
			if (!handle(&s, m, &status)) {
				json_decref(m);
				goto out;
			}
			json_decref(m);
		}
		if (rc < 0) {
			fprintf(stderr, "uapictl lsp: broken message framing on stdin: %s\n",
				cause);
			free(cause);
			goto out;
		}
		if (lsp_baseline_due(&s, now) >= 0 && s.poll_ms <= now)
			lsp_poll_baselines(&s);
		next = lsp_baseline_due(&s, now);
		for (size_t i = 0; i < s.ndocs; i++) {
			if (s.docs[i].due_ms == 0)
				continue;
			if (s.docs[i].due_ms <= now)
				refresh(&s, &s.docs[i]);
			else if (next < 0 || s.docs[i].due_ms < next)
				next = s.docs[i].due_ms;
		}
		rc = poll(&p, 1,
			  next < 0 ? -1 : (int)(next - ud_now_ms() > 0 ? next - ud_now_ms() : 0));
		if (rc < 0 && errno != EINTR)
			break;
		if (rc <= 0)
			continue;
		n = read(STDIN_FILENO, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break; /* the editor went away */
		ud_buf_add(&s.in, chunk, (size_t)n);
	}
out:
	for (size_t i = 0; i < s.ndocs; i++)
		doc_free(&s.docs[i]);
	free(s.docs);
	for (size_t i = 0; i < s.npeers; i++) {
		if (s.peers[i].up)
			ud_rpc_disconnect(&s.peers[i].conn);
		free(s.peers[i].socket);
	}
	free(s.peers);
	ud_buf_free(&s.in);
	free(s.refused);
	free(s.said);
	lsp_baseline_free(&s.base);
	return status;
}
