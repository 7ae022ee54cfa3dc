// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A reader for kernel Makefiles (see make.h).
 *
 * Reading follows GNU make's two phases only as far as the headers need:
 * lines are joined across backslash-newlines and classified (conditional,
 * define, include, assignment, rule, recipe); assignments and rule lines
 * are expanded when read, recursive variables and recipes when asked for.
 * Expansion (make-expand.c) is one recursive function over the text, with
 * a depth limit: a variable that refers to itself is an error, not a
 * crash.  The make functions are a table (make-fn.c).  This file: the
 * variables, reading, and the interface.
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

/* An error at the current line; stops the expansion in progress. */
void
make_fail(struct ud_make *m, const char *fmt, ...)
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

struct var *
make_find_var(const struct ud_make *m, const char *name, size_t n)
{
	size_t i;

	for (i = m->nvars; i-- > 0;)
		if (strncmp(m->vars[i].name, name, n) == 0 && m->vars[i].name[n] == '\0')
			return &m->vars[i];
	return NULL;
}

struct var *
make_new_var(struct ud_make *m, const char *name)
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
	struct var *v = make_find_var(m, name, strlen(name));
	struct ud_buf b = UD_BUF_INIT;

	if (v != NULL && v->cmdline)
		return;
	if (op == '?' && v != NULL)
		return;
	if (v == NULL)
		v = make_new_var(m, name);
	if (op == '+') {
		ud_buf_addstr(&b, v->value);
		if (v->value[0] != '\0')
			ud_buf_addch(&b, ' ');
		if (v->flavor == FL_SIMPLE)
			make_expand(m, value, strlen(value), &b);
		else
			ud_buf_addstr(&b, value);
	} else if (op == ':') {
		make_expand(m, value, strlen(value), &b);
		v->flavor = FL_SIMPLE;
	} else {
		ud_buf_addstr(&b, value);
		v->flavor = FL_RECURSIVE;
	}
	free(v->value);
	v->value = ud_buf_detach(&b, NULL);
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
		if (k >= n || make_split_args(s + 1, k - 1, 2, x, xl) != 2)
			return false;
		*a = make_expand_str(m, x[0], xl[0]);
		*b = make_expand_str(m, x[1], xl[1]);
	} else if (*s == '"' || *s == '\'') {
		const char *e1 = strchr(s + 1, *s), *s2, *e2;

		if (e1 == NULL)
			return false;
		s2 = skip_blanks(e1 + 1);
		if ((*s2 != '"' && *s2 != '\'') || (e2 = strchr(s2 + 1, *s2)) == NULL)
			return false;
		*a = make_expand_str(m, s + 1, (size_t)(e1 - s - 1));
		*b = make_expand_str(m, s2 + 1, (size_t)(e2 - s2 - 1));
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
		name = make_expand_str(m, skip_blanks(s + (neg ? 6 : 5)),
				       strlen(skip_blanks(s + (neg ? 6 : 5))));
		for (t = name + strlen(name); t > name && ud_is_space(t[-1]); t--)
			t[-1] = '\0';
		var = make_find_var(m, name, strlen(name));
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

	make_words_of(targets, &t);
	for (i = 0; i < t.n; i++) {
		struct tvar *tv;

		m->tvars = ud_xgrow(m->tvars, &m->atvars, m->ntvars + 1, sizeof(*m->tvars));
		tv = &m->tvars[m->ntvars++];
		tv->target = ud_xstrdup(t.v[i]);
		tv->name = ud_xstrdup(name);
		tv->append = op == '+';
		tv->flavor = op == ':' ? FL_SIMPLE : FL_RECURSIVE;
		tv->value =
			op == ':' ? make_expand_str(m, value, strlen(value)) : ud_xstrdup(value);
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
	char *iname = make_expand_str(r->m, name, strlen(name));
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
	char *files = make_expand_str(m, s, strlen(s));
	struct ud_strlist w = UD_STRLIST_INIT;
	size_t i;

	make_words_of(files, &w);
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
				make_fail(m, "%s: No such file or directory", w.v[i]);
			else if (!optional)
				make_fail(m, "cannot read the included %s", w.v[i]);
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
	et = make_expand_str(m, targets, strlen(targets));
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
	make_words_of(et, &rule->targets);
	semi = strchr(rest, ';');
	rule->prereqs =
		make_expand_str(m, rest, semi != NULL ? (size_t)(semi - rest) : strlen(rest));
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
		char *x = make_expand_str(m, s, strlen(s)), *t = x;

		while (ud_is_space(*t))
			t++;
		if (*t != '\0' && !m->failed)
			make_fail(m, "a line uapid cannot read (missing separator): %s", s);
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
				make_fail(m, "conditionals nest deeper than %d", MAX_COND);
				break;
			}
			if (on(&r))
				v = eval_cond(&r, s, &ok);
			if (!ok)
				make_fail(m, "a condition uapid cannot read: %s", s);
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
				make_fail(m, "else without a conditional");
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
					make_fail(m, "a condition uapid cannot read: %s", rest);
				c->active = c->parent_on && !c->taken && v;
				c->taken = c->taken || v;
			}
			continue;
		}
		if (keyword(s, "endif")) {
			if (r.nconds == 0) {
				make_fail(m, "endif without a conditional");
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
		make_fail(m, "define without endef");
	}
	if (!m->failed && r.nconds > 0)
		make_fail(m, "a conditional without endif");
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
	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		struct var *v = make_new_var(m, builtins[i].name);

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
	struct var *v = make_find_var(m, name, strlen(name));

	if (v == NULL)
		v = make_new_var(m, name);
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
	const struct var *v = make_find_var(m, name, strlen(name));

	return v != NULL ? v->value : NULL;
}

char *
ud_make_var(struct ud_make *m, const char *name, struct ud_diags *d)
{
	struct ud_buf b = UD_BUF_INIT;

	if (make_find_var(m, name, strlen(name)) == NULL)
		return NULL;
	m->diags = d;
	m->failed = false;
	m->frame = NULL;
	m->in_rule = true; /* the caller needs the value: a failure is an error */
	make_expand_var(m, name, strlen(name), &b);
	ud_buf_addstr(&b, "");
	m->in_rule = false;
	m->diags = NULL;
	return ud_buf_detach(&b, NULL);
}

const struct ud_make_rule *
ud_make_rule(struct ud_make *m, const char *target, char **stem)
{
	const struct ud_make_rule *best = NULL, *explicit;
	char *t = make_norm_path(target);
	size_t i, j;

	*stem = NULL;
	/* explicit targets first; of several rules, the one with a recipe */
	for (i = 0; i < m->nrules; i++)
		for (j = 0; j < m->rules[i].targets.n; j++) {
			char *n = make_norm_path(m->rules[i].targets.v[j]);

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
			char *n = make_norm_path(m->rules[i].targets.v[j]);
			const char *s;
			size_t sn;

			if (strchr(n, '%') != NULL && m->rules[i].recipe.n > 0 &&
			    make_pattern_match(n, strlen(n), t, strlen(t), &s, &sn) &&
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
	char *first = NULL, *t = make_norm_path(target);
	size_t k;

	assert(i < r->recipe.n);
	memset(&f, 0, sizeof(f));
	make_words_of(r->prereqs, &p);
	for (k = 0; k < p.n; k++) {
		struct ud_buf w = UD_BUF_INIT;

		if (stem != NULL)
			make_add_replaced(&w, p.v[k], strlen(p.v[k]), stem, strlen(stem));
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
	make_expand(m, r->recipe.v[i], strlen(r->recipe.v[i]), &out);
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
	make_expand(m, text, strlen(text), &out);
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
