// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Installing one uapi header (see install.h).
 *
 * The sed edits of headers_install.sh are matched by hand rather than with
 * a regex engine: each is a fixed shape (a context character, a keyword, a
 * context character), so a substring test rejects almost every line at
 * once.  The semantics are sed's: POSIX leftmost-longest matches, "g"
 * continues after the end of the previous match (so a context character
 * consumed by one match cannot serve the next), and "^" only matches at
 * the start of the line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/core/install.h"
#include "uapid/core/text.h"
#include "uapid/core/select.h"
#include "uapid/util/xmalloc.h"

static bool
has(const char *s, size_t n, const char *word)
{
	return memmem(s, n, word, strlen(word)) != NULL;
}

/* The keyword of words[] that starts at s[p..n), or NULL. */
static const char *
keyword_at(const char *s, size_t n, size_t p, const char *const *words)
{
	for (; *words != NULL; words++) {
		size_t k = strlen(*words);

		if (p + k <= n && memcmp(s + p, *words, k) == 0)
			return *words;
	}
	return NULL;
}

/*
 * One "s/(BEFORE)(WORDS)(AFTER)/REPL/g" edit where BEFORE is a context
 * character (or the line start when at_bol allows it) and AFTER a context
 * character or the line end.  How the match is rewritten is given by
 * keep_word (replace the word with __word__) or drop (remove word and the
 * after character, keep the before character).
 */
enum edit_kind {
	EDIT_DROP_WORD,	  /* \1: keep the before char, drop word and after char */
	EDIT_UNDERSCORES, /* \1__\2__\3 */
	EDIT_PACKED,	  /* \1__attribute__((packed))\2 */
};

static void
edit(struct ud_buf *line, const char *const *words, bool (*before)(int), bool bol_ok,
     bool (*after)(int), bool eol_ok, enum edit_kind kind)
{
	struct ud_buf out = UD_BUF_INIT;
	const char *s = line->data;
	size_t n = line->len, p = 0, copied = 0;

	while (p < n) {
		size_t start = p, wpos, wend;
		const char *w = NULL;

		/* leftmost start: the line start (p == 0) or a context character */
		if (p == 0 && bol_ok && (w = keyword_at(s, n, 0, words)) != NULL)
			wpos = 0;
		else if (before(s[p]) && (w = keyword_at(s, n, p + 1, words)) != NULL)
			wpos = p + 1;
		if (w == NULL) {
			p++;
			continue;
		}
		wend = wpos + strlen(w);
		if (!((wend < n && after(s[wend])) || (wend == n && eol_ok))) {
			p++;
			continue;
		}
		ud_buf_add(&out, s + copied, start - copied);
		ud_buf_add(&out, s + start, wpos - start); /* \1 */
		switch (kind) {
		case EDIT_DROP_WORD:
			break;
		case EDIT_UNDERSCORES:
			ud_buf_addstr(&out, "__");
			ud_buf_addstr(&out, w);
			ud_buf_addstr(&out, "__");
			if (wend < n)
				ud_buf_addch(&out, s[wend]);
			break;
		case EDIT_PACKED:
			ud_buf_addstr(&out, "__attribute__((packed))");
			if (wend < n)
				ud_buf_addch(&out, s[wend]);
			break;
		}
		p = copied = wend < n ? wend + 1 : n;
	}
	if (copied == 0) {
		ud_buf_free(&out);
		return;
	}
	ud_buf_add(&out, s + copied, n - copied);
	ud_buf_free(line);
	*line = out;
}

static bool
space_or_paren(int c)
{
	return ud_is_space(c) || c == '(';
}

static bool
not_alnum(int c)
{
	return !ud_is_alnum(c);
}

static bool
not_ident(int c)
{
	return !ud_is_alnum(c) && c != '_';
}

