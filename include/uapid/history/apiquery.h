/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's API questions (api.changes): which userspace API changed
 * since a clock (from the versions the store keeps), against a git
 * revision (installed in memory); an editor's unsaved buffer is the
 * engine's (ud_engine_api_text).  Each answer is the JSON shape of
 * ud_json_api_diff plus the clock.
 */
#ifndef UAPID_APIQUERY_H
#define UAPID_APIQUERY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "uapid/store/store.h"

/* Since clock since; fresh: since predates the history (everything counts as added). */
json_t *ud_apiquery_since(struct ud_store *st, int64_t since, bool fresh);
/*
 * Against revision rev of the repository at root, installed for arch, the
 * daemon's installed headers now (install_dir holds include/).  NULL with
 * *cause when the revision or its install fails.
 */
json_t *ud_apiquery_rev(const char *root, const char *arch, const char *install_dir,
			const char *rev, char **cause);
/* The installed name of a uapi header's tree path ("linux/foo.h"), or NULL. */
char *ud_apiquery_installed_name(const char *path);

#endif /* UAPID_APIQUERY_H */
