// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kbuild export lists (see kbuild.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/kbuild.h"
#include "uapid/text.h"
#include "uapid/xmalloc.h"

/* A logical Kbuild line: physical lines [first, last], bytes [start, end). */
struct kline {
	unsigned first, last;
	size_t start, end;
};

static const char *const export_vars[] = {"header-y", "opt-header", "asm-headers"};

static size_t
next_kline(const char *buf, size_t len, size_t pos, unsigned *phys, struct kline *kl)
{
	size_t p = pos;

	kl->first = *phys;
	kl->start = pos;
	while (p < len) {
		const char *nl = memchr(buf + p, '\n', len - p);
		size_t e = nl != NULL ? (size_t)(nl - buf) : len;
		size_t t = e;

		while (t > p && (buf[t - 1] == ' ' || buf[t - 1] == '\t' || buf[t - 1] == '\r'))
			t--;
		p = nl != NULL ? e + 1 : len;
		(*phys)++;
		/* a comment ends the logical line; otherwise a backslash continues it */
		if (t > kl->start && buf[t - 1] == '\\' &&
		    memchr(buf + kl->start, '#', t - kl->start) == NULL)
			continue;
		break;
	}
	kl->last = *phys - 1;
	kl->end = p;
	return p;
}

/* The logical line without comment and continuations, white space squeezed. */
static char *
kline_text(const char *buf, const struct kline *kl)
{
	char *s = ud_xmalloc(kl->end - kl->start + 1);
	size_t i, o = 0;

	for (i = kl->start; i < kl->end && buf[i] != '#'; i++)
		if (buf[i] != '\\' || i + 1 >= kl->end ||
		    (buf[i + 1] != '\n' && buf[i + 1] != '\r'))
			s[o++] = buf[i]; /* continuations go; the newline after is white space */
	ud_squeeze(s, s, o);
	return s;
}

/* If text assigns to var (+=, := or =), returns a pointer to its value list. */
static const char *
var_values(const char *text, const char *var)
{
	size_t n = strlen(var);
	const char *p = text + n;

	if (strncmp(text, var, n) != 0)
		return NULL;
	if (*p == ' ')
		p++;
	if (strncmp(p, "+=", 2) == 0 || strncmp(p, ":=", 2) == 0)
		p += 2;
	else if (*p == '=')
		p++;
	else
		return NULL;
	if (*p == ' ')
		p++;
	return p;
}

/* If text is an export assignment, returns a pointer to its value list. */
static const char *
export_values(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(export_vars) / sizeof(export_vars[0]); i++) {
		const char *v = var_values(text, export_vars[i]);

		if (v != NULL)
			return v;
	}
	return NULL;
}

/* Adds the words of a value list as entries (directories and make expressions skipped). */
static void
add_words(struct ud_kbuild *kb, const char *vals, unsigned line, unsigned cond_line)
{
	const char *p = vals;

	while (*p != '\0') {
		const char *e = strchr(p, ' ');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (n > 0 && p[n - 1] != '/' && memchr(p, '$', n) == NULL) {
			struct ud_kbuild_entry *en;

			kb->v = ud_xgrow(kb->v, &kb->alloc, kb->n + 1, sizeof(*kb->v));
			en = &kb->v[kb->n++];
			en->name = ud_xstrndup(p, n);
			en->line = line;
			en->cond_line = cond_line;
			en->included = false;
		}
		p += n;
		if (*p == ' ')
			p++;
	}
}

static bool
starts_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 && (s[n] == ' ' || s[n] == '\0' || s[n] == '(');
}

