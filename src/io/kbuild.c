/*
 * Kbuild export lists (see kbuild.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/kbuild.h"
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
	bool space = false;

	for (i = kl->start; i < kl->end; i++) {
		char c = buf[i];

		if (c == '#')
			break;
		if (c == '\\' && i + 1 < kl->end && (buf[i + 1] == '\n' || buf[i + 1] == '\r'))
			continue;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = o > 0;
			continue;
		}
		if (space)
			s[o++] = ' ';
		space = false;
		s[o++] = c;
	}
	s[o] = '\0';
	return s;
}

/* If text is an export assignment, returns a pointer to its value list. */
static const char *
export_values(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(export_vars) / sizeof(export_vars[0]); i++) {
		size_t n = strlen(export_vars[i]);
		const char *p = text + n;

		if (strncmp(text, export_vars[i], n) != 0)
			continue;
		if (*p == ' ')
			p++;
		if (strncmp(p, "+=", 2) == 0 || strncmp(p, ":=", 2) == 0)
			p += 2;
		else if (*p == '=')
			p++;
		else
			continue;
		if (*p == ' ')
			p++;
		return p;
	}
	return NULL;
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
			const char *p = vals;

			while (*p != '\0') {
				const char *e = strchr(p, ' ');
				size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

				if (n > 0 && p[n - 1] != '/' && memchr(p, '$', n) == NULL) {
					struct ud_kbuild_entry *en;

					kb->v = ud_xgrow(kb->v, &kb->alloc, kb->n + 1,
							 sizeof(*kb->v));
					en = &kb->v[kb->n++];
					en->name = ud_xstrndup(p, n);
					en->line = kl.first;
					en->cond_line = nconds > 0 ? conds[nconds - 1] : 0;
					en->included = false;
				}
				p += n;
				if (*p == ' ')
					p++;
			}
		}
		free(t);
	}
	free(conds);
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

/* Removes the word 'name' from the physical lines of kl into out; true if found. */
static bool
remove_word(const char *buf, const struct kline *kl, const char *name, struct ud_buf *out,
	    bool *line_left_empty)
{
	size_t n = strlen(name), i = kl->start;
	bool found = false;
	size_t mark = out->len;

	while (i < kl->end) {
		bool at_word = (i == kl->start || buf[i - 1] == ' ' || buf[i - 1] == '\t' ||
				buf[i - 1] == '=') &&
			       i + n <= kl->end && memcmp(buf + i, name, n) == 0 &&
			       (i + n == kl->end || strchr(" \t\r\n\\", buf[i + n]) != NULL);

		if (!found && at_word) {
			/* drop the preceding blanks too */
			while (out->len > mark &&
			       (out->data[out->len - 1] == ' ' || out->data[out->len - 1] == '\t'))
				out->len--;
			i += n;
			found = true;
			continue;
		}
		ud_buf_addch(out, buf[i]);
		i++;
	}
	if (found) {
		char *t;
		struct kline fake = {0, 0, 0, out->len - mark};
		const char *vals;

		t = kline_text(out->data + mark, &fake);
		vals = export_values(t);
		*line_left_empty = vals != NULL && *vals == '\0';
		free(t);
	}
	return found;
}

int
ud_kbuild_remove(const char *buf, size_t len, const char *name, struct ud_buf *out,
		 struct ud_buf *moved)
{
	struct kline *lines = NULL;
	size_t nlines = 0, alines = 0, pos = 0, i, hit = (size_t)-1, cond = (size_t)-1;
	size_t *stack = NULL, nstack = 0, astack = 0, cond_end = (size_t)-1;
	unsigned phys = 1;
	int found = 0;

