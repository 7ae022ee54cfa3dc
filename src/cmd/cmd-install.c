// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid install [--arch ARCH|all] TREE OUTDIR: the tree's installed
 * userspace headers, byte for byte what `make ARCH=ARCH headers_install
 * INSTALL_HDR_PATH=OUTDIR` writes, rewriting only files that change.
 * With --arch all, every architecture the tree exports goes to
 * OUTDIR/<arch>/include, include/uapi processed once for all of them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/io/headers.h"
#include "uapid/io/progress.h"
#include "uapid/util/strlist.h"
#include "uapid/io/tree.h"
#include "uapid/util/xmalloc.h"

static const char install_usage[] =
	"usage: uapid install [--arch ARCH|all] [--quiet] TREE OUTDIR\n";

static void
report_file(const char *path, const struct ud_diags *d, void *ctx)
{
	(void)ctx;
	report_diags(stderr, path, d);
}

static void
print_stats(const char *what, const struct ud_hdr_plan *plan, const char *dir,
	    const struct ud_install_stats *st)
{
	ud_progress_interrupt();
	printf("%s %u headers for %s in %s/include: %u written, %u unchanged, %u removed, %u "
	       "failed",
	       what, st->files - st->failed, plan->srcarch, dir, st->written, st->unchanged,
	       st->removed, st->failed);
	if (st->not_removed > 0)
		printf(", %u stale not removed", st->not_removed);
	if (st->manifest_failed)
		printf(", not recorded");
	putchar('\n');
}

/* One architecture; returns an exit status. */
static int
install_one(struct cmd_plan *p, const char *outdir, struct ud_install_memo *memo)
{
	struct ud_install_stats st;
	char *cause = NULL;

	if (ud_headers_install_shared(&p->src, &p->plan, outdir, memo, report_file, NULL, &st,
				      &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	print_stats("installed", &p->plan, outdir, &st);
	return st.failed + st.not_removed > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/* An entry of arch/ that is a directory ("x86/"). */
static bool
is_arch_dir(const char *entry)
{
	size_t n = strlen(entry);

	return n >= 2 && entry[n - 1] == '/';
}

/* --arch all: each architecture directory of the tree that its Makefile exports. */
static int
install_all(const char *tree_arg, const char *outdir, bool quiet)
{
	struct ud_progress progress;
	size_t narchs = 0, seen = 0;
	struct ud_install_memo *memo = ud_install_memo_new();
	struct ud_strlist dirs = UD_STRLIST_INIT;
	struct ud_tree tree;
	struct ud_source src;
	char *cause = NULL;
	int status = EXIT_OK;
	unsigned done = 0, skipped = 0, failed = 0;
	size_t i;

	memset(&src, 0, sizeof(src));
	if (ud_tree_open(&tree, tree_arg, &cause) < 0 ||
	    ud_source_open_dir(&src, tree.root, &cause) < 0 ||
	    ud_source_list(&src, "arch", &dirs, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		status = EXIT_USAGE;
		goto out;
	}
	ud_strlist_sort(&dirs);
	for (i = 0; i < dirs.n; i++)
		narchs += is_arch_dir(dirs.v[i]);
	ud_progress_start(&progress, "install", "architectures", quiet);
	for (i = 0; i < dirs.n; i++) {
		size_t n = strlen(dirs.v[i]);
		struct cmd_plan p;
		char *arch, *dir;
		int rc;

		if (!is_arch_dir(dirs.v[i]))
			continue;
		ud_progress_update(&progress, seen++, narchs);
		arch = ud_xstrndup(dirs.v[i], n - 1);
		memset(&p, 0, sizeof(p));
		p.tree = tree;
		p.src = src;
		rc = ud_headers_plan(&src, NULL, arch, &p.plan, &cause);
		report_diags(stderr, tree.root, &p.plan.problems);
		ud_progress_interrupt();
		if (rc == -EPERM) {
			/* the tree's Makefile refuses it: the kernel's reason, and on */
			printf("%s: not exported: %s\n", arch, cause);
			skipped++;
		} else if (rc < 0) {
			/* one line per architecture, this one too, and counted */
			report_error("%s", cause);
			printf("%s: failed: %s\n", arch, cause);
			failed++;
			status = EXIT_USAGE;
		} else if (strcmp(p.plan.srcarch, arch) == 0) {
			dir = ud_xasprintf("%s/%s", outdir, arch);
			rc = install_one(&p, dir, memo);
			if (rc > status)
				status = rc;
			done++;
			free(dir);
		}
		free(cause);
		cause = NULL;
		ud_headers_plan_free(&p.plan);
		free(arch);
	}
	ud_progress_end(&progress);
	printf("%u architectures installed in %s, %u not exported", done, outdir, skipped);
	if (failed > 0)
		printf(", %u failed", failed);
	putchar('\n');
out:
	ud_strlist_free(&dirs);
	ud_install_memo_free(memo);
	ud_source_close(&src);
	ud_tree_close(&tree);
	return status;
}

int
cmd_install(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"arch", required_argument, NULL, 'a'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *arch = NULL;
	struct cmd_plan p;
	struct ud_treeinfo input;
	bool quiet = false;
	int opt, status;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "a:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			arch = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(install_usage, stdout);
			return EXIT_OK;
		default:
			fputs(install_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fputs(install_usage, stderr);
		return EXIT_USAGE;
	}
	if (cmd_input(argv[optind], CMD_TREES, &input) < 0) {
		ud_treeinfo_free(&input);
		return EXIT_USAGE;
	}
	cmd_input_print(stdout, "tree", argv[optind], &input,
			arch != NULL ? arch : cmd_default_arch());
	ud_treeinfo_free(&input);
	if (arch != NULL && strcmp(arch, "all") == 0)
		return install_all(argv[optind], argv[optind + 1], quiet);
	if (cmd_open_plan(argv[optind], arch, &p) < 0)
		return EXIT_USAGE;
	status = install_one(&p, argv[optind + 1], NULL);
	cmd_close_plan(&p);
	return status;
}
