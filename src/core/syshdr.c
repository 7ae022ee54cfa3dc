// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscall-number headers (see syshdr.h).
 *
 * What each script does, in its own terms:
 *  - all three select with grep -E "^NUMBER[[:space:]]+(ABI|ABI..)": the
 *    ABI is a prefix match of the text after the number;
 *  - syscallhdr.sh keeps table order and takes the last selected number
 *    for __NR_syscalls; the other two sort numerically (sort -n, ties in
 *    byte order), s390 printing the number with %d;
 *  - the guard is a prefix and the output file's name, upper-cased, with
 *    every other byte '_', then sed 's/__/_/g'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/chars.h"
#include "uapid/core/make.h"
#include "uapid/core/syshdr.h"
#include "uapid/util/xmalloc.h"

/* One selected table line. */
struct entry {
	const char *line; /* the whole line, for sort's tie-break */
	size_t len;
	char *nr, *name;
	long num; /* nr as the shell reads it */
	unsigned lineno;
};

static char *
strip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return ud_xstrdup(p);
}

static const char *
base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}

void
ud_syshdr_free(struct ud_syshdr *h)
{
	if (h == NULL)
		return;
	free(h->script);
	free(h->table);
	free(h->out);
	free(h->abis);
	free(h->offset);
	free(h->prefix);
	memset(h, 0, sizeof(*h));
}

int
ud_syshdr_parse(const char *command, struct ud_syshdr *h, char **why)
{
	struct ud_strlist w = UD_STRLIST_INIT;
	size_t i = 0, k;
	const char *script, *base;
	int rc = -EINVAL;

	memset(h, 0, sizeof(*h));
	ud_make_words(command, &w);
	if (w.n > 0 && (strcmp(w.v[0], "sh") == 0 || strcmp(base_of(w.v[0]), "bash") == 0))
		i = 1; /* $(CONFIG_SHELL) */
	if (i >= w.n) {
		*why = ud_xasprintf("not a generator command: %s", command);
		goto out;
	}
	script = w.v[i++];
	base = base_of(script);
	h->script = strip_dot(script);
	h->prefix = ud_xstrdup("");
	if (strcmp(base, "syscalltbl") == 0) {
		/* syscalltbl -H -a ABIS -f OUT < IN */
		bool header = false;

		h->form = UD_SYSHDR_S390;
		for (; i < w.n; i++) {
			if (strcmp(w.v[i], "-H") == 0) {
				header = true;
			} else if (strcmp(w.v[i], "-a") == 0 && i + 1 < w.n) {
				h->abis = ud_xstrdup(w.v[++i]);
			} else if (strcmp(w.v[i], "-f") == 0 && i + 1 < w.n) {
				h->out = strip_dot(w.v[++i]);
			} else if (strcmp(w.v[i], "<") == 0 && i + 1 < w.n) {
				h->table = strip_dot(w.v[++i]);
			} else {
				*why = ud_xasprintf("%s: an option uapid does not know: %s", base,
						    w.v[i]);
				goto out;
			}
		}
		if (!header || h->table == NULL || h->out == NULL) {
			*why = ud_xasprintf("%s without -H, -f or an input table: %s", base,
					    command);
			goto out;
		}
		if (h->abis == NULL)
			h->abis = ud_xstrdup("common,64"); /* the script's default */
		rc = 0;
		goto out;
	}
	if (strcmp(base, "syscallhdr.sh") != 0) {
		*why = ud_xasprintf("%s: not a syscall header generator uapid knows", script);
		goto out;
	}
	if (i < w.n && strncmp(w.v[i], "--", 2) != 0 && w.n - i == 5) {
		/* 3.x: IN OUT ABIS PREFIX OFFSET */
		h->form = UD_SYSHDR_X86_3X;
		h->table = strip_dot(w.v[i]);
		h->out = strip_dot(w.v[i + 1]);
		h->abis = w.v[i + 2][0] ? ud_xstrdup(w.v[i + 2]) : NULL;
		free(h->prefix);
		h->prefix = ud_xstrdup(w.v[i + 3]);
		h->offset = w.v[i + 4][0] ? ud_xstrdup(w.v[i + 4]) : NULL;
		rc = 0;
		goto out;
	}
	h->form = UD_SYSHDR_NR;
	for (; i < w.n && strncmp(w.v[i], "--", 2) == 0; i++) {
		if (strcmp(w.v[i], "--emit-nr") == 0) {
			h->emit_nr = true;
		} else if (i + 1 < w.n && strcmp(w.v[i], "--abis") == 0) {
			free(h->abis);
			h->abis = ud_xstrdup(w.v[++i]);
		} else if (i + 1 < w.n && strcmp(w.v[i], "--offset") == 0) {
			free(h->offset);
			h->offset = ud_xstrdup(w.v[++i]);
		} else if (i + 1 < w.n && strcmp(w.v[i], "--prefix") == 0) {
			free(h->prefix);
			h->prefix = ud_xstrdup(w.v[++i]);
		} else {
			*why = ud_xasprintf("%s: an option uapid does not know: %s", base, w.v[i]);
			goto out;
		}
	}
	k = w.n - i;
	if (k != 2) {
		*why = ud_xasprintf("%s wants INFILE OUTFILE after its options: %s", base, command);
		goto out;
	}
	h->table = strip_dot(w.v[i]);
	h->out = strip_dot(w.v[i + 1]);
	rc = 0;
out:
	if (rc < 0)
		ud_syshdr_free(h);
	ud_strlist_free(&w);
	return rc;
}

