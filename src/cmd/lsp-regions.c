// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a person reads a region of a header as, for the LSP bridge's
 * regions and hover (ctl.h).  The classification says what the split does
 * with each line: an `#ifdef __KERNEL__` that has an #else is "user-only"
 * because the split writes it into the uapi header as `#ifndef __KERNEL__`.
 * A reader of the source sees the line that opens kernel-only code, so
 * that is its label; the #else and #endif the split rewrites get none (the
 * hover says what becomes of them).
 */
#include <string.h>

#include "ctl.h"

static const char *
jstr(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "";
}

static bool
conditional(enum ud_dir d)
{
	return d == UD_DIR_IF || d == UD_DIR_IFDEF || d == UD_DIR_IFNDEF || d == UD_DIR_ELIF ||
	       d == UD_DIR_ELSE || d == UD_DIR_ENDIF;
}

const char *
lsp_region_label(const struct ud_lexed *lx, json_t *blocks, size_t i, bool *directive)
{
	json_t *b = json_array_get(blocks, i), *next = json_array_get(blocks, i + 1);
	const char *cls = jstr(b, "class");
	long long first = json_integer_value(json_object_get(b, "first")),
		  last = json_integer_value(json_object_get(b, "last"));
	enum ud_dir opens = UD_DIR_NONE;
	bool only_directives = true, any = false;
	size_t k;

	*directive = false;
	if (strcmp(cls, "kernel") == 0)
		return ""; /* dimmed: that says it */
	if (strcmp(cls, "retained") == 0)
		return "retained";
	if (strcmp(cls, "user-only") != 0)
		return "";
	for (k = 0; k < lx->nlines && only_directives; k++) {
		const struct ud_line *l = &lx->lines[k];

		if ((long long)l->last < first || (long long)l->first > last)
			continue;
		if (l->dir == UD_DIR_NONE && !(l->flags & UD_LINE_CODE))
			continue; /* blank, or a comment */
		only_directives = conditional(l->dir);
		any = true;
		opens = l->dir;
	}
	if (!any || !only_directives)
		return "userspace only";
	*directive = true;
	/* a directive line: what it opens, read from the lines that follow it */
	if (opens == UD_DIR_ENDIF || next == NULL)
		return "";
	if (strcmp(jstr(next, "class"), "kernel") == 0)
		return "kernel only";
	if (strcmp(jstr(next, "class"), "user-only") == 0)
		return "userspace only";
	return "";
}
