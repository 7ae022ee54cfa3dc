// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The splitter (see split.h).
 *
 * The classifier says where every logical line goes; this file writes the
 * two headers line by line, adds what the split itself adds (the _UAPI
 * guard, the uapi #include), then applies the 2012 scripts' finishing
 * steps: slide the uapi #include below a leading run of #includes, and
 * reduce a header that is left with nothing (or a single #include).
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/map.h"
#include "uapid/util/chars.h"
#include "uapid/util/arena.h"
#include "uapid/util/path.h"
#include "uapid/core/split.h"
#include "uapid/core/text.h"
#include "uapid/util/xmalloc.h"

static const char *const outcome_names[] = {
	[UD_SPLIT_SPLIT] = "split",
	[UD_SPLIT_MOVED] = "moved",
	[UD_SPLIT_REFUSED] = "needs-coaching",
	[UD_SPLIT_SKIPPED] = "skipped",
};
static_assert(ARRAY_SIZE(outcome_names) == UD_SPLIT__COUNT,
	      "outcome_names must name every enum ud_split_outcome member");

/* One physical output line: text without its newline. */
struct oline {
	const char *p;
	size_t n;
};

struct olist {
	struct oline *v;
	size_t n, alloc;
};

struct writer {
	const struct ud_classified *c;
	struct ud_arena arena; /* generated line texts */
	struct olist k, u;
	const char *incname; /* "linux/foo.h" */
	long include_at;     /* index in k of the automatic uapi #include, -1 if none */
};

const char *
ud_split_outcome_name(enum ud_split_outcome o)
{
	assert(o < UD_SPLIT__COUNT);
	return outcome_names[o];
}

static void
olist_add(struct olist *l, const char *p, size_t n)
{
	l->v = ud_xgrow(l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n].p = p;
	l->v[l->n].n = n;
	l->n++;
}

static void
olist_insert(struct olist *l, size_t at, const char *p, size_t n)
{
	l->v = ud_xgrow(l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof(*l->v));
	l->v[at].p = p;
	l->v[at].n = n;
	l->n++;
}

static void
olist_remove(struct olist *l, size_t at, size_t count)
{
	memmove(&l->v[at], &l->v[at + count], (l->n - at - count) * sizeof(*l->v));
	l->n -= count;
}

/* Calls fn for each physical line of logical line li (text without newline). */
static size_t
phys_lines(const struct ud_lexed *lx, size_t li, struct oline *out, size_t max)
{
	const struct ud_line *l = &lx->lines[li];
	const char *p = lx->buf + l->start, *end = lx->buf + l->end;
	size_t n = 0;

	while (p < end && n < max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;
		const char *te = e;

		if (te > p && te[-1] == '\r' && nl != NULL)
			te--;
		out[n].p = p;
		out[n].n = (size_t)(te - p);
		n++;
		p = nl != NULL ? nl + 1 : end;
	}
	return n;
}

static size_t
nphys(const struct ud_lexed *lx, size_t li)
{
	return lx->lines[li].last - lx->lines[li].first + 1;
}

static void
emit_line(struct writer *w, size_t li, unsigned dest)
{
	const struct ud_lexed *lx = &w->c->lx;
	size_t n = nphys(lx, li), i;
	struct oline *ph = ud_xmalloc(n * sizeof(*ph));

	n = phys_lines(lx, li, ph, n);
	for (i = 0; i < n; i++) {
		if (dest & UD_TO_KERNEL)
			olist_add(&w->k, ph[i].p, ph[i].n);
		if (dest & UD_TO_UAPI)
			olist_add(&w->u, ph[i].p, ph[i].n);
	}
	free(ph);
}

/* Adds a generated line prefix + mid + suffix to l (text owned by the writer's arena). */
static void
add_gen(struct writer *w, struct olist *l, const char *prefix, const char *mid, const char *suffix)
{
	size_t a = strlen(prefix), b = strlen(mid), c = strlen(suffix);
	char *p = ud_arena_alloc(&w->arena, a + b + c + 1);

	memcpy(p, prefix, a);
	memcpy(p + a, mid, b);
	memcpy(p + a + b, suffix, c);
	p[a + b + c] = '\0';
	olist_add(l, p, a + b + c);
}

/*
 * The "#ifdef __KERNEL__" (or "#if defined(__KERNEL__)") of an #else pair,
 * for the uapi header: "#ifdef" becomes "#ifndef", "#if defined" becomes
 * "#if !defined", on the line's own text as upstream did it.  A directive
 * spelled across a continuation ("#\" then "ifdef ...") has no such text
 * on its first line; it is written afresh from its parsed form instead.
 */
static void
emit_to_ifndef(struct writer *w, size_t li)
{
	const struct ud_lexed *lx = &w->c->lx;
	const struct ud_line *l = &lx->lines[li];
	size_t n = nphys(lx, li), i, j, k, len;
	struct oline *ph = ud_xmalloc(n * sizeof(*ph));
	struct ud_buf b = UD_BUF_INIT;
	const char *t, *after_if;
	bool is_if;

	n = phys_lines(lx, li, ph, n);
	t = ph[0].p;
	len = ph[0].n;
	after_if = ud_directive_word(t, t + len, "if");
	is_if = after_if != NULL;
	j = is_if ? (size_t)(after_if - t) - 2 : 0; /* where "if" starts */
	if (is_if && j + 5 <= len && memcmp(t + j + 2, "def", 3) == 0) {
		ud_buf_add(&b, t, j + 2);
		ud_buf_addstr(&b, "ndef");
		ud_buf_add(&b, t + j + 5, len - j - 5);
	} else if (is_if) {
		for (k = j + 2; k < len && (t[k] == ' ' || t[k] == '\t'); k++)
			;
		if (k + 7 > len || memcmp(t + k, "defined", 7) != 0)
			goto afresh;
		ud_buf_add(&b, t, k);
		ud_buf_addch(&b, '!');
		ud_buf_add(&b, t + k, len - k);
	} else {
		goto afresh;
	}
	olist_add(&w->u, ud_arena_strndup(&w->arena, ud_buf_str(&b), b.len), b.len);
	for (i = 1; i < n; i++)
		olist_add(&w->u, ph[i].p, ph[i].n);
	goto out;
afresh:
	if (l->dir == UD_DIR_IFDEF)
		add_gen(w, &w->u, "#ifndef ", l->arg, "");
	else
		add_gen(w, &w->u, "#if !", l->arg, "");
out:
	ud_buf_free(&b);
	free(ph);
}

/* A line with its trailing " // DISINTEGRATE: RETAIN" removed. */
static void
emit_retain_marked(struct writer *w, size_t li, unsigned dest)
{
	const struct ud_lexed *lx = &w->c->lx;
	size_t n = nphys(lx, li), i;
	struct oline *ph = ud_xmalloc(n * sizeof(*ph));
	static const char mark[] = UD_MARKER_RETAIN;

	n = phys_lines(lx, li, ph, n);
	for (i = 0; i < n; i++) {
		struct oline o = ph[i];
		size_t k = sizeof(mark) - 1, j;

		for (j = 0; j + k <= o.n; j++)
			if (memcmp(o.p + j, mark, k) == 0) {
				size_t e = j;

				while (e > 0 && (o.p[e - 1] == ' ' || o.p[e - 1] == '\t'))
					e--;
				o.n = e;
				break;
			}
		if (dest & UD_TO_KERNEL)
			olist_add(&w->k, o.p, o.n);
		if (dest & UD_TO_UAPI)
			olist_add(&w->u, o.p, o.n);
	}
	free(ph);
}

static void
render(struct writer *w, const char *path)
{
	const struct ud_classified *c = w->c;
	const struct ud_lexed *lx = &c->lx;
	size_t li;

	w->include_at = -1;
	/* the banner opens both headers, wherever its lines stood */
	for (li = 0; li < lx->nlines; li++) {
		if (c->role[li] != UD_ROLE_BANNER)
			continue;
		if (li == c->banner_last) {
			/* the banner's last line ends at its comment close */
			struct oline ph;
			size_t e;

			if (phys_lines(lx, li, &ph, 1) == 0)
				continue;
			e = ph.n;
			while (e > 0 && (ph.p[e - 1] == ' ' || ph.p[e - 1] == '\t'))
				e--;
			olist_add(&w->k, ph.p, e);
			olist_add(&w->u, ph.p, e);
		} else {
			emit_line(w, li, UD_TO_BOTH);
		}
	}
	for (li = 0; li < lx->nlines; li++) {
		unsigned dest = c->dest[li];

		switch ((enum ud_role)c->role[li]) {
		case UD_ROLE_BANNER:
			break;
		case UD_ROLE_GUARD_IF:
			emit_line(w, li, UD_TO_KERNEL);
			add_gen(w, &w->u, "#ifndef _UAPI", c->guard_name, "");
			break;
		case UD_ROLE_GUARD_DEFINE:
			emit_line(w, li, UD_TO_KERNEL);
			olist_add(&w->k, "", 0);
			if (strcmp(path, "include/linux/types.h") == 0)
				add_gen(w, &w->k, "#define __EXPORTED_HEADERS__", "", "");
			if (!c->include_marked) {
				w->include_at = (long)w->k.n;
				add_gen(w, &w->k, "#include <uapi/", w->incname, ">");
				olist_add(&w->k, "", 0);
			}
			add_gen(w, &w->u, "#define _UAPI", c->guard_name, "");
			break;
		case UD_ROLE_GUARD_ENDIF:
			emit_line(w, li, UD_TO_KERNEL);
			add_gen(w, &w->u, "#endif /* _UAPI", c->guard_name, " */");
			break;
		case UD_ROLE_TO_IFNDEF:
			emit_to_ifndef(w, li);
			break;
		case UD_ROLE_COMPOUND_IF:
			add_gen(w, &w->k, "#if ", c->compound_rest, "");
			break;
		case UD_ROLE_INCLUDE_HERE:
			add_gen(w, &w->k, "#include <uapi/", w->incname, ">");
			break;
		case UD_ROLE_RETAIN_MARKED:
			emit_retain_marked(w, li, dest);
			break;
		default:
			emit_line(w, li, dest);
			break;
		}
		if (li == c->include_after)
			add_gen(w, &w->k, "#include <uapi/", w->incname, ">");
	}
}

/*
 * Moves the automatic uapi #include below the run of #include lines (also
 * ones inside conditionals) that starts the kernel-only content, but never
 * below <linux/byteorder/generic.h>.  Line tests follow the 2012 script.
 */
static void
slide_include(struct writer *w)
{
	struct olist *k = &w->k;
	long here = -1, level = 0, l;
	bool cond_include = false;
	struct oline inc;

	if (w->include_at < 0)
		return;
	for (l = w->include_at + 1; l < (long)k->n; l++) {
		const char *s = k->v[l].p, *d;
		size_t n = k->v[l].n;

		if (n == 0)
			continue;
		if ((d = ud_directive_word(s, s + n, "include")) != NULL) {
			size_t at = (size_t)(d - s), a = at, b;

			while (a < n && (s[a] == ' ' || s[a] == '\t'))
				a++;
			if (a > at && a < n && s[a] == '<') {
				for (b = a + 1; b < n && s[b] != '>'; b++)
					;
				if (b < n) {
					if (b - a - 1 == 25 &&
					    memcmp(s + a + 1, "linux/byteorder/generic.h", 25) == 0)
						break;
					if (level == 0)
						here = l;
					else
						cond_include = true;
					continue;
				}
			}
		}
		if (ud_directive_word(s, s + n, "if") != NULL) {
			level++;
		} else if (ud_directive_word(s, s + n, "el") != NULL) {
			; /* #else, #elif */
		} else if (ud_directive_word(s, s + n, "endif") != NULL) {
			level--;
			if (level == 0) {
				if (cond_include)
					here = l;
				cond_include = false;
			}
		} else {
			break;
		}
	}
	if (here < 0)
		return;
	inc = k->v[w->include_at];
	olist_remove(k, (size_t)w->include_at, 2);
	olist_insert(k, (size_t)here - 1, inc.p, inc.n);
	if ((size_t)here >= k->n || k->v[here].n != 0)
		olist_insert(k, (size_t)here, "", 0);
}

enum reduction {
	RED_NONE,     /* has real content */
	RED_EMPTY,    /* nothing but guard, comments, blank lines, the uapi include */
	RED_INCLUDE,  /* that plus a single #include */
	RED_INCLUDES, /* that plus several #includes */
};

/* Does squeezed text s read "#WORD" or "# WORD"? */
static bool
starts_directive(const char *s, const char *word)
{
	return *s == '#' && ud_directive_word(s, s + strlen(s), word) != NULL;
}

/* What a rendered header reduces to, judged as the 2012 script judged it. */
static enum reduction
reduce(const struct olist *lines)
{
	struct ud_buf b = UD_BUF_INIT;
	unsigned blocks = 0, includes = 0;
	long guarddef = -2;
	bool first_if = true;
	char guard[256] = "";
	size_t l;

	for (l = 0; l < lines->n; l++) {
		const struct oline *line = &lines->v[l];
		bool directive = line->n > 0 && line->p[0] == '#', in_comment = false;

		/*
		 * The logical line as the 2012 script read it: comments gone (one
		 * open at the end of a line takes the next line with it),
		 * continuations joined, white space squeezed.
		 */
		ud_buf_reset(&b);
		for (;;) {
			const char *p = lines->v[l].p, *e = p + lines->v[l].n;

			while ((p = ud_skip_comment(p, e, &in_comment)) < e) {
				const char *q = p;

				while (q < e && !(q + 1 < e && q[0] == '/' && q[1] == '*'))
					q++;
				ud_buf_add(&b, p, (size_t)(q - p));
				p = q;
			}
			if (in_comment && l + 1 < lines->n) {
				l++;
				ud_buf_addch(&b, ' ');
				continue;
			}
			while (b.len > 0 && (b.data[b.len - 1] == ' ' || b.data[b.len - 1] == '\t'))
				ud_buf_setlen(&b, b.len - 1);
			if (!in_comment && b.len > 0 && b.data[b.len - 1] == '\\' &&
			    l + 1 < lines->n) {
				ud_buf_setlen(&b, b.len - 1);
				l++;
				continue;
			}
			break;
		}
		if (b.len > 0) /* an empty one is the slop, never written */
			b.len = ud_squeeze(b.data, b.data, b.len);
		if (directive) {
			const char *s = ud_buf_str(&b);

			if (starts_directive(s, "if")) {
				if (first_if && starts_directive(s, "ifndef ")) {
					const char *g = s + (s[1] == ' ' ? 9 : 8);
					size_t n = 0;

					while (n < sizeof(guard) - 1 && ud_is_ident(g[n]))
						n++;
					memcpy(guard, g, n);
					guard[n] = '\0';
					guarddef = (long)l + 1;
					first_if = false;
					continue;
				}
				first_if = false;
			} else if (starts_directive(s, "endif") || starts_directive(s, "else") ||
				   starts_directive(s, "elif") ||
				   starts_directive(s, "include <uapi/") ||
				   ((long)l == guarddef && starts_directive(s, "define ") &&
				    guard[0] != '\0' &&
				    strncmp(s + (s[1] == ' ' ? 9 : 8), guard, strlen(guard)) ==
					    0) ||
				   strncmp(s, "#error only arch headers may be included in asm",
					   47) == 0) {
				/* clause ends, the guard's #define, the uapi include, asm notice */
				continue;
			} else if (starts_directive(s, "include")) {
				includes++;
				continue;
			}
		} else if (b.len == 0) {
			continue;
		}
		blocks++;
	}
	ud_buf_free(&b);
	if (blocks > 0)
		return RED_NONE;
	if (includes == 1)
		return RED_INCLUDE;
	return includes > 0 ? RED_INCLUDES : RED_EMPTY;
}

/* Keeps only the banner (its first nbanner lines) and the #include lines of a header. */
static void
keep_banner_and_includes(struct olist *u, size_t nbanner)
{
	size_t i, o = 0;

	for (i = 0; i < u->n; i++) {
		const char *s = u->v[i].p;
		size_t n = u->v[i].n;

		if (i < nbanner) {
			u->v[o++] = u->v[i];
			continue;
		}
		if (n > 0 && s[0] == '#' && ud_directive_word(s, s + n, "include") != NULL)
			u->v[o++] = u->v[i];
	}
	u->n = o;
}

/* Physical lines in the banner. */
static size_t
banner_lines(const struct ud_classified *c)
{
	size_t li, n = 0;

	for (li = 0; li < c->lx.nlines; li++)
		if (c->role[li] == UD_ROLE_BANNER)
			n += nphys(&c->lx, li);
	return n;
}

/* Sends the uapi side's comment-only lines to the kernel side; returns how many. */
static size_t
comments_to_kernel(struct ud_classified *c)
{
	size_t li, n = 0;

	for (li = 0; li < c->lx.nlines; li++) {
		unsigned f = c->lx.lines[li].flags;

		if (c->dest[li] == UD_TO_UAPI && c->role[li] == UD_ROLE_TEXT &&
		    (f & UD_LINE_COMMENT) && !(f & UD_LINE_CODE)) {
			c->dest[li] = UD_TO_KERNEL;
			n++;
		}
	}
	return n;
}

static void
join(const struct olist *l, struct ud_buf *out, const char *nl)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		ud_buf_add(out, l->v[i].p, l->v[i].n);
		ud_buf_addstr(out, nl);
	}
}

