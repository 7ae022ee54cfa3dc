// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A reader for kernel Makefiles (see make.h).
 *
 * Reading follows GNU make's two phases only as far as the headers need:
 * lines are joined across backslash-newlines and classified (conditional,
 * define, include, assignment, rule, recipe); assignments and rule lines
 * are expanded when read, recursive variables and recipes when asked for.
 * Expansion is one recursive function over the text, with a depth limit:
 * a variable that refers to itself is an error, not a crash.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/chars.h"
#include "uapid/make.h"
#include "uapid/xmalloc.h"

#define MAX_DEPTH 200 /* nested expansions before a self-reference is assumed */
#define MAX_COND 64   /* nested conditionals */
#define MAX_ARGS 10   /* $(0) .. $(9) of $(call) */

enum flavor {
	FL_RECURSIVE, /* = : expanded when used */
	FL_SIMPLE,    /* := : expanded when set */
};

struct var {
	char *name;
	char *value;
	enum flavor flavor;
	bool cmdline; /* set by ud_make_define: the Makefile cannot change it */
};

/* A target- or pattern-specific variable ("T: VAR := value"). */
struct tvar {
	char *target; /* a target, or a pattern with % */
	char *name;
	char *value; /* expanded for :=, raw for = and += */
	enum flavor flavor;
	bool append;
};

/* The frame of an expansion: where we are, and what $@, $1 ... mean there. */
struct frame {
	const char *target, *stem, *first_prereq, *prereqs;
	const char *args[MAX_ARGS]; /* $(call) arguments, NULL outside a call */
	size_t nargs;
	bool in_call;
};

struct ud_make {
	enum ud_make_mode mode;
	struct ud_make_io io;
	struct var *vars;
	size_t nvars, avars;
	struct tvar *tvars;
	size_t ntvars, atvars;
	struct ud_make_rule *rules;
	size_t nrules, arules;
	struct ud_strlist files; /* labels, owned: rules point into them */

	/* the expansion in progress */
	struct frame *frame;
	const char *file;
	unsigned line;
	unsigned depth;
	bool failed;  /* an error stopped this expansion */
	bool in_rule; /* expanding a recipe: $(error) is the rule's own */
	struct ud_diags *diags;
};

/* Builtins standing for scripts/Kbuild.include and make's own variables. */
static const struct {
	const char *name, *value;
	enum flavor flavor;
} builtins[] = {
	{"comma", ",", FL_SIMPLE},
	{"empty", "", FL_SIMPLE},
	{"space", " ", FL_SIMPLE},
	{"squote", "'", FL_SIMPLE},
	{"pound", "#", FL_SIMPLE},
	{"Q", "", FL_SIMPLE},
	{"MAKE", "make", FL_SIMPLE},
	{"CONFIG_SHELL", "sh", FL_SIMPLE},
	{"build", "-f $(srctree)/scripts/Makefile.build obj", FL_RECURSIVE},
	{"if_changed", "$(cmd_$(1))", FL_RECURSIVE},
	{"cmd", "$(cmd_$(1))", FL_RECURSIVE},
	{"filechk", "$(filechk_$(1))", FL_RECURSIVE},
	{"basetarget", "$(basename $(notdir $@))", FL_RECURSIVE},
	{"real-prereqs", "$(filter-out FORCE,$^)", FL_RECURSIVE},
	{"kbuild-file", "$(or $(wildcard $(src)/Kbuild),$(src)/Makefile)", FL_RECURSIVE},
};

static void expand(struct ud_make *m, const char *s, size_t n, struct ud_buf *out);

/* An error at the current line; stops the expansion in progress. */
static void __attribute__((format(printf, 2, 3))) fail(struct ud_make *m, const char *fmt, ...)
{
	struct ud_buf msg = UD_BUF_INIT;
	va_list ap;

	if (m->failed)
		return;
	va_start(ap, fmt);
	ud_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (m->diags == NULL) {
		/* the caller asked for no diagnostics: the failure still stops it */
		if (m->mode != UD_MAKE_TOLERANT || m->in_rule)
			m->failed = true;
	} else if (m->mode == UD_MAKE_TOLERANT && !m->in_rule) {
		ud_diags_add_at(m->diags, m->file, m->line, UD_SEV_NOTE, "%s (not needed: ignored)",
				ud_buf_str(&msg));
	} else {
		ud_diags_add_at(m->diags, m->file, m->line, UD_SEV_ERROR, "%s", ud_buf_str(&msg));
		m->failed = true;
	}
	ud_buf_free(&msg);
}

/* --- variables ---------------------------------------------------------- */

static struct var *
find_var(const struct ud_make *m, const char *name, size_t n)
{
	size_t i;

	for (i = m->nvars; i-- > 0;)
		if (strncmp(m->vars[i].name, name, n) == 0 && m->vars[i].name[n] == '\0')
			return &m->vars[i];
	return NULL;
}

static struct var *
new_var(struct ud_make *m, const char *name)
{
	struct var *v;

	m->vars = ud_xgrow(m->vars, &m->avars, m->nvars + 1, sizeof(*m->vars));
	v = &m->vars[m->nvars++];
	memset(v, 0, sizeof(*v));
	v->name = ud_xstrdup(name);
	v->value = ud_xstrdup("");
	return v;
}

