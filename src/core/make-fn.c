// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The make functions of the Makefile reader (make-int.h): $(subst), $(if),
 * $(foreach) and the rest, one handler each in the table GNU make keeps.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "make-int.h"
#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

/* --- words and patterns ------------------------------------------------- */

/* Calls fn for each white-space separated word of s. */
static void
each_word(const char *s, void (*fn)(const char *w, size_t n, void *ctx), void *ctx)
{
	while (*s != '\0') {
		const char *e;

		while (ud_is_space(*s))
			s++;
		for (e = s; *e != '\0' && !ud_is_space(*e); e++)
			;
		if (e > s)
			fn(s, (size_t)(e - s), ctx);
		s = e;
	}
}

static void
add_word_cb(const char *w, size_t n, void *ctx)
{
	ud_strlist_addn(ctx, w, n);
}

void
make_words_of(const char *s, struct ud_strlist *out)
{
	each_word(s, add_word_cb, out);
}

/* Does word match pattern (one % at most)?  *stem gets the matched part. */
bool
make_pattern_match(const char *pat, size_t pn, const char *w, size_t wn, const char **stem,
		   size_t *sn)
{
	const char *pct = memchr(pat, '%', pn);
	size_t pre, post;

	if (pct == NULL) {
		*stem = w;
		*sn = 0;
		return pn == wn && memcmp(pat, w, wn) == 0;
	}
	pre = (size_t)(pct - pat);
	post = pn - pre - 1;
	if (wn < pre + post || memcmp(pat, w, pre) != 0 ||
	    memcmp(pct + 1, w + wn - post, post) != 0)
		return false;
	*stem = w + pre;
	*sn = wn - pre - post;
	return true;
}

/* Appends pattern with its % replaced by stem. */
void
make_add_replaced(struct ud_buf *out, const char *pat, size_t pn, const char *stem, size_t sn)
{
	const char *pct = memchr(pat, '%', pn);

	if (pct == NULL) {
		ud_buf_add(out, pat, pn);
		return;
	}
	ud_buf_add(out, pat, (size_t)(pct - pat));
	ud_buf_add(out, stem, sn);
	ud_buf_add(out, pct + 1, pn - (size_t)(pct - pat) - 1);
}

/* Normalises a path for comparing: "./" and "x/../" go, "//" is one '/'. */
char *
make_norm_path(const char *p)
{
	struct ud_strlist parts = UD_STRLIST_INIT;
	struct ud_buf b = UD_BUF_INIT;
	const char *s = p;
	size_t i;

	if (*p == '/')
		ud_buf_addch(&b, '/');
	while (*s != '\0') {
		const char *e = strchr(s, '/');
		size_t n = e != NULL ? (size_t)(e - s) : strlen(s);

		if (n == 0 || (n == 1 && s[0] == '.')) {
			;
		} else if (n == 2 && s[0] == '.' && s[1] == '.' && parts.n > 0 &&
			   strcmp(parts.v[parts.n - 1], "..") != 0) {
			ud_strlist_remove(&parts, parts.n - 1);
		} else {
			ud_strlist_addn(&parts, s, n);
		}
		s += n;
		if (*s == '/')
			s++;
	}
	for (i = 0; i < parts.n; i++)
		ud_buf_addf(&b, "%s%s", i ? "/" : "", parts.v[i]);
	ud_strlist_free(&parts);
	return ud_buf_detach(&b, NULL);
}

/* --- functions ---------------------------------------------------------- */

/* Splits s[0..n) at top-level commas into at most max pieces (the last takes the rest). */
size_t
make_split_args(const char *s, size_t n, size_t max, const char **a, size_t *an)
{
	size_t i, k = 0, start = 0;
	int level = 0;

	for (i = 0; i <= n && k < max; i++) {
		if (i < n && (s[i] == '(' || s[i] == '{'))
			level++;
		else if (i < n && (s[i] == ')' || s[i] == '}'))
			level--;
		if (i == n || (s[i] == ',' && level == 0 && k + 1 < max)) {
			a[k] = s + start;
			an[k] = i - start;
			k++;
			start = i + 1;
		}
	}
	return k;
}

