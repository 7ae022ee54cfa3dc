// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header model as JSON (json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/api/api.h"
#include "uapid/proto/json.h"

json_t *
ud_json_diags(const struct ud_diags *d)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < d->n; i++)
		json_array_append_new(a, json_pack("{s:s*, s:i, s:s, s:s}", "path", d->v[i].path,
						   "line", (json_int_t)d->v[i].line, "severity",
						   ud_severity_name(d->v[i].severity), "message",
						   d->v[i].message));
	return a;
}

json_t *
ud_json_blocks(const struct ud_classified *c)
{
	struct ud_block *b;
	size_t n = ud_classified_blocks(c, &b), i;
	json_t *blocks = json_array();

	for (i = 0; i < n; i++)
		json_array_append_new(
			blocks, json_pack("{s:i, s:i, s:s, s:s}", "first", (json_int_t)b[i].first,
					  "last", (json_int_t)b[i].last, "class",
					  ud_class_name(b[i].cls), "reason", b[i].reason));
	free(b);
	return blocks;
}

char *
ud_json_take_dump(json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);

	json_decref(v);
	return s;
}

/* "ok" for compatible: an axis a change does not touch */
static const char *
axis_verdict(enum ud_api_verdict v)
{
	return v == UD_API_COMPATIBLE ? "ok" : ud_api_verdict_name(v);
}

json_t *
ud_json_api_diff(const struct ud_api_diff *d)
{
	json_t *changes = json_array(), *j, *by_axis;
	unsigned counts[UD_API__AXES][UD_API__VERDICTS];
	size_t i, x;

	memset(counts, 0, sizeof(counts));
	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		json_t *ch = json_pack("{s:s, s:s?, s:s?, s:s, s:s, s:s, s:s, s:i, s:i}", "header",
				       c->header, "symbol", c->symbol[0] ? c->symbol : NULL, "kind",
				       c->symbol[0] ? ud_api_kind_name(c->kind) : NULL, "what",
				       ud_api_what_name(c->what), "verdict",
				       ud_api_verdict_name(c->verdict), "rule",
				       ud_api_rule_name(c->rule), "reason", c->reason, "old_line",
				       (int)c->old_line, "new_line", (int)c->new_line);

		/* the two axes (issue 40): break, review or ok, each with its rule */
		for (x = 0; x < UD_API__AXES; x++) {
			char key[32];

			counts[x][c->axis[x]]++;
			json_object_set_new(ch, ud_api_axis_name((enum ud_api_axis)x),
					    json_string(axis_verdict(c->axis[x])));
			snprintf(key, sizeof(key), "%s_rule",
				 ud_api_axis_name((enum ud_api_axis)x));
			json_object_set_new(ch, key,
					    json_string(ud_api_rule_name(c->axis_rule[x])));
		}
		json_array_append_new(changes, ch);
	}
	/* the condition apart, for who reads it (the symbol keeps it, as it always did) */
	for (i = 0; i < d->n; i++) {
		const char *cond = strstr(d->v[i].symbol, " [if ");

		json_object_set_new(json_array_get(changes, i), "condition",
				    cond != NULL ? json_stringn(cond + 5, strlen(cond + 5) - 1)
						 : json_null());
	}
	by_axis = json_object();
	for (x = 0; x < UD_API__AXES; x++)
		json_object_set_new(by_axis, ud_api_axis_name((enum ud_api_axis)x),
				    json_pack("{s:i, s:i, s:i}", "breaking",
					      counts[x][UD_API_BREAKING], "review",
					      counts[x][UD_API_REVIEW], "ok",
					      counts[x][UD_API_COMPATIBLE]));
	j = json_pack("{s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:o}", "summary",
		      "headers_changed", d->headers_changed, "headers_added", d->headers_added,
		      "headers_removed", d->headers_removed, "symbols_added", d->symbols_added,
		      "symbols_removed", d->symbols_removed, "symbols_changed", d->symbols_changed,
		      "breaking", d->verdicts[UD_API_BREAKING], "review",
		      d->verdicts[UD_API_REVIEW], "compatible", d->verdicts[UD_API_COMPATIBLE],
		      "changes", changes);
	json_object_set_new(json_object_get(j, "summary"), "by_axis", by_axis);
	return j;
}
