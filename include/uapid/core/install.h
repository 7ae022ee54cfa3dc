/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Installing one uapi header: what the kernel's scripts/headers_install.sh
 * does to it on its way to userspace, so the result is byte-identical.
 *
 *  1. refuse a GPL SPDX line without "WITH Linux-syscall-note";
 *  2. the script's sed edits: drop __user/__force/__iomem and
 *     __attribute_const__, drop the linux/compiler.h include, spell out
 *     __packed, add underscores around inline/asm/volatile, and strip the
 *     _UAPI prefix from guards;
 *  3. resolve __KERNEL__ (undefined) and __EXPORTED_HEADERS__ (defined)
 *     with ud_select;
 *  4. refuse CONFIG_ symbols left in code (not comments), except the
 *     grandfathered ones the tree's own script lists.
 *
 * Pure: buffers in, buffer out.
 */
#ifndef UAPID_INSTALL_H
#define UAPID_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/buf.h"
#include "uapid/util/diag.h"
#include "uapid/core/select.h"

/* Changes whenever installed output for the same input could change (caches key on it). */
#define UD_INSTALL_VERSION 2

/* Which install a tree has: its scripts/headers_install.* */
enum ud_install_style {
	UD_INSTALL_SH,	 /* headers_install.sh (4.x on): sed edits, unifdef, SPDX and CONFIG_ checks
			  */
	UD_INSTALL_PL38, /* headers_install.pl of 3.8 on: Perl edits, "\s+_UAPI" guards, unifdef */
	UD_INSTALL_PL37, /* headers_install.pl of 3.7: the same with literal " _UAPI" guards */
	UD_INSTALL_PL26, /* headers_install.pl before the split (2.6.27 to 3.6): each list of
			  * files named from its directory, no guard edits; its
			  * generation in struct ud_install_pl */
};

/* The guard edits of a headers_install.pl. */
enum ud_pl_guards {
	UD_PL_GUARDS_NONE, /* before 3.7: none */
	UD_PL_GUARDS_37,   /* 3.7: "KEY _UAPI" with one blank */
	UD_PL_GUARDS_38,   /* 3.8 on: "KEY\s+_UAPI" */
};

/*
 * One generation of scripts/headers_install.pl, and the unifdef it runs:
 * what decides the bytes it installs.
 */
struct ud_install_pl {
	bool packed;		  /* s/\b__packed\b/__attribute__((packed))/g (3.x) */
	enum ud_pl_guards guards; /* its _UAPI guard edits */
	bool exported_headers;	  /* unifdef -D__EXPORTED_HEADERS__, not -U__KERNEL__ alone */
	bool unifdef_checked;	  /* it stops when unifdef fails (3.x); before, it went on */
	enum ud_unifdef unifdef;  /* which unifdef its tree builds (scripts/unifdef.c) */
};

struct ud_install_rules {
	/* "path:CONFIG_X" entries; a leak is allowed when "PATH:SYM" ends with one */
	char **leak_ignores;
	size_t nleak_ignores;
};

/*
 * Installs the header at tree-relative 'path' (its text in buf) into out.
 * Returns 0, or -EINVAL with error diagnostics naming the line.
 */
int ud_install_header(const char *path, const char *buf, size_t len,
		      const struct ud_install_rules *rules, struct ud_buf *out,
		      struct ud_linemap *map, struct ud_diags *diags);
/* Step 2 alone, on one line without its newline (for tests and tools). */
void ud_install_sed_line(const char *line, size_t len, struct ud_buf *out);
/*
 * Reads the grandfathered CONFIG_ leaks from the text of a tree's
 * scripts/headers_install.sh (its config_leak_ignores="..." list) into
 * rules; returns how many.
 */
size_t ud_install_rules_parse(const char *script, size_t len, struct ud_install_rules *rules);
void ud_install_rules_free(struct ud_install_rules *rules);

/*
 * The 3.x install of one header: headers_install.pl's Perl edits (perl38:
 * its 3.8 form), then unifdef.  No SPDX or CONFIG_ check existed then.
 * Returns 0, or -EINVAL with error diagnostics naming the line.
 */
int ud_install_header_pl(const char *buf, size_t len, bool perl38, struct ud_buf *out,
			 struct ud_linemap *map, struct ud_diags *diags);
/* The Perl edits alone, on one line with its newline (for tests and tools); appended to out. */
void ud_install_pl_line(const char *line, size_t len, bool perl38, struct ud_buf *out);
/* The generation of the 3.7 (perl38 false) or 3.8-on headers_install.pl. */
void ud_install_pl_of_3x(bool perl38, struct ud_install_pl *pl);
/*
 * The install of one header by the headers_install.pl generation pl: its
 * Perl edits, then its unifdef with its symbols.  Returns 0, or -EINVAL
 * with error diagnostics naming the line (also where that generation's
 * script would have installed what a failing unifdef left: uapid does not
 * reproduce a truncated header).
 */
int ud_install_header_pl_as(const char *buf, size_t len, const struct ud_install_pl *pl,
			    struct ud_buf *out, struct ud_linemap *map, struct ud_diags *diags);
/* The Perl edits of generation pl on one line with its newline; appended to out. */
void ud_install_pl_edit_line(const char *line, size_t len, const struct ud_install_pl *pl,
			     struct ud_buf *out);

/*
 * Reads a headers_install.pl of before the split (it opens
 * "$readdir/$file"): the unifdef command, the edits and whether it checks
 * unifdef's exit, into pl (pl->unifdef is left for
 * ud_unifdef_recognise).  Every "$line =~" edit must be one uapid knows,
 * in the order the kernel's scripts have them.  Returns 0, or -ENOTSUP
 * with *why (malloc'd) naming the line uapid does not reproduce.
 */
int ud_install_pl_recognise(const char *script, size_t len, struct ud_install_pl *pl, char **why);
/*
 * Which unifdef a tree's scripts/unifdef.c is, by its version line (1.171
 * only with the kernel's boolean patch).  Returns 0, or -ENOTSUP.
 */
int ud_unifdef_recognise(const char *text, size_t len, enum ud_unifdef *version);

#endif /* UAPID_INSTALL_H */
