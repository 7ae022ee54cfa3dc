// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kbuild export lists (see kbuild.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/io/kbuild.h"
#include "uapid/util/map.h"
#include "uapid/core/text.h"
#include "uapid/util/xmalloc.h"

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

	for (i = 0; i < ARRAY_SIZE(export_vars); i++) {
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

#define NONE ((size_t)-1)

/* The parsed lines of a Kbuild text, and the stanzas they form. */
struct klines {
	struct kline *v;
	char **text;   /* per line: without comments and continuations, squeezed */
	size_t *inner; /* per line: its innermost open stanza's first line, or NONE */
	size_t *close; /* per stanza opening line: its endif, or NONE (unterminated) */
	size_t n, alloc, atext;
};

static void
klines_read(const char *buf, size_t len, struct klines *kls)
{
	size_t pos = 0, i, *stack = NULL, nstack = 0, astack = 0;
	unsigned phys = 1;

	memset(kls, 0, sizeof(*kls));
	while (pos < len) {
		kls->v = ud_xgrow(kls->v, &kls->alloc, kls->n + 1, sizeof(*kls->v));
		kls->text = ud_xgrow(kls->text, &kls->atext, kls->n + 1, sizeof(*kls->text));
		pos = next_kline(buf, len, pos, &phys, &kls->v[kls->n]);
		kls->text[kls->n] = kline_text(buf, &kls->v[kls->n]);
		kls->n++;
	}
	kls->inner = ud_xcalloc(kls->n + 1, sizeof(*kls->inner));
	kls->close = ud_xcalloc(kls->n + 1, sizeof(*kls->close));
	for (i = 0; i < kls->n; i++) {
		kls->inner[i] = nstack > 0 ? stack[nstack - 1] : NONE;
		kls->close[i] = NONE;
		if (opens_cond(kls->text[i])) {
			stack = ud_xgrow(stack, &astack, nstack + 1, sizeof(*stack));
			stack[nstack++] = i;
		} else if (starts_word(kls->text[i], "endif") && nstack > 0) {
			kls->close[stack[--nstack]] = i;
		}
	}
	free(stack);
}

static void
klines_free(struct klines *kls)
{
	size_t i;

	for (i = 0; i < kls->n; i++)
		free(kls->text[i]);
	free(kls->text);
	free(kls->v);
	free(kls->inner);
	free(kls->close);
}

/* Does the line assign a non-empty export list? */
static bool
exports_something(const char *text)
{
	const char *vals = export_values(text);

	return vals != NULL && *vals != '\0';
}

/*
 * The names of export line i that go: each name whose first listing this
 * is (hit[k] still NONE) is claimed for it.  Returns whether one was.
 */
static bool
claim_names(const char *text, size_t i, const struct ud_map *index, size_t *hit,
	    struct ud_buf *word)
{
	const char *p = export_values(text);
	bool claimed = false;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ' ');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		size_t *k;

		ud_buf_reset(word);
		ud_buf_add(word, p, n);
		k = ud_map_get(index, ud_buf_str(word));
		if (k != NULL && hit[*k] == NONE) {
			hit[*k] = i;
			claimed = true;
		}
		p += n;
		if (*p == ' ')
			p++;
	}
	return claimed;
}

/*
 * Appends logical line kl to out without the first occurrence of each
 * name claimed by line i (hit[k] == i); returns false when nothing but the
 * assignment itself would be left (the line goes).  With a word, the
 * blanks before it go.
 */
static bool
add_without(const char *buf, const struct kline *kl, size_t i, const struct ud_map *index,
	    const size_t *hit, bool *gone, struct ud_buf *out, struct ud_buf *word)
{
	static const char delim[] = " \t\r\n\\"; /* and the end of the text */
	size_t p = kl->start, mark = out->len;
	struct kline rest;
	bool keep;
	char *t;

	while (p < kl->end) {
		/* a word starts the line or follows a blank, '=' or a continued line's newline */
		if (p == kl->start || strchr(" \t=\n", buf[p - 1]) != NULL) {
			size_t e = p, *k;

			while (e < kl->end && buf[e] != '\0' && strchr(delim, buf[e]) == NULL)
				e++;
			ud_buf_reset(word);
			ud_buf_add(word, buf + p, e - p);
			k = e > p ? ud_map_get(index, ud_buf_str(word)) : NULL;
			if (k != NULL && hit[*k] == i && !gone[*k]) {
				while (out->len > mark && (out->data[out->len - 1] == ' ' ||
							   out->data[out->len - 1] == '\t'))
					ud_buf_setlen(out, out->len - 1);
				gone[*k] = true;
				p = e;
				continue;
			}
		}
		ud_buf_addch(out, buf[p++]);
	}
	rest.first = rest.last = 0;
	rest.start = 0;
	rest.end = out->len - mark;
	t = kline_text(out->data + mark, &rest);
	keep = exports_something(t);
	free(t);
	if (!keep)
		ud_buf_setlen(out, mark);
	return keep;
}

size_t
ud_kbuild_remove_all(const char *buf, size_t len, const char *const *names, size_t n,
		     struct ud_buf *out, struct ud_buf *moved)
{
	struct klines kls;
	struct ud_map index = UD_MAP_INIT; /* name -> its place in names */
	struct ud_buf word = UD_BUF_INIT, line = UD_BUF_INIT;
	size_t *hit = ud_xcalloc(n + 1, sizeof(*hit)), *slot = ud_xcalloc(n + 1, sizeof(*slot));
	bool *gone = ud_xcalloc(n + 1, sizeof(*gone));
	size_t *kept, *material, *line_at, *line_len, found = 0, i, k;
	bool *going, *keeps, *edited;

