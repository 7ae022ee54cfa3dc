// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Installing one uapi header the headers_install.pl way (2.6.27 to 4.x):
 * the script's per-line Perl edits, then unifdef (see install.h).  Its
 * generations differ in the edits (__packed from 3.x, the _UAPI guards
 * from 3.7), the unifdef symbols and the unifdef itself (struct
 * ud_install_pl).
 *
 * The edits are matched by hand, each a fixed shape, with Perl's
 * semantics rather than sed's: a line keeps its newline while it is
 * edited, so \s also matches that newline (an edit that consumes it joins
 * the next line on), $ matches at the end or before a final newline, \b
 * is an ASCII word boundary, alternatives are tried in order (^ before
 * \s), and /g goes on after the end of the previous match.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/core/install.h"
#include "uapid/core/select.h"
#include "uapid/util/xmalloc.h"

/* Perl's \s: blank, tab, newline, vertical tab, form feed, carriage return. */
static bool
ws(int c)
{
	return ud_is_space(c);
}

static bool
word(int c)
{
	return ud_is_ident(c);
}

struct line {
	const char *s;
	size_t n;
};

static bool
at(const struct line *l, size_t p, const char *w)
{
	size_t k = strlen(w);

	return p + k <= l->n && memcmp(l->s + p, w, k) == 0;
}

/* Perl's $ (no /m): the end, or just before a newline that ends the line. */
static bool
eol(const struct line *l, size_t p)
{
	return p == l->n || (p + 1 == l->n && l->s[p] == '\n');
}

/* \b after a word that ends at p (the word's last character is a word character). */
static bool
wb_after(const struct line *l, size_t p)
{
	return p == l->n || !word(l->s[p]);
}

enum shape {
	DROP_ANNOTATION, /* s/([\s(])WORD\s/$1/g */
	CONST_SPACE,	 /* s/\sWORD\s/ /g */
	CONST_EOL,	 /* s/\sWORD$//g */
	PACKED,		 /* s/\bWORD\b/__attribute__((packed))/g */
	INLINE,		 /* s/(^|\s)(WORD)\b/$1__$2__/g */
	ASM,		 /* s/(^|\s)(WORD)\b(\s|[(]|$)/$1__$2__$3/g */
	VOLATILE,	 /* s/(^|\s|[(])(WORD)\b(\s|[(]|$)/$1__$2__$3/g */
};

/*
 * Tries the edit at position p; on a match appends the replacement to out
 * and returns the end of the match, else returns (size_t)-1.
 */
static size_t
try_at(const struct line *l, size_t p, enum shape sh, const char *w, struct ud_buf *out)
{
	size_t k = strlen(w), e;
	char c = p < l->n ? l->s[p] : '\0';

	switch (sh) {
	case DROP_ANNOTATION:
		if (p < l->n && (ws(c) || c == '(') && at(l, p + 1, w) && p + 1 + k < l->n &&
		    ws(l->s[p + 1 + k])) {
			ud_buf_addch(out, c);
			return p + 1 + k + 1;
		}
		return (size_t)-1;
	case CONST_SPACE:
		if (p < l->n && ws(c) && at(l, p + 1, w) && p + 1 + k < l->n &&
		    ws(l->s[p + 1 + k])) {
			ud_buf_addch(out, ' ');
			return p + 1 + k + 1;
		}
		return (size_t)-1;
	case CONST_EOL:
		if (p < l->n && ws(c) && at(l, p + 1, w) && eol(l, p + 1 + k))
			return p + 1 + k;
		return (size_t)-1;
	case PACKED:
		if ((p == 0 || !word(l->s[p - 1])) && at(l, p, w) && wb_after(l, p + k)) {
			ud_buf_addstr(out, "__attribute__((packed))");
			return p + k;
		}
		return (size_t)-1;
	default:
		break;
	}
	/* (^|\s[|[(]])(WORD)\b[(\s|[(]|$)]: the first alternative that matches wins */
	{
		size_t starts[2];
		int nalt = 0, i;

		if (p == 0)
			starts[nalt++] = p; /* ^ */
		if (p < l->n && (ws(c) || (sh == VOLATILE && c == '(')))
			starts[nalt++] = p + 1; /* \s or ( */
		for (i = 0; i < nalt; i++) {
			size_t ws_ = starts[i];

			if (!at(l, ws_, w) || !wb_after(l, ws_ + k))
				continue;
			e = ws_ + k;
			if (sh == INLINE) {
				ud_buf_add(out, l->s + p, ws_ - p);
				ud_buf_addf(out, "__%s__", w);
				return e;
			}
			if (e < l->n && (ws(l->s[e]) || l->s[e] == '(')) {
				ud_buf_add(out, l->s + p, ws_ - p);
				ud_buf_addf(out, "__%s__%c", w, l->s[e]);
				return e + 1;
			}
			if (eol(l, e)) {
				ud_buf_add(out, l->s + p, ws_ - p);
				ud_buf_addf(out, "__%s__", w);
				return e;
			}
		}
		return (size_t)-1;
	}
}