/* Sets (op '=' ':' '?' '+') variable name to value, as an assignment line does. */
static void
assign(struct ud_make *m, const char *name, char op, const char *value)
{
	struct var *v = find_var(m, name, strlen(name));
	struct ud_buf b = UD_BUF_INIT;

	if (v != NULL && v->cmdline)
		return;
	if (op == '?' && v != NULL)
		return;
	if (v == NULL)
		v = new_var(m, name);
	if (op == '+') {
		ud_buf_addstr(&b, v->value);
		if (v->value[0] != '\0')
			ud_buf_addch(&b, ' ');
		if (v->flavor == FL_SIMPLE)
			expand(m, value, strlen(value), &b);
		else
			ud_buf_addstr(&b, value);
	} else if (op == ':') {
		expand(m, value, strlen(value), &b);
		v->flavor = FL_SIMPLE;
	} else {
		ud_buf_addstr(&b, value);
		v->flavor = FL_RECURSIVE;
	}
	free(v->value);
	v->value = ud_buf_detach(&b, NULL);
}

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

static void
words_of(const char *s, struct ud_strlist *out)
{
	each_word(s, add_word_cb, out);
}

/* Does word match pattern (one % at most)?  *stem gets the matched part. */
static bool
pattern_match(const char *pat, size_t pn, const char *w, size_t wn, const char **stem, size_t *sn)
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
static void
add_replaced(struct ud_buf *out, const char *pat, size_t pn, const char *stem, size_t sn)
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
static char *
norm_path(const char *p)
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
static size_t
split_args(const char *s, size_t n, size_t max, const char **a, size_t *an)
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

static char *
expand_str(struct ud_make *m, const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;

	expand(m, s, n, &b);
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

	words_of(pats, &p);
	words_of(text, &t);
	for (i = 0; i < t.n; i++) {
		bool hit = false;

		for (j = 0; j < p.n && !hit; j++) {
			const char *stem;
			size_t sn;

			hit = pattern_match(p.v[j], strlen(p.v[j]), t.v[i], strlen(t.v[i]), &stem,
					    &sn);
		}
		if (hit != out_)
			add_word(out, t.v[i], strlen(t.v[i]), &first);
	}
	ud_strlist_free(&p);
	ud_strlist_free(&t);
}

/* $(patsubst PAT,REPL,TEXT), also the $(var:a=b) substitution reference. */
static void
patsubst(const char *pat, const char *repl, const char *text, struct ud_buf *out)
{
	struct ud_strlist t = UD_STRLIST_INIT;
	bool first = true;
	size_t i;

	words_of(text, &t);
	for (i = 0; i < t.n; i++) {
		const char *stem;
		size_t sn;

		if (!first)
			ud_buf_addch(out, ' ');
		first = false;
		if (pattern_match(pat, strlen(pat), t.v[i], strlen(t.v[i]), &stem, &sn)) {
			if (strchr(pat, '%') != NULL)
				add_replaced(out, repl, strlen(repl), stem, sn);
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
		fail(m, "$(wildcard): uapid cannot list %s", dir[0] != '\0' ? dir : ".");
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

	words_of(text, &w);
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

/* Expands the value of a variable (recursive ones in the current frame). */
static void expand_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out);
/* The same, ignoring target- and pattern-specific values. */
static void global_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out);

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
	char *cond = expand_str(m, c->a[0], c->al[0]);
	char *t = cond;

	while (ud_is_space(*t))
		t++;
	if (*t != '\0' && c->na > 1)
		expand(m, c->a[1], c->al[1], out);
	else if (*t == '\0' && c->na > 2)
		expand(m, c->a[2], c->al[2], out);
	free(cond);
}

