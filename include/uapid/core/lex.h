/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lexer: splits a header into logical lines.
 *
 * A logical line is one or more physical lines joined by backslash-newline
 * continuations or, for preprocessor directives, by a block comment that
 * starts on the directive line and ends on a later one.  Ordinary code
 * lines inside a multi-line block comment stay separate logical lines
 * (flagged as starting inside a comment), so later stages can move lines
 * one at a time.  Every physical line belongs to exactly one logical line.
 *
 * The lexer also tracks the bracket depth of ordinary code ({, ( and [
 * outside comments, literals and directives) so later stages know whether a
 * directive sits inside a C construct.  `extern "C" {` does not count, and
 * each #else/#elif branch starts from the depth its #if had.
 *
 * Pure: works on a byte buffer, no I/O, linear time, no recursion.
 */
#ifndef UAPID_LEX_H
#define UAPID_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "uapid/util/arena.h"
#include "uapid/util/diag.h"

/* Largest input accepted; kernel headers are far below this. */
#define UD_LEX_MAX_SIZE ((size_t)16 * 1024 * 1024)

enum ud_dir {
	UD_DIR_NONE,	/* not a directive: ordinary code, comment or blank */
	UD_DIR_IF,	/* #if EXPR */
	UD_DIR_IFDEF,	/* #ifdef NAME */
	UD_DIR_IFNDEF,	/* #ifndef NAME */
	UD_DIR_ELIF,	/* #elif EXPR */
	UD_DIR_ELSE,	/* #else */
	UD_DIR_ENDIF,	/* #endif */
	UD_DIR_DEFINE,	/* #define */
	UD_DIR_UNDEF,	/* #undef */
	UD_DIR_INCLUDE, /* #include (also #include_next) */
	UD_DIR_ERROR,	/* #error (also #warning) */
	UD_DIR_OTHER,	/* any other directive, or a lone '#' */
	UD_DIR__COUNT
};

enum ud_line_flag {
	UD_LINE_BLANK = 1 << 0,		    /* only white space */
	UD_LINE_CODE = 1 << 1,		    /* has something outside comments */
	UD_LINE_COMMENT = 1 << 2,	    /* has (part of) a comment */
	UD_LINE_STARTS_IN_COMMENT = 1 << 3, /* begins inside a block comment */
	UD_LINE_ENDS_IN_COMMENT = 1 << 4,   /* ends inside a block comment */
	UD_LINE_CONTINUED = 1 << 5,	    /* joined by backslash-newline */
};

struct ud_line {
	unsigned first, last; /* physical lines, 1-based, inclusive */
	size_t start, end;    /* bytes [start, end) including the final newline */
	enum ud_dir dir;
	/*
	 * For directives: the directive without '#', comments replaced by a
	 * space, continuations joined, white space runs collapsed, trimmed
	 * ("ifdef __KERNEL__").  arg points into it after the name.  NULL for
	 * other lines.  Owned by the lexed file's arena.
	 */
	const char *dtext;
	const char *arg;
	unsigned depth; /* bracket depth of ordinary code where the line starts */
	unsigned flags; /* enum ud_line_flag */
};

struct ud_lexed {
	const char *buf; /* borrowed: the caller keeps the bytes alive */
	size_t len;
	struct ud_line *lines;
	size_t nlines;
	unsigned nphys;	    /* physical lines */
	bool crlf;	    /* the first line ends in CRLF */
	bool final_newline; /* the last line ends in a newline */
	struct ud_arena arena;
};

/*
 * Lexes buf[0..len).  The buffer is borrowed and must outlive 'out'.
 * Returns 0, or -EINVAL with an error diagnostic (NUL byte, too large).
 * 'out' must be freed with ud_lexed_free whatever the result.
 */
int ud_lex(const char *buf, size_t len, struct ud_lexed *out, struct ud_diags *diags);
void ud_lexed_free(struct ud_lexed *lx);
const char *ud_dir_name(enum ud_dir dir);
/* Length of the line's text without its newline (CR LF or LF). */
size_t ud_line_textlen(const struct ud_lexed *lx, const struct ud_line *l);
/* The raw text of logical line li, without its final newline; length in *len. */
const char *ud_line_text(const struct ud_lexed *lx, size_t li, size_t *len);
/* Does logical line li, without leading and trailing blanks, read exactly s? */
bool ud_line_is(const struct ud_lexed *lx, size_t li, const char *s);
/* Does the raw text of logical line li contain s? */
bool ud_line_contains(const struct ud_lexed *lx, size_t li, const char *s);
/* True if the logical line is a conditional directive (#if .. #endif). */
bool ud_dir_is_cond(enum ud_dir dir);

#endif /* UAPID_LEX_H */
