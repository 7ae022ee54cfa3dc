// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Include conversion (see includes.h).
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/core/includes.h"
#include "uapid/core/lex.h"
#include "uapid/util/xmalloc.h"

int
ud_fix_includes(const char *buf, size_t len, ud_include_resolver resolve, void *ctx,
		struct ud_buf *out, struct ud_diags *diags)
{
	struct ud_lexed lx;
	size_t li, done = 0;
	int changed = 0;

	ud_buf_reset(out);
	if (ud_lex(buf, len, &lx, diags) < 0) {
		ud_lexed_free(&lx);
		return -22; /* EINVAL */
	}
	for (li = 0; li < lx.nlines; li++) {
		const struct ud_line *l = &lx.lines[li];
		const char *s = buf + l->start, *e = buf + l->end, *q1, *q2, *inc;
		char *name, *repl;

		if (l->dir != UD_DIR_INCLUDE || l->arg[0] != '"')
			continue;
		/* the quoted name on the raw line, after the word "include" */
		inc = memchr(s, 'i', (size_t)(e - s));
		q1 = inc != NULL ? memchr(inc, '"', (size_t)(e - inc)) : NULL;
		q2 = q1 != NULL ? memchr(q1 + 1, '"', (size_t)(e - q1 - 1)) : NULL;
		if (q2 == NULL || memchr(q1, '\n', (size_t)(q2 - q1)) != NULL)
			continue;
		name = ud_xstrndup(q1 + 1, (size_t)(q2 - q1 - 1));
		repl = resolve(name, ctx);
		free(name);
		if (repl == NULL)
			continue;
		ud_buf_add(out, buf + done, (size_t)(q1 - buf) - done);
		ud_buf_addch(out, '<');
		ud_buf_addstr(out, repl);
		ud_buf_addch(out, '>');
		done = (size_t)(q2 + 1 - buf);
		free(repl);
		changed++;
	}
	ud_buf_add(out, buf + done, len - done);
	ud_lexed_free(&lx);
	return changed;
}
