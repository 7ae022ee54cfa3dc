// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set-up shared by the commands that work on a tree's installed headers.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd.h"

const char *
cmd_default_arch(void)
{
	static struct utsname u;

	if (uname(&u) < 0)
		return "x86";
	if (strcmp(u.machine, "aarch64") == 0)
		return "arm64";
	if (strncmp(u.machine, "riscv", 5) == 0)
		return "riscv";
	if (strcmp(u.machine, "x86_64") == 0 || u.machine[0] == 'i')
		return "x86";
	return u.machine;
}

int
cmd_open_plan(const char *tree_arg, const char *arch, struct cmd_plan *p)
{
	char *cause = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	if (ud_tree_open(&p->tree, tree_arg, &cause) < 0 ||
	    ud_source_open_dir(&p->src, p->tree.root, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		cmd_close_plan(p);
		return -1;
	}
	rc = ud_headers_plan(&p->src, NULL, arch != NULL ? arch : cmd_default_arch(), &p->plan,
			     &cause);
	report_diags(stderr, p->tree.root, &p->plan.problems);
	if (rc < 0) {
		report_error("%s", cause);
		if (rc == -ENOTSUP &&
		    ud_source_type(&p->src, "scripts/headers_install.sh") == UD_FT_NONE &&
		    ud_source_type(&p->src, "scripts/headers_install.pl") == UD_FT_NONE)
			report_hint(
				"TREE must be a whole kernel source tree (its Makefile, scripts/, "
				"include/ and arch/): uapid installs as the tree's own scripts "
				"say");
		free(cause);
		cmd_close_plan(p);
		return -1;
	}
	return 0;
}

void
cmd_close_plan(struct cmd_plan *p)
{
	ud_headers_plan_free(&p->plan);
	ud_source_close(&p->src);
	ud_tree_close(&p->tree);
}

int
cmd_parse_count(const char *opt, const char *arg, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 || v < min || v > max) {
		report_error("%s: '%s' is not a number from %u to %u", opt, arg, min, max);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}