char *
make_expand_str(struct ud_make *m, const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;

	make_expand(m, s, n, &b);
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

/* Appends w to out, separated by one blank from what is there. */
static void
add_word(struct ud_buf *out, const char *w, size_t n, bool *first)
{
	if (!*first)
		ud_buf_addch(out, ' ');
	ud_buf_add(out, w, n);
	*first = false;
}

struct map_ctx {
	struct ud_buf *out;
	bool first;
	const char *arg; /* the other argument of the function */
	int fn;
};

enum {
	FN_NOTDIR,
	FN_DIR,
	FN_BASENAME,
	FN_SUFFIX,
	FN_ADDPREFIX,
	FN_ADDSUFFIX,
};

static void
map_cb(const char *w, size_t n, void *ctx)
{
	struct map_ctx *c = ctx;
	const char *slash = NULL, *dot = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (w[i] == '/') {
			slash = w + i;
			dot = NULL;
		} else if (w[i] == '.') {
			dot = w + i;
		}
	}
	switch (c->fn) {
	case FN_NOTDIR:
		if (slash != NULL)
			add_word(c->out, slash + 1, n - (size_t)(slash + 1 - w), &c->first);
		else
			add_word(c->out, w, n, &c->first);
		break;
	case FN_DIR:
		if (slash != NULL)
			add_word(c->out, w, (size_t)(slash + 1 - w), &c->first);
		else
			add_word(c->out, "./", 2, &c->first);
		break;
	case FN_BASENAME:
		add_word(c->out, w, dot != NULL ? (size_t)(dot - w) : n, &c->first);
		break;
	case FN_SUFFIX:
		if (dot != NULL)
			add_word(c->out, dot, n - (size_t)(dot - w), &c->first);
		break;
	case FN_ADDPREFIX:
		if (!c->first)
			ud_buf_addch(c->out, ' ');
		ud_buf_addstr(c->out, c->arg);
		ud_buf_add(c->out, w, n);
		c->first = false;
		break;
	case FN_ADDSUFFIX:
		add_word(c->out, w, n, &c->first);
		ud_buf_addstr(c->out, c->arg);
		break;
	default:
		break;
	}
}

/* $(filter P..,TEXT) and $(filter-out P..,TEXT). */
static void
filter(const char *pats, const char *text, bool out_, struct ud_buf *out)
{
	struct ud_strlist p = UD_STRLIST_INIT, t = UD_STRLIST_INIT;
	bool first = true;
	size_t i, j;

	make_words_of(pats, &p);
	make_words_of(text, &t);
	for (i = 0; i < t.n; i++) {
		bool hit = false;

		for (j = 0; j < p.n && !hit; j++) {
			const char *stem;
			size_t sn;

			hit = make_pattern_match(p.v[j], strlen(p.v[j]), t.v[i], strlen(t.v[i]),
						 &stem, &sn);
		}
		if (hit != out_)
			add_word(out, t.v[i], strlen(t.v[i]), &first);
	}
	ud_strlist_free(&p);
	ud_strlist_free(&t);
}

/* $(patsubst PAT,REPL,TEXT), also the $(var:a=b) substitution reference. */
void
make_patsubst(const char *pat, const char *repl, const char *text, struct ud_buf *out)
{
	struct ud_strlist t = UD_STRLIST_INIT;
	bool first = true;
	size_t i;

	make_words_of(text, &t);
	for (i = 0; i < t.n; i++) {
		const char *stem;
		size_t sn;

		if (!first)
			ud_buf_addch(out, ' ');
		first = false;
		if (make_pattern_match(pat, strlen(pat), t.v[i], strlen(t.v[i]), &stem, &sn)) {
			if (strchr(pat, '%') != NULL)
				make_add_replaced(out, repl, strlen(repl), stem, sn);
			else
				ud_buf_addstr(out, repl);
		} else {
			ud_buf_addstr(out, t.v[i]);
		}
	}
	ud_strlist_free(&t);
}

