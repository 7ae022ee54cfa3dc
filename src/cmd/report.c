/*
 * Printing diagnostics and JSON for the commands.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "cmd.h"
#include "uapid/json.h"

void
report_diags(FILE *f, const char *path, const struct ud_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct ud_diag *g = &d->v[i];
		const char *p = g->path != NULL ? g->path : path;

		if (g->line > 0)
			fprintf(f, "%s:%u: %s: %s\n", p, g->line, ud_severity_name(g->severity),
				g->message);
		else
			fprintf(f, "%s: %s: %s\n", p, ud_severity_name(g->severity), g->message);
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

	fputs("uapid: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
