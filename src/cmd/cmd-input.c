// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a command was given (issue 39): every command that takes a TREE or
 * a DIR asks ud_treekind_detect first, says on its first line what it
 * found, and refuses, with a hint, what it cannot read, instead of giving
 * a confident answer about the wrong thing.
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/xmalloc.h"
#include "uapid/io/fsutil.h"

#include "cmd.h"

/* api-diff's and api-layout's --as: UD_TREEKIND_NONE when not forced */
static enum ud_treekind forced = UD_TREEKIND_NONE;

int
cmd_input_force(const char *as)
{
	if (strcmp(as, "tree") == 0)
		forced = UD_TREEKIND_SPLIT;
	else if (strcmp(as, "installed") == 0)
		forced = UD_TREEKIND_INSTALLED;
	else {
		report_error("--as %s: 'tree' or 'installed'", as);
		return -1;
	}
	return 0;
}

/* What a command that reads kinds accept needs, for the hint. */
static const char *
wanted(unsigned accept)
{
	if ((accept & CMD_INSTALLED) && (accept & CMD_TREES))
		return "a kernel source tree (its Makefile, include/ and arch/) or a directory "
		       "of installed headers (INSTALL_HDR_PATH, or its include/)";
	if (accept & CMD_INSTALLED)
		return "a directory of installed headers (INSTALL_HDR_PATH, or its include/)";
	return "a kernel source tree (its Makefile, include/ and arch/)";
}

int
cmd_input(const char *path, unsigned accept, struct ud_treeinfo *ti)
{
	ud_treekind_detect(path, ti);
	if (forced == UD_TREEKIND_INSTALLED && ti->kind != UD_TREEKIND_NONE) {
		char *inc = ud_xasprintf("%s/include", path);

		free(ti->root);
		free(ti->version);
		ti->version = NULL;
		ti->generation = NULL;
		ti->root = ud_is_dir(inc) ? inc : ud_xstrdup(path);
		if (ti->root != inc)
			free(inc);
		ti->kind = UD_TREEKIND_INSTALLED;
	} else if (forced == UD_TREEKIND_SPLIT && ti->kind == UD_TREEKIND_INSTALLED) {
		char *uapi = ud_xasprintf("%s/include/uapi", path);

		ti->kind = ud_is_dir(uapi) ? UD_TREEKIND_SPLIT : UD_TREEKIND_PRESPLIT;
		free(ti->root);
		ti->root = ud_xstrdup(path);
		free(uapi);
	}
	if (accept & (1u << ti->kind))
		return 0;
	if (ti->kind == UD_TREEKIND_NONE)
		report_error("%s", ti->hint);
	else
		report_error("%s: %s, not what this command reads", path,
			     ud_treekind_name(ti->kind));
	report_hint("give %s", wanted(accept));
	return -1;
}

char *
cmd_input_what(const char *path, const struct ud_treeinfo *ti, const char *arch)
{
	char *d = ud_treeinfo_describe(ti, arch), *r;

	r = ud_xasprintf("%s (%s)", ti->kind == UD_TREEKIND_INSTALLED ? ti->root : path, d);
	free(d);
	return r;
}

void
cmd_input_print(FILE *f, const char *label, const char *path, const struct ud_treeinfo *ti,
		const char *arch)
{
	char *w = cmd_input_what(path, ti, arch);

	fprintf(f, "%s: %s\n", label, w);
	free(w);
}

json_t *
cmd_input_json(const char *path, const struct ud_treeinfo *ti, const char *arch)
{
	static const char *const kinds[] = {"none", "split", "presplit", "installed"};
	json_t *o = json_pack("{s:s, s:s, s:s}", "path", path, "kind", kinds[ti->kind],
			      "description", ud_treekind_name(ti->kind));

	if (ti->root != NULL)
		json_object_set_new(o, "root", json_string(ti->root));
	if (ti->version != NULL)
		json_object_set_new(o, "version", json_string(ti->version));
	if (ti->generation != NULL)
		json_object_set_new(o, "generation", json_string(ti->generation));
	if (arch != NULL && ud_treekind_is_tree(ti->kind))
		json_object_set_new(o, "arch", json_string(arch));
	return o;
}
