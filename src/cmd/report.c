// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printing diagnostics and JSON for the commands.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "cmd.h"
#include "uapid/util/buf.h"
#include "uapid/proto/json.h"
#include "uapid/io/progress.h"

/* What report_error and report_diags printed, for --json (report_keep). */
static struct ud_diags kept = UD_DIAGS_INIT;
static bool keeping;

void
report_keep(void)
{
	keeping = true;
}

struct ud_diags *
report_kept(void)
{
	return keeping ? &kept : NULL;
}

void
report_json_failure(const char *what)
{
	const char *first = NULL;
	size_t i;

	if (!keeping)
		return;
	for (i = 0; i < kept.n && first == NULL; i++)
		if (kept.v[i].severity == UD_SEV_ERROR)
			first = kept.v[i].message;
	report_json_line(json_pack("{s:s, s:s, s:o}", "tree", what, "error",
				   first != NULL ? first : "failed", "diagnostics",
				   report_diags_json(&kept)));
	ud_diags_free(&kept);
}

void
report_diags(FILE *f, const char *path, const struct ud_diags *d)
{
	size_t i;

	if (d->n > 0)
		ud_progress_interrupt();
	for (i = 0; i < d->n; i++) {
		const struct ud_diag *g = &d->v[i];
		const char *p = g->path != NULL ? g->path : path;

		if (g->line > 0)
			fprintf(f, "%s:%u: %s: %s\n", p, g->line, ud_severity_name(g->severity),
				g->message);
		else
			fprintf(f, "%s: %s: %s\n", p, ud_severity_name(g->severity), g->message);
		if (keeping && f == stderr)
			ud_diags_add_at(&kept, p, g->line, g->severity, "%s", g->message);
	}
}

json_t *
report_diags_json(const struct ud_diags *d)
{
	return ud_json_diags(d);
}

void
report_json_line(json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);

	if (s != NULL) {
		fputs(s, stdout);
		fputc('\n', stdout);
		free(s);
	}
	json_decref(v);
}

void
report_error(const char *fmt, ...)
{
	va_list ap;

	ud_progress_interrupt();
	fputs("uapid: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (keeping) {
		struct ud_buf b = UD_BUF_INIT;

		va_start(ap, fmt);
		ud_buf_vaddf(&b, fmt, ap);
		va_end(ap);
		ud_diags_add_at(&kept, NULL, 0, UD_SEV_ERROR, "%s", ud_buf_str(&b));
		ud_buf_free(&b);
	}
}

void
report_hint(const char *fmt, ...)
{
	va_list ap;

	ud_progress_interrupt();
	fputs("uapid: hint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
