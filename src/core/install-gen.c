// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which generation of the pre-split install a tree has, read from the
 * tree's own scripts (see install.h): scripts/headers_install.pl and the
 * unifdef its Makefile builds from scripts/unifdef.c.
 *
 * The script is recognised by its lines, not by a version number: every
 * edit ("$line =~ s/.../.../") must be one the kernel's scripts had, in
 * their order, the unifdef command one of the two they ran, and the files
 * read and written as they read and wrote them.  A tree whose script was
 * changed (a vendor's extra edit) is refused, never installed differently.
 *
 * Pure: text in, a description out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/core/install.h"
#include "uapid/util/xmalloc.h"

/* The edits of the pre-split scripts, in their order; __packed came with 3.x. */
static const struct {
	const char *text;
	bool optional;
} edits[] = {
	{"$line =~ s/([\\s(])__user\\s/$1/g;", false},
	{"$line =~ s/([\\s(])__force\\s/$1/g;", false},
	{"$line =~ s/([\\s(])__iomem\\s/$1/g;", false},
	{"$line =~ s/\\s__attribute_const__\\s/ /g;", false},
	{"$line =~ s/\\s__attribute_const__$//g;", false},
	{"$line =~ s/\\b__packed\\b/__attribute__((packed))/g;", true},
	{"$line =~ s/^#include <linux\\/compiler.h>//;", false},
	{"$line =~ s/(^|\\s)(inline)\\b/$1__$2__/g;", false},
	{"$line =~ s/(^|\\s)(asm)\\b(\\s|[(]|$)/$1__$2__$3/g;", false},
	{"$line =~ s/(^|\\s|[(])(volatile)\\b(\\s|[(]|$)/$1__$2__$3/g;", false},
};
#define PACKED_EDIT 5

/* Lines the script must have, one of each group (its generations spelt them two ways). */
static const char *const args_line = "my ($readdir, $installdir, $arch, @files) = @ARGV;";
static const char *const run_line = "system $unifdef . \" $tmpfile > $installdir/$file\";";
static const char *const print_lines[] = {"printf {$out} \"%s\", $line;",
					  "printf OUTFILE \"%s\", $line;"};
static const char *const open_lines[] = {"open(my $in, '<', \"$readdir/$file\")",
					 "open(INFILE, \"<$readdir/$file\")"};
static const char *const unifdef_kernel = "my $unifdef = \"scripts/unifdef -U__KERNEL__\";";
static const char *const unifdef_exported =
	"my $unifdef = \"scripts/unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__\";";
static const char *const checked_line = "if ($e > 1) {";

/* The line at p (to its end) without surrounding white space, in out. */
static void
trimmed(const char *p, const char *end, struct ud_buf *out)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	ud_buf_reset(out);
	ud_buf_add(out, p, (size_t)(end - p));
	ud_buf_addstr(out, "");
}

int
ud_install_pl_recognise(const char *script, size_t len, struct ud_install_pl *pl, char **why)
{
	const char *p = script, *end = script + len;
	struct ud_buf l = UD_BUF_INIT;
	bool args = false, run = false, print = false, open = false, unifdef = false;
	size_t next = 0;
	unsigned lineno = 0;
	int rc = 0;

	memset(pl, 0, sizeof(*pl));
	pl->guards = UD_PL_GUARDS_NONE;
	*why = NULL;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl != NULL ? nl : end;
		const char *s;
		size_t i;

		lineno++;
		trimmed(p, le, &l);
		p = nl != NULL ? nl + 1 : end;
		s = ud_buf_str(&l);
		if (s[0] == '#')
			continue;
		if (strcmp(s, args_line) == 0)
			args = true;
		else if (strcmp(s, run_line) == 0)
			run = true;
		else if (strcmp(s, checked_line) == 0)
			pl->unifdef_checked = true;
		for (i = 0; i < 2; i++) {
			print = print || strcmp(s, print_lines[i]) == 0;
			open = open || strcmp(s, open_lines[i]) == 0;
		}
		if (strncmp(s, "my $unifdef", 11) == 0) {
			if (strcmp(s, unifdef_exported) == 0) {
				pl->exported_headers = true;
			} else if (strcmp(s, unifdef_kernel) != 0) {
				*why = ud_xasprintf(
					"line %u: a unifdef command uapid does not know: %s",
					lineno, s);
				rc = -ENOTSUP;
			}
			unifdef = true;
			continue;
		}
		if (strstr(s, "=~") == NULL)
			continue;
		/* an edit: the next of the kernel's, or the packed one skipped */
		while (next < ARRAY_SIZE(edits) && strcmp(s, edits[next].text) != 0 &&
		       edits[next].optional)
			next++;
		if (next < ARRAY_SIZE(edits) && strcmp(s, edits[next].text) == 0) {
			if (next == PACKED_EDIT)
				pl->packed = true;
			next++;
		} else {
			*why = ud_xasprintf("line %u: an edit uapid does not reproduce: %s", lineno,
					    s);
			rc = -ENOTSUP;
		}
	}
	while (rc == 0 && next < ARRAY_SIZE(edits) && edits[next].optional)
		next++;
	if (rc == 0 && next < ARRAY_SIZE(edits))
		*why = ud_xasprintf("it lacks an edit of the kernel's scripts: %s",
				    edits[next].text);
	else if (rc == 0 && (!args || !open))
		*why = ud_xstrdup("it does not read its files as \"$readdir/$file\"");
	else if (rc == 0 && (!run || !unifdef))
		*why = ud_xstrdup("it does not run unifdef as the kernel's scripts did");
	else if (rc == 0 && !print)
		*why = ud_xstrdup("it does not write each edited line as the kernel's scripts did");
	ud_buf_free(&l);
	if (*why != NULL)
		return -ENOTSUP;
	return 0;
}

int
ud_unifdef_recognise(const char *text, size_t len, enum ud_unifdef *version)
{
	static const char v25[] = "$Version: unifdef-2.5 $";
	static const char v190[] = "$dotat: unifdef/unifdef.c,v 1.190 ";
	static const char v171[] = "$dotat: things/unifdef.c,v 1.171 ";
	/* Russell King's patch: an unknown left side no longer ends the evaluation */
	static const char rmk[] = "lhs = ops->inner(ops+1, valp, &cp);";

	if (memmem(text, len, v25, sizeof(v25) - 1) != NULL)
		*version = UD_UNIFDEF_25;
	else if (memmem(text, len, v190, sizeof(v190) - 1) != NULL)
		*version = UD_UNIFDEF_1190;
	else if (memmem(text, len, v171, sizeof(v171) - 1) != NULL &&
		 memmem(text, len, rmk, sizeof(rmk) - 1) != NULL)
		*version = UD_UNIFDEF_1171;
	else
		return -ENOTSUP;
	return 0;
}
