/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header model as JSON (jansson): the one shape `uapid classify
 * --json`, the store and the socket all give, so a script reading one
 * reads the others.
 */
#ifndef UAPID_JSON_H
#define UAPID_JSON_H

#include <jansson.h>

#include "uapid/core/classify.h"
#include "uapid/util/diag.h"

/* [{"path"?, "line", "severity", "message"}] (new reference). */
json_t *ud_json_diags(const struct ud_diags *d);
/* [{"first", "last", "class", "reason"}] (new reference). */
json_t *ud_json_blocks(const struct ud_classified *c);
/*
 * An API diff (api.h): {"summary": {...counts...}, "changes": [{"header",
 * "symbol", "kind", "what", "verdict", "reason", "old_line", "new_line"}]}
 * (new reference): the one shape of `uapid api-diff --json` and api.changes.
 */
struct ud_api_diff;
json_t *ud_json_api_diff(const struct ud_api_diff *d);
/* v as one compact line (malloc'd); the reference is dropped. */
char *ud_json_take_dump(json_t *v);

#endif /* UAPID_JSON_H */
