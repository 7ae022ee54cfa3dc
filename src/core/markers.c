// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Out-of-tree coaching markers (see markers.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/core/markers.h"
#include "uapid/core/text.h"
#include "uapid/util/xmalloc.h"

static const char *const action_names[] = {
	[UD_MARK_RETAIN] = "retain", [UD_MARK_KERNEL] = "kernel",
	[UD_MARK_UAPI] = "uapi",     [UD_MARK_INCLUDE_HERE] = "include-here",
	[UD_MARK_SKIP] = "skip",     [UD_MARK_SPLIT_COMPOUND] = "split-compound",
};
static_assert(ARRAY_SIZE(action_names) == UD_MARK__COUNT,
	      "action_names must name every enum ud_marker_action member");

const char *
ud_marker_action_name(enum ud_marker_action a)
{
	assert(a < UD_MARK__COUNT);
	return action_names[a];
}

char *
ud_selector_normalize(const char *text)
{
	const char *p = text;
	size_t n;
	char *out;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		p++;
	n = strlen(p);
	out = ud_xmalloc(n + 2);
	out[0] = '#';
	ud_squeeze(out + 1, p, n);
	return out;
}

static int
parse_action(const char *s, size_t n, enum ud_marker_action *out)
{
	size_t i;

	for (i = 0; i < UD_MARK__COUNT; i++)
		if (strlen(action_names[i]) == n && memcmp(action_names[i], s, n) == 0) {
			*out = (enum ud_marker_action)i;
			return 0;
		}
	return -1;
}

int
ud_selector_check(const char *text, const char **why)
{
	static const char *const directives[] = {
		"if",	 "ifdef",   "ifndef", "elif",	 "else",   "endif", "define",
		"undef", "include", "error",  "warning", "pragma", "line",
	};
	const char *p = text, *w;
	size_t n, i;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	for (w = p; (*p >= 'a' && *p <= 'z'); p++)
		;
	n = (size_t)(p - w);
	if (n == 0) {
		*why = "the selector names no directive (want the directive's text, as "
		       "'#ifdef __KERNEL__')";
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(directives); i++)
		if (strlen(directives[i]) == n && memcmp(directives[i], w, n) == 0 &&
		    (*p == '\0' || *p == ' ' || *p == '\t' || *p == '(' || *p == '!' || *p == '<' ||
		     *p == '"'))
			return 0;
	*why = "the selector's first word is no preprocessor directive (want the directive's "
	       "text, as '#ifdef __KERNEL__')";
	return -EINVAL;
}

int
ud_marker_action_parse(const char *name, enum ud_marker_action *out)
{
	return parse_action(name, strlen(name), out) < 0 ? -EINVAL : 0;
}

void
ud_markers_add(struct ud_markers *set, const char *path, enum ud_marker_action action,
	       const char *selector, unsigned occurrence, const char *why)
{
	struct ud_marker *m;

	set->v = ud_xgrow(set->v, &set->alloc, set->n + 1, sizeof(*set->v));
	m = &set->v[set->n++];
	memset(m, 0, sizeof(*m));
	m->path = ud_xstrdup(path);
	m->action = action;
	m->selector = selector != NULL ? ud_selector_normalize(selector) : NULL;
	m->occurrence = occurrence ? occurrence : 1;
	m->why = why != NULL ? ud_xstrdup(why) : NULL;
}

/* Parses one line [p, e); returns 0, 1 for a blank/comment line, -1 on error. */
static int
parse_line(struct ud_markers *set, const char *p, const char *e, unsigned lineno,
	   struct ud_diags *diags)
{
	const char *path, *act, *why = NULL, *bad;
	size_t npath, nact;
	enum ud_marker_action action;
	char *sel = NULL, *pathz, *whyz = NULL;
	unsigned occ = 1;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (p == e || *p == '#')
		return 1;
	path = p;
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	npath = (size_t)(p - path);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	act = p;
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	nact = (size_t)(p - act);
	if (nact == 0) {
		ud_diags_add(diags, lineno, UD_SEV_ERROR,
			     "marker has no action (want PATH ACTION [SELECTOR] [# why])");
		return -1;
	}
	if (parse_action(act, nact, &action) < 0) {
		ud_diags_add(
			diags, lineno, UD_SEV_ERROR,
			"unknown marker action '%.*s' (want retain, kernel, uapi, include-here, skip or split-compound)",
			(int)nact, act);
		return -1;
	}
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '\'') {
		const char *s = ++p;

		while (p < e && *p != '\'')
			p++;
		if (p == e) {
			ud_diags_add(diags, lineno, UD_SEV_ERROR, "unterminated selector quote");
			return -1;
		}
		sel = ud_xstrndup(s, (size_t)(p - s));
		p++;
		if (ud_selector_check(sel, &bad) < 0) {
			ud_diags_add(diags, lineno, UD_SEV_ERROR, "'%s': %s", sel, bad);
			free(sel);
			return -1;
		}
		if (p < e && *p == '#' && p + 1 < e && p[1] >= '0' && p[1] <= '9') {
			char *end;
			unsigned long n = strtoul(p + 1, &end, 10);

			if (n == 0 || n > 1000000) {
				ud_diags_add(diags, lineno, UD_SEV_ERROR,
					     "selector occurrence must be 1 or more");
				free(sel);
				return -1;
			}
			occ = (unsigned)n;
			p = end;
		}
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
	}
	if (p < e && *p == '#') {
		why = p + 1;
		while (why < e && (*why == ' ' || *why == '\t'))
			why++;
		p = e;
	}
	if (p != e) {
		ud_diags_add(
			diags, lineno, UD_SEV_ERROR,
			"unexpected text '%.*s' after the marker (quote the selector: '#ifdef X'#2)",
			(int)(e - p), p);
		free(sel);
		return -1;
	}
	if (sel == NULL && action != UD_MARK_SKIP) {
		ud_diags_add(diags, lineno, UD_SEV_ERROR,
			     "marker action '%s' needs a selector naming a directive",
			     action_names[action]);
		return -1;
	}
	pathz = ud_xstrndup(path, npath);
	if (why != NULL)
		whyz = ud_xstrndup(why, (size_t)(e - why));
	ud_markers_add(set, pathz, action, sel, occ, whyz);
	set->v[set->n - 1].line = lineno;
	free(pathz);
	free(whyz);
	free(sel);
	return 0;
}

int
ud_markers_parse(struct ud_markers *set, const char *buf, size_t len, struct ud_diags *diags)
{
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;
	int rc = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (e == NULL)
			e = end;
		lineno++;
		if (parse_line(set, p, e, lineno, diags) < 0)
			rc = -EINVAL;
		p = e < end ? e + 1 : end;
	}
	return rc;
}

size_t
ud_markers_for(const struct ud_markers *set, const char *path, const struct ud_marker ***out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i].path, path) == 0)
			n++;
	if (n == 0)
		return 0;
	*out = ud_xcalloc(n, sizeof(**out));
	for (i = 0, n = 0; i < set->n; i++)
		if (strcmp(set->v[i].path, path) == 0)
			(*out)[n++] = &set->v[i];
	return n;
}

void
ud_markers_free(struct ud_markers *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n; i++) {
		free(set->v[i].path);
		free(set->v[i].selector);
		free(set->v[i].why);
	}
	free(set->v);
	set->v = NULL;
	set->n = set->alloc = 0;
}
