// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Expansion in the Makefile reader (make-int.h): variables, automatic
 * variables, target- and pattern-specific values, $(call) arguments and
 * function calls, one recursive function over the text with a depth limit.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "make-int.h"
#include "uapid/util/chars.h"
#include "uapid/util/xmalloc.h"

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
		nt = make_norm_path(tv->target);
		hit = make_pattern_match(nt, strlen(nt), t, strlen(t), &stem, &sn);
		free(nt);
		if (!hit)
			continue;
		if (!tv->append) {
			ud_buf_reset(&val);
		} else if (!found) {
			make_global_var(m, name, n, &val); /* the global value it adds to */
			if (val.len > 0)
				ud_buf_addch(&val, ' ');
		} else if (val.len > 0) {
			ud_buf_addch(&val, ' ');
		}
		if (tv->flavor == FL_SIMPLE)
			ud_buf_addstr(&val, tv->value);
		else
			make_expand(m, tv->value, strlen(tv->value), &val);
		found = true;
	}
	if (found)
		ud_buf_add(out, ud_buf_str(&val), val.len);
	ud_buf_free(&val);
	return found;
}

void
make_expand_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out)
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
	make_global_var(m, name, n, out);
}

void
make_global_var(struct ud_make *m, const char *name, size_t n, struct ud_buf *out)
{
	struct var *v = make_find_var(m, name, n);

	if (v == NULL)
		return;
	if (v->flavor == FL_SIMPLE) {
		ud_buf_addstr(out, v->value);
	} else {
		char *copy = ud_xstrdup(v->value); /* the table may grow under us */

		make_expand(m, copy, strlen(copy), out);
		free(copy);
	}
}

/* Expands s[0..n) into out. */
void
make_expand(struct ud_make *m, const char *s, size_t n, struct ud_buf *out)
{
	size_t i = 0;

	if (++m->depth > MAX_DEPTH) {
		make_fail(m, "variables refer to themselves (more than %d levels)", MAX_DEPTH);
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
			make_expand_var(m, s + j + 1, 1, out);
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
			make_fail(m, "unterminated variable reference");
			break;
		}
		{
			const char *body = s + j + 2;
			size_t bn = k - j - 2, w = 0;

			while (w < bn && (ud_is_alnum(body[w]) || body[w] == '-' || body[w] == '_'))
				w++;
			if (w > 0 && w < bn && ud_is_space(body[w]) &&
			    make_call_function(m, body, w, body + w + 1, bn - w - 1, out)) {
				;
			} else {
				char *name = make_expand_str(m, body, bn);
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

					make_expand_var(m, name, (size_t)(colon - name), &v);
					a = ud_xstrndup(colon + 1, (size_t)(eq - colon - 1));
					b = ud_xstrdup(eq + 1);
					if (strchr(a, '%') == NULL) {
						char *pa = ud_xasprintf("%%%s", a);
						char *pb = ud_xasprintf("%%%s", b);

						make_patsubst(pa, pb, ud_buf_str(&v), out);
						free(pa);
						free(pb);
					} else {
						make_patsubst(a, b, ud_buf_str(&v), out);
					}
					free(a);
					free(b);
					ud_buf_free(&v);
				} else {
					make_expand_var(m, name, strlen(name), out);
				}
				free(name);
			}
		}
		i = k + 1;
	}
	m->depth--;
}