	while (pos < len) {
		lines = ud_xgrow(lines, &alines, nlines + 1, sizeof(*lines));
		pos = next_kline(buf, len, pos, &phys, &lines[nlines]);
		nlines++;
	}
	/* find the entry and its innermost stanza */
	for (i = 0; i < nlines && hit == (size_t)-1; i++) {
		char *t = kline_text(buf, &lines[i]);
		const char *vals;

		if (starts_word(t, "ifeq") || starts_word(t, "ifneq") || starts_word(t, "ifdef") ||
		    starts_word(t, "ifndef")) {
			stack = ud_xgrow(stack, &astack, nstack + 1, sizeof(*stack));
			stack[nstack++] = i;
		} else if (starts_word(t, "endif")) {
			if (nstack > 0)
				nstack--;
		} else if ((vals = export_values(t)) != NULL) {
			const char *p = strstr(vals, name);
			size_t n = strlen(name);

			while (p != NULL) {
				if ((p == vals || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
					hit = i;
					cond = nstack > 0 ? stack[nstack - 1] : (size_t)-1;
					break;
				}
				p = strstr(p + 1, name);
			}
		}
		free(t);
	}
	if (hit != (size_t)-1 && cond != (size_t)-1) {
		unsigned level = 0;

		for (i = cond; i < nlines; i++) {
			char *t = kline_text(buf, &lines[i]);

			if (starts_word(t, "ifeq") || starts_word(t, "ifneq") ||
			    starts_word(t, "ifdef") || starts_word(t, "ifndef"))
				level++;
			else if (starts_word(t, "endif") && --level == 0)
				cond_end = i;
			free(t);
			if (cond_end != (size_t)-1)
				break;
		}
		if (cond_end == (size_t)-1)
			cond = (size_t)-1; /* unterminated: treat as unconditional */
	}

	ud_buf_reset(out);
	if (hit == (size_t)-1) {
		ud_buf_add(out, buf, len);
		goto done;
	}
	found = 1;
	if (cond == (size_t)-1) {
		ud_buf_addf(moved, "header-y += %s\n", name);
	} else {
		/* the stanza's opening lines, this entry, and its endif */
		for (i = cond; i < hit; i++) {
			char *t = kline_text(buf, &lines[i]);

			if (export_values(t) == NULL && t[0] != '\0')
				ud_buf_add(moved, buf + lines[i].start,
					   lines[i].end - lines[i].start);
			free(t);
		}
		ud_buf_addf(moved, "header-y += %s\n", name);
		ud_buf_add(moved, buf + lines[cond_end].start,
			   lines[cond_end].end - lines[cond_end].start);
		if (moved->len > 0 && moved->data[moved->len - 1] != '\n')
			ud_buf_addch(moved, '\n');
	}
	for (i = 0; i < nlines; i++) {
		bool empty = false;

		if (i == hit) {
			size_t mark = out->len;

			remove_word(buf, &lines[i], name, out, &empty);
			if (empty)
				out->len = mark; /* nothing else on that line: drop it */
			continue;
		}
		ud_buf_add(out, buf + lines[i].start, lines[i].end - lines[i].start);
	}
	/* drop the stanza too when no export is left in it */
	if (cond != (size_t)-1) {
		struct ud_buf again = UD_BUF_INIT;
		struct ud_kbuild kb = UD_KBUILD_INIT;
		size_t before = 0;
		unsigned first = lines[cond].first, last = lines[cond_end].last;
		bool other = false;

		ud_kbuild_parse(out->data, out->len, &kb);
		for (i = 0; i < kb.n; i++)
			if (kb.v[i].cond_line == first)
				other = true;
		ud_kbuild_free(&kb);
		if (!other) {
			/* line numbers shifted only inside the stanza, never before it */
			size_t p = 0;
			unsigned ph = 1;

			while (p < out->len && ph < first) {
				if (out->data[p] == '\n')
					ph++;
				p++;
			}
			before = p;
			ud_buf_add(&again, out->data, before);
			/* skip the stanza: it now has (last - first + 1) - removed lines */
			{
				unsigned level = 0;
				size_t q = before;
				unsigned pph = phys;

				(void)pph;
				while (q < out->len) {
					struct kline kl;
					unsigned dummy = 0;
					char *t;

					q = next_kline(out->data, out->len, q, &dummy, &kl);
					t = kline_text(out->data, &kl);
					if (starts_word(t, "ifeq") || starts_word(t, "ifneq") ||
					    starts_word(t, "ifdef") || starts_word(t, "ifndef"))
						level++;
					else if (starts_word(t, "endif"))
						level--;
					free(t);
					if (level == 0)
						break;
				}
				(void)last;
				/* and one blank line before the stanza, if any */
				if (again.len >= 2 && again.data[again.len - 1] == '\n' &&
				    again.data[again.len - 2] == '\n')
					again.len--;
				ud_buf_add(&again, out->data + q, out->len - q);
			}
			ud_buf_reset(out);
			ud_buf_add(out, again.data, again.len);
		}
		ud_buf_free(&again);
	}
done:
	free(lines);
	free(stack);
	return found;
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
