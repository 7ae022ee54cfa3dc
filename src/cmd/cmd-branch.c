// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid branch: keep a repository's uapi branches current, once (the
 * daemon does it after every commit with --branches).  See branch.h.
 */
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/history/branch.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/progress.h"
#include "uapid/util/xmalloc.h"

static const char branch_usage[] =
	"usage: uapid branch [--split-branch NAME | --no-split-branch]\n"
	"                    [--headers-branch NAME | --no-headers-branch]\n"
	"                    [--source REV] [--arch ARCH] [--since REV] [--one-commit]\n"
	"                    [--identity 'NAME <EMAIL>'] [--markers FILE] [--state-dir DIR] [--json]\n"
	"                    [--quiet] REPO\n";

/* A fingerprint of the markers file, for cache keys ("-": none). */
static char *
markers_hash(const struct ud_buf *text)
{
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];

	if (text->len == 0)
		return ud_xstrdup("-");
	git_odb_hash(&id, text->data, text->len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &id);
	return ud_xstrdup(hex);
}

static void
print_result(const struct ud_branch_result *r, const struct ud_branch_opts *o, bool json)
{
	if (json) {
		json_t *j = json_pack(
			"{s:s, s:{s:s?, s:s?, s:i, s:i, s:b, s:s?}, s:{s:s?, s:s?, s:i, s:i, s:s?}, "
			"s:{s:i, s:i}}",
			"source", r->source, "split", "branch", o->split, "commit",
			r->split[0] ? r->split : NULL, "commits", (int)r->split_commits, "headers",
			(int)r->split_headers, "changed", r->split_changed, "refused",
			r->split_refused, "headers", "branch", o->headers, "commit",
			r->headers[0] ? r->headers : NULL, "added", (int)r->headers_added,
			"scanned", (int)r->headers_scanned, "refused", r->headers_refused, "cache",
			"hits", (int)r->cache_hits, "misses", (int)r->cache_misses);
		json_t *needs = json_array();
		char *s;
		size_t i;

		for (i = 0; i < r->needs_coaching.n; i++)
			json_array_append_new(needs, json_string(r->needs_coaching.v[i]));
		json_object_set_new(json_object_get(j, "split"), "needs_coaching", needs);
		s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		puts(s);
		free(s);
		json_decref(j);
		return;
	}
	if (o->split != NULL) {
		if (r->split_refused != NULL)
			printf("%s: left alone: %s\n", o->split, r->split_refused);
		else
			printf("%s: %.12s, %u commit%s over %.12s, %u header%s split or moved%s\n",
			       o->split, r->split, r->split_commits,
			       r->split_commits == 1 ? "" : "s", r->source, r->split_headers,
			       r->split_headers == 1 ? "" : "s",
			       r->split_changed ? "" : " (unchanged)");
		if (r->needs_coaching.n > 0) {
			size_t i;

			/* as `uapid split` reports them: left whole, each named */
			printf("%s: %zu header%s need%s coaching, left whole:\n", o->split,
			       r->needs_coaching.n, r->needs_coaching.n == 1 ? "" : "s",
			       r->needs_coaching.n == 1 ? "s" : "");
			for (i = 0; i < r->needs_coaching.n; i++)
				printf("  %s\n", r->needs_coaching.v[i]);
		}
	}
	if (o->headers != NULL) {
		if (r->headers_refused != NULL)
			printf("%s: left alone: %s\n", o->headers, r->headers_refused);
		else
			printf("%s: %.12s, %u commit%s added from %u source commit%s looked at\n",
			       o->headers, r->headers[0] ? r->headers : "(none)", r->headers_added,
			       r->headers_added == 1 ? "" : "s", r->headers_scanned,
			       r->headers_scanned == 1 ? "" : "s");
		if (r->headers_skipped > 0)
			printf("%s: %u source commit%s skipped, their headers cannot be installed "
			       "(last: %s)\n",
			       o->headers, r->headers_skipped, r->headers_skipped == 1 ? "" : "s",
			       r->headers_skipped_why);
	}
	printf("cache: %u hit%s, %u miss%s\n", r->cache_hits, r->cache_hits == 1 ? "" : "s",
	       r->cache_misses, r->cache_misses == 1 ? "" : "es");
}

/* What the command line says beside the branch options. */
struct branch_cli {
	const char *markers_file, *state_dir;
	bool json, quiet;
};

