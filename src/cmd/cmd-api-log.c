// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-log REPO SYMBOL...: since which release a userspace API symbol
 * exists and what changed in it when, along the source's first-parent
 * history (apilog.h).
 *
 * It reads the headers branch (uapi/headers, --headers NAME) when there
 * is one.  Without one it keeps a headers history of its own under
 * refs/uapid/api-log/ARCH, made as `uapid branch` makes the headers
 * branch (the same cache, from --since or the first commit), so that
 * every installed tree it read stays in the repository and the next
 * question reads only what is new.
 *
 * Exit status: 0 when every symbol was found in the range, 1 when one was
 * not, 2 for bad usage or input.
 */
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api-triage.h"
#include "cmd.h"
#include "uapid/history/apilog.h"
#include "uapid/history/branch.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/progress.h"
#include "uapid/util/xmalloc.h"

static const char log_usage[] =
	"usage: uapid api-log [--arch ARCH] [--json] [--since REV] [--until REV] [--tags GLOB]\n"
	"                     [--headers-branch NAME] [--state-dir DIR] [--html FILE] [--quiet]\n"
	"                     REPO SYMBOL...\n"
	"  SYMBOL: a macro, enum constant, typedef or ioctl request (NAME), struct NAME,\n"
	"          union NAME, enum NAME, struct NAME.MEMBER, or a header (linux/foo.h)\n"
	"  --html FILE: also write each history as a timeline, one self-contained page\n";

/* The history the index is read from: the headers branch, or api-log's own. */
static int
headers_history(git_repository *repo, struct ud_store *st, const char *named, const char *arch,
		const char *since, bool quiet, char **headers, char **cause)
{
	struct ud_branch_opts o;
	struct ud_branch_result r;
	struct ud_progress p;
	git_oid id;
	char *ref = ud_xasprintf("refs/heads/%s", named != NULL ? named : "uapi/headers");
	int rc;

	if (strncmp(named != NULL ? named : "", "refs/", 5) == 0) {
		free(ref);
		ref = ud_xstrdup(named);
	}
	if (git_reference_name_to_id(&id, repo, ref) == 0) {
		*headers = ref;
		return 0;
	}
	if (named != NULL) {
		*cause = ud_xasprintf("%s: no such branch", ref);
		free(ref);
		return -ENOENT;
	}
	free(ref);
	/*
	 * No headers branch: a history of api-log's own, from the source's
	 * commits; from --since the first time, afterwards from where it
	 * stopped (a later --since must not leave a gap in it).
	 */
	memset(&o, 0, sizeof(o));
	o.headers = *headers = ud_xasprintf("refs/uapid/api-log/%s", arch);
	if (git_reference_name_to_id(&id, repo, *headers) == 0)
		since = NULL;
	o.arch = arch;
	o.since = since;
	o.whole_history = since == NULL;
	o.markers_hash = "-";
	ud_progress_start(&p, "installed headers of the source history", "commits", quiet);
	o.headers_progress = ud_progress_cb_for(&p);
	rc = ud_branch_update(repo, st, &o, &r, cause);
	ud_progress_end(&p);
	if (rc == 0 && r.headers_refused != NULL) {
		*cause = ud_xstrdup(r.headers_refused);
		rc = -EPERM;
	}
	if (rc == 0 && r.headers_skipped > 0)
		report_error("warning: %u source commit%s skipped, their headers cannot be "
			     "installed (last: %s)",
			     r.headers_skipped, r.headers_skipped == 1 ? "" : "s",
			     r.headers_skipped_why);
	ud_branch_result_free(&r);
	return rc;
}

/*
 * The headers history a question can be answered from as the store has it,
 * with no writer: the branch named or uapi/headers (as they are: api-log
 * does not grow them), or api-log's own when it has seen the source head;
 * and its index up to date.  NULL when something is to be written first.
 */
