// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-diff [--json] [--arch ARCH] OLD NEW: which headers changed
 * userspace API between two versions, symbol by symbol, with a verdict
 * (api.h).  OLD and NEW are installed header directories (an
 * INSTALL_HDR_PATH holding include/, or that include/ itself), kernel
 * trees, or REPO:REV git revisions; trees and revisions are installed in
 * memory first, as `uapid install --arch ARCH` would.
 *
 * Exit status: 1 when a change is breaking (as the kernel's check-uapi.sh
 * does), 0 otherwise, 2 for bad usage or input.  What a person does with
 * the diff (filters, the roll-up, accepted breaks, the text and HTML
 * reports) is api-triage.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api-triage.h"
#include "cmd.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/gittree.h"
#include "uapid/io/headers.h"
#include "uapid/proto/json.h"
#include "uapid/io/progress.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

static const char api_usage[] =
	"usage: uapid api-diff [--json] [--arch ARCH|all] [--abi ABI] [--quiet] [--verdict V[,V]]\n"
	"                      [--header GLOB] [--symbol GLOB] [--summary] [--accept FILE]\n"
	"                      [--html FILE] OLD NEW\n"
	"  OLD, NEW: an installed-headers directory (INSTALL_HDR_PATH or its "
	"include/),\n"
	"            a kernel tree, or REPO:REV\n"
	"  --abi:    the target whose sizes and conditions decide (default: ARCH's,\n"
	"            x86 -> x86_64); --abi none compares the text only\n" TRIAGE_USAGE;

struct report {
	const struct triage_opts *t;
	json_t *j;
	int status;
};

/* the report holds its own text (api-triage.c): the models are not needed for it */
static void
print_report(void *ctx)
{
	struct report *r = ctx;

	r->status = triage_print(r->t, r->j);
}

int
cmd_api_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"arch", required_argument, NULL, 'a'},
		{"abi", required_argument, NULL, 'b'},
		{"quiet", no_argument, NULL, 'q'},
		{"as", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		TRIAGE_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct ud_progress po, pn;
	struct ud_progress *progress[2] = {&po, &pn};
	struct ud_api_version o, n;
	struct ud_api_diff d;
	struct api_opts ao = {false, NULL, NULL};
	const char *failed;
	const struct ud_abi *abi = NULL;
	struct triage_opts to;
	bool quiet = false;
	int opt, status, rc;

	memset(&to, 0, sizeof(to));
	while ((opt = getopt_long(argc, argv, "ja:b:qh", longopts, NULL)) != -1) {
		if (api_opts_take(&ao, opt, optarg) || triage_opts_take(&to, opt, optarg))
			continue;
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		case 'A':
			if (cmd_input_force(optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(api_usage, stdout);
			triage_opts_free(&to);
			return EXIT_OK;
		default:
			fputs(api_usage, stderr);
			triage_opts_free(&to);
			return EXIT_USAGE;
		}
	}
	to.json = ao.json;
	if (argc - optind != 2 || to.bad) {
		fputs(api_usage, stderr);
		triage_opts_free(&to);
		return EXIT_USAGE;
	}
	if (ao.arch != NULL && strcmp(ao.arch, "all") == 0) {
		if (ao.abi != NULL || to.verdicts != 0 || to.headers.n > 0 || to.symbols.n > 0 ||
		    to.summary || to.accept_file != NULL || to.html != NULL) {
			report_error("--arch all reads each architecture at its ABIs and reports "
				     "them all: no --abi, and no triage options with it yet");
			triage_opts_free(&to);
			return EXIT_USAGE;
		}
		triage_opts_free(&to);
		return api_diff_all(argv[optind], argv[optind + 1], ao.json);
	}
	if (api_opts_target(&ao, true, &abi) < 0 || triage_prepare(&to) < 0) {
		triage_opts_free(&to);
		return EXIT_USAGE;
	}
	memset(&n, 0, sizeof(n));
	if (ao.json)
		report_keep();
	/* two trees or revisions are installed in memory first: that takes a moment */
	ud_progress_start(&po, "api model of OLD", "headers", quiet || ao.json);
	ud_progress_start(&pn, "api model of NEW", "headers", quiet || ao.json);
	rc = api_side_load_pair(&o, argv[optind], &n, argv[optind + 1], ao.arch, progress, NULL,
				&failed);
	ud_progress_end(&po);
	ud_progress_end(&pn);
	if (rc < 0) {
		report_json_failure(failed);
		ud_api_version_free(&o);
		ud_api_version_free(&n);
		triage_opts_free(&to);
		return EXIT_USAGE;
	}
	if (abi != NULL)
		ud_api_versions_resolve(&o, &n, abi, api_thread_start);
	memset(&d, 0, sizeof(d));
	ud_api_versions_diff(&o, &n, &d);
	{
		struct report r = {&to, triage_make(&to, &o, &n, &d), EXIT_OK};

		ud_api_versions_exit(&o, &n, print_report, &r);
		status = r.status;
		json_decref(r.j);
	}
	ud_api_diff_free(&d);
	triage_opts_free(&to);
	return status;
}
