// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LSP bridge's baseline (ctl.h): what the buffer of a uapi header is
 * compared with for its API diagnostics.  A maintainer editing a uapi
 * header wants every break since a fixed point flagged until it is
 * reverted or accepted, not only what the buffer changes against the last
 * save: so the default is HEAD of the tree's repository, a tag or any
 * revision by configuration (`uapictl lsp --baseline REV`, the
 * initializationOptions or workspace/didChangeConfiguration's
 * {"baseline": REV}; "installed" for the last saved version), and an
 * accept file (accept.h) keeps decided breaks quiet.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctl.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/xmalloc.h"

void
lsp_baseline_init(struct lsp_baseline *b)
{
	b->rev = ud_xstrdup("HEAD");
	b->accept = NULL;
}

void
lsp_baseline_free(struct lsp_baseline *b)
{
	free(b->rev);
	free(b->accept);
	b->rev = b->accept = NULL;
}

bool
lsp_baseline_set_rev(struct lsp_baseline *b, const char *rev, char **why)
{
	if (rev[0] == '\0' || rev[0] == '-') {
		*why = ud_xasprintf("baseline '%s' is not a revision (HEAD, a tag, a commit; "
				    "\"installed\" for the last saved version)",
				    rev);
		return false;
	}
	free(b->rev);
	b->rev = strcmp(rev, "installed") == 0 ? NULL : ud_xstrdup(rev);
	return true;
}

void
lsp_baseline_set_accept(struct lsp_baseline *b, const char *file)
{
	free(b->accept);
	b->accept = file[0] != '\0' ? ud_xstrdup(file) : NULL;
}

bool
lsp_baseline_configure(struct lsp_baseline *b, json_t *settings, char **why)
{
	json_t *own = json_object_get(settings, "uapid"), *rev, *accept;

	if (json_is_object(own)) /* {"uapid": {...}}, as didChangeConfiguration sends settings */
		settings = own;
	if (!json_is_object(settings))
		return true; /* no settings of ours */
	rev = json_object_get(settings, "baseline");
	accept = json_object_get(settings, "accept");
	if ((rev != NULL && !json_is_string(rev)) || (accept != NULL && !json_is_string(accept))) {
		*why = ud_xstrdup("\"baseline\" and \"accept\" must be strings");
		return false;
	}
	if (rev != NULL && !lsp_baseline_set_rev(b, json_string_value(rev), why))
		return false;
	if (accept != NULL)
		lsp_baseline_set_accept(b, json_string_value(accept));
	return true;
}

char *
lsp_baseline_accept_path(const struct lsp_baseline *b, const char *tree)
{
	if (b->accept == NULL)
		return NULL;
	if (b->accept[0] == '/' || tree == NULL)
		return ud_xstrdup(b->accept);
	return ud_xasprintf("%s/%s", tree, b->accept);
}

int
lsp_baseline_accept_text(const struct lsp_baseline *b, const char *tree, struct ud_buf *text,
			 long long *mtime_ns, char **why)
{
	char *path = lsp_baseline_accept_path(b, tree);
	struct stat st;
	int rc;

	*mtime_ns = 0;
	if (path == NULL)
		return 0;
	if (stat(path, &st) == 0)
		*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	rc = ud_read_file(path, text, why);
	if (rc < 0) {
		free(path);
		return -1;
	}
	free(path);
	return 1;
}
