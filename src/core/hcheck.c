// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks on installed uapi headers (see hcheck.h).  The line tests follow
 * headers_check.pl of Linux 6.1 so that uapid reports what the kernel's
 * own check reports, with source lines instead of installed ones.
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/chars.h"
#include "uapid/util/buf.h"
#include "uapid/core/hcheck.h"
#include "uapid/util/strlist.h"
#include "uapid/core/text.h"
#include "uapid/util/xmalloc.h"

#define MAX_INCLUDE_DEPTH 32

struct line {
	const char *p;
	size_t n;
	unsigned no; /* installed line number */
};

/* The source line of installed line no. */
static unsigned
src_line(const struct ud_hcheck_input *in, unsigned no)
{
	if (in->map != NULL && no >= 1 && no <= in->map->n)
		return in->map->v[no - 1];
	return no;
}

/* For "#include <NAME>": NAME (up to the last '>', as the Perl regex takes it). */
static char *
angle_include(const char *s, const char *e)
{
	const char *p = ud_directive_word(s, e, "include"), *open, *close;

	if (p == NULL || p >= e || !ud_is_space(*p))
		return NULL;
	while (p < e && ud_is_space(*p))
		p++;
	if (p >= e || *p != '<')
		return NULL;
	open = p + 1;
	for (close = e; close > open && close[-1] != '>'; close--)
		;
	if (close <= open)
		return NULL;
	return ud_xstrndup(open, (size_t)(close - 1 - open));
}

static bool
is_types_file(const char *dst)
{
	const char *p = dst;

	/* headers_check.pl: $filename =~ /types.h|int-l64.h|int-ll64.h/ */
	while ((p = strstr(p, "types")) != NULL) {
		if (p[5] != '\0' && p[6] == 'h')
			return true;
		p++;
	}
	for (p = dst; (p = strstr(p, "int-l")) != NULL; p++)
		if (strncmp(p, "int-l64", 7) == 0
			    ? p[7] != '\0' && p[8] == 'h'
			    : strncmp(p, "int-ll64", 8) == 0 && p[8] != '\0' && p[9] == 'h')
			return true;
	return false;
}