/* Does name match a glob of '*' and literal text? */
static bool
glob_match(const char *g, const char *name)
{
	if (*g == '\0')
		return *name == '\0';
	if (*g == '*')
		return glob_match(g + 1, name) || (*name != '\0' && glob_match(g, name + 1));
	return *g == *name && glob_match(g + 1, name + 1);
}

/*
 * Adds the paths matching pattern (the part of a glob not yet matched)
 * below dir ("" at the start: relative): each component with a '*' is
 * matched against the directory's names, in sorted order as make gives
 * them; the last component alone may ask for directories (a trailing '/').
 * A directory that cannot be listed has no matches, as in make.
 */
static void
glob_below(struct ud_make *m, const char *dir, const char *pattern, bool want_dir,
	   struct ud_buf *out, bool *first, unsigned depth)
{
	const char *slash = strchr(pattern, '/');
	char *comp = slash != NULL ? ud_xstrndup(pattern, (size_t)(slash - pattern))
				   : ud_xstrdup(pattern);
	const char *rest = slash != NULL ? slash + 1 : NULL;
	/* "" (relative) and "/" take no separator before the next component */
	const char *sep = dir[0] != '\0' && dir[strlen(dir) - 1] != '/' ? "/" : "";
	struct ud_strlist names = UD_STRLIST_INIT;
	size_t j;

	if (depth > 64 || m->failed) {
		free(comp);
		return;
	}
	if (strchr(comp, '*') == NULL) {
		char *path = ud_xasprintf("%s%s%s", dir, sep, comp);

		if (rest != NULL) {
			glob_below(m, path, rest, want_dir, out, first, depth + 1);
		} else {
			char *full = ud_xasprintf("%s%s", path, want_dir ? "/" : "");

			if (m->io.exists != NULL && m->io.exists(full, m->io.ctx))
				add_word(out, full, strlen(full), first);
			free(full);
		}
		free(path);
		free(comp);
		return;
	}
	if (m->io.list == NULL) {
		make_fail(m, "$(wildcard): uapid cannot list %s", dir[0] != '\0' ? dir : ".");
	} else if (m->io.list(dir[0] != '\0' ? dir : ".", &names, m->io.ctx) == 0) {
		ud_strlist_sort(&names);
		for (j = 0; j < names.n; j++) {
			size_t len = strlen(names.v[j]);
			bool is_dir = len > 0 && names.v[j][len - 1] == '/';
			char *bare = ud_xstrndup(names.v[j], is_dir ? len - 1 : len);
			char *path = ud_xasprintf("%s%s%s", dir, sep, bare);

			if (glob_match(comp, bare)) {
				if (rest != NULL) {
					if (is_dir)
						glob_below(m, path, rest, want_dir, out, first,
							   depth + 1);
				} else if (!want_dir || is_dir) {
					if (!*first)
						ud_buf_addch(out, ' ');
					*first = false;
					ud_buf_addf(out, "%s%s", path, want_dir ? "/" : "");
				}
			}
			free(path);
			free(bare);
		}
	}
	ud_strlist_free(&names);
	free(comp);
}

/* $(wildcard ...): the existing files; '*' may stand in any component. */
static void
wildcard(struct ud_make *m, const char *text, struct ud_buf *out)
{
	struct ud_strlist w = UD_STRLIST_INIT;
	bool first = true;
	size_t i;

	make_words_of(text, &w);
	for (i = 0; i < w.n; i++) {
		if (strchr(w.v[i], '*') == NULL) {
			if (m->io.exists != NULL && m->io.exists(w.v[i], m->io.ctx))
				add_word(out, w.v[i], strlen(w.v[i]), &first);
		} else {
			/* a trailing slash asks for directories only */
			size_t wl = strlen(w.v[i]);
			bool want_dir = wl > 1 && w.v[i][wl - 1] == '/';
			char *word = ud_xstrndup(w.v[i], want_dir ? wl - 1 : wl);

			if (word[0] == '/')
				glob_below(m, "/", word + 1, want_dir, out, &first, 0);
			else
				glob_below(m, "", word, want_dir, out, &first, 0);
			free(word);
		}
	}
	ud_strlist_free(&w);
}