/* s/__attribute_const__([[:space:]]|$)/\1/g */
static void
edit_attribute_const(struct ud_buf *line)
{
	static const char word[] = "__attribute_const__";
	const size_t k = sizeof(word) - 1;
	struct ud_buf out = UD_BUF_INIT;
	const char *s = line->data;
	size_t n = line->len, p = 0, copied = 0;

	while (p + k <= n) {
		const char *hit = memmem(s + p, n - p, word, k);
		size_t at, e;

		if (hit == NULL)
			break;
		at = (size_t)(hit - s);
		e = at + k;
		if (e < n && !ud_is_space(s[e])) {
			p = at + 1;
			continue;
		}
		ud_buf_add(&out, s + copied, at - copied);
		if (e < n)
			ud_buf_addch(&out, s[e]);
		p = copied = e < n ? e + 1 : n;
	}
	if (copied == 0) {
		ud_buf_free(&out);
		return;
	}
	ud_buf_add(&out, s + copied, n - copied);
	ud_buf_free(line);
	*line = out;
}

/* s@^#include <linux/compiler(|_types).h>@@ (the longest alternative wins) */
static void
edit_compiler_include(struct ud_buf *line)
{
	static const char pre[] = "#include <linux/compiler";
	const size_t k = sizeof(pre) - 1;
	size_t n = line->len, m = 0;
	const char *s = line->data;

	if (n < k || memcmp(s, pre, k) != 0)
		return;
	if (n >= k + 6 + 3 && memcmp(s + k, "_types", 6) == 0 && memcmp(s + k + 7, "h>", 2) == 0)
		m = k + 6 + 3;
	else if (n >= k + 3 && memcmp(s + k + 1, "h>", 2) == 0)
		m = k + 3;
	if (m == 0)
		return;
	memmove(line->data, s + m, n - m + 1);
	line->len = n - m;
}

/* s@#(ifndef|define|endif[[:space:]]*\/[*])[[:space:]]*_UAPI@#\1 @ (first match) */
static void
edit_uapi_guard(struct ud_buf *line)
{
	const char *s = line->data;
	size_t n = line->len, p;

	for (p = 0; p < n; p++) {
		size_t q = p + 1, g1;

		if (s[p] != '#')
			continue;
		if (q + 6 <= n &&
		    (memcmp(s + q, "ifndef", 6) == 0 || memcmp(s + q, "define", 6) == 0)) {
			q += 6;
		} else if (q + 5 <= n && memcmp(s + q, "endif", 5) == 0) {
			q += 5;
			while (q < n && ud_is_space(s[q]))
				q++;
			if (q + 2 > n || s[q] != '/' || s[q + 1] != '*')
				continue;
			q += 2;
		} else {
			continue;
		}
		g1 = q;
		while (q < n && ud_is_space(s[q]))
			q++;
		if (q + 5 > n || memcmp(s + q, "_UAPI", 5) != 0)
			continue;
		{
			struct ud_buf out = UD_BUF_INIT;

			ud_buf_add(&out, s, g1);
			ud_buf_addch(&out, ' ');
			ud_buf_add(&out, s + q + 5, n - q - 5);
			ud_buf_free(line);
			*line = out;
		}
		return;
	}
}

void
ud_install_sed_line(const char *text, size_t len, struct ud_buf *out)
{
	static const char *const user_words[] = {"__user", "__force", "__iomem", NULL};
	static const char *const packed[] = {"__packed", NULL};
	static const char *const kw[] = {"inline", "asm", "volatile", NULL};
	struct ud_buf line = UD_BUF_INIT;

	ud_buf_add(&line, text, len);
	if (has(text, len, "__user") || has(text, len, "__force") || has(text, len, "__iomem"))
		edit(&line, user_words, space_or_paren, false, ud_is_space, false, EDIT_DROP_WORD);
	if (has(line.data, line.len, "__attribute_const__"))
		edit_attribute_const(&line);
	edit_compiler_include(&line);
	if (has(line.data, line.len, "__packed"))
		edit(&line, packed, not_alnum, true, not_ident, true, EDIT_PACKED);
	if (has(line.data, line.len, "inline") || has(line.data, line.len, "asm") ||
	    has(line.data, line.len, "volatile"))
		edit(&line, kw, space_or_paren, true, space_or_paren, true, EDIT_UNDERSCORES);
	if (has(line.data, line.len, "_UAPI"))
		edit_uapi_guard(&line);
	ud_buf_add(out, ud_buf_str(&line), line.len);
	ud_buf_free(&line);
}

