/*
 * Set-up shared by the commands that work on a tree's installed headers.
 */
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
cmd_open_plan(const char *tree_arg, const char *arch, struct ud_tree *tree,
	      struct ud_hdr_plan *plan)
{
	char *cause = NULL;

	if (ud_tree_open(tree, tree_arg, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		memset(plan, 0, sizeof(*plan));
		return -1;
	}
	if (ud_headers_plan(tree, arch != NULL ? arch : cmd_default_arch(), plan, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		ud_headers_plan_free(plan);
		ud_tree_close(tree);
		return -1;
	}
	return 0;
}