/*
 * The lost-line check's multiset of output lines: line text -> how many
 * times it is still unaccounted for, kept in the map's value.  The texts
 * are ranges of the outputs, looked up with no copy (ud_map_ref_n); a
 * line of broken input with a NUL byte counts as its text up to the NUL,
 * in the outputs and the input alike.
 */
static void
lineset_add(struct ud_map *s, const char *p, size_t n)
{
	void **count = ud_map_ref_n(s, p, strnlen(p, n), true);

	*count = (void *)((uintptr_t)*count + 1);
}

/* Takes one p[0..n) out of s: false when none is left. */
static bool
lineset_take(struct ud_map *s, const char *p, size_t n)
{
	void **count = ud_map_ref_n(s, p, strnlen(p, n), false);

	if (count == NULL || *count == NULL)
		return false;
	*count = (void *)((uintptr_t)*count - 1);
	return true;
}

static bool
blank_text(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\f')
			return false;
	return true;
}

/*
 * The no-line-lost check: every non-blank input line must appear in one of
 * the outputs, except the lines the split removes or rewrites on purpose.
 * Counted as a multiset, independently of how the writer decided.
 * Returns the first lost physical line, or 0.
 */
static unsigned
lost_line(const struct writer *w)
{
	const struct ud_classified *c = w->c;
	const struct ud_lexed *lx = &c->lx;
	struct ud_arena keys = UD_ARENA_INIT;
	struct ud_map s = UD_MAP_INIT;
	size_t i, li;
	unsigned lost = 0;

	s.keys = &keys; /* dropped whole */
	ud_map_reserve(&s, w->k.n + w->u.n);
	for (i = 0; i < w->k.n; i++)
		if (w->k.v[i].p != NULL)
			lineset_add(&s, w->k.v[i].p, w->k.v[i].n);
	for (i = 0; i < w->u.n; i++)
		if (w->u.v[i].p != NULL)
			lineset_add(&s, w->u.v[i].p, w->u.v[i].n);

	for (li = 0; li < lx->nlines && lost == 0; li++) {
		enum ud_role role = (enum ud_role)c->role[li];
		size_t n = nphys(lx, li), k;
		struct oline *ph;

		if (c->dest[li] == UD_TO_NONE || role == UD_ROLE_COMPOUND_IF ||
		    role == UD_ROLE_RETAIN_MARKED || role == UD_ROLE_INCLUDE_HERE)
			continue;
		ph = ud_xmalloc(n * sizeof(*ph));
		n = phys_lines(lx, li, ph, n);
		for (k = 0; k < n; k++) {
			if (blank_text(ph[k].p, ph[k].n))
				continue;
			if (role == UD_ROLE_TO_IFNDEF)
				continue; /* rewritten, maybe whole */
			if (role == UD_ROLE_BANNER && li == c->banner_last && k + 1 == n)
				continue;
			if (!lineset_take(&s, ph[k].p, ph[k].n)) {
				lost = lx->lines[li].first + (unsigned)k;
				break;
			}
		}
		free(ph);
	}
	ud_map_free(&s, NULL);
	ud_arena_free(&keys);
	return lost;
}