/* $(or ...) and $(and ...): expanded left to right until one decides. */
static void
fn_or_and(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	bool is_or = fn_is(c, "or");
	size_t i;

	for (i = 0; i < c->na; i++) {
		char *v = expand_str(m, c->a[i], c->al[i]), *t = v;

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
	char *var = expand_str(m, c->a[0], c->al[0]);
	char *text = expand_str(m, c->a[1], c->al[1]);
	bool first = true;
	size_t i;

	words_of(text, &list);
	for (i = 0; i < list.n; i++) {
		struct var *v;
		char *val, *t;
		char *vn = ud_xstrdup(var);
		char *sp = vn;

		while (ud_is_space(*sp))
			sp++;
		for (t = sp + strlen(sp); t > sp && ud_is_space(t[-1]); t--)
			*(t - 1) = '\0';
		v = new_var(m, sp); /* shadows any global of that name for the body */
		free(v->value);
		v->value = ud_xstrdup(list.v[i]);
		v->flavor = FL_SIMPLE;
		val = expand_str(m, c->a[2], c->al[2]);
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
	fname = expand_str(m, c->a[0], c->al[0]);
	f.in_call = true;
	f.nargs = c->na;
	for (i = 0; i < c->na; i++)
		f.args[i] = owned[i] = i == 0 ? fname : expand_str(m, c->a[i], c->al[i]);
	m->frame = &f;
	for (t = fname; ud_is_space(*t); t++)
		;
	expand_var(m, t, strlen(t), out);
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
		fail(m, "%s", c->x[0]);
	else if (fn_is(c, "warning") && m->diags != NULL)
		ud_diags_add_at(m->diags, m->file, m->line, UD_SEV_NOTE, "make: %s", c->x[0]);
}

static void
fn_unsupported(struct ud_make *m, struct fn_call *c, struct ud_buf *out)
{
	(void)out;
	fail(m, "$(%.*s): a make function uapid does not evaluate", (int)c->nn, c->name);
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
	patsubst(c->x[0], c->x[1], c->x[2], out);
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
	words_of(c->x[1], &w);
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
	words_of(c->x[0], &w);
	for (i = 0; i < w.n; i++) {
		char *p = norm_path(w.v[i]);

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
	words_of(c->x[0], &w);
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
static bool
call_function(struct ud_make *m, const char *name, size_t nn, const char *args, size_t an,
	      struct ud_buf *out)
{
	const struct make_fn *f = NULL;
	struct fn_call c;
	size_t i;

	for (i = 0; i < sizeof(make_fns) / sizeof(make_fns[0]) && f == NULL; i++)
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
		c.na = split_args(args, an, f->split, c.a, c.al);
	} else {
		c.a[0] = args;
		c.al[0] = an;
		c.na = 1;
	}
	if (c.na < f->least) {
		fail(m, "$(%.*s) needs %s arguments", (int)nn, name,
		     f->least == 3 ? "three" : "more");
		return true;
	}
	for (i = 0; i < f->expand; i++)
		c.x[i] = expand_str(m, c.a[i], c.al[i]);
	f->fn(m, &c, out);
	for (i = 0; i < 3; i++)
		free(c.x[i]);
	return true;
}

/* --- expansion ---------------------------------------------------------- */

/*
 * Target- and pattern-specific variables of the frame's target: the
 * pattern-specific ones first, then the target's own, which win (as GNU
 * make has it), each kind in the order written.
 */
static bool
target_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out)
{
	const char *t = m->frame != NULL ? m->frame->target : NULL;
	struct ud_buf val = UD_BUF_INIT;
	bool found = false;
	size_t k;

	if (t == NULL)
		return false;
	for (k = 0; k < 2 * m->ntvars; k++) {
		const struct tvar *tv = &m->tvars[k % m->ntvars];
		bool pattern_pass = k < m->ntvars;
		const char *stem;
		size_t sn;
		char *nt;
		bool hit;

		if ((strchr(tv->target, '%') != NULL) != pattern_pass)
			continue;
		if (strncmp(tv->name, name, n) != 0 || tv->name[n] != '\0')
			continue;
		nt = norm_path(tv->target);
		hit = pattern_match(nt, strlen(nt), t, strlen(t), &stem, &sn);
		free(nt);
		if (!hit)
			continue;
		if (!tv->append) {
			ud_buf_reset(&val);
		} else if (!found) {
			global_var(m, name, n, &val); /* the global value it adds to */
			if (val.len > 0)
				ud_buf_addch(&val, ' ');
		} else if (val.len > 0) {
			ud_buf_addch(&val, ' ');
		}
		if (tv->flavor == FL_SIMPLE)
			ud_buf_addstr(&val, tv->value);
		else
			expand(m, tv->value, strlen(tv->value), &val);
		found = true;
	}
	if (found)
		ud_buf_add(out, ud_buf_str(&val), val.len);
	ud_buf_free(&val);
	return found;
}

static void
expand_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out)
{
	const struct frame *f = m->frame;
	size_t i;

	if (f != NULL && n == 1) {
		const char *a = NULL;

		switch (name[0]) {
		case '@':
			a = f->target;
			break;
		case '<':
			a = f->first_prereq;
			break;
		case '^':
		case '+':
			a = f->prereqs;
			break;
		case '*':
			a = f->stem;
			break;
		default:
			break;
		}
		if (a != NULL || strchr("@<^+*?|", name[0]) != NULL) {
			ud_buf_addstr(out, a != NULL ? a : "");
			return;
		}
	}
	if (n > 0 && ud_is_digit(name[0])) {
		size_t k = (size_t)strtoul(name, NULL, 10);

		for (i = 0; i < n && ud_is_digit(name[i]); i++)
			;
		if (i == n) {
			if (f != NULL && f->in_call && k < f->nargs)
				ud_buf_addstr(out, f->args[k]);
			return;
		}
	}
	if (f != NULL && f->target != NULL && target_var(m, name, n, out))
		return;
	global_var(m, name, n, out);
}

static void
global_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out)
{
	struct var *v = find_var(m, name, n);

	if (v == NULL)
		return;
	if (v->flavor == FL_SIMPLE) {
		ud_buf_addstr(out, v->value);
	} else {
		char *copy = ud_xstrdup(v->value); /* the table may grow under us */

		expand(m, copy, strlen(copy), out);
		free(copy);
	}
}

