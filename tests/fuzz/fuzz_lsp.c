// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the LSP bridge's framing (lsp-frame.h).
 *
 * Invariants: no crash or sanitizer report; the input read whole and the
 * input read one byte at a time give the same messages, in the same order,
 * and stop at the same broken frame; a message taken off the buffer, framed
 * again and read back, is the same message.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/client/lsp-frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 256

struct events {
	char *v[MAX_EVENTS]; /* each message dumped, "!" for a body not JSON, "#" for broken */
	size_t n;
};

static void
add(struct events *e, const char *s)
{
	if (e->n < MAX_EVENTS)
		e->v[e->n++] = strdup(s);
}

/* Takes what the buffer holds; false once the framing is broken. */
static bool
take_all(struct ud_buf *in, struct events *e)
{
	json_t *m;
	char *cause = NULL;
	int rc;

	while ((rc = ud_lsp_take_message(in, &m, &cause)) == 1) {
		char *s = m != NULL ? json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)
				    : NULL;

		add(e, s != NULL ? s : "!");
		if (s != NULL) { /* framed again, it reads back the same */
			size_t len;
			char *framed = ud_lsp_frame(s, strlen(s), &len);
			struct ud_buf again = UD_BUF_INIT;
			json_t *back;
			char *c2 = NULL;

			ud_buf_add(&again, framed, len);
			if (ud_lsp_take_message(&again, &back, &c2) != 1 || back == NULL ||
			    !json_equal(back, m) || again.len != 0)
				abort();
			json_decref(back);
			ud_buf_free(&again);
			free(framed);
		}
		free(s);
		json_decref(m);
	}
	if (rc < 0) {
		if (cause == NULL || cause[0] == '\0')
			abort(); /* a broken frame always says why */
		free(cause);
		add(e, "#");
		return false;
	}
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ud_buf whole = UD_BUF_INIT, bytes = UD_BUF_INIT;
	struct events a = {{NULL}, 0}, b = {{NULL}, 0};
	size_t i;

	ud_buf_add(&whole, data, size);
	take_all(&whole, &a);
	for (i = 0; i < size; i++) {
		ud_buf_add(&bytes, data + i, 1);
		if (!take_all(&bytes, &b))
			break;
	}
	if (a.n != b.n)
		abort();
	for (i = 0; i < a.n; i++) {
		if (strcmp(a.v[i], b.v[i]) != 0)
			abort();
		free(a.v[i]);
		free(b.v[i]);
	}
	ud_buf_free(&whole);
	ud_buf_free(&bytes);
	return 0;
}
