// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid classify [--json] FILE...: the header model, shown.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "uapid/core/classify.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"

static const char classify_usage[] = "usage: uapid classify [--json] FILE...\n";

static void
print_text(const char *path, const struct ud_classified *c)
{
	struct ud_block *b;
	size_t n = ud_classified_blocks(c, &b), i;

	printf("%s\n", path);
	for (i = 0; i < n; i++)
		printf("%u-%u %s %s\n", b[i].first, b[i].last, ud_class_name(b[i].cls),
		       b[i].reason);
	free(b);
	fflush(stdout);
	report_diags(stderr, path, &c->diags);
}

static void
print_json(const char *path, const struct ud_classified *c)
{
	report_json_line(json_pack("{s:s, s:o, s:o}", "path", path, "blocks", ud_json_blocks(c),
				   "diagnostics", ud_json_diags(&c->diags)));
}

int
cmd_classify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ud_buf buf = UD_BUF_INIT;
	bool json = false;
	int opt, i, status = EXIT_OK;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(classify_usage, stdout);
			return EXIT_OK;
		default:
			fputs(classify_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(classify_usage, stderr);
		return EXIT_USAGE;
	}
	for (i = optind; i < argc; i++) {
		struct ud_classified c;
		char *cause = NULL;

		if (ud_read_file(argv[i], &buf, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			status = EXIT_USAGE;
			continue;
		}
		ud_classify(buf.data, buf.len, NULL, 0, &c);
		if (json)
			print_json(argv[i], &c);
		else
			print_text(argv[i], &c);
		if (!ud_classified_ok(&c) && status == EXIT_OK)
			status = EXIT_FINDINGS;
		ud_classified_free(&c);
	}
	ud_buf_free(&buf);
	return status;
}