/* Expands s[0..n) into out. */
static void
expand(struct ud_make *m, const char *s, size_t n, struct ud_buf *out)
{
	size_t i = 0;

	if (++m->depth > MAX_DEPTH) {
		fail(m, "variables refer to themselves (more than %d levels)", MAX_DEPTH);
		m->depth--;
		return;
	}
	while (i < n && !m->failed) {
		const char *d = memchr(s + i, '$', n - i);
		size_t j, k;
		char open, close;
		int level;

		if (d == NULL) {
			ud_buf_add(out, s + i, n - i);
			break;
		}
		j = (size_t)(d - s);
		ud_buf_add(out, s + i, j - i);
		if (j + 1 >= n) {
			break; /* a lone $ at the end expands to nothing */
		}
		open = s[j + 1];
		if (open == '$') {
			ud_buf_addch(out, '$');
			i = j + 2;
			continue;
		}
		if (open != '(' && open != '{') {
			expand_var(m, s + j + 1, 1, out);
			i = j + 2;
			continue;
		}
		close = open == '(' ? ')' : '}';
		for (k = j + 2, level = 1; k < n; k++) {
			if (s[k] == open)
				level++;
			else if (s[k] == close && --level == 0)
				break;
		}
		if (k >= n) {
			fail(m, "unterminated variable reference");
			break;
		}
		{
			const char *body = s + j + 2;
			size_t bn = k - j - 2, w = 0;

			while (w < bn && (ud_is_alnum(body[w]) || body[w] == '-' || body[w] == '_'))
				w++;
			if (w > 0 && w < bn && ud_is_space(body[w]) &&
			    call_function(m, body, w, body + w + 1, bn - w - 1, out)) {
				;
			} else {
				char *name = expand_str(m, body, bn);
				char *colon = NULL, *eq;
				size_t ni;

				/* $(var:a=b), a substitution reference */
				for (ni = 0; name[ni] != '\0'; ni++)
					if (name[ni] == ':') {
						colon = name + ni;
						break;
					}
				if (colon != NULL && (eq = strchr(colon, '=')) != NULL) {
					struct ud_buf v = UD_BUF_INIT;
					char *a, *b;

					expand_var(m, name, (size_t)(colon - name), &v);
					a = ud_xstrndup(colon + 1, (size_t)(eq - colon - 1));
					b = ud_xstrdup(eq + 1);
					if (strchr(a, '%') == NULL) {
						char *pa = ud_xasprintf("%%%s", a);
						char *pb = ud_xasprintf("%%%s", b);

						patsubst(pa, pb, ud_buf_str(&v), out);
						free(pa);
						free(pb);
					} else {
						patsubst(a, b, ud_buf_str(&v), out);
					}
					free(a);
					free(b);
					ud_buf_free(&v);
				} else {
					expand_var(m, name, strlen(name), out);
				}
				free(name);
			}
		}
		i = k + 1;
	}
	m->depth--;
}

/* --- reading ------------------------------------------------------------ */

struct cond {
	bool active;	/* lines of this branch count */
	bool taken;	/* some branch of this conditional was taken */
	bool parent_on; /* the enclosing context counts */
};

struct reader {
	struct ud_make *m;
	const char *label;
	const char *p, *end;
	unsigned lineno; /* physical line where the next logical line starts */
	struct cond conds[MAX_COND];
	size_t nconds;
	struct ud_make_rule *rule; /* the rule recipe lines belong to, NULL if none */
};

static bool
on(const struct reader *r)
{
	return r->nconds == 0 || r->conds[r->nconds - 1].active;
}

/*
 * The next logical line: backslash-newlines joined (with the blanks
 * around them squeezed to one), comments dropped unless recipe.
 */
static bool
next_line(struct reader *r, struct ud_buf *line, unsigned *first, bool *recipe, bool raw)
{
	bool in_comment = false;

	ud_buf_reset(line);
	if (r->p >= r->end)
		return false;
	*first = r->lineno;
	/* a define's body, like a recipe, keeps its '#' */
	*recipe = (*r->p == '\t' && r->rule != NULL) || raw;
	while (r->p < r->end) {
		const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
		const char *e = nl != NULL ? nl : r->end;
		size_t n = (size_t)(e - r->p), bs = 0;

		r->lineno++;
		while (bs < n && r->p[n - 1 - bs] == '\\')
			bs++;
		if (!in_comment) {
			const char *q;

			for (q = r->p; q < e; q++) {
				if (*q == '#' && !*recipe && (q == r->p || q[-1] != '\\')) {
					in_comment = true;
					break;
				}
				if (*q == '\\' && q + 1 < e && q[1] == '#' && !*recipe) {
					ud_buf_addch(line, '#');
					q++;
					continue;
				}
				ud_buf_addch(line, *q);
			}
		}
		r->p = nl != NULL ? nl + 1 : r->end;
		if (bs % 2 == 1 && r->p < r->end) {
			/* a continuation: drop the backslash and the blanks around it */
			if (!in_comment)
				ud_buf_setlen(line, line->len - 1);
			while (line->len > 0 && ud_is_space(line->data[line->len - 1]))
				ud_buf_setlen(line, line->len - 1);
			ud_buf_addch(line, ' ');
			while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
				r->p++;
			continue;
		}
		break;
	}
	return true;
}

static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Is s the keyword w followed by a blank, '(' or the end? */
static bool
keyword(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t' ||
					 s[n] == '(' || s[n] == '\'' || s[n] == '"');
}

/* The two arguments of ifeq/ifneq, expanded. */
static bool
cond_args(struct reader *r, const char *s, char **a, char **b)
{
	struct ud_make *m = r->m;

	s = skip_blanks(s);
	if (*s == '(') {
		const char *x[2];
		size_t xl[2];
		size_t n = strlen(s), k;
		int level = 0;

		for (k = 0; k < n; k++) {
			if (s[k] == '(')
				level++;
			else if (s[k] == ')' && --level == 0)
				break;
		}
		if (k >= n || split_args(s + 1, k - 1, 2, x, xl) != 2)
			return false;
		*a = expand_str(m, x[0], xl[0]);
		*b = expand_str(m, x[1], xl[1]);
	} else if (*s == '"' || *s == '\'') {
		const char *e1 = strchr(s + 1, *s), *s2, *e2;

		if (e1 == NULL)
			return false;
		s2 = skip_blanks(e1 + 1);
		if ((*s2 != '"' && *s2 != '\'') || (e2 = strchr(s2 + 1, *s2)) == NULL)
			return false;
		*a = expand_str(m, s + 1, (size_t)(e1 - s - 1));
		*b = expand_str(m, s2 + 1, (size_t)(e2 - s2 - 1));
		return true;
	} else {
		return false;
	}
	/* make strips the blanks around the comma */
	{
		char *t;

		for (t = *a + strlen(*a); t > *a && ud_is_space(t[-1]); t--)
			t[-1] = '\0';
		for (t = *b; ud_is_space(*t); t++)
			;
		memmove(*b, t, strlen(t) + 1);
		for (t = *a; ud_is_space(*t); t++)
			;
		memmove(*a, t, strlen(t) + 1);
		for (t = *b + strlen(*b); t > *b && ud_is_space(t[-1]); t--)
			t[-1] = '\0';
	}
	return true;
}