/*
 * A call of a make function, as its handler sees it: the arguments split
 * at top-level commas (or the whole text as one), and the first ones
 * expanded when the function's entry says so.
 */
struct fn_call {
	const char *name; /* the function's name, nn bytes */
	size_t nn;
	const char *args; /* the argument text, unexpanded, an bytes */
	size_t an;
	const char *a[MAX_ARGS]; /* the arguments, unexpanded */
	size_t al[MAX_ARGS], na;
	char *x[3]; /* the expanded ones (the entry's expand first), else NULL */
};

static bool
fn_is(const struct fn_call *c, const char *name)
{
	return c->nn == strlen(name) && memcmp(c->name, name, c->nn) == 0;
}

/* $(if COND,THEN[,ELSE]): the condition and the branch taken expanded, no more. */
static void
fn_if(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	char *cond = make_expand_str(m, c->a[0], c->al[0]);
	char *t = cond;

	while (ud_is_space(*t))
		t++;
	if (*t != '\0' && c->na > 1)
		make_expand(m, c->a[1], c->al[1], out);
	else if (*t == '\0' && c->na > 2)
		make_expand(m, c->a[2], c->al[2], out);
	free(cond);
}

/* $(or ...) and $(and ...): expanded left to right until one decides. */
static void
fn_or_and(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	bool is_or = fn_is(c, "or");
	size_t i;

	for (i = 0; i < c->na; i++) {
		char *v = make_expand_str(m, c->a[i], c->al[i]), *t = v;

		while (ud_is_space(*t))
			t++;
		if (is_or && *t != '\0') {
			ud_buf_addstr(out, v);
			free(v);
			return;
		}
		if (!is_or && *t == '\0') {
			free(v);
			return;
		}
		if (!is_or && i + 1 == c->na)
			ud_buf_addstr(out, v);
		free(v);
	}
}

static void
fn_foreach(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct ud_strlist list = UD_STRLIST_INIT;
	char *var = make_expand_str(m, c->a[0], c->al[0]);
	char *text = make_expand_str(m, c->a[1], c->al[1]);
	bool first = true;
	size_t i;

	make_words_of(text, &list);
	for (i = 0; i < list.n; i++) {
		struct var *v;
		char *val, *t;
		char *vn = ud_xstrdup(var);
		char *sp = vn;

		while (ud_is_space(*sp))
			sp++;
		for (t = sp + strlen(sp); t > sp && ud_is_space(t[-1]); t--)
			*(t - 1) = '\0';
		v = make_new_var(m, sp); /* shadows any global of that name for the body */
		free(v->value);
		v->value = ud_xstrdup(list.v[i]);
		v->flavor = FL_SIMPLE;
		val = make_expand_str(m, c->a[2], c->al[2]);
		/* drop the shadow: it is the last variable */
		free(m->vars[m->nvars - 1].name);
		free(m->vars[m->nvars - 1].value);
		m->nvars--;
		for (t = val; ud_is_space(*t); t++)
			;
		if (*t != '\0') {
			size_t len = strlen(t);

			while (len > 0 && ud_is_space(t[len - 1]))
				len--;
			add_word(out, t, len, &first);
		}
		free(val);
		free(vn);
	}
	ud_strlist_free(&list);
	free(var);
	free(text);
}

/* $(call NAME,ARGS...): NAME's value expanded with $(0) .. $(9) set. */
static void
fn_call_var(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct frame f, *saved = m->frame;
	char *fname, *owned[MAX_ARGS], *t;
	size_t i;

	if (saved != NULL)
		f = *saved;
	else
		memset(&f, 0, sizeof(f));
	fname = make_expand_str(m, c->a[0], c->al[0]);
	f.in_call = true;
	f.nargs = c->na;
	for (i = 0; i < c->na; i++)
		f.args[i] = owned[i] = i == 0 ? fname : make_expand_str(m, c->a[i], c->al[i]);
	m->frame = &f;
	for (t = fname; ud_is_space(*t); t++)
		;
	make_expand_var(m, t, strlen(t), out);
	m->frame = saved;
	for (i = 1; i < c->na; i++)
		free(owned[i]);
	free(fname);
}

