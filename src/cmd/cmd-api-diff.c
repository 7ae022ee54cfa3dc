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
 * does), 0 otherwise, 2 for bad usage or input.
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

#include "cmd.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/gittree.h"
#include "uapid/io/headers.h"
#include "uapid/proto/json.h"
#include "uapid/io/progress.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

static const char api_usage[] =
	"usage: uapid api-diff [--json] [--arch ARCH] [--abi ABI] [--quiet] OLD NEW\n"
	"  OLD, NEW: an installed-headers directory (INSTALL_HDR_PATH or its "
	"include/),\n"
	"            a kernel tree, or REPO:REV\n"
	"  --abi:    the target whose sizes and conditions decide (default: ARCH's,\n"
	"            x86 -> x86_64); --abi none compares the text only\n";

static void
print_text(const struct api_side *o, const struct api_side *n, const struct ud_api_diff *d)
{
	size_t i;

	printf("old: %s, %zu headers\nnew: %s, %zu headers\n", o->what, o->n, n->what, n->n);
	printf("headers: %u changed, %u added, %u removed; symbols: %u added, %u removed, %u "
	       "changed\n",
	       d->headers_changed, d->headers_added, d->headers_removed, d->symbols_added,
	       d->symbols_removed, d->symbols_changed);
	printf("verdicts: %u breaking, %u review, %u compatible\n", d->verdicts[UD_API_BREAKING],
	       d->verdicts[UD_API_REVIEW], d->verdicts[UD_API_COMPATIBLE]);
	for (i = 0; i < d->n; i++) {
		const struct ud_api_change *c = &d->v[i];
		unsigned line = c->new_line != 0 ? c->new_line : c->old_line;
		const char *kind = ud_api_kind_shown(ud_api_kind_name(c->kind), c->symbol);

		if (c->symbol[0] != '\0')
			printf("%s:%u: %s: %s%s%s: %s\n", c->header, line,
			       ud_api_verdict_name(c->verdict), kind, kind[0] ? " " : "", c->symbol,
			       c->reason);
		else
			printf("%s:%u: %s: %s\n", c->header, line, ud_api_verdict_name(c->verdict),
			       c->reason);
	}
}

static void
print_json(const struct api_side *o, const struct api_side *n, const struct ud_api_diff *d)
{
	json_t *j = ud_json_api_diff(d);
	char *s;

	/* what was compared, first */
	json_object_set_new(j, "old", json_string(o->what));
	json_object_set_new(j, "new", json_string(n->what));
	s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(j);
}

struct report {
	const struct api_side *o, *n;
	const struct ud_api_diff *d;
	bool json;
};

static void
print_report(void *ctx)
{
	const struct report *r = ctx;

	if (r->json)
		print_json(r->o, r->n, r->d);
	else
		print_text(r->o, r->n, r->d);
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
		{NULL, 0, NULL, 0},
	};
	struct ud_progress po, pn;
	struct ud_progress *progress[2] = {&po, &pn};
	struct api_side o, n;
	struct ud_api_diff d;
	struct api_opts ao = {false, NULL, NULL};
	const char *failed;
	const struct ud_abi *abi = NULL;
	bool quiet = false;
	int opt, status, rc;

	while ((opt = getopt_long(argc, argv, "ja:b:qh", longopts, NULL)) != -1) {
		if (api_opts_take(&ao, opt, optarg))
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
			return EXIT_OK;
		default:
			fputs(api_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fputs(api_usage, stderr);
		return EXIT_USAGE;
	}
	if (api_opts_target(&ao, true, &abi) < 0)
		return EXIT_USAGE;
	memset(&n, 0, sizeof(n));
	if (ao.json)
		report_keep();
	/* two trees or revisions are installed in memory first: that takes a moment */
	ud_progress_start(&po, "api model of OLD", "headers", quiet || ao.json);
	ud_progress_start(&pn, "api model of NEW", "headers", quiet || ao.json);
	rc = api_side_load_pair(&o, argv[optind], &n, argv[optind + 1], ao.arch, progress, &failed);
	ud_progress_end(&po);
	ud_progress_end(&pn);
	if (rc < 0) {
		report_json_failure(failed);
		api_side_free(&o);
		api_side_free(&n);
		return EXIT_USAGE;
	}
	if (abi != NULL)
		api_side_resolve_pair(&o, &n, abi);
	memset(&d, 0, sizeof(d));
	api_side_diff_pair(&o, &n, &d);
	{
		struct report r = {&o, &n, &d, ao.json};

		/* the report holds its own text: the models are not needed for it */
		api_side_exit_pair(&o, &n, print_report, &r);
	}
	status = d.verdicts[UD_API_BREAKING] > 0 ? EXIT_FINDINGS : EXIT_OK;
	ud_api_diff_free(&d);
	return status;
}
