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
#include "uapid/buf.h"
#include "uapid/fsutil.h"
#include "uapid/includes.h"
#include "uapid/path.h"
#include "uapid/tree.h"
#include "uapid/xmalloc.h"

static const char fix_usage[] =
	"usage: uapid fix-includes [--in-place | --dry-run] TREE [PATH...]\n";

struct resolve_ctx {
	const struct ud_tree *tree;
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
	char *cand = join_norm(dir, quoted), *abs, *res = NULL;

	free(dir);
	if (cand == NULL)
		return NULL;
	abs = ud_tree_path(ctx->tree, cand);
	if (ud_is_file(abs) && ud_path_include_name(cand) != NULL)
		res = ud_xstrdup(ud_path_include_name(cand));
	free(abs);
	free(cand);
	return res;
}

/* Collects the headers under a tree-relative directory (or the file itself). */
static void
collect(const struct ud_tree *t, const char *rel, struct ud_paths *out)
{
	struct ud_paths found = UD_PATHS_INIT;
	char *abs = ud_tree_path(t, rel);
	size_t i;

	if (ud_is_file(abs)) {
		ud_paths_add(out, rel);
		free(abs);
		return;
	}
	ud_dir_headers(abs, &found);
	for (i = 0; i < found.n; i++) {
		char *child =
			rel[0] ? ud_xasprintf("%s/%s", rel, found.v[i]) : ud_xstrdup(found.v[i]);

		if (ud_path_include_name(child) != NULL)
			ud_paths_add(out, child);
		free(child);
	}
	ud_paths_free(&found);
	free(abs);
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
	struct ud_paths files = UD_PATHS_INIT;
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
	if (ud_tree_open(&tree, argv[optind], &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (optind + 1 == argc) {
		char *arch = ud_tree_path(&tree, "arch");

		collect(&tree, "include", &files);
		if (ud_is_dir(arch))
			collect(&tree, "arch", &files);
		free(arch);
	}
	for (a = optind + 1; a < argc; a++) {
		char *rel = NULL;

		if (ud_tree_relpath(&tree, argv[a], &rel, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			status = EXIT_USAGE;
			goto out;
		}
		collect(&tree, rel, &files);
		free(rel);
	}
	ud_paths_sort(&files);
	for (i = 0; i < files.n; i++) {
		struct resolve_ctx ctx = {&tree, files.v[i]};
		struct ud_diags d = UD_DIAGS_INIT;
		char *abs = ud_tree_path(&tree, files.v[i]);
		int n;

		if (ud_read_file(abs, &in, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			cause = NULL;
			free(abs);
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
			if (in_place && ud_write_atomic(abs, out.data, out.len, &cause) < 0) {
				report_error("%s", cause);
				free(cause);
				cause = NULL;
				status = EXIT_USAGE;
			}
		}
		free(abs);
	}
	printf("%u file%s, %u include%s %s\n", nfiles, nfiles == 1 ? "" : "s", nlines,
	       nlines == 1 ? "" : "s", in_place ? "converted" : "to convert (dry run)");
out:
	ud_buf_free(&in);
	ud_buf_free(&out);
	ud_paths_free(&files);
	ud_tree_close(&tree);
	return status;
}