	klines_read(buf, len, &kls);
	ud_map_reserve(&index, n);
	for (k = 0; k < n; k++) {
		hit[k] = NONE;
		slot[k] = k;
		ud_buf_reset(&moved[k]);
		if (!ud_map_has(&index, names[k]))
			ud_map_put(&index, names[k],
				   &slot[k]); /* a repeated name: the first counts */
	}
	edited = ud_xcalloc(kls.n + 1, sizeof(*edited));
	keeps = ud_xcalloc(kls.n + 1, sizeof(*keeps));
	going = ud_xcalloc(kls.n + 1, sizeof(*going));
	kept = ud_xcalloc(kls.n + 1, sizeof(*kept));
	material = ud_xcalloc(kls.n + 2, sizeof(*material));
	line_at = ud_xcalloc(kls.n + 1, sizeof(*line_at));
	line_len = ud_xcalloc(kls.n + 1, sizeof(*line_len));

	/* each name's first listing, and what its line keeps without the names it lists */
	for (i = 0; i < kls.n; i++) {
		edited[i] = export_values(kls.text[i]) != NULL &&
			    claim_names(kls.text[i], i, &index, hit, &word);
		line_at[i] = line.len;
		if (edited[i])
			keeps[i] = add_without(buf, &kls.v[i], i, &index, hit, gone, &line, &word);
		else
			keeps[i] = exports_something(kls.text[i]);
		line_len[i] = line.len - line_at[i];
	}
	/* kept[i]: how many lines before i still export something (a stanza's test in O(1)) */
	for (i = 0; i < kls.n; i++)
		kept[i + 1] = kept[i] + keeps[i];
	/* a stanza around an entry that goes, with nothing exported left in it, goes whole */
	for (k = 0; k < n; k++) {
		size_t open = hit[k] != NONE ? kls.inner[hit[k]] : NONE;

		if (hit[k] == NONE)
			continue;
		found++;
		if (open != NONE && kls.close[open] != NONE &&
		    kept[kls.close[open]] - kept[open + 1] == 0)
			going[open] = true;
	}
	/*
	 * material[i]: the first line from i on that a moved stanza repeats (a
	 * line that is neither an export nor empty), past stanzas that go whole
	 */
	material[kls.n] = NONE;
	for (i = kls.n; i-- > 0;) {
		if (going[i])
			material[i] = material[kls.close[i] + 1];
		else if (export_values(kls.text[i]) == NULL && kls.text[i][0] != '\0')
			material[i] = i;
		else
			material[i] = material[i + 1];
	}
	/* what moves per entry: its stanza's opening lines, the entry, the stanza's endif */
	for (k = 0; k < n; k++) {
		size_t open = hit[k] != NONE ? kls.inner[hit[k]] : NONE, j;

		if (hit[k] == NONE)
			continue;
		if (open != NONE && kls.close[open] == NONE)
			open = NONE; /* an unterminated stanza: the entry is plain */
		if (open != NONE) {
			ud_buf_add(&moved[k], buf + kls.v[open].start,
				   kls.v[open].end - kls.v[open].start);
			for (j = material[open + 1]; j != NONE && j < hit[k]; j = material[j + 1])
				ud_buf_add(&moved[k], buf + kls.v[j].start,
					   kls.v[j].end - kls.v[j].start);
		}
		ud_buf_addf(&moved[k], "header-y += %s\n", names[k]);
		if (open != NONE) {
			j = kls.close[open];
			ud_buf_add(&moved[k], buf + kls.v[j].start, kls.v[j].end - kls.v[j].start);
			if (moved[k].data[moved[k].len - 1] != '\n')
				ud_buf_addch(&moved[k], '\n');
		}
	}
	ud_buf_reset(out);
	for (i = 0; i < kls.n; i++) {
		if (going[i]) {
			/* the whole stanza goes, and one blank line before it */
			if (out->len >= 2 && out->data[out->len - 1] == '\n' &&
			    out->data[out->len - 2] == '\n')
				ud_buf_setlen(out, out->len - 1);
			i = kls.close[i];
		} else if (edited[i]) {
			ud_buf_add(out, line.data + line_at[i], line_len[i]);
		} else {
			ud_buf_add(out, buf + kls.v[i].start, kls.v[i].end - kls.v[i].start);
		}
	}
	klines_free(&kls);
	ud_map_free(&index, NULL);
	ud_buf_free(&word);
	ud_buf_free(&line);
	free(hit);
	free(slot);
	free(gone);
	free(edited);
	free(keeps);
	free(going);
	free(kept);
	free(material);
	free(line_at);
	free(line_len);
	return found;
}

int
ud_kbuild_remove(const char *buf, size_t len, const char *name, struct ud_buf *out,
		 struct ud_buf *moved)
{
	struct ud_buf one = UD_BUF_INIT;
	size_t found = ud_kbuild_remove_all(buf, len, &name, 1, out, &one);

	ud_buf_add(moved, one.data, one.len);
	ud_buf_free(&one);
	return found == 1;
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