/* s/PATTERN/REPL/g with one of the shapes, on line into out. */
static void
global(const struct line *l, enum shape sh, const char *w, struct ud_buf *out)
{
	size_t p = 0;

	ud_buf_reset(out);
	if (memmem(l->s, l->n, w, strlen(w)) == NULL) {
		ud_buf_add(out, l->s, l->n);
		return;
	}
	while (p <= l->n) {
		size_t e = try_at(l, p, sh, w, out);

		if (e != (size_t)-1) {
			p = e;
			continue;
		}
		if (p < l->n)
			ud_buf_addch(out, l->s[p]);
		p++;
	}
}

/*
 * The first "KEY\s+_UAPI" (3.8: KEY then one or more white space; 3.7:
 * KEY then one blank), and for #endif "#endif\s+/[*]\s*_UAPI", becomes
 * "KEY " / "#endif /" "* ".
 */
static void
uapi_guard(const struct line *l, const char *key, bool perl38, struct ud_buf *out)
{
	size_t p, k = strlen(key);

	ud_buf_reset(out);
	for (p = 0; p < l->n; p++) {
		size_t e = p + k;
		bool endif = strcmp(key, "#endif") == 0;

		if (!at(l, p, key))
			continue;
		if (perl38) {
			if (e >= l->n || !ws(l->s[e]))
				continue;
			while (e < l->n && ws(l->s[e]))
				e++;
			if (endif) {
				if (!at(l, e, "/*"))
					continue;
				for (e += 2; e < l->n && ws(l->s[e]); e++)
					;
			}
		} else {
			if (!at(l, e, endif ? " /* " : " "))
				continue;
			e += endif ? 4 : 1;
		}
		if (!at(l, e, "_UAPI"))
			continue;
		ud_buf_add(out, l->s, p);
		ud_buf_addf(out, "%s%s", key, endif ? " /* " : " ");
		ud_buf_add(out, l->s + e + 5, l->n - e - 5);
		return;
	}
	ud_buf_add(out, l->s, l->n);
}

void
ud_install_pl_of_3x(bool perl38, struct ud_install_pl *pl)
{
	memset(pl, 0, sizeof(*pl));
	pl->packed = true;
	pl->guards = perl38 ? UD_PL_GUARDS_38 : UD_PL_GUARDS_37;
	pl->exported_headers = true;
	pl->unifdef_checked = true;
	pl->unifdef = UD_UNIFDEF_25;
}

void
ud_install_pl_edit_line(const char *line, size_t len, const struct ud_install_pl *pl,
			struct ud_buf *out)
{
	static const struct {
		enum shape sh;
		const char *word;
	} edits[] = {
		{DROP_ANNOTATION, "__user"},
		{DROP_ANNOTATION, "__force"},
		{DROP_ANNOTATION, "__iomem"},
		{CONST_SPACE, "__attribute_const__"},
		{CONST_EOL, "__attribute_const__"},
		{PACKED, "__packed"},
		{INLINE, "inline"},
		{ASM, "asm"},
		{VOLATILE, "volatile"},
	};
	static const char *const keys[] = {"#ifndef", "#define", "#endif"};
	struct ud_buf a = UD_BUF_INIT, b = UD_BUF_INIT;
	struct line l;
	size_t i;