void
ud_kbuild_parse(const char *buf, size_t len, struct ud_kbuild *kb)
{
	unsigned phys = 1, *conds = NULL;
	size_t pos = 0, nconds = 0, aconds = 0;

	while (pos < len) {
		struct kline kl;
		char *t;
		const char *vals;

		pos = next_kline(buf, len, pos, &phys, &kl);
		t = kline_text(buf, &kl);
		if (starts_word(t, "ifeq") || starts_word(t, "ifneq") || starts_word(t, "ifdef") ||
		    starts_word(t, "ifndef")) {
			conds = ud_xgrow(conds, &aconds, nconds + 1, sizeof(*conds));
			conds[nconds++] = kl.first;
		} else if (starts_word(t, "endif")) {
			if (nconds > 0)
				nconds--;
		} else if (strncmp(t, "include ", 8) == 0) {
			kb->includes = ud_xgrow(kb->includes, &kb->aincludes, kb->nincludes + 1,
						sizeof(char *));
			kb->includes[kb->nincludes++] = ud_xstrdup(t + 8);
		} else if ((vals = export_values(t)) != NULL) {
			add_words(kb, vals, kl.first, nconds > 0 ? conds[nconds - 1] : 0);
		}
		free(t);
	}
	free(conds);
}

void
ud_kbuild_var(const char *buf, size_t len, const char *var, ud_kbuild_cond cond, void *ctx,
	      struct ud_kbuild *kb)
{
	bool *live = NULL; /* per open section: does its current branch count */
	size_t depth = 0, alive = 0, pos = 0, i;
	unsigned phys = 1;

	while (pos < len) {
		struct kline kl;
		char *t;
		const char *vals;
		bool on = true;

		pos = next_kline(buf, len, pos, &phys, &kl);
		t = kline_text(buf, &kl);
		for (i = 0; i < depth; i++)
			on = on && live[i];
		if (starts_word(t, "ifeq") || starts_word(t, "ifneq") || starts_word(t, "ifdef") ||
		    starts_word(t, "ifndef")) {
			live = ud_xgrow(live, &alive, depth + 1, sizeof(*live));
			live[depth++] = cond == NULL || cond(t, ctx);
		} else if (starts_word(t, "else") && depth > 0) {
			live[depth - 1] = !live[depth - 1];
		} else if (starts_word(t, "endif") && depth > 0) {
			depth--;
		} else if (on && (vals = var_values(t, var)) != NULL) {
			add_words(kb, vals, kl.first, 0);
		}
		free(t);
	}
	free(live);
}

void
ud_kbuild_free(struct ud_kbuild *kb)
{
	size_t i;

	if (kb == NULL)
		return;
	for (i = 0; i < kb->n; i++)
		free(kb->v[i].name);
	free(kb->v);
	for (i = 0; i < kb->nincludes; i++)
		free(kb->includes[i]);
	free(kb->includes);
	memset(kb, 0, sizeof(*kb));
}

