// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostic lists (see diag.h).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/util/xmalloc.h"

static const char *const severity_names[] = {
	[UD_SEV_NOTE] = "note",
	[UD_SEV_WARNING] = "warning",
	[UD_SEV_ERROR] = "error",
};
static_assert(ARRAY_SIZE(severity_names) == UD_SEV_ERROR + 1,
	      "severity_names must name every enum ud_severity member");

/* a printf-like format with its arguments in ap (clang checks its callers' formats) */
static void __attribute__((format(printf, 5, 0)))
add(struct ud_diags *d, const char *path, unsigned line, enum ud_severity sev, const char *fmt,
    va_list ap)
{
	struct ud_buf msg = UD_BUF_INIT;

	ud_buf_vaddf(&msg, fmt, ap);
	d->v = ud_xgrow(d->v, &d->alloc, d->n + 1, sizeof(*d->v));
	d->v[d->n].path = path != NULL ? ud_xstrdup(path) : NULL;
	d->v[d->n].line = line;
	d->v[d->n].severity = sev;
	d->v[d->n].message = ud_buf_detach(&msg, NULL);
	d->n++;
}

void
ud_diags_add(struct ud_diags *d, unsigned line, enum ud_severity sev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, NULL, line, sev, fmt, ap);
	va_end(ap);
}

void
ud_diags_add_at(struct ud_diags *d, const char *path, unsigned line, enum ud_severity sev,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, path, line, sev, fmt, ap);
	va_end(ap);
}

size_t
ud_diags_count(const struct ud_diags *d, enum ud_severity min)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity >= min)
			n++;
	return n;
}

void
ud_diags_move(struct ud_diags *to, struct ud_diags *from)
{
	size_t i;

	to->v = ud_xgrow(to->v, &to->alloc, to->n + from->n, sizeof(*to->v));
	for (i = 0; i < from->n; i++)
		to->v[to->n++] = from->v[i];
	free(from->v);
	from->v = NULL;
	from->n = from->alloc = 0;
}

void
ud_diags_free(struct ud_diags *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].path);
		free(d->v[i].message);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->alloc = 0;
}

const char *
ud_severity_name(enum ud_severity sev)
{
	assert(sev <= UD_SEV_ERROR);
	return severity_names[sev];
}
