// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The branch follower's api-log index and api.log (follow-int.h): apart
 * from follow.c's refs, timers and worker, which call it at three points.
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/io/gittree.h"
#include "uapid/io/log.h"
#include "uapid/util/xmalloc.h"
#include "follow-int.h"

void
ud_follow_apilog_init(struct ud_follow_apilog *l, const char *headers, const char *gitdir,
		      const char *db)
{
	memset(l, 0, sizeof(*l));
	l->headers = headers;
	l->gitdir = ud_xstrdup(gitdir);
	l->db = ud_xstrdup(db);
}

void
ud_follow_apilog_update(struct ud_follow_apilog *l, git_repository *repo, struct ud_store *st,
			const char *headers_tip)
{
	struct ud_apilog_opts lo;
	unsigned total = l->res.steps_total;

	free(l->cause);
	l->cause = NULL;
	l->rc = 0;
	/* nothing added this time; the index keeps its size until it is read again */
	memset(&l->res, 0, sizeof(l->res));
	l->res.steps_total = total;
	l->res.rewound = -1;
	if (l->headers == NULL || headers_tip[0] == '\0')
		return;
	memset(&lo, 0, sizeof(lo));
	lo.headers = l->headers;
	l->rc = ud_apilog_update(repo, st, &lo, &l->res, &l->cause);
	if (l->rc == 0)
		l->rc = ud_apilog_update_tags(repo, st, l->headers, "v*", &l->cause);
}

void
ud_follow_apilog_status(const struct ud_follow_apilog *l, json_t *status)
{
	if (l->headers == NULL)
		return;
	json_object_set_new(status, "api_log",
			    json_pack("{s:i, s:i, s:s?}", "steps", (int)l->res.steps_total, "added",
				      (int)l->res.steps, "error", l->rc < 0 ? l->cause : NULL));
}

void
ud_follow_apilog_log(const struct ud_follow_apilog *l)
{
	if (l->rc < 0)
		ud_log(LOG_ERR, "branches: api-log index: %s", l->cause);
	else if (l->res.steps > 0)
		ud_log(LOG_INFO, "branches: api-log index: +%u step%s (%u in all)", l->res.steps,
		       l->res.steps == 1 ? "" : "s", l->res.steps_total);
}

json_t *
ud_follow_apilog_answer(struct ud_follow_apilog *l, const struct ud_apilog_query *q,
			json_t *symbols, char **cause)
{
	struct ud_apilog_query lq = *q;
	json_t *answers, *s;
	size_t i;

	if (l->headers == NULL) {
		*cause = ud_xstrdup("no headers branch is kept (--headers-branch -)");
		return NULL;
	}
	/* a repository and a store connection of the loop's own: never the worker's */
	if (l->reader_repo == NULL &&
	    git_repository_open_ext(&l->reader_repo, l->gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		*cause = ud_git_error(l->gitdir);
		return NULL;
	}
	if (l->reader_st == NULL && ud_store_open_reader(&l->reader_st, l->db, cause) < 0)
		return NULL;
	lq.headers = l->headers;
	answers = json_array();
	json_array_foreach(symbols, i, s)
	{
		json_t *a = NULL;

		if (ud_apilog_lookup(l->reader_repo, l->reader_st, &lq, json_string_value(s), &a,
				     cause) < 0) {
			json_decref(answers);
			return NULL;
		}
		json_array_append_new(answers, a);
	}
	return json_pack("{s:o?, s:o}", "index",
			 ud_apilog_about(l->reader_repo, l->reader_st, l->headers), "symbols",
			 answers);
}

void
ud_follow_apilog_free(struct ud_follow_apilog *l)
{
	free(l->cause);
	free(l->gitdir);
	free(l->db);
	if (l->reader_st != NULL)
		ud_store_close(l->reader_st);
	git_repository_free(l->reader_repo);
	memset(l, 0, sizeof(*l));
}