/* Evaluates the condition of an if* line (the keyword included). */
static bool
eval_cond(struct reader *r, const char *s, bool *ok)
{
	struct ud_make *m = r->m;
	bool neg = false, v = false;

	*ok = true;
	if (keyword(s, "ifdef") || keyword(s, "ifndef")) {
		char *name;
		struct var *var;
		char *t;

		neg = s[2] == 'n';
		name = expand_str(m, skip_blanks(s + (neg ? 6 : 5)),
				  strlen(skip_blanks(s + (neg ? 6 : 5))));
		for (t = name + strlen(name); t > name && ud_is_space(t[-1]); t--)
			t[-1] = '\0';
		var = find_var(m, name, strlen(name));
		v = var != NULL && var->value[0] != '\0';
		free(name);
	} else if (keyword(s, "ifeq") || keyword(s, "ifneq")) {
		char *a = NULL, *b = NULL;

		neg = s[2] == 'n';
		if (!cond_args(r, s + (neg ? 5 : 4), &a, &b)) {
			*ok = false;
			return false;
		}
		v = strcmp(a, b) == 0;
		free(a);
		free(b);
	} else {
		*ok = false;
	}
	return neg ? !v : v;
}

static void
add_tvar(struct ud_make *m, const char *targets, const char *name, char op, const char *value)
{
	struct ud_strlist t = UD_STRLIST_INIT;
	size_t i;

	words_of(targets, &t);
	for (i = 0; i < t.n; i++) {
		struct tvar *tv;

		m->tvars = ud_xgrow(m->tvars, &m->atvars, m->ntvars + 1, sizeof(*m->tvars));
		tv = &m->tvars[m->ntvars++];
		tv->target = ud_xstrdup(t.v[i]);
		tv->name = ud_xstrdup(name);
		tv->append = op == '+';
		tv->flavor = op == ':' ? FL_SIMPLE : FL_RECURSIVE;
		tv->value = op == ':' ? expand_str(m, value, strlen(value)) : ud_xstrdup(value);
	}
	ud_strlist_free(&t);
}

/*
 * Finds the assignment operator of line s outside references: returns
 * its offset and sets *op ('=' ':' '+' '?' '!') and *oplen; -1 if none.
 * A ':' that is not part of an operator comes first in a rule line:
 * *colon gets its offset then (or -1).
 */
static long
find_op(const char *s, char *op, size_t *oplen, long *colon)
{
	size_t i;
	int level = 0;

	*colon = -1;
	for (i = 0; s[i] != '\0'; i++) {
		char c = s[i];

		if (c == '$' && (s[i + 1] == '(' || s[i + 1] == '{')) {
			level++;
			i++;
			continue;
		}
		if (level > 0) {
			if (c == '(' || c == '{')
				level++;
			else if (c == ')' || c == '}')
				level--;
			continue;
		}
		if (c == '=') {
			*op = '=';
			*oplen = 1;
			return (long)i;
		}
		if (c == ':' && s[i + 1] == '=') {
			*op = ':';
			*oplen = 2;
			return (long)i;
		}
		if (c == ':' && s[i + 1] == ':' && s[i + 2] == '=') {
			*op = ':';
			*oplen = 3;
			return (long)i;
		}
		if ((c == '+' || c == '?' || c == '!') && s[i + 1] == '=') {
			*op = c;
			*oplen = 2;
			return (long)i;
		}
		if (c == ':' && *colon < 0)
			*colon = (long)i;
		if (c == ';' && *colon >= 0)
			break;
	}
	return -1;
}

/* "override", "export", "private" prefixes of an assignment. */
static const char *
strip_prefixes(const char *s)
{
	for (;;) {
		if (keyword(s, "override"))
			s = skip_blanks(s + 8);
		else if (keyword(s, "export"))
			s = skip_blanks(s + 6);
		else if (keyword(s, "private"))
			s = skip_blanks(s + 7);
		else
			return s;
	}
}

/* Trims the blanks at both ends of s[0..n) into a new string. */
static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && ud_is_space(*s)) {
		s++;
		n--;
	}
	while (n > 0 && ud_is_space(s[n - 1]))
		n--;
	return ud_xstrndup(s, n);
}

static void
do_assign(struct reader *r, const char *s, long at, char op, size_t oplen)
{
	char *name = trimmed(s, (size_t)at);
	const char *value = skip_blanks(s + at + (long)oplen);
	char *iname = expand_str(r->m, name, strlen(name));
	char *vname = trimmed(iname, strlen(iname));

	if (op == '!')
		assign(r->m, vname, '=', ""); /* "!=" runs the shell: uapid does not */
	else
		assign(r->m, vname, op, value);
	free(vname);
	free(iname);
	free(name);
}

static int read_text(struct ud_make *m, const char *label, const char *text, size_t len);