static char *
headers_as_is(git_repository *repo, struct ud_store *st, const char *named, const char *arch,
	      const char *glob)
{
	struct ud_branch_opts o;
	git_oid id;
	char *ref = ud_xasprintf("refs/heads/%s", named != NULL ? named : "uapi/headers");

	if (named != NULL && strncmp(named, "refs/", 5) == 0) {
		free(ref);
		ref = ud_xstrdup(named);
	}
	if (git_reference_name_to_id(&id, repo, ref) < 0) {
		free(ref);
		if (named != NULL)
			return NULL;
		memset(&o, 0, sizeof(o));
		o.headers = ref = ud_xasprintf("refs/uapid/api-log/%s", arch);
		o.arch = arch;
		if (!ud_branch_headers_current(repo, st, &o)) {
			free(ref);
			return NULL;
		}
	}
	if (!ud_apilog_current(repo, st, ref, glob)) {
		free(ref);
		return NULL;
	}
	return ref;
}

/* The text a history line's change column holds: its change, after its symbol when another. */
static char *
change_text(json_t *e, const char *asked)
{
	const char *sym = json_string_value(json_object_get(e, "symbol"));
	const char *kind = json_string_value(json_object_get(e, "kind"));
	const char *change = json_string_value(json_object_get(e, "change"));

	if (sym == NULL || strcmp(sym, asked) == 0 || strcmp(kind, "header") == 0)
		return ud_xstrdup(change);
	/* struct, union and enum names carry their kind */
	if (strncmp(sym, kind, strlen(kind)) == 0)
		return ud_xasprintf("%s: %s", sym, change);
	return ud_xasprintf("%s %s: %s", kind, sym, change);
}

static void
print_history(json_t *a)
{
	json_t *h = json_object_get(a, "history"), *e;
	const char *asked = json_string_value(json_object_get(a, "symbol"));
	int wr = 0, wh = 0, wv = 0;
	size_t i;

	json_array_foreach(h, i, e)
	{
		const char *rel = json_string_value(json_object_get(e, "release"));
		const char *v = json_string_value(json_object_get(e, "verdict"));
		int n = snprintf(NULL, 0, "%s:%d", json_string_value(json_object_get(e, "header")),
				 (int)json_integer_value(json_object_get(e, "line")));

		wr = (int)strlen(rel != NULL ? rel : "unreleased") > wr
			     ? (int)strlen(rel != NULL ? rel : "unreleased")
			     : wr;
		wh = n > wh ? n : wh;
		wv = v != NULL && (int)strlen(v) > wv ? (int)strlen(v) : wv;
	}
	if (wv == 0)
		wv = 1;
	json_array_foreach(h, i, e)
	{
		const char *rel = json_string_value(json_object_get(e, "release"));
		const char *v = json_string_value(json_object_get(e, "verdict"));
		char *where = ud_xasprintf("%s:%d", json_string_value(json_object_get(e, "header")),
					   (int)json_integer_value(json_object_get(e, "line")));
		char *change = change_text(e, asked);

		printf("%-*s  %s  %.12s  %-*s  %-*s  %s\n", wr, rel != NULL ? rel : "unreleased",
		       json_string_value(json_object_get(e, "date")),
		       json_string_value(json_object_get(e, "commit")), wh, where, wv,
		       v != NULL ? v : "-", change);
		free(where);
		free(change);
	}
	printf("%s: %s\n", asked, json_string_value(json_object_get(a, "summary")));
}

struct log_opts {
	const char *arch, *named, *state_dir, *html;
	bool json, quiet;
};