long
ud_kbuild_find(const struct ud_kbuild *kb, const char *name)
{
	size_t i;

	for (i = 0; i < kb->n; i++)
		if (strcmp(kb->v[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* Is text an ifeq/ifneq/ifdef/ifndef line? */
static bool
opens_cond(const char *t)
{
	return starts_word(t, "ifeq") || starts_word(t, "ifneq") || starts_word(t, "ifdef") ||
	       starts_word(t, "ifndef");
}

/* Does the export list of text name 'name' as a whole word? */
static bool
lists(const char *text, const char *name)
{
	const char *vals = export_values(text), *p;
	size_t n = strlen(name);

	for (p = vals != NULL ? strstr(vals, name) : NULL; p != NULL; p = strstr(p + 1, name))
		if ((p == vals || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * Appends logical line kl without the word 'name' to out; returns false
 * when nothing but the assignment itself would be left (the line goes).
 */
static bool
add_without(const char *buf, const struct kline *kl, const char *name, struct ud_buf *out)
{
	size_t n = strlen(name), i = kl->start, mark = out->len;
	bool removed = false, keep;
	struct kline rest;
	char *t;

	while (i < kl->end) {
		bool word_start = i == kl->start || strchr(" \t=", buf[i - 1]) != NULL;

		if (!removed && word_start && i + n <= kl->end && memcmp(buf + i, name, n) == 0 &&
		    (i + n == kl->end || strchr(" \t\r\n\\", buf[i + n]) != NULL)) {
			while (out->len > mark &&
			       (out->data[out->len - 1] == ' ' || out->data[out->len - 1] == '\t'))
				ud_buf_setlen(out,
					      out->len - 1); /* the blanks before the word go too */
			i += n;
			removed = true;
			continue;
		}
		ud_buf_addch(out, buf[i++]);
	}
	rest.first = rest.last = 0;
	rest.start = 0;
	rest.end = out->len - mark;
	t = kline_text(out->data + mark, &rest);
	keep = export_values(t) != NULL && *export_values(t) != '\0';
	free(t);
	if (!keep)
		ud_buf_setlen(out, mark);
	return keep;
}

int
ud_kbuild_remove(const char *buf, size_t len, const char *name, struct ud_buf *out,
		 struct ud_buf *moved)
{
	struct kline *lines = NULL;
	char **texts = NULL;
	size_t nlines = 0, alines = 0, atexts = 0, pos = 0, i;
	size_t hit = (size_t)-1, open = (size_t)-1, close = (size_t)-1;
	size_t *stack = NULL, nstack = 0, astack = 0;
	unsigned phys = 1;
	bool other = false;

	while (pos < len) {
		lines = ud_xgrow(lines, &alines, nlines + 1, sizeof(*lines));
		texts = ud_xgrow(texts, &atexts, nlines + 1, sizeof(*texts));
		pos = next_kline(buf, len, pos, &phys, &lines[nlines]);
		texts[nlines] = kline_text(buf, &lines[nlines]);
		nlines++;
	}
	/* the entry, and the innermost stanza around it with its endif */
	for (i = 0; i < nlines; i++) {
		if (opens_cond(texts[i])) {
			stack = ud_xgrow(stack, &astack, nstack + 1, sizeof(*stack));
			stack[nstack++] = i;
		} else if (starts_word(texts[i], "endif") && nstack > 0) {
			nstack--;
			if (hit != (size_t)-1 && stack[nstack] == open)
				close = i; /* the stanza around the entry ends here */
		} else if (hit == (size_t)-1 && lists(texts[i], name)) {
			hit = i;
			open = nstack > 0 ? stack[nstack - 1] : (size_t)-1;
		}
		if (close != (size_t)-1)
			break;
	}
	if (open != (size_t)-1 && close == (size_t)-1)
		open = (size_t)-1; /* an unterminated stanza: treat the entry as plain */

	ud_buf_reset(out);
	if (hit == (size_t)-1) {
		ud_buf_add(out, buf, len);
	} else {
		/* what moves: the stanza's opening lines, this entry, its endif */
		if (open != (size_t)-1)
			for (i = open; i < hit; i++)
				if (export_values(texts[i]) == NULL && texts[i][0] != '\0')
					ud_buf_add(moved, buf + lines[i].start,
						   lines[i].end - lines[i].start);
		ud_buf_addf(moved, "header-y += %s\n", name);
		if (open != (size_t)-1) {
			ud_buf_add(moved, buf + lines[close].start,
				   lines[close].end - lines[close].start);
			if (moved->data[moved->len - 1] != '\n')
				ud_buf_addch(moved, '\n');
			/* does anything else stay exported in that stanza? */
			for (i = open + 1; i < close; i++)
				if (i != hit && export_values(texts[i]) != NULL &&
				    *export_values(texts[i]) != '\0')
					other = true;
		}
		for (i = 0; i < nlines; i++) {
			if (open != (size_t)-1 && !other && i >= open && i <= close) {
				/* the whole stanza goes, and one blank line before it */
				if (i == open && out->len >= 2 && out->data[out->len - 1] == '\n' &&
				    out->data[out->len - 2] == '\n')
					ud_buf_setlen(out, out->len - 1);
				continue;
			}
			if (i == hit)
				add_without(buf, &lines[i], name, out);
			else
				ud_buf_add(out, buf + lines[i].start,
					   lines[i].end - lines[i].start);
		}
	}
	for (i = 0; i < nlines; i++)
		free(texts[i]);
	free(texts);
	free(lines);
	free(stack);
	return hit != (size_t)-1;
}

void
ud_kbuild_append(struct ud_buf *kbuild, const char *moved)
{
	if (kbuild->len > 0 && kbuild->data[kbuild->len - 1] != '\n')
		ud_buf_addch(kbuild, '\n');
	if (strchr(moved, '\n') != strrchr(moved, '\n') && kbuild->len > 0)
		ud_buf_addch(kbuild, '\n'); /* a stanza: set it apart */
	ud_buf_addstr(kbuild, moved);
}