/* Does NAME (or a header it includes, recursively) include <linux/types.h>? */
static bool
includes_types(const struct ud_hcheck_input *in, const char *name, unsigned depth)
{
	const char *t, *p, *end;
	size_t len;

	if (depth > MAX_INCLUDE_DEPTH || (t = in->lookup(name, &len, in->ctx)) == NULL)
		return false;
	for (p = t, end = t + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *q = ud_directive_word(p, e, "include");

		if (q != NULL) {
			const char *a, *b;

			while (q < e && ud_is_space(*q))
				q++;
			if (q < e && (*q == '<' || *q == '"')) {
				for (a = b = q + 1;
				     b < e && *b != '>' && *b != '"' && !ud_is_space(*b); b++)
					;
				if ((size_t)(b - a) == 13 && memcmp(a, "linux/types.h", 13) == 0)
					return true;
				if (b > a) {
					char *inc = ud_xstrndup(a, (size_t)(b - a));
					bool yes = includes_types(in, inc, depth + 1);

					free(inc);
					if (yes)
						return true;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}

/* __u8 .. __s64 as a word, after removing one-line slash-star comments. */
static bool
uses_sized_type(const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;
	const char *p;
	bool found = false;

	ud_buf_add(&b, s, n);
	if ((p = strstr(ud_buf_str(&b), "/*")) != NULL) {
		/* the first comment closed on this line goes, as the script's Perl does */
		bool open = false;
		const char *c = ud_skip_comment(p, b.data + b.len, &open);

		if (!open) {
			size_t from = (size_t)(p - b.data), to = (size_t)(c - b.data);

			memmove(b.data + from, b.data + to, b.len - to + 1);
			b.len -= to - from;
		}
	}
	for (p = ud_buf_str(&b); (p = strstr(p, "__")) != NULL && !found; p++) {
		static const char *const bits[] = {"8", "16", "32", "64"};
		size_t i;

		if (p[2] != 'u' && p[2] != 's')
			continue;
		for (i = 0; i < 4 && !found; i++) {
			size_t k = strlen(bits[i]);

			found = strncmp(p + 3, bits[i], k) == 0 && !ud_is_ident(p[3 + k]);
		}
	}
	ud_buf_free(&b);
	return found;
}

static bool
is_declaration(const char *s, size_t n)
{
	static const char *const words[] = {"unsigned", "char", "short", "int", "long", "void"};
	const char *p = s, *e = s + n;
	size_t i;

	if (n >= 10 && memcmp(s, "extern \"C\"", 10) == 0)
		return false;
	if (n >= 23 && memcmp(s, "void seqbuf_dump(void);", 23) == 0)
		return false; /* soundcard.h is what it is */
	while (p < e && ud_is_space(*p))
		p++;
	if ((size_t)(e - p) >= 6 && memcmp(p, "extern", 6) == 0 &&
	    (p + 6 == e || !ud_is_ident(p[6])))
		return true;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		size_t k = strlen(words[i]);

		if (n >= k && memcmp(s, words[i], k) == 0 && (n == k || !ud_is_ident(s[k])))
			return true;
	}
	return false;
}

/* Macro names, each with the source line that defines it. */
struct nameset {
	struct ud_strlist names;
	unsigned *line; /* parallel to names */
	size_t alloc;
};

static void
nameset_add(struct nameset *s, const char *p, size_t n, unsigned line)
{
	s->line = ud_xgrow(s->line, &s->alloc, s->names.n + 1, sizeof(unsigned));
	s->line[s->names.n] = line;
	ud_strlist_addn(&s->names, p, n);
}

static void
nameset_free(struct nameset *s)
{
	ud_strlist_free(&s->names);
	free(s->line);
}

/* The macro a "#define NAME" line defines, as [*name, *len]; false if none. */
static bool
defined_macro(const char *s, const char *e, const char **name, size_t *len)
{
	const char *p = ud_directive_word(s, e, "define");

	if (p == NULL || p >= e || !ud_is_space(*p))
		return false;
	while (p < e && ud_is_space(*p))
		p++;
	*name = p;
	while (p < e && ud_is_ident(*p))
		p++;
	*len = (size_t)(p - *name);
	return *len > 0;
}

/*
 * Macros the source defines only in lines the installed header lost (its
 * __KERNEL__ parts), and not in lines it kept.
 */
static void
kernel_only_macros(const struct ud_hcheck_input *in, struct nameset *out)
{
	struct nameset kept = {0};
	unsigned char *keep = ud_xcalloc(in->srclen + 2, 1);
	const char *p, *end = in->src + in->srclen;
	unsigned no = 0, nlines = 0;
	size_t i;

	for (p = in->src; p < end; p = memchr(p, '\n', (size_t)(end - p)), p = p ? p + 1 : end)
		nlines++;
	for (i = 0; i < in->map->n; i++)
		if (in->map->v[i] <= nlines)
			keep[in->map->v[i]] = 1;
	for (p = in->src; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *name;
		size_t len;

		no++;
		if (defined_macro(p, e, &name, &len)) {
			if (keep[no])
				nameset_add(&kept, name, len, no);
			else if (ud_strlist_findn(&out->names, name, len) < 0)
				nameset_add(out, name, len, no);
		}
		p = nl ? nl + 1 : end;
	}
	for (i = 0; i < out->names.n;) {
		if (ud_strlist_has(&kept.names, out->names.v[i])) {
			memmove(&out->line[i], &out->line[i + 1],
				(out->names.n - i - 1) * sizeof(unsigned));
			ud_strlist_remove(&out->names, i);
			continue;
		}
		i++;
	}
	nameset_free(&kept);
	free(keep);
}

/* Is the word at w a struct, union or enum tag (another name space than macros)? */
static bool
after_tag_keyword(const char *line, const char *w)
{
	static const char *const tags[] = {"struct", "union", "enum"};
	const char *e = w;
	size_t i;

	while (e > line && ud_is_space(e[-1]))
		e--;
	for (i = 0; i < 3; i++) {
		size_t k = strlen(tags[i]);

		if ((size_t)(e - line) >= k && memcmp(e - k, tags[i], k) == 0 &&
		    (e - k == line || !ud_is_ident(e[-(long)k - 1])))
			return true;
	}
	return false;
}

/* The installed name a quoted include in dst refers to: "drm.h" in drm/x.h -> drm/drm.h. */
static char *
quoted_include(const char *dst, const char *s, const char *e)
{
	const char *p = ud_directive_word(s, e, "include"), *a, *b, *slash = strrchr(dst, '/');

	if (p == NULL)
		return NULL;
	while (p < e && ud_is_space(*p))
		p++;
	if (p >= e || *p != '"')
		return NULL;
	for (a = b = p + 1; b < e && *b != '"'; b++)
		;
	if (b >= e || b == a)
		return NULL;
	if (slash == NULL)
		return ud_xstrndup(a, (size_t)(b - a));
	return ud_xasprintf("%.*s/%.*s", (int)(slash - dst), dst, (int)(b - a), a);
}

unsigned
ud_hcheck(const struct ud_hcheck_input *in, struct ud_diags *diags)
{
	const char *p = in->text, *end = in->text + in->len;
	bool types_file = is_types_file(in->dst), in_comment = false;
	bool asm_types_seen = false, linux_types = false, sized_reported = false;
	struct nameset kmacros = {0};
	unsigned no = 0, errors = 0;

	if (in->src != NULL && in->map != NULL)
		kernel_only_macros(in, &kmacros);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *q;
		size_t n = (size_t)(e - p);
		char *inc;
		unsigned at;

		no++;
		at = src_line(in, no);
		if ((inc = angle_include(p, e)) != NULL) {
			if (strncmp(inc, "asm", 3) == 0 || strncmp(inc, "linux", 5) == 0) {
				size_t len;
				bool found = in->lookup(inc, &len, in->ctx) != NULL;

				if (!found && strncmp(inc, "asm/", 4) == 0) {
					char *alt = ud_xasprintf("asm-%s/%s", in->srcarch, inc + 4);

					found = in->lookup(alt, &len, in->ctx) != NULL;
					free(alt);
				}
				if (!found) {
					ud_diags_add(diags, at, UD_SEV_ERROR,
						     "included file '%s' is not exported", inc);
					errors++;
				}
			}
			if (!types_file && !linux_types &&
			    (strcmp(inc, "linux/types.h") == 0 || includes_types(in, inc, 0)))
				linux_types = true;
			if (!types_file && !asm_types_seen && strcmp(inc, "asm/types.h") == 0) {
				asm_types_seen = true;
				ud_diags_add(
					diags, at, UD_SEV_WARNING,
					"include of <linux/types.h> is preferred over <asm/types.h>");
			}
			free(inc);
		}
		if (!types_file && !linux_types && (inc = quoted_include(in->dst, p, e)) != NULL) {
			linux_types = includes_types(in, inc, 0);
			free(inc);
		}
		if (is_declaration(p, n))
			ud_diags_add(
				diags, at, UD_SEV_WARNING,
				"userspace cannot reference function or variable defined in the kernel");
		if (!types_file && !linux_types && !sized_reported && uses_sized_type(p, n)) {
			sized_reported = true;
			ud_diags_add(
				diags, at, UD_SEV_WARNING,
				"found __[us]{8,16,32,64} type without #include <linux/types.h>");
		}
		/* leftovers of kernel-only content, in code (not comments) */
		for (q = p; (q = ud_skip_comment(q, e, &in_comment)) < e;) {
			if (ud_is_ident(*q) && (q == p || !ud_is_ident(q[-1]))) {
				const char *w = q;
				long k;

				while (q < e && ud_is_ident(*q))
					q++;
				if ((size_t)(q - w) == 10 && memcmp(w, "__KERNEL__", 10) == 0) {
					ud_diags_add(
						diags, at, UD_SEV_WARNING,
						"__KERNEL__ left in an installed header: a condition the install could not resolve");
				} else if ((k = ud_strlist_findn(&kmacros.names, w,
								 (size_t)(q - w))) >= 0 &&
					   !after_tag_keyword(p, w)) {
					const char *dn;
					size_t dl;

					if (!(defined_macro(p, e, &dn, &dl) && dn == w)) {
						ud_diags_add(
							diags, at, UD_SEV_ERROR,
							"uses %s, which this header defines only under __KERNEL__ (line %u)",
							kmacros.names.v[k], kmacros.line[k]);
						errors++;
					}
				}
				continue;
			}
			q++;
		}
		p = nl ? nl + 1 : end;
	}
	nameset_free(&kmacros);
	return errors;
}