/* Reads the command line into o and q: -1 to go on, else the exit status. */
static int
parse_options(struct log_opts *o, struct ud_apilog_query *q, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"arch", required_argument, NULL, 'a'},
		{"json", no_argument, NULL, 'j'},
		{"since", required_argument, NULL, 's'},
		{"until", required_argument, NULL, 'u'},
		{"tags", required_argument, NULL, 't'},
		{"headers-branch", required_argument, NULL, 'H'},
		{"headers", required_argument, NULL, 'H'}, /* the spelling of before */
		{"state-dir", required_argument, NULL, 'd'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"html", required_argument, NULL, 'W'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	/* -j: --json's short form of before, kept; --json has no short form now */
	while ((opt = getopt_long(argc, argv, "a:d:H:jqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			o->arch = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 's':
			q->since = optarg;
			break;
		case 'u':
			q->until = optarg;
			break;
		case 't':
			q->tags = optarg;
			break;
		case 'H':
			o->named = optarg;
			break;
		case 'd':
			o->state_dir = optarg;
			break;
		case 'W':
			o->html = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(log_usage, stdout);
			return EXIT_OK;
		default:
			fputs(log_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fputs(log_usage, stderr);
		return EXIT_USAGE;
	}
	if (o->arch == NULL || o->arch[0] == '\0')
		o->arch = cmd_default_arch();
	if (q->tags == NULL || q->tags[0] == '\0')
		q->tags = "v*";
	return -1;
}

/* Prints the answers, as JSON with what the index holds, or as text. */
static void
print_answers(git_repository *repo, struct ud_store *st, const char *headers, json_t *answers,
	      bool json)
{
	if (json) {
		json_t *j = json_pack("{s:o?, s:O}", "index", ud_apilog_about(repo, st, headers),
				      "symbols", answers);
		char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		puts(s);
		free(s);
		json_decref(j);
	} else {
		json_t *a;
		size_t k;

		json_array_foreach(answers, k, a)
		{
			if (k > 0)
				putchar('\n');
			print_history(a);
		}
	}
}

int
cmd_api_log(int argc, char **argv)
{
	struct log_opts o = {NULL, NULL, NULL, NULL, false, false};
	struct ud_apilog_query q;
	struct ud_apilog_opts lo;
	struct ud_apilog_result lr;
	struct ud_progress p;
	git_repository *repo = NULL;
	struct ud_store *st = NULL;
	char *cause = NULL, *dir = NULL, *db = NULL, *headers = NULL;
	json_t *answers = NULL;
	bool all_found = true;
	int rc, i, status;

	memset(&q, 0, sizeof(q));
	if ((status = parse_options(&o, &q, argc, argv)) >= 0)
		return status;
	status = EXIT_USAGE;
	if (o.json)
		report_keep();
	/* the store `uapid branch` keeps beside the repository: one cache for both */
	if (cmd_open_history(argv[optind], o.state_dir, &repo, &dir) < 0)
		goto fail;
	db = ud_xasprintf("%s/branches.db", dir);
	/*
	 * A question the index answers as it is needs no writer: neither the
	 * check of the whole store that opening the writer makes, nor its lock.
	 */
	if (access(db, F_OK) == 0 && ud_store_open_reader(&st, db, NULL) == 0 &&
	    (headers = headers_as_is(repo, st, o.named, o.arch, q.tags)) != NULL)
		goto ask;
	if (st != NULL)
		ud_store_close(st);
	st = NULL;
	if (ud_mkdir_p(dir, &cause) < 0 || ud_store_open(&st, db, &cause) < 0) {
		report_error("%s", cause);
		goto fail;
	}
	if ((rc = headers_history(repo, st, o.named, o.arch, q.since, o.quiet || o.json, &headers,
				  &cause)) < 0) {
		report_error("%s", cause);
		/* a history left alone has its own hint: --since would not help there */
		if (o.named == NULL && q.since == NULL && rc != -EPERM)
			report_hint(
				"--since REV reads the history from REV on; `uapid branch "
				"--no-split --since REV REPO` makes a headers branch from there");
		goto fail;
	}
	memset(&lo, 0, sizeof(lo));
	lo.headers = headers;
	ud_progress_start(&p, "api-log index", "headers commits", o.quiet || o.json);
	lo.progress = ud_progress_cb_for(&p);
	rc = ud_apilog_update(repo, st, &lo, &lr, &cause);
	ud_progress_end(&p);
	if (rc < 0 || ud_apilog_update_tags(repo, st, headers, q.tags, &cause) < 0) {
		report_error("%s", cause);
		goto fail;
	}
ask:
	q.headers = headers;
	answers = json_array();
	for (i = optind + 1; i < argc; i++) {
		json_t *a = NULL;

		if (ud_apilog_lookup(repo, st, &q, argv[i], &a, &cause) < 0) {
			report_error("%s", cause);
			goto fail;
		}
		all_found &= json_is_true(json_object_get(a, "found"));
		json_array_append_new(answers, a);
	}
	print_answers(repo, st, headers, answers, o.json);
	status = all_found ? EXIT_OK : EXIT_FINDINGS;
	if (o.html != NULL && report_html_log(o.html, argv[optind], answers, &cause) < 0) {
		report_error("%s", cause);
		status = EXIT_USAGE;
	}
	goto out;
fail:
	if (o.json)
		report_json_failure(argv[optind]);
out:
	json_decref(answers);
	free(cause);
	free(headers);
	free(db);
	free(dir);
	if (st != NULL)
		ud_store_close(st);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return status;
}