/*
 * Which lines can a sed edit touch?  Every edit of ud_install_sed_line
 * first asks for one of its words in the line (or the compiler include at
 * its start), so a line without any is copied as is.  One pass over the
 * text finds where the next word starts (sed_next), again only once a
 * line has passed it: the text is read once, not once a word and a line.
 */
struct sed_scan {
	const char *end;
	const char *next;  /* where the next word starts; NULL: nowhere */
	const char *cnext; /* the next line starting with the compiler include; NULL: none */
	bool started, cstarted;
};

static bool
word_at(const char *p, const char *end, const char *w, size_t n)
{
	return (size_t)(end - p) >= n && memcmp(p, w, n) == 0;
}

#define WORD_AT(p, end, lit) word_at(p, end, lit, sizeof(lit) - 1)

/* Does one of the "__" words start at p (p[0] and p[1] are '_')? */
static bool
underscore_word_at(const char *p, const char *end)
{
	switch (p + 2 < end ? p[2] : '\0') {
	case 'u':
		return WORD_AT(p, end, "__user");
	case 'f':
		return WORD_AT(p, end, "__force");
	case 'i':
		return WORD_AT(p, end, "__iomem");
	case 'a':
		return WORD_AT(p, end, "__attribute_const__");
	case 'p':
		return WORD_AT(p, end, "__packed");
	default:
		return false;
	}
}

/*
 * The first place at or after p where one of the sed edits' words starts,
 * or NULL.  Most bytes are none of the four first letters; '_', the
 * commonest of them, is told apart by the next one or two bytes.
 */
static const char *
sed_next(const char *p, const char *end)
{
	/*
	 * The words' first two bytes ("__", "_U", "in", "as", "vo"): a bit a
	 * pair, set in first[] for the first byte and in second[] for the
	 * second, so that one AND tells most bytes apart without a branch
	 * per letter ('i' and 'a' alone are a tenth of C text).
	 */
	static const unsigned char first[256] = {['_'] = 1 | 2, ['i'] = 4, ['a'] = 8, ['v'] = 16};
	static const unsigned char second[256] = {
		['_'] = 1, ['U'] = 2, ['n'] = 4, ['s'] = 8, ['o'] = 16};

	/* every word is longer than two bytes: none starts at the last one */
	for (; end - p > 1; p++) {
		bool hit = false;

		if ((first[(unsigned char)p[0]] & second[(unsigned char)p[1]]) == 0)
			continue;
		switch (*p) {
		case '_':
			if (p + 1 < end && p[1] == '_')
				hit = underscore_word_at(p, end);
			else if (p + 1 < end && p[1] == 'U')
				hit = WORD_AT(p, end, "_UAPI");
			break;
		case 'i':
			hit = WORD_AT(p, end, "inline");
			break;
		case 'a':
			hit = WORD_AT(p, end, "asm");
			break;
		case 'v':
			hit = WORD_AT(p, end, "volatile");
			break;
		default:
			break;
		}
		if (hit)
			return p;
	}
	return NULL;
}

static void
sed_scan_init(struct sed_scan *sc, const char *buf, size_t len)
{
	sc->end = buf + len;
	sc->next = buf;
	sc->cnext = buf;
	sc->started = false;
	sc->cstarted = false;
}

static const char compiler_include[] = "#include <linux/compiler";

/* The first line at or after p (a line start) that begins with compiler_include, or NULL. */
static const char *
compiler_next(const char *buf, const char *p, const char *end)
{
	const size_t n = sizeof(compiler_include) - 1;

	/* memchr for its '#' beats memmem for the whole (which takes as long as the sed scan) */
	while ((p = memchr(p, '#', (size_t)(end - p))) != NULL) {
		if ((p == buf || p[-1] == '\n') && (size_t)(end - p) >= n &&
		    memcmp(p, compiler_include, n) == 0)
			return p;
		p++;
	}
	return NULL;
}

/*
 * The start of the first line at or after p (a line start) that a sed edit
 * may touch: one holding one of the edits' words, or beginning with the
 * compiler include; end when none.  Lines are asked in order, so the
 * lines before it are copied as they are in one piece.
 */
