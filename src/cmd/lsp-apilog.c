// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the LSP bridge's hover adds on a symbol of a uapi header: its
 * history from the daemon's api.log, "since v5.4 (commit 1234abcd); last
 * changed in v6.2".
 */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

char *
lsp_symbol_at(const char *text, size_t len, long long line, long long character)
{
	size_t at = 0, end, b, e, w;
	long long l = 0, units = 0;

	while (l < line && at < len) {
		if (text[at++] == '\n')
			l++;
	}
	if (l < line)
		return NULL;
	for (end = at; end < len && text[end] != '\n'; end++)
		;
	/* the character (UTF-16 units) as a byte of the line */
	for (b = at; b < end && units < character; b++) {
		unsigned char c = (unsigned char)text[b];

		if ((c & 0xc0) == 0x80)
			continue;
		units += c >= 0xf0 ? 2 : 1;
	}
	while (b < end && (text[b] & 0xc0) == 0x80)
		b++;
	if (b >= end || !ud_is_ident((unsigned char)text[b])) {
		/* just after a word (the cursor at its end) counts too */
		if (b == at || !ud_is_ident((unsigned char)text[b - 1]))
			return NULL;
		b--;
	}
	for (e = b; e < end && ud_is_ident((unsigned char)text[e]); e++)
		;
	while (b > at && ud_is_ident((unsigned char)text[b - 1]))
		b--;
	if (!ud_is_ident_start((unsigned char)text[b]))
		return NULL;
	/* "struct NAME", "union NAME", "enum NAME" */
	for (w = b; w > at && (text[w - 1] == ' ' || text[w - 1] == '\t'); w--)
		;
	if (w < b) {
		static const char *const tags[] = {"struct", "union", "enum"};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(tags); i++) {
			size_t n = strlen(tags[i]);

			if (w >= at + n && strncmp(text + w - n, tags[i], n) == 0 &&
			    (w == at + n || !ud_is_ident((unsigned char)text[w - n - 1])))
				return ud_xasprintf("%s %.*s", tags[i], (int)(e - b), text + b);
		}
	}
	return ud_xstrndup(text + b, e - b);
}

static const char *
field(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "";
}

/* "v6.2 (commit 1234abcd)", or "commit 1234abcd, not yet released" */
static void
where(struct ud_buf *b, json_t *e, bool with_commit)
{
	const char *rel = json_string_value(json_object_get(e, "release")), *c = field(e, "commit");

	if (rel != NULL && with_commit)
		ud_buf_addf(b, "%s (commit %.8s)", rel, c);
	else if (rel != NULL)
		ud_buf_addstr(b, rel);
	else
		ud_buf_addf(b, "commit %.8s, not yet released", c);
}

char *
lsp_history_text(json_t *answer)
{
	json_t *first = json_object_get(answer, "first"),
	       *last = json_object_get(answer, "last_change");
	json_t *start = json_array_get(json_object_get(answer, "history"), 0);
	struct ud_buf b = UD_BUF_INIT;

	if (!json_is_true(json_object_get(answer, "found")) || start == NULL)
		return NULL;
	if (json_is_object(first) && strcmp(field(first, "what"), "present") != 0) {
		ud_buf_addstr(&b, "since ");
		where(&b, first, true);
	} else {
		/* there in the first commit the history holds: older than that */
		ud_buf_addstr(&b, "there since the history's start, ");
		where(&b, json_is_object(first) ? first : start, true);
	}
	if (json_is_object(last)) {
		const char *v = field(last, "verdict");

		ud_buf_addstr(&b, "; last changed in ");
		where(&b, last, false);
		if (strcmp(v, "breaking") == 0 || strcmp(v, "review") == 0)
			ud_buf_addf(&b, " (%s)", v);
	}
	return ud_buf_detach(&b, NULL);
}