static void
do_include(struct reader *r, const char *s, bool optional)
{
	struct ud_make *m = r->m;
	char *files = expand_str(m, s, strlen(s));
	struct ud_strlist w = UD_STRLIST_INIT;
	size_t i;

	words_of(files, &w);
	for (i = 0; i < w.n && !m->failed; i++) {
		struct ud_buf text = UD_BUF_INIT;
		const char *base = strrchr(w.v[i], '/');

		base = base != NULL ? base + 1 : w.v[i];
		if (strcmp(base, "Kbuild.include") == 0)
			continue; /* built in (see make.h) */
		if (m->mode == UD_MAKE_TOLERANT) {
			continue; /* a top-level Makefile: what it includes is not needed */
		}
		if (m->io.read == NULL || m->io.read(w.v[i], &text, m->io.ctx) < 0) {
			/* make's own words when the file is not there */
			if (!optional && m->io.exists != NULL && !m->io.exists(w.v[i], m->io.ctx))
				fail(m, "%s: No such file or directory", w.v[i]);
			else if (!optional)
				fail(m, "cannot read the included %s", w.v[i]);
		} else {
			const char *file = m->file;
			unsigned line = m->line;

			read_text(m, w.v[i], ud_buf_str(&text), text.len);
			m->file = file;
			m->line = line;
		}
		ud_buf_free(&text);
	}
	ud_strlist_free(&w);
	free(files);
}

static void
do_rule(struct reader *r, const char *s, long colon)
{
	struct ud_make *m = r->m;
	char *targets = trimmed(s, (size_t)colon), *et;
	const char *rest = s + colon + 1;
	long at, colon2;
	char op;
	size_t oplen;
	struct ud_make_rule *rule;
	const char *semi;

	if (*rest == ':')
		rest++; /* a double-colon rule reads the same here */
	et = expand_str(m, targets, strlen(targets));
	at = find_op(strip_prefixes(skip_blanks(rest)), &op, &oplen, &colon2);
	if (at >= 0 && colon2 < 0) {
		const char *a = strip_prefixes(skip_blanks(rest));
		char *name = trimmed(a, (size_t)at);

		add_tvar(m, et, name, op, skip_blanks(a + at + (long)oplen));
		free(name);
		free(et);
		free(targets);
		r->rule = NULL;
		return;
	}
	m->rules = ud_xgrow(m->rules, &m->arules, m->nrules + 1, sizeof(*m->rules));
	rule = &m->rules[m->nrules++];
	memset(rule, 0, sizeof(*rule));
	words_of(et, &rule->targets);
	semi = strchr(rest, ';');
	rule->prereqs = expand_str(m, rest, semi != NULL ? (size_t)(semi - rest) : strlen(rest));
	rule->file = m->file;
	rule->line = m->line;
	if (semi != NULL) {
		ud_strlist_add(&rule->recipe, skip_blanks(semi + 1));
		rule->recipe_lines = ud_xcalloc(1, sizeof(unsigned));
		rule->recipe_lines[0] = m->line;
	}
	r->rule = rule;
	free(et);
	free(targets);
}

/* One logical line outside a recipe and outside define. */
static void
statement(struct reader *r, const char *line)
{
	struct ud_make *m = r->m;
	const char *s = skip_blanks(line);
	long at, colon;
	char op;
	size_t oplen;

	if (*s == '\0')
		return;
	if (keyword(s, "include") || keyword(s, "-include") || keyword(s, "sinclude")) {
		bool optional = *s != 'i';

		do_include(r, skip_blanks(s + (*s == '-' ? 8 : 7 + (*s == 's'))), optional);
		r->rule = NULL;
		return;
	}
	if (keyword(s, "vpath") || keyword(s, "unexport") ||
	    (keyword(s, "export") && find_op(s, &op, &oplen, &colon) < 0)) {
		return;
	}
	s = strip_prefixes(s);
	at = find_op(s, &op, &oplen, &colon);
	if (at >= 0 && (colon < 0 || colon > at)) {
		do_assign(r, s, at, op, oplen);
		r->rule = NULL;
		return;
	}
	if (colon >= 0) {
		do_rule(r, s, colon);
		return;
	}
	/* a bare expansion: $(shell ...), $(warning ...), $(error ...) */
	{
		char *x = expand_str(m, s, strlen(s)), *t = x;

		while (ud_is_space(*t))
			t++;
		if (*t != '\0' && !m->failed)
			fail(m, "a line uapid cannot read (missing separator): %s", s);
		free(x);
	}
}

