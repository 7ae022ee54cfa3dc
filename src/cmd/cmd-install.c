/*
 * uapid install [--arch ARCH] TREE OUTDIR: the tree's installed userspace
 * headers, byte for byte what `make ARCH=ARCH headers_install
 * INSTALL_HDR_PATH=OUTDIR` writes, rewriting only files that change.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/headers.h"
#include "uapid/tree.h"

static const char install_usage[] = "usage: uapid install [--arch ARCH] TREE OUTDIR\n";

static void
report_file(const char *path, const struct ud_diags *d, void *ctx)
{
	(void)ctx;
	report_diags(stderr, path, d);
}

int
cmd_install(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"arch", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *arch = NULL;
	struct cmd_plan p;
	struct ud_install_stats st;
	char *cause = NULL;
	int opt, status = EXIT_OK;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "a:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			arch = optarg;
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
	if (cmd_open_plan(argv[optind], arch, &p) < 0)
		return EXIT_USAGE;
	if (ud_headers_install(&p.src, &p.plan, argv[optind + 1], report_file, NULL, &st, &cause) <
	    0) {
		report_error("%s", cause);
		free(cause);
		status = EXIT_USAGE;
	} else {
		printf("installed %u headers for %s in %s/include: %u written, %u unchanged, %u "
		       "removed, %u failed\n",
		       st.files - st.failed, p.plan.srcarch, argv[optind + 1], st.written,
		       st.unchanged, st.removed, st.failed);
		if (st.failed > 0)
			status = EXIT_FINDINGS;
	}
	cmd_close_plan(&p);
	return status;
}