/* Reads the command line into o and c: -1 to go on, else the exit status. */
static int
parse_options(struct ud_branch_opts *o, struct branch_cli *c, int argc, char **argv)
{
	/*
	 * --split-branch and --headers-branch as `uapid watch` spells them
	 * (issue 39); --split, --headers and their --no- forms are the
	 * spellings of before, kept for the scripts that use them.
	 */
	static const struct option longopts[] = {
		{"split-branch", required_argument, NULL, 's'},
		{"no-split-branch", no_argument, NULL, 'S'},
		{"headers-branch", required_argument, NULL, 'H'},
		{"no-headers-branch", no_argument, NULL, 'N'},
		{"split", required_argument, NULL, 's'},
		{"no-split", no_argument, NULL, 'S'},
		{"headers", required_argument, NULL, 'H'},
		{"no-headers", no_argument, NULL, 'N'},
		{"source", required_argument, NULL, 'r'},
		{"arch", required_argument, NULL, 'a'},
		{"since", required_argument, NULL, 'c'},
		{"one-commit", no_argument, NULL, '1'},
		{"identity", required_argument, NULL, 'i'},
		{"markers", required_argument, NULL, 'm'},
		{"state-dir", required_argument, NULL, 'd'},
		{"json", no_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	o->split = "uapi/split";
	o->headers = "uapi/headers";
	while ((opt = getopt_long(argc, argv, "a:d:m:hq", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': /* "-" is none, as for `uapid watch --split-branch` */
			o->split = strcmp(optarg, "-") == 0 ? NULL : optarg;
			break;
		case 'S':
			o->split = NULL;
			break;
		case 'H':
			o->headers = strcmp(optarg, "-") == 0 ? NULL : optarg;
			break;
		case 'N':
			o->headers = NULL;
			break;
		case 'r':
			o->source = optarg;
			break;
		case 'a':
			o->arch = optarg;
			break;
		case 'c':
			o->since = optarg;
			break;
		case '1':
			o->one_commit = true;
			break;
		case 'i':
			o->identity = optarg;
			break;
		case 'm':
			c->markers_file = optarg;
			break;
		case 'd':
			c->state_dir = optarg;
			break;
		case 'j':
			c->json = true;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			fputs(branch_usage, stdout);
			return EXIT_OK;
		default:
			fputs(branch_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs(branch_usage, stderr);
		return EXIT_USAGE;
	}
	if (o->split == NULL && o->headers == NULL) {
		report_error("--no-split-branch and --no-headers-branch: nothing to do");
		return EXIT_USAGE;
	}
	if (o->arch == NULL || o->arch[0] == '\0')
		o->arch = cmd_default_arch();
	return -1;
}

/* Reads and parses the markers file into markers (its text in mtext); -1 after reporting why. */
static int
load_markers(const char *path, struct ud_markers *markers, struct ud_buf *mtext)
{
	struct ud_diags d = UD_DIAGS_INIT;
	char *cause = NULL;
	int bad;

	if (ud_read_file(path, mtext, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return -1;
	}
	bad = ud_markers_parse(markers, mtext->data, mtext->len, &d) < 0;
	report_diags(stderr, path, &d);
	ud_diags_free(&d);
	return bad ? -1 : 0;
}

int
cmd_branch(int argc, char **argv)
{
	struct ud_branch_opts o;
	struct branch_cli c = {NULL, NULL, false, false};
	struct ud_branch_result r;
	struct ud_markers markers = UD_MARKERS_INIT;
	struct ud_buf mtext = UD_BUF_INIT;
	git_repository *repo = NULL;
	struct ud_store *st = NULL;
	struct ud_progress split_progress, headers_progress;
	char *cause = NULL, *dir = NULL, *db = NULL, *mhash = NULL;
	int rc, status;

	memset(&o, 0, sizeof(o));
	if ((status = parse_options(&o, &c, argc, argv)) >= 0)
		return status;
	status = EXIT_USAGE;
	if (c.markers_file != NULL) {
		if (load_markers(c.markers_file, &markers, &mtext) < 0)
			goto out;
		o.markers = &markers;
	}
	/* the cache lives with the repository unless told otherwise */
	if (cmd_open_history(argv[optind], c.state_dir, &repo, &dir) < 0)
		goto out_git;
	/*
	 * A backfill reads each commit's changed trees and headers once: hashing
	 * every object read again to check its id was a seventh of its work.
	 * git itself does not check on reading either (git fsck does).
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	if (ud_mkdir_p(dir, &cause) < 0) {
		report_error("%s", cause);
		goto out_git;
	}
	db = ud_xasprintf("%s/branches.db", dir);
	if (ud_store_open(&st, db, &cause) < 0) {
		report_error("%s", cause);
		goto out_git;
	}
	mhash = markers_hash(&mtext);
	o.markers_hash = mhash;
	ud_progress_start(&split_progress, "split branch", "headers", c.quiet || c.json);
	ud_progress_start(&headers_progress, "headers branch", "commits", c.quiet || c.json);
	o.split_progress = ud_progress_cb_for(&split_progress);
	o.headers_progress = ud_progress_cb_for(&headers_progress);
	rc = ud_branch_update(repo, st, &o, &r, &cause);
	ud_progress_end(&split_progress);
	ud_progress_end(&headers_progress);
	if (rc < 0) {
		report_error("%s", cause);
		if (rc == -ENOTSUP && o.headers != NULL && o.split != NULL)
			report_hint("--no-headers-branch makes the split branch alone");
		ud_branch_result_free(&r); /* what the split found before the failure */
		goto out_git;
	}
	print_result(&r, &o, c.json);
	status = r.split_refused != NULL || r.headers_refused != NULL || r.needs_coaching.n > 0
			 ? EXIT_FINDINGS
			 : EXIT_OK;
	if (r.needs_coaching.n > 0 && !c.json)
		report_hint("uapid split --dry-run REPO PATH says why, and the coaching markers "
			    "that decide each (--markers FILE)");
	ud_branch_result_free(&r);
out_git:
	free(cause);
	if (st != NULL)
		ud_store_close(st);
	git_repository_free(repo);
	git_libgit2_shutdown();
out:
	free(mhash);
	free(db);
	free(dir);
	ud_markers_free(&markers);
	ud_buf_free(&mtext);
	return status;
}