static int
read_text(struct ud_make *m, const char *label, const char *text, size_t len)
{
	struct reader r;
	struct ud_buf line = UD_BUF_INIT, def = UD_BUF_INIT;
	char *def_name = NULL;
	char def_op = '=';
	unsigned first, def_depth = 0, def_line = 0;
	bool recipe;

	memset(&r, 0, sizeof(r));
	r.m = m;
	r.label = label;
	r.p = text;
	r.end = text + len;
	r.lineno = 1;
	ud_strlist_add(&m->files, label);
	m->file = m->files.v[m->files.n - 1];
	while (!m->failed && next_line(&r, &line, &first, &recipe, def_name != NULL)) {
		const char *s = skip_blanks(ud_buf_str(&line));

		m->line = first;
		if (def_name != NULL) {
			/* inside define: only nested define/endef matter */
			if (keyword(s, "endef") && def_depth == 0) {
				if (on(&r))
					assign(m, def_name, def_op, ud_buf_str(&def));
				free(def_name);
				def_name = NULL;
				ud_buf_reset(&def);
				continue;
			}
			if (keyword(s, "define"))
				def_depth++;
			if (keyword(s, "endef"))
				def_depth--;
			if (def.len > 0)
				ud_buf_addch(&def, '\n');
			ud_buf_addstr(&def, ud_buf_str(&line));
			continue;
		}
		if (recipe && def_name == NULL) {
			if (on(&r) && r.rule != NULL) {
				struct ud_make_rule *ru = r.rule;

				ud_strlist_add(&ru->recipe, ud_buf_str(&line) + 1);
				ru->recipe_lines = ud_xrealloc(ru->recipe_lines,
							       ru->recipe.n * sizeof(unsigned));
				ru->recipe_lines[ru->recipe.n - 1] = first;
			}
			continue;
		}
		if (keyword(s, "ifeq") || keyword(s, "ifneq") || keyword(s, "ifdef") ||
		    keyword(s, "ifndef")) {
			struct cond *c;
			bool ok = true, v = false;

			if (r.nconds >= MAX_COND) {
				fail(m, "conditionals nest deeper than %d", MAX_COND);
				break;
			}
			if (on(&r))
				v = eval_cond(&r, s, &ok);
			if (!ok)
				fail(m, "a condition uapid cannot read: %s", s);
			c = &r.conds[r.nconds];
			c->parent_on = on(&r); /* before the push: on() reads the top */
			c->active = c->parent_on && v;
			c->taken = v;
			r.nconds++;
			continue;
		}
		if (keyword(s, "else")) {
			struct cond *c;
			const char *rest = skip_blanks(s + 4);

			if (r.nconds == 0) {
				fail(m, "else without a conditional");
				break;
			}
			c = &r.conds[r.nconds - 1];
			if (*rest == '\0') {
				c->active = c->parent_on && !c->taken;
				c->taken = true;
			} else {
				bool ok = true, v = false;

				if (c->parent_on && !c->taken)
					v = eval_cond(&r, rest, &ok);
				if (!ok)
					fail(m, "a condition uapid cannot read: %s", rest);
				c->active = c->parent_on && !c->taken && v;
				c->taken = c->taken || v;
			}
			continue;
		}
		if (keyword(s, "endif")) {
			if (r.nconds == 0) {
				fail(m, "endif without a conditional");
				break;
			}
			r.nconds--;
			continue;
		}
		if (keyword(s, "define")) {
			const char *n = skip_blanks(s + 6);
			char *name;
			size_t k;

			for (k = 0; n[k] != '\0' && !ud_is_space(n[k]) && n[k] != '='; k++)
				;
			name = ud_xstrndup(n, k);
			n = skip_blanks(n + k);
			def_op = strncmp(n, ":=", 2) == 0   ? ':'
				 : strncmp(n, "+=", 2) == 0 ? '+'
							    : '=';
			def_name = name;
			def_depth = 0;
			def_line = first;
			continue;
		}
		if (!on(&r))
			continue;
		if (*s == '\0')
			continue; /* blank and comment lines keep the recipe going */
		r.rule = NULL;
		statement(&r, ud_buf_str(&line));
	}
	if (!m->failed && def_name != NULL) {
		m->line = def_line;
		fail(m, "define without endef");
	}
	if (!m->failed && r.nconds > 0)
		fail(m, "a conditional without endif");
	free(def_name);
	ud_buf_free(&def);
	ud_buf_free(&line);
	return m->failed ? -EINVAL : 0;
}

/* --- the interface ------------------------------------------------------ */

struct ud_make *
ud_make_new(enum ud_make_mode mode, const struct ud_make_io *io)
{
	struct ud_make *m = ud_xcalloc(1, sizeof(*m));
	size_t i;

	m->mode = mode;
	if (io != NULL)
		m->io = *io;
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		struct var *v = new_var(m, builtins[i].name);

		free(v->value);
		v->value = ud_xstrdup(builtins[i].value);
		v->flavor = builtins[i].flavor;
	}
	return m;
}

void
ud_make_free(struct ud_make *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].value);
	}
	free(m->vars);
	for (i = 0; i < m->ntvars; i++) {
		free(m->tvars[i].target);
		free(m->tvars[i].name);
		free(m->tvars[i].value);
	}
	free(m->tvars);
	for (i = 0; i < m->nrules; i++) {
		ud_strlist_free(&m->rules[i].targets);
		free(m->rules[i].prereqs);
		ud_strlist_free(&m->rules[i].recipe);
		free(m->rules[i].recipe_lines);
	}
	free(m->rules);
	ud_strlist_free(&m->files);
	free(m);
}

void
ud_make_define(struct ud_make *m, const char *name, const char *value)
{
	struct var *v = find_var(m, name, strlen(name));

	if (v == NULL)
		v = new_var(m, name);
	free(v->value);
	v->value = ud_xstrdup(value);
	v->flavor = FL_SIMPLE;
	v->cmdline = true;
}

int
ud_make_read(struct ud_make *m, const char *label, const char *text, size_t len, struct ud_diags *d)
{
	int rc;

	m->diags = d;
	m->failed = false;
	m->frame = NULL;
	m->in_rule = false;
	rc = read_text(m, label, text, len);
	m->diags = NULL;
	return rc;
}

const char *
ud_make_raw(const struct ud_make *m, const char *name)
{
	const struct var *v = find_var(m, name, strlen(name));

	return v != NULL ? v->value : NULL;
}

char *
ud_make_var(struct ud_make *m, const char *name, struct ud_diags *d)
{
	struct ud_buf b = UD_BUF_INIT;

	if (find_var(m, name, strlen(name)) == NULL)
		return NULL;
	m->diags = d;
	m->failed = false;
	m->frame = NULL;
	m->in_rule = true; /* the caller needs the value: a failure is an error */
	expand_var(m, name, strlen(name), &b);
	ud_buf_addstr(&b, "");
	m->in_rule = false;
	m->diags = NULL;
	return ud_buf_detach(&b, NULL);
}