static const char *
sed_scan_next_line(struct sed_scan *sc, const char *buf, const char *p)
{
	const char *w, *bol;

	if (!sc->started || (sc->next != NULL && sc->next < p)) {
		sc->next = sed_next(p, sc->end);
		sc->started = true;
	}
	if (!sc->cstarted || (sc->cnext != NULL && sc->cnext < p)) {
		sc->cnext = compiler_next(buf, p, sc->end);
		sc->cstarted = true;
	}
	w = sc->next;
	if (w == NULL)
		return sc->cnext != NULL ? sc->cnext : sc->end;
	bol = w;
	while (bol > p && bol[-1] != '\n')
		bol--;
	return sc->cnext != NULL && sc->cnext < bol ? sc->cnext : bol;
}

/*
 * The first occurrence of lit[0..k) in s[0..n), as memmem, for a literal
 * whose first byte is uncommon in headers: memchr finds the candidates and
 * memcmp tells them, a few times faster than glibc's memmem over a whole
 * header (which it is asked of every one).
 */
static const char *
find_lit(const char *s, size_t n, const char *lit, size_t k)
{
	const char *end = s + n, *p = s;

	while (k <= (size_t)(end - p) &&
	       (p = memchr(p, lit[0], (size_t)(end - p) - k + 1)) != NULL) {
		if (memcmp(p, lit, k) == 0)
			return p;
		p++;
	}
	return NULL;
}

/*
 * The script's SPDX rule: "SPDX-License-Identifier:.*GPL-" needs the syscall
 * note.  Only the lines holding the tag are looked at (one search over the
 * text finds them), counted from the previous hit.
 */
static int
check_spdx(const char *buf, size_t len, struct ud_diags *diags)
{
	static const char tag[] = "SPDX-License-Identifier:";
	const char *p = buf, *end = buf + len, *counted = buf, *id;
	unsigned lineno = 1;
	int rc = 0;

	while ((id = find_lit(p, (size_t)(end - p), tag, sizeof(tag) - 1)) != NULL) {
		const char *bol = id, *nl;
		size_t n;

		while (bol > p && bol[-1] != '\n')
			bol--;
		for (; counted < bol; counted++)
			lineno += *counted == '\n';
		nl = memchr(id, '\n', (size_t)(end - id));
		n = nl != NULL ? (size_t)(nl - bol) : (size_t)(end - bol);
		if (memmem(id, n - (size_t)(id - bol), "GPL-", 4) != NULL &&
		    memmem(bol, n, "WITH Linux-syscall-note", 23) == NULL) {
			ud_diags_add(
				diags, lineno, UD_SEV_ERROR,
				"missing \"WITH Linux-syscall-note\" for SPDX-License-Identifier");
			rc = -EINVAL;
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return rc;
}

/* The first line of text on which word stands as a whole identifier, or 0. */
static unsigned
line_of_word(const char *buf, size_t len, const char *word, size_t wlen)
{
	const char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), word, wlen)) != NULL) {
		bool b = p > buf && (ud_is_alnum(p[-1]) || p[-1] == '_');
		bool a = p + wlen < end && (ud_is_alnum(p[wlen]) || p[wlen] == '_');

		if (!a && !b) {
			unsigned n = 1;
			const char *q;

			for (q = buf; q < p; q++)
				n += *q == '\n';
			return n;
		}
		p += wlen;
	}
	return 0;
}

static bool
leak_ignored(const char *path, const char *sym, size_t n, const struct ud_install_rules *rules)
{
	char *key = ud_xasprintf("%s:%.*s", path, (int)n, sym);
	size_t i, k = strlen(key);
	bool ok = false;

	for (i = 0; rules != NULL && i < rules->nleak_ignores && !ok; i++) {
		size_t m = strlen(rules->leak_ignores[i]);

		ok = m <= k && strcmp(key + k - m, rules->leak_ignores[i]) == 0;
	}
	free(key);
	return ok;
}

/*
 * CONFIG_ symbols in code: comments (slash-star only, as the script's sed
 * removes them) become a space, then every identifier-character run that
 * starts with CONFIG_ is a leak unless the tree grandfathers it.
 */