bool
ud_syshdr_script_known(const struct ud_syshdr *h, const char *script, size_t len)
{
	static const char *const marks[][2] = {
		[UD_SYSHDR_NR] = {"--emit-nr", "guard=_UAPI_ASM_"},
		[UD_SYSHDR_S390] = {"__UAPI_ASM_S390_", "create_header_defines"},
		[UD_SYSHDR_X86_3X] = {"fileguard=_ASM_X86_", "sort -n"},
	};
	size_t i;

	for (i = 0; i < 2; i++)
		if (memmem(script, len, marks[h->form][i], strlen(marks[h->form][i])) == NULL)
			return false;
	return true;
}

/*
 * The guard: the name upper-cased, other bytes '_', then sed 's/__/_/g',
 * after the prefix; s390's script squeezes the prefix with the name
 * (whole), syscallhdr.sh the name alone.
 */
static void
guard_of(const char *prefix, const char *name, bool whole, struct ud_buf *out)
{
	struct ud_buf raw = UD_BUF_INIT;
	size_t i;

	if (whole)
		ud_buf_addstr(&raw, prefix);
	else
		ud_buf_addstr(out, prefix);
	for (i = 0; name[i] != '\0'; i++) {
		char c = name[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!((c >= 'A' && c <= 'Z') || ud_is_digit(c) || c == '_'))
			c = '_';
		ud_buf_addch(&raw, c);
	}
	for (i = 0; i < raw.len; i++) {
		ud_buf_addch(out, raw.data[i]);
		if (raw.data[i] == '_' && i + 1 < raw.len && raw.data[i + 1] == '_')
			i++; /* "__" -> "_", left to right, not overlapping */
	}
	ud_buf_free(&raw);
}

/* Does the ABI field at s start with one of the comma-separated abis? */
static const char *
abi_match(const char *abis, const char *s, size_t n)
{
	const char *a = abis;

	while (*a != '\0') {
		const char *e = strchr(a, ',');
		size_t k = e != NULL ? (size_t)(e - a) : strlen(a);

		if (k <= n && memcmp(a, s, k) == 0)
			return a;
		a += k;
		if (*a == ',')
			a++;
	}
	return NULL;
}

static int
cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c;

	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	c = memcmp(a->line, b->line, n); /* sort's last resort: the whole line, bytewise */
	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

/* The fields of a table line into f[0..3]; returns how many (at most 4). */
static size_t
fields(const char *p, const char *e, const char **f, size_t *fl)
{
	size_t n = 0;

	while (p < e && n < 4) {
		const char *w;

		while (p < e && ud_is_space(*p))
			p++;
		w = p;
		while (p < e && !ud_is_space(*p))
			p++;
		if (p > w) {
			f[n] = w;
			fl[n] = (size_t)(p - w);
			n++;
		}
	}
	return n;
}

static bool
is_number(const char *s, size_t n, bool hex_too)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(ud_is_digit(s[i]) || (hex_too && strchr("ABCDEFabcdefXx", s[i]) != NULL)))
			return false;
	return n > 0;
}

int
ud_syshdr_generate(const struct ud_syshdr *h, const char *table, size_t len, struct ud_buf *out,
		   struct ud_diags *diags)
{
	const char *p = table, *end = table + len;
	struct entry *v = NULL;
	size_t nv = 0, av = 0, i;
	struct ud_buf guard = UD_BUF_INIT;
	unsigned lineno = 0;
	bool *seen = NULL;
	size_t nabis = 0;
	int rc = 0;

