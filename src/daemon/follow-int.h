/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The branch follower's api-log part (follow-apilog.c), private to
 * follow*.c: the api-log index of the headers branch, brought up to date
 * on the worker after each update, and api.log's answers on the loop
 * thread through a repository and a store reader of its own.
 */
#ifndef UAPID_FOLLOW_INT_H
#define UAPID_FOLLOW_INT_H

#include <git2.h>
#include <jansson.h>

#include "uapid/history/apilog.h"
#include "uapid/store/store.h"

struct ud_follow_apilog {
	const char *headers; /* the follower's headers branch; NULL: none kept, no index */
	char *gitdir, *db;   /* the repository and the store the reader opens */
	/* what the worker did last */
	struct ud_apilog_result res;
	int rc;
	char *cause;
	/* api.log's reader, on the loop thread */
	git_repository *reader_repo;
	struct ud_store *reader_st;
};

/* Sets l up for the headers branch headers (kept by the caller), NULL for none. */
void ud_follow_apilog_init(struct ud_follow_apilog *l, const char *headers, const char *gitdir,
			   const char *db);
/*
 * On the worker, after ud_branch_update made the headers branch's tip
 * headers_tip ("" when there is none): the index and its "v*" tags brought
 * up to date in st; the outcome kept in l for the loop thread.
 */
void ud_follow_apilog_update(struct ud_follow_apilog *l, git_repository *repo, struct ud_store *st,
			     const char *headers_tip);
/* status's "api_log": {"steps", "added", "error"}, when a headers branch is kept. */
void ud_follow_apilog_status(const struct ud_follow_apilog *l, json_t *status);
/* Logs what the last update did to the index, if anything. */
void ud_follow_apilog_log(const struct ud_follow_apilog *l);
/* ud_follow_api_log's work (follow.h). */
json_t *ud_follow_apilog_answer(struct ud_follow_apilog *l, const struct ud_apilog_query *q,
				json_t *symbols, char **cause);
void ud_follow_apilog_free(struct ud_follow_apilog *l);

#endif /* UAPID_FOLLOW_INT_H */