static int
check_leaks(const char *path, const char *src, size_t srclen, const struct ud_buf *out,
	    const struct ud_install_rules *rules, struct ud_diags *diags)
{
	const char *s = ud_buf_str(out), *end = s + out->len, *p = s;
	int rc = 0;

	bool in_comment = false;

	/* no leak without the prefix anywhere: most headers are done with one search */
	if (find_lit(s, out->len, "CONFIG_", 7) == NULL)
		return 0;
	while ((p = ud_skip_comment(p, end, &in_comment)) < end) {
		if (ud_is_alnum(*p) || *p == '_') {
			const char *t = p;

			while (p < end && (ud_is_alnum(*p) || *p == '_'))
				p++;
			if (p - t >= 7 && memcmp(t, "CONFIG_", 7) == 0 &&
			    !leak_ignored(path, t, (size_t)(p - t), rules)) {
				ud_diags_add(diags, line_of_word(src, srclen, t, (size_t)(p - t)),
					     UD_SEV_ERROR, "leaks %.*s to user space", (int)(p - t),
					     t);
				rc = -EINVAL;
			}
			continue;
		}
		p++;
	}
	return rc;
}

int
ud_install_header(const char *path, const char *buf, size_t len,
		  const struct ud_install_rules *rules, struct ud_buf *out, struct ud_linemap *map,
		  struct ud_diags *diags)
{
	static const struct ud_expr_sym syms[] = {
		{"__KERNEL__", NULL},
		{"__EXPORTED_HEADERS__", "1"},
	};
	struct ud_buf sedded = UD_BUF_INIT;
	const char *p = buf, *end = buf + len;
	struct sed_scan scan;
	int rc;

	ud_buf_reset(out);
	if (memchr(buf, '\0', len) != NULL) {
		ud_diags_add(diags, 0, UD_SEV_ERROR, "NUL byte in input: not a text header");
		return -EINVAL;
	}
	if (check_spdx(buf, len, diags) < 0)
		return -EINVAL;
	sed_scan_init(&scan, buf, len);
	ud_buf_grow(&sedded, len);
	while (p < end) {
		const char *line = sed_scan_next_line(&scan, buf, p), *nl;
		size_t n;

		ud_buf_add(&sedded, p, (size_t)(line - p)); /* the lines no edit touches */
		if (line == end)
			break;
		nl = memchr(line, '\n', (size_t)(end - line));
		n = nl != NULL ? (size_t)(nl - line) : (size_t)(end - line);
		ud_install_sed_line(line, n, &sedded);
		if (nl != NULL)
			ud_buf_addch(&sedded, '\n');
		p = nl != NULL ? nl + 1 : end;
	}
	rc = ud_select(ud_buf_str(&sedded), sedded.len, syms, ARRAY_SIZE(syms), out, map, diags);
	ud_buf_free(&sedded);
	if (rc < 0)
		return rc;
	return check_leaks(path, buf, len, out, rules, diags);
}

size_t
ud_install_rules_parse(const char *script, size_t len, struct ud_install_rules *rules)
{
	static const char start[] = "config_leak_ignores=\"";
	const char *p = memmem(script, len, start, sizeof(start) - 1), *end;
	size_t alloc = 0, n = 0;

	rules->leak_ignores = NULL;
	rules->nleak_ignores = 0;
	if (p == NULL)
		return 0;
	p += sizeof(start) - 1;
	end = memchr(p, '"', len - (size_t)(p - script));
	if (end == NULL)
		return 0;
	while (p < end) {
		const char *w;

		while (p < end && ud_is_space(*p))
			p++;
		w = p;
		while (p < end && !ud_is_space(*p))
			p++;
		if (p > w) {
			rules->leak_ignores =
				ud_xgrow(rules->leak_ignores, &alloc, n + 1, sizeof(char *));
			rules->leak_ignores[n++] = ud_xstrndup(w, (size_t)(p - w));
		}
	}
	rules->nleak_ignores = n;
	return n;
}

void
ud_install_rules_free(struct ud_install_rules *rules)
{
	size_t i;

	if (rules == NULL)
		return;
	for (i = 0; i < rules->nleak_ignores; i++)
		free(rules->leak_ignores[i]);
	free(rules->leak_ignores);
	rules->leak_ignores = NULL;
	rules->nleak_ignores = 0;
}