/* $(shell ...): uapid runs nothing; the Makefiles only make directories with it. */
static void
fn_shell(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)m;
	(void)c;
	(void)out;
}

/* $(error ...) stops, $(warning ...) is a note, $(info ...) is dropped. */
static void
fn_message(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)out;
	if (fn_is(c, "error"))
		make_fail(m, "%s", c->x[0]);
	else if (fn_is(c, "warning") && m->diags != NULL)
		ud_diags_add_at(m->diags, m->file, m->line, UD_SEV_NOTE, "make: %s", c->x[0]);
}

static void
fn_unsupported(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)out;
	make_fail(m, "$(%.*s): a make function uapid does not evaluate", (int)c->nn, c->name);
}

static void
fn_subst(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	const char *p = c->x[2], *hit;
	size_t k = strlen(c->x[0]);

	(void)m;
	if (c->x[0][0] == '\0') {
		ud_buf_addstr(out, c->x[2]);
		return;
	}
	while ((hit = strstr(p, c->x[0])) != NULL) {
		ud_buf_add(out, p, (size_t)(hit - p));
		ud_buf_addstr(out, c->x[1]);
		p = hit + k;
	}
	ud_buf_addstr(out, p);
}

static void
fn_patsubst(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)m;
	make_patsubst(c->x[0], c->x[1], c->x[2], out);
}

static void
fn_filter(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)m;
	filter(c->x[0], c->x[1], fn_is(c, "filter-out"), out);
}

static void
fn_addfix(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct map_ctx mc = {out, true, c->x[0],
			     fn_is(c, "addprefix") ? FN_ADDPREFIX : FN_ADDSUFFIX};

	(void)m;
	each_word(c->x[1], map_cb, &mc);
}

static void
fn_findstring(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)m;
	if (strstr(c->x[1], c->x[0]) != NULL)
		ud_buf_addstr(out, c->x[0]);
}

static void
fn_word(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct ud_strlist w = UD_STRLIST_INIT;
	long k = strtol(c->x[0], NULL, 10);

	(void)m;
	make_words_of(c->x[1], &w);
	if (k >= 1 && (size_t)k <= w.n)
		ud_buf_addstr(out, w.v[k - 1]);
	ud_strlist_free(&w);
}

static void
fn_wildcard(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	wildcard(m, c->x[0], out);
}

/* $(notdir), $(dir), $(basename), $(suffix): each word mapped. */
static void
fn_file_part(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct map_ctx mc = {out, true, NULL,
			     fn_is(c, "notdir")	    ? FN_NOTDIR
			     : fn_is(c, "dir")	    ? FN_DIR
			     : fn_is(c, "basename") ? FN_BASENAME
						    : FN_SUFFIX};

	(void)m;
	each_word(c->x[0], map_cb, &mc);
}

/* $(abspath) and $(realpath): each word normalised (no file system: a tree is a source). */
static void
fn_abspath(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct ud_strlist w = UD_STRLIST_INIT;
	bool first = true;
	size_t i;

	(void)m;
	make_words_of(c->x[0], &w);
	for (i = 0; i < w.n; i++) {
		char *p = make_norm_path(w.v[i]);

		add_word(out, p, strlen(p), &first);
		free(p);
	}
	ud_strlist_free(&w);
}

/* $(strip), $(sort), $(words), $(firstword), $(lastword): the words of the text. */
static void
fn_words(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	struct ud_strlist w = UD_STRLIST_INIT;
	bool first = true;
	size_t i;

	(void)m;
	make_words_of(c->x[0], &w);
	if (fn_is(c, "sort"))
		ud_strlist_sort(&w); /* sorted, duplicates dropped, as make does */
	if (fn_is(c, "words"))
		ud_buf_addf(out, "%zu", w.n);
	else if (fn_is(c, "firstword") && w.n > 0)
		ud_buf_addstr(out, w.v[0]);
	else if (fn_is(c, "lastword") && w.n > 0)
		ud_buf_addstr(out, w.v[w.n - 1]);
	else if (fn_is(c, "strip") || fn_is(c, "sort"))
		for (i = 0; i < w.n; i++)
			add_word(out, w.v[i], strlen(w.v[i]), &first);
	ud_strlist_free(&w);
}