const struct ud_make_rule *
ud_make_rule(struct ud_make *m, const char *target, char **stem)
{
	const struct ud_make_rule *best = NULL, *explicit;
	char *t = norm_path(target);
	size_t i, j;

	*stem = NULL;
	/* explicit targets first; of several rules, the one with a recipe */
	for (i = 0; i < m->nrules; i++)
		for (j = 0; j < m->rules[i].targets.n; j++) {
			char *n = norm_path(m->rules[i].targets.v[j]);

			if (strchr(n, '%') == NULL && strcmp(n, t) == 0 &&
			    (best == NULL || best->recipe.n == 0))
				best = &m->rules[i];
			free(n);
		}
	if (best != NULL && best->recipe.n > 0) {
		free(t);
		return best;
	}
	/*
	 * An explicit rule without a recipe only adds prerequisites: make
	 * looks for a pattern rule to make the target, as here; the explicit
	 * rule is the answer only when none matches.
	 */
	explicit = best;
	best = NULL;
	/* of the pattern rules that match, the one with the shortest stem (as make 3.82 on) */
	for (i = 0; i < m->nrules; i++)
		for (j = 0; j < m->rules[i].targets.n; j++) {
			char *n = norm_path(m->rules[i].targets.v[j]);
			const char *s;
			size_t sn;

			if (strchr(n, '%') != NULL && m->rules[i].recipe.n > 0 &&
			    pattern_match(n, strlen(n), t, strlen(t), &s, &sn) &&
			    (best == NULL || sn < strlen(*stem))) {
				best = &m->rules[i];
				free(*stem);
				*stem = ud_xstrndup(s, sn);
			}
			free(n);
		}
	free(t);
	return best != NULL ? best : explicit;
}

char *
ud_make_recipe(struct ud_make *m, const struct ud_make_rule *r, size_t i, const char *target,
	       const char *stem, struct ud_diags *d)
{
	struct ud_buf out = UD_BUF_INIT, pre = UD_BUF_INIT;
	struct ud_strlist p = UD_STRLIST_INIT;
	struct frame f;
	char *first = NULL, *t = norm_path(target);
	size_t k;

	assert(i < r->recipe.n);
	memset(&f, 0, sizeof(f));
	words_of(r->prereqs, &p);
	for (k = 0; k < p.n; k++) {
		struct ud_buf w = UD_BUF_INIT;

		if (stem != NULL)
			add_replaced(&w, p.v[k], strlen(p.v[k]), stem, strlen(stem));
		else
			ud_buf_addstr(&w, p.v[k]);
		if (k > 0)
			ud_buf_addch(&pre, ' ');
		ud_buf_addstr(&pre, ud_buf_str(&w));
		if (k == 0)
			first = ud_buf_detach(&w, NULL);
		ud_buf_free(&w);
	}
	ud_buf_addstr(&pre, "");
	f.target = t;
	f.stem = stem != NULL ? stem : "";
	f.first_prereq = first != NULL ? first : "";
	f.prereqs = ud_buf_str(&pre);
	m->frame = &f;
	m->diags = d;
	m->failed = false;
	m->in_rule = true;
	m->file = r->file;
	m->line = r->recipe_lines[i];
	expand(m, r->recipe.v[i], strlen(r->recipe.v[i]), &out);
	m->frame = NULL;
	m->in_rule = false;
	m->diags = NULL;
	ud_strlist_free(&p);
	ud_buf_free(&pre);
	free(first);
	free(t);
	if (m->failed) {
		ud_buf_free(&out);
		return NULL;
	}
	ud_buf_addstr(&out, "");
	return ud_buf_detach(&out, NULL);
}

char *
ud_make_expand(struct ud_make *m, const char *text, struct ud_diags *d)
{
	struct ud_buf out = UD_BUF_INIT;

	m->diags = d;
	m->failed = false;
	m->frame = NULL;
	m->in_rule = true; /* the caller asked: its errors count */
	m->file = "(expansion)";
	m->line = 0;
	expand(m, text, strlen(text), &out);
	m->in_rule = false;
	m->diags = NULL;
	if (m->failed) {
		ud_buf_free(&out);
		return NULL;
	}
	ud_buf_addstr(&out, "");
	return ud_buf_detach(&out, NULL);
}

void
ud_make_words(const char *text, struct ud_strlist *out)
{
	const char *p = text;

	for (;;) {
		struct ud_buf w = UD_BUF_INIT;
		bool any = false;

		while (ud_is_space(*p))
			p++;
		if (*p == '\0')
			break;
		while (*p != '\0' && !ud_is_space(*p)) {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');

				if (e == NULL)
					e = p + strlen(p);
				ud_buf_add(&w, p + 1, (size_t)(e - p - 1));
				p = *e != '\0' ? e + 1 : e;
			} else if (*p == '"') {
				for (p++; *p != '\0' && *p != '"'; p++) {
					if (*p == '\\' && p[1] != '\0' && strchr("\"\\$`", p[1]))
						p++;
					ud_buf_addch(&w, *p);
				}
				if (*p == '"')
					p++;
			} else if (*p == '\\' && p[1] != '\0') {
				ud_buf_addch(&w, p[1]);
				p += 2;
			} else {
				ud_buf_addch(&w, *p++);
			}
			any = true;
		}
		if (any) {
			ud_buf_addstr(&w, "");
			ud_strlist_take(out, ud_buf_detach(&w, NULL));
		}
		ud_buf_free(&w);
	}
}
