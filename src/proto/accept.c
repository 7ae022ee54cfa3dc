// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Accepted API breaks (accept.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/proto/accept.h"
#include "uapid/util/xmalloc.h"

static const char blanks[] = " \t\r";

/* The next blank-separated word of *p (malloc'd), *p moved past it; NULL at the end. */
static char *
word(const char **p, const char *end)
{
	const char *s = *p, *e;

	while (s < end && strchr(blanks, *s) != NULL)
		s++;
	for (e = s; e < end && strchr(blanks, *e) == NULL; e++)
		;
	*p = e;
	return e > s ? ud_xstrndup(s, (size_t)(e - s)) : NULL;
}

static void
line_free(struct ud_accept_line *l)
{
	free(l->header);
	free(l->symbol);
	free(l->rule);
	free(l->reason);
}

int
ud_accept_parse(struct ud_accept *a, const char *file, const char *text, size_t len, char **cause)
{
	const char *p = text, *end = text + len;
	unsigned lineno = 0;

	memset(a, 0, sizeof(*a));
	a->file = ud_xstrdup(file);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p, *r;
		struct ud_accept_line l;

		if (eol == NULL)
			eol = end;
		lineno++;
		memset(&l, 0, sizeof(l));
		l.line = lineno;
		l.header = word(&q, eol);
		p = eol + 1;
		if (l.header == NULL || l.header[0] == '#') {
			free(l.header);
			continue;
		}
		l.symbol = word(&q, eol);
		/* "struct kvm_run": the keyword names the kind, the word after it the symbol */
		if (l.symbol != NULL &&
		    (strcmp(l.symbol, "struct") == 0 || strcmp(l.symbol, "union") == 0 ||
		     strcmp(l.symbol, "enum") == 0)) {
			char *tag = word(&q, eol), *both;

			if (tag != NULL) {
				both = ud_xasprintf("%s %s", l.symbol, tag);
				free(l.symbol);
				free(tag);
				l.symbol = both;
			}
		}
		l.rule = word(&q, eol);
		while (q < eol && strchr(blanks, *q) != NULL)
			q++;
		for (r = eol; r > q && strchr(blanks, r[-1]) != NULL; r--)
			;
		if (l.rule == NULL || r == q) {
			*cause = ud_xasprintf("%s:%u: want HEADER SYMBOL RULE REASON (the reason "
					      "too: why this change is accepted)",
					      file, lineno);
			line_free(&l);
			ud_accept_free(a);
			return -EINVAL;
		}
		l.reason = ud_xstrndup(q, (size_t)(r - q));
		a->v = ud_xgrow(a->v, &a->alloc, a->n + 1, sizeof(*a->v));
		a->v[a->n++] = l;
	}
	return 0;
}

void
ud_accept_free(struct ud_accept *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++)
		line_free(&a->v[i]);
	free(a->v);
	free(a->file);
	memset(a, 0, sizeof(*a));
}

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

/* A change's symbol without its condition ("-" for a header's own change). */
static char *
bare_symbol(json_t *c)
{
	const char *s = json_string_value(json_object_get(c, "symbol"));
	const char *cond;

	if (s == NULL || s[0] == '\0')
		return ud_xstrdup("-");
	cond = strstr(s, " [if ");
	return cond != NULL ? ud_xstrndup(s, (size_t)(cond - s)) : ud_xstrdup(s);
}

static bool
matches(const struct ud_accept_line *l, json_t *c, const char *sym)
{
	return fnmatch(l->header, str(c, "header"), 0) == 0 && fnmatch(l->symbol, sym, 0) == 0 &&
	       fnmatch(l->rule, str(c, "rule"), 0) == 0;
}

/* summary[key] += by */
static void
count_add(json_t *summary, const char *key, json_int_t by)
{
	json_int_t v = json_integer_value(json_object_get(summary, key));

	json_object_set_new(summary, key, json_integer(v + by));
}

size_t
ud_accept_apply(struct ud_accept *a, json_t *diff)
{
	json_t *changes = json_object_get(diff, "changes"),
	       *summary = json_object_get(diff, "summary");
	json_t *c, *unmatched = json_array();
	size_t i, k, accepted = 0;

	json_array_foreach(changes, i, c)
	{
		const char *v = str(c, "verdict");
		char *sym;

		/* only what would fail a gate is accepted: a compatible change needs no decision */
		if (strcmp(v, "breaking") != 0 && strcmp(v, "review") != 0)
			continue;
		sym = bare_symbol(c);
		for (k = 0; k < a->n; k++) {
			struct ud_accept_line *l = &a->v[k];

			if (!matches(l, c, sym))
				continue;
			l->used++;
			accepted++;
			if (summary != NULL) {
				count_add(summary, v, -1);
				count_add(summary, "accepted", 1);
			}
			json_object_set_new(c, "accepted_from", json_string(v));
			json_object_set_new(c, "accepted_at",
					    json_sprintf("%s:%u", a->file, l->line));
			json_object_set_new(c, "accepted_because", json_string(l->reason));
			json_object_set_new(c, "verdict", json_string("accepted"));
			break;
		}
		free(sym);
	}
	if (summary != NULL && json_object_get(summary, "accepted") == NULL)
		json_object_set_new(summary, "accepted", json_integer(0));
	for (k = 0; k < a->n; k++)
		if (a->v[k].used == 0)
			json_array_append_new(unmatched,
					      json_pack("{s:i, s:s++++++}", "line",
							(json_int_t)a->v[k].line, "text",
							a->v[k].header, " ", a->v[k].symbol, " ",
							a->v[k].rule, " ", a->v[k].reason));
	json_object_set_new(diff, "accept",
			    json_pack("{s:s, s:I, s:o}", "file", a->file, "accepted",
				      (json_int_t)accepted, "unmatched", unmatched));
	return accepted;
}

int
ud_accept_params(json_t *params, json_t *diff, char **cause)
{
	json_t *text = json_object_get(params, "accept");
	const char *name = json_string_value(json_object_get(params, "accept_name"));
	struct ud_accept a;
	int rc;

	if (text == NULL)
		return 0;
	if (!json_is_string(text)) {
		*cause = ud_xstrdup("\"accept\" must be a string: the accept file's text");
		return -EINVAL;
	}
	rc = ud_accept_parse(&a, name != NULL ? name : "accept", json_string_value(text),
			     json_string_length(text), cause);
	if (rc < 0)
		return rc;
	ud_accept_apply(&a, diff);
	ud_accept_free(&a);
	return 0;
}