	ud_buf_add(&a, line, len);
	ud_buf_addstr(&a, "");
	for (i = 0; i < ARRAY_SIZE(edits); i++) {
		/* before 3.x the script left __packed alone */
		if (edits[i].sh != PACKED || pl->packed) {
			l.s = a.data;
			l.n = a.len;
			global(&l, edits[i].sh, edits[i].word, &b);
			ud_buf_addstr(&b, "");
			ud_buf_reset(&a);
			ud_buf_add(&a, b.data, b.len);
		}
		if (i == 5) {
			/* s/^#include <linux\/compiler.h>// (before inline, as the script orders
			 * it) */
			static const char inc[] = "#include <linux/compiler.h>";

			if (a.len >= sizeof(inc) - 1 && memcmp(a.data, inc, sizeof(inc) - 1) == 0) {
				memmove(a.data, a.data + sizeof(inc) - 1,
					a.len - (sizeof(inc) - 1) + 1);
				a.len -= sizeof(inc) - 1;
			}
		}
	}
	for (i = 0; i < 3 && pl->guards != UD_PL_GUARDS_NONE; i++) {
		l.s = a.data;
		l.n = a.len;
		uapi_guard(&l, keys[i], pl->guards == UD_PL_GUARDS_38, &b);
		ud_buf_addstr(&b, "");
		ud_buf_reset(&a);
		ud_buf_add(&a, b.data, b.len);
	}
	ud_buf_add(out, ud_buf_str(&a), a.len);
	ud_buf_free(&a);
	ud_buf_free(&b);
}

void
ud_install_pl_line(const char *line, size_t len, bool perl38, struct ud_buf *out)
{
	struct ud_install_pl pl;

	ud_install_pl_of_3x(perl38, &pl);
	ud_install_pl_edit_line(line, len, &pl, out);
}

int
ud_install_header_pl(const char *buf, size_t len, bool perl38, struct ud_buf *out,
		     struct ud_linemap *map, struct ud_diags *diags)
{
	struct ud_install_pl pl;

	ud_install_pl_of_3x(perl38, &pl);
	return ud_install_header_pl_as(buf, len, &pl, out, map, diags);
}

int
ud_install_header_pl_as(const char *buf, size_t len, const struct ud_install_pl *pl,
			struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags)
{
	/* unifdef -U__KERNEL__ [-D__EXPORTED_HEADERS__]: 2.5 gives a bare -D the value 1 */
	const struct ud_expr_sym syms[] = {
		{"__KERNEL__", NULL},
		{"__EXPORTED_HEADERS__", pl->unifdef == UD_UNIFDEF_25 ? "1" : ""},
	};
	struct ud_buf edited = UD_BUF_INIT;
	struct ud_linemap local = {NULL, 0, 0};
	unsigned *start = NULL; /* per edited line: the source line it begins with */
	size_t nstart = 0, astart = 0, i;
	const char *p = buf, *end = buf + len;
	unsigned src = 0;
	int rc;

	ud_buf_reset(out);
	if (memchr(buf, '\0', len) != NULL) {
		ud_diags_add(diags, 0, UD_SEV_ERROR, "NUL byte in input: not a text header");
		return -EINVAL;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl + 1 - p) : (size_t)(end - p),
		       before = edited.len, j;

		src++;
		/* a line whose newline an edit took joins the next one on: one edited line */
		if (before == 0 || edited.data[before - 1] == '\n') {
			start = ud_xgrow(start, &astart, nstart + 1, sizeof(unsigned));
			start[nstart++] = src;
		}
		ud_install_pl_edit_line(p, n, pl, &edited);
		for (j = before; j + 1 < edited.len; j++)
			if (edited.data[j] == '\n') {
				start = ud_xgrow(start, &astart, nstart + 1, sizeof(unsigned));
				start[nstart++] = src;
			}
		p += n;
	}
	rc = ud_select_as(pl->unifdef, ud_buf_str(&edited), edited.len, syms,
			  pl->exported_headers ? 2 : 1, out, &local, diags);
	if (rc < 0 && !pl->unifdef_checked)
		ud_diags_add(
			diags, 0, UD_SEV_ERROR,
			"this tree's headers_install.pl ignores unifdef's failure and installs "
			"what it wrote before it stopped: uapid does not reproduce that");
	if (rc == 0 && map != NULL) {
		map->n = 0;
		for (i = 0; i < local.n; i++) {
			unsigned e = local.v[i];

			map->v = ud_xgrow(map->v, &map->alloc, map->n + 1, sizeof(unsigned));
			map->v[map->n++] = e >= 1 && e <= nstart ? start[e - 1] : e;
		}
	}
	ud_linemap_free(&local);
	free(start);
	ud_buf_free(&edited);
	return rc;
}