/* Is the header exactly one "#include <X>" line? */
static bool
single_include(const struct ud_classified *c)
{
	const struct ud_line *l = c->lx.nlines == 1 ? &c->lx.lines[0] : NULL;

	return l != NULL && c->lx.nphys == 1 && l->dir == UD_DIR_INCLUDE && l->arg[0] == '<' &&
	       strchr(l->arg, '>') != NULL && c->lx.buf[0] == '#';
}

int
ud_split(const char *path, const char *buf, size_t len, const struct ud_marker *const *markers,
	 size_t nmarkers, struct ud_split_result *res)
{
	struct ud_classified *c = &res->model;
	struct writer w;
	const char *nl;
	enum reduction kred, ured;
	unsigned lost;
	bool rerendered = false;

	memset(res, 0, sizeof(*res));
	res->outcome = UD_SPLIT_REFUSED;
	if (ud_path_include_name(path) == NULL) {
		ud_diags_add(
			&res->diags, 0, UD_SEV_ERROR,
			"not a header under include/ or arch/*/include/: cannot place its uapi twin");
		return -EINVAL;
	}
	if (ud_path_is_uapi(path)) {
		ud_diags_add(&res->diags, 0, UD_SEV_ERROR, "already a uapi header");
		return -EINVAL;
	}

	ud_classify(buf, len, markers, nmarkers, c);
	ud_diags_move(&res->diags, &c->diags);
	res->kernel_groups = c->kernel_groups;
	res->retained_groups = c->retained_groups;
	if (c->skip) {
		res->outcome = UD_SPLIT_SKIPPED;
		return 0;
	}
	if (!c->lexed || ud_diags_count(&res->diags, UD_SEV_ERROR) > 0)
		return 0;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.incname = ud_path_include_name(path);
	nl = c->lx.crlf ? "\r\n" : "\n";
	if (single_include(c)) {
		/*
		 * A header that is one "#include <X>" line becomes
		 * "#include <uapi/X>" and its uapi copy keeps the line; the
		 * reduction below then moves it whole, as upstream did.
		 */
		const char *a = c->lx.lines[0].arg + 1;

		add_gen(&w, &w.k, "#include <uapi/",
			ud_arena_strndup(&w.arena, a, (size_t)(strchr(a, '>') - a)), ">");
		olist_add(&w.u, buf, ud_line_textlen(&c->lx, &c->lx.lines[0]));
		goto reduce;
	}
again:
	render(&w, path);
	lost = lost_line(&w);
	if (lost != 0) {
		ud_diags_add(
			&res->diags, lost, UD_SEV_ERROR,
			"internal check: this line would be lost by the split; file left untouched");
		goto out;
	}
	if (!c->include_marked)
		slide_include(&w);
reduce:
	kred = reduce(&w.k);
	if (kred == RED_EMPTY) {
		/* only the guard and the uapi include would be left: move it whole */
		ud_buf_add(&res->uapi, buf, len);
		res->outcome = UD_SPLIT_MOVED;
		goto out;
	}
	ured = reduce(&w.u);
	if ((ured == RED_INCLUDE || ured == RED_EMPTY) && !rerendered && comments_to_kernel(c)) {
		/*
		 * The uapi header is about to shrink to its #includes, which
		 * would drop its comments: keep them in the kernel header,
		 * beside the kernel-only code they describe (as upstream did).
		 */
		rerendered = true;
		w.k.n = w.u.n = 0;
		goto again;
	}
	if (ured == RED_INCLUDE)
		keep_banner_and_includes(&w.u, banner_lines(c));
	else if (ured == RED_EMPTY)
		w.u.n = 0;
	if (w.u.n == 0)
		olist_add(&w.u, "/* */", 5); /* an empty uapi header, as upstream wrote one */
	/* upstream's patches went through git's whitespace fix: no blank lines at the end */
	while (w.u.n > 0 && blank_text(w.u.v[w.u.n - 1].p, w.u.v[w.u.n - 1].n))
		w.u.n--;
	join(&w.k, &res->kernel, nl);
	join(&w.u, &res->uapi, nl);
	res->outcome = UD_SPLIT_SPLIT;
out:
	free(w.k.v);
	free(w.u.v);
	ud_arena_free(&w.arena);
	return 0;
}

void
ud_split_result_free(struct ud_split_result *res)
{
	if (res == NULL)
		return;
	ud_buf_free(&res->kernel);
	ud_buf_free(&res->uapi);
	ud_diags_free(&res->diags);
	ud_classified_free(&res->model);
}
