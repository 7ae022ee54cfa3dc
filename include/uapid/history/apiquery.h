/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's API questions (api.changes): which userspace API changed
 * since a clock (from the versions the store keeps), against a git
 * revision (installed in memory); an editor's unsaved buffer is the
 * engine's (ud_engine_api_text), against the stored version or a file as
 * a revision has it (ud_apiquery_file_at).  Each answer is the JSON shape of
 * ud_json_api_diff plus the clock.
 */
#ifndef UAPID_APIQUERY_H
#define UAPID_APIQUERY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "uapid/store/store.h"
#include "uapid/util/buf.h"

/* Since clock since; fresh: since predates the history (everything counts as added). */
json_t *ud_apiquery_since(struct ud_store *st, int64_t since, bool fresh);
/*
 * Against revision rev of the repository at root, installed for arch, the
 * daemon's installed headers now (install_dir holds include/).  NULL with
 * *cause when the revision or its install fails.
 */
json_t *ud_apiquery_rev(const char *root, const char *arch, const char *install_dir,
			const char *rev, char **cause);
/*
 * An editor's baseline: the commit revision rev names in the repository at
 * root (its own .git: parent directories are not searched), as 40 hex
 * digits in commit.  Returns 0, or -1 with *cause when there is no
 * repository or rev names no commit.
 */
int ud_apiquery_resolve(const char *root, const char *rev, char commit[41], char **cause);
/*
 * The text of the tree's file path ("include/uapi/linux/foo.h") at revision
 * rev, as ud_apiquery_resolve finds it (commit set): 1 with the file's bytes
 * in *text, 0 when that commit has no regular file there (a header added
 * since), -1 with *cause when the repository or the revision cannot be
 * read.
 */
int ud_apiquery_file_at(const char *root, const char *rev, const char *path, struct ud_buf *text,
			char commit[41], char **cause);
/* The installed name of a uapi header's tree path ("linux/foo.h"), or NULL. */
char *ud_apiquery_installed_name(const char *path);

#endif /* UAPID_APIQUERY_H */
