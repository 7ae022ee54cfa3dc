/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small text jobs the core does in several places: collapsing white space,
 * recognising a directive line, skipping slash-star comments.  One
 * implementation each, on byte ranges, locale-independent.
 */
#ifndef UAPID_TEXT_H
#define UAPID_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copies src[0..n) to dst with every run of white space (ud_is_space)
 * made one blank and none at either end; dst may be src, and needs n + 1
 * bytes.  Returns the new length; dst is NUL-terminated.
 */
size_t ud_squeeze(char *dst, const char *src, size_t n);

/*
 * If [s, e) reads "[blanks]#[blanks]WORD" (WORD a prefix of what follows:
 * "if" matches "#ifdef"), returns the position just after WORD, else NULL.
 */
const char *ud_directive_word(const char *s, const char *e, const char *word);

/*
 * The first byte at or after p in [p, e) that is outside a slash-star
 * comment, or e.  *in_comment says whether p is inside one, and is left
 * saying whether e is (comments carry over from line to line).  String
 * and character literals are not special, as in the kernel's sed and Perl
 * rules this follows.
 */
const char *ud_skip_comment(const char *p, const char *e, bool *in_comment);

#endif /* UAPID_TEXT_H */