/*
 * The make functions, as GNU make keeps them (function.c): how many
 * arguments the text is split into at most (0: it is one argument,
 * commas and all), how many it must have, how many of the first are
 * expanded before the handler runs (the others expand only what they
 * take: $(if) its branch, $(foreach) its body once a word).
 */
static const struct make_fn {
	const char *name;
	unsigned char split, least, expand;
	void (*fn)(struct ud_make *m, struct fn_call *c, struct ud_buf *out);
} make_fns[] = {
	{"if", 3, 0, 0, fn_if},
	{"or", MAX_ARGS, 0, 0, fn_or_and},
	{"and", MAX_ARGS, 0, 0, fn_or_and},
	{"foreach", 3, 3, 0, fn_foreach},
	{"call", MAX_ARGS, 0, 0, fn_call_var},
	{"shell", 0, 0, 0, fn_shell},
	{"error", 0, 0, 1, fn_message},
	{"warning", 0, 0, 1, fn_message},
	{"info", 0, 0, 1, fn_message},
	{"eval", 0, 0, 0, fn_unsupported},
	{"value", 0, 0, 0, fn_unsupported},
	{"origin", 0, 0, 0, fn_unsupported},
	{"flavor", 0, 0, 0, fn_unsupported},
	{"file", 0, 0, 0, fn_unsupported},
	{"guile", 0, 0, 0, fn_unsupported},
	{"subst", 3, 3, 3, fn_subst},
	{"patsubst", 3, 3, 3, fn_patsubst},
	{"filter", 2, 2, 2, fn_filter},
	{"filter-out", 2, 2, 2, fn_filter},
	{"addprefix", 2, 2, 2, fn_addfix},
	{"addsuffix", 2, 2, 2, fn_addfix},
	{"findstring", 2, 2, 2, fn_findstring},
	{"word", 2, 2, 2, fn_word},
	{"wordlist", 3, 2, 2, fn_unsupported},
	{"join", 2, 2, 2, fn_unsupported},
	{"strip", 0, 0, 1, fn_words},
	{"sort", 0, 0, 1, fn_words},
	{"words", 0, 0, 1, fn_words},
	{"firstword", 0, 0, 1, fn_words},
	{"lastword", 0, 0, 1, fn_words},
	{"notdir", 0, 0, 1, fn_file_part},
	{"dir", 0, 0, 1, fn_file_part},
	{"basename", 0, 0, 1, fn_file_part},
	{"suffix", 0, 0, 1, fn_file_part},
	{"wildcard", 0, 0, 1, fn_wildcard},
	{"abspath", 0, 0, 1, fn_abspath},
	{"realpath", 0, 0, 1, fn_abspath},
};

/*
 * A function call: name is the function's, args its unexpanded argument
 * text.  Returns false when name is not a function.
 */
bool
make_call_function(struct ud_make *m, const char *name, size_t nn, const char *args, size_t an,
		   struct ud_buf *out)
{
	const struct make_fn *f = NULL;
	struct fn_call c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_fns) && f == NULL; i++)
		if (strlen(make_fns[i].name) == nn && memcmp(make_fns[i].name, name, nn) == 0)
			f = &make_fns[i];
	if (f == NULL)
		return false;
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.nn = nn;
	c.args = args;
	c.an = an;
	if (f->split > 0) {
		c.na = make_split_args(args, an, f->split, c.a, c.al);
	} else {
		c.a[0] = args;
		c.al[0] = an;
		c.na = 1;
	}
	if (c.na < f->least) {
		make_fail(m, "$(%.*s) needs %s arguments", (int)nn, name,
			  f->least == 3 ? "three" : "more");
		return true;
	}
	for (i = 0; i < f->expand; i++)
		c.x[i] = make_expand_str(m, c.a[i], c.al[i]);
	f->fn(m, &c, out);
	for (i = 0; i < 3; i++)
		free(c.x[i]);
	return true;
}