	if (h->abis != NULL) {
		const char *a;

		for (a = h->abis, nabis = 1; *a != '\0'; a++)
			nabis += *a == ',';
		seen = ud_xcalloc(nabis, sizeof(bool));
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl != NULL ? nl : end;
		const char *f[4], *q;
		size_t fl[4], nf;

		lineno++;
		for (q = p; q < e && (*q == ' ' || *q == '\t'); q++)
			;
		nf = fields(p, e, f, fl);
		if (q == e || *q == '#') {
			p = nl != NULL ? nl + 1 : end;
			continue; /* blank or comment */
		}
		if (q != p || nf < 3 || !is_number(f[0], fl[0], h->form != UD_SYSHDR_S390)) {
			ud_diags_add_at(diags, h->table, lineno, UD_SEV_ERROR,
					"not a syscall table line (NUMBER ABI NAME ...): %.*s",
					(int)(e - p), p);
			rc = -EINVAL;
		} else {
			const char *hit = h->abis != NULL ? abi_match(h->abis, f[1], fl[1]) : f[1];

			if (hit != NULL) {
				struct entry *en;

				if (seen != NULL) {
					const char *a = h->abis;
					size_t k = 0;

					for (; a < hit; a++)
						k += *a == ',';
					seen[k] = true;
				}
				v = ud_xgrow(v, &av, nv + 1, sizeof(*v));
				en = &v[nv++];
				en->line = p;
				en->len = (size_t)(e - p);
				en->nr = ud_xstrndup(f[0], fl[0]);
				en->name = ud_xstrndup(f[2], fl[2]);
				en->num = strtol(en->nr, NULL, 0); /* the shell's $((...)) */
				en->lineno = lineno;
			}
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (rc == 0 && h->abis != NULL) {
		const char *a = h->abis;

		for (i = 0; i < nabis; i++) {
			const char *e = strchr(a, ',');
			size_t k = e != NULL ? (size_t)(e - a) : strlen(a);

			if (!seen[i])
				ud_diags_add_at(diags, h->table, 0, UD_SEV_NOTE,
						"ABI '%.*s' of %s names no line of the table",
						(int)k, a, base_of(h->out));
			a += k + (e != NULL);
		}
		if (nv == 0)
			ud_diags_add_at(diags, h->table, 0, UD_SEV_WARNING,
					"the ABIs %s select no line: %s is empty", h->abis,
					base_of(h->out));
	}
	if (rc == 0) {
		if (h->form != UD_SYSHDR_NR && nv > 1)
			qsort(v, nv, sizeof(*v), cmp_entry);
		switch (h->form) {
		case UD_SYSHDR_NR:
			guard_of("_UAPI_ASM_", base_of(h->out), false, &guard);
			ud_buf_addf(out, "#ifndef %s\n#define %s\n\n", guard.data, guard.data);
			break;
		case UD_SYSHDR_S390:
			guard_of("__UAPI_ASM_S390_", base_of(h->out), true, &guard);
			ud_buf_addf(
				out,
				"/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
				"#ifndef %s\n#define %s\n\n",
				guard.data, guard.data);
			break;
		case UD_SYSHDR_X86_3X:
			guard_of("_ASM_X86_", base_of(h->out), false, &guard);
			ud_buf_addf(out, "#ifndef %s\n#define %s 1\n\n", guard.data, guard.data);
			break;
		}
		for (i = 0; i < nv; i++) {
			if (h->form == UD_SYSHDR_S390)
				ud_buf_addf(out, "#define __NR_%s %ld\n", v[i].name, v[i].num);
			else if (h->offset != NULL)
				ud_buf_addf(out, "#define __NR_%s%s (%s + %s)\n", h->prefix,
					    v[i].name, h->offset, v[i].nr);
			else
				ud_buf_addf(out, "#define __NR_%s%s %s\n", h->prefix, v[i].name,
					    v[i].nr);
		}
		if (h->form == UD_SYSHDR_NR && h->emit_nr)
			ud_buf_addf(out,
				    "\n#ifdef __KERNEL__\n#define __NR_%ssyscalls %ld\n#endif\n",
				    h->prefix, (nv > 0 ? v[nv - 1].num : 0) + 1);
		ud_buf_addf(out, "\n#endif /* %s */\n", guard.data);
	}
	for (i = 0; i < nv; i++) {
		free(v[i].nr);
		free(v[i].name);
	}
	free(v);
	free(seen);
	ud_buf_free(&guard);
	return rc;
}
