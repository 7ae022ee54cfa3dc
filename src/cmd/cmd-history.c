// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The repository of the commands that read a history (branch, api-log):
 * apart from cmd.c because it needs libgit2, which the light uapid program
 * does not link (uapid.c says why).
 */
#include "cmd.h"
#include "uapid/io/gittree.h"
#include "uapid/util/xmalloc.h"

int
cmd_open_history(const char *path, const char *state_dir, git_repository **repo, char **dir)
{
	ud_git_init_caching_trees();
	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		const git_error *e = git_error_last();

		report_error("%s: not a git repository (%s)", path,
			     e != NULL ? e->message : "libgit2");
		return -1;
	}
	*dir = state_dir != NULL ? ud_xstrdup(state_dir)
				 : ud_xasprintf("%suapid", git_repository_path(*repo));
	return 0;
}
