// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid fix-includes: #include "x.h" -> #include <dir/x.h> in tree headers,
 * where the quoted file exists beside the including one (the pre-step of
 * the 2012 split: once a header's uapi part moves, quoted includes stop
 * finding their neighbours).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"
#include "uapid/core/includes.h"
#include "uapid/util/path.h"
#include "uapid/io/sink.h"
#include "uapid/io/source.h"
#include "uapid/io/tree.h"
#include "uapid/util/xmalloc.h"

static const char fix_usage[] =
	"usage: uapid fix-includes [--in-place | --dry-run] TREE [PATH...]\n";

struct resolve_ctx {
	struct ud_source *src;
	const char *rel; /* the including header */
};

/* Joins dir and name, folding "." and ".." components; NULL if it climbs out. */
static char *
join_norm(const char *dir, const char *name)
{
	char *all = ud_xasprintf("%s/%s", dir, name), *save = NULL, *tok;
	char **parts = NULL;
	size_t n = 0, alloc = 0, i;
	struct ud_buf out = UD_BUF_INIT;

	for (tok = strtok_r(all, "/", &save); tok != NULL; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			if (n == 0) {
				free(parts);
				free(all);
				return NULL;
			}
			n--;
			continue;
		}
		parts = ud_xgrow(parts, &alloc, n + 1, sizeof(char *));
		parts[n++] = tok;
	}
	for (i = 0; i < n; i++) {
		if (i > 0)
			ud_buf_addch(&out, '/');
		ud_buf_addstr(&out, parts[i]);
	}
	free(parts);
	free(all);
	return ud_buf_detach(&out, NULL);
}

static char *
resolve_quoted(const char *quoted, void *arg)
{
	const struct resolve_ctx *ctx = arg;
	const char *slash = strrchr(ctx->rel, '/');
	char *dir = ud_xstrndup(ctx->rel, slash != NULL ? (size_t)(slash - ctx->rel) : 0);
	char *cand = join_norm(dir, quoted), *res = NULL;

	free(dir);
	if (cand == NULL)
		return NULL;
	if (ud_source_type(ctx->src, cand) == UD_FT_FILE && ud_path_include_name(cand) != NULL)
		res = ud_xstrdup(ud_path_include_name(cand));
	free(cand);
	return res;
}

/* Collects the headers under a tree-relative directory (or the file itself). */
static int
collect(struct ud_source *src, const char *rel, struct ud_strlist *out)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	char *cause = NULL;
	size_t i;
	int rc = 0;

	if (ud_source_type(src, rel) == UD_FT_FILE) {
		ud_strlist_add(out, rel);
		return 0;
	}
	if ((rc = ud_source_walk(src, rel, ".h", NULL, &found, &cause)) < 0) {
		report_error("%s", cause);
		free(cause);
	}
	for (i = 0; i < found.n; i++) {
		char *child =
			rel[0] ? ud_xasprintf("%s/%s", rel, found.v[i]) : ud_xstrdup(found.v[i]);

		if (ud_path_include_name(child) != NULL)
			ud_strlist_take(out, child);
		else
			free(child);
	}
	ud_strlist_free(&found);
	return rc;
}

int
cmd_fix_includes(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"in-place", no_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ud_tree tree;
	struct ud_treeinfo input;
	struct ud_source src;
	struct ud_sink sink;
	struct ud_strlist files = UD_STRLIST_INIT;
	struct ud_buf in = UD_BUF_INIT, out = UD_BUF_INIT;
	bool in_place = false;
	char *cause = NULL;
	int opt, a, status = EXIT_OK;
	unsigned nfiles = 0, nlines = 0;
	size_t i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "inh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			in_place = true;
			break;
		case 'n':
			in_place = false;
			break;
		case 'h':
			fputs(fix_usage, stdout);
			return EXIT_OK;
		default:
			fputs(fix_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(fix_usage, stderr);
		return EXIT_USAGE;
	}
	memset(&src, 0, sizeof(src));
	memset(&sink, 0, sizeof(sink));
	memset(&tree, 0, sizeof(tree));
	if (cmd_input(argv[optind], CMD_TREES, &input) < 0) {
		ud_treeinfo_free(&input);
		return EXIT_USAGE;
	}
	cmd_input_print(stdout, "tree", argv[optind], &input, NULL);
	ud_treeinfo_free(&input);
	if (ud_tree_open(&tree, argv[optind], &cause) < 0 ||
	    ud_source_open_dir(&src, tree.root, &cause) < 0 ||
	    (in_place && ud_sink_open_dir(&sink, tree.root, 0, &cause) < 0)) {
		report_error("%s", cause);
		free(cause);
		status = EXIT_USAGE;
		goto out;
	}
	if (optind + 1 == argc &&
	    (collect(&src, "include", &files) < 0 || collect(&src, "arch", &files) < 0))
		status = EXIT_USAGE;
	for (a = optind + 1; a < argc; a++) {
		char *rel = NULL;

		if (ud_tree_relpath(&tree, argv[a], &rel, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			status = EXIT_USAGE;
			goto out;
		}
		if (collect(&src, rel, &files) < 0)
			status = EXIT_USAGE;
		free(rel);
	}
	ud_strlist_sort(&files);
	for (i = 0; i < files.n; i++) {
		struct resolve_ctx ctx = {&src, files.v[i]};
		struct ud_diags d = UD_DIAGS_INIT;
		int n;

		if (ud_source_read(&src, files.v[i], &in, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			cause = NULL;
			status = EXIT_USAGE;
			continue;
		}
		n = ud_fix_includes(in.data, in.len, resolve_quoted, &ctx, &out, &d);
		report_diags(stderr, files.v[i], &d);
		ud_diags_free(&d);
		if (n > 0) {
			printf("%s: %d include%s converted\n", files.v[i], n, n == 1 ? "" : "s");
			nfiles++;
			nlines += (unsigned)n;
			if (in_place &&
			    ud_sink_write(&sink, files.v[i], out.data, out.len, &cause) < 0) {
				report_error("%s", cause);
				free(cause);
				cause = NULL;
				status = EXIT_USAGE;
			}
		}
	}
	printf("%u file%s, %u include%s %s\n", nfiles, nfiles == 1 ? "" : "s", nlines,
	       nlines == 1 ? "" : "s", in_place ? "converted" : "to convert (dry run)");
out:
	ud_buf_free(&in);
	ud_buf_free(&out);
	ud_strlist_free(&files);
	ud_sink_close(&sink);
	ud_source_close(&src);
	ud_tree_close(&tree);
	return status;
}
