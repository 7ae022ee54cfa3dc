// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small text job tests: white space squeezing, directive words, comment
 * skipping.
 */
#include "testutil.h"
#include "uapid/core/text.h"

/* ud_squeeze on a copy of s (its first n bytes), in place; returns the copy. */
static char *
squeeze(const char *s, size_t n, size_t *len)
{
	char *b = ud_xmalloc(n + 1);

	memcpy(b, s, n);
	*len = ud_squeeze(b, b, n);
	return b;
}

START_TEST(test_squeeze_each_space)
{
	static const char spaces[] = " \t\n\v\f\r";
	size_t i, len;

	for (i = 0; spaces[i] != '\0'; i++) {
		char in[8] = {'x', spaces[i], spaces[i], spaces[i], 'y', spaces[i], '\0'};
		char *out = squeeze(in, strlen(in), &len);

		ck_assert_msg(strcmp(out, "x y") == 0, "space %#x: '%s'", spaces[i], out);
		ck_assert_uint_eq(len, 3);
		free(out);
	}
}
END_TEST

START_TEST(test_squeeze)
{
	static const char mixed[] = " \t\n\v\f\r#  define\t\tX \r\n  1\v\f";
	char dst[64];
	size_t len;
	char *out = squeeze(mixed, sizeof(mixed) - 1, &len);

	ck_assert_str_eq(out, "# define X 1");
	ck_assert_uint_eq(len, 12);
	free(out);

	/* a separate destination, and only n bytes of the source */
	ck_assert_uint_eq(ud_squeeze(dst, "ab  cd  ef", 6), 5);
	ck_assert_str_eq(dst, "ab cd");
	/* all blanks, and nothing */
	ck_assert_uint_eq(ud_squeeze(dst, " \t \n", 4), 0);
	ck_assert_str_eq(dst, "");
	ck_assert_uint_eq(ud_squeeze(dst, "ignored", 0), 0);
	ck_assert_str_eq(dst, "");
	/* other control bytes are not white space */
	ck_assert_uint_eq(ud_squeeze(dst, "a\x01  \x1f\tb", 7), 6);
	ck_assert_str_eq(dst, "a\x01 \x1f b");
	/* nothing to do */
	ck_assert_uint_eq(ud_squeeze(dst, "a b", 3), 3);
	ck_assert_str_eq(dst, "a b");
}
END_TEST

/* ud_directive_word on a whole string; the offset of the result, or -1. */
static long
word_at(const char *s, const char *word)
{
	const char *r = ud_directive_word(s, s + strlen(s), word);

	return r != NULL ? r - s : -1;
}

START_TEST(test_directive_word)
{
	ck_assert_int_eq(word_at("#ifdef X", "ifdef"), 6);
	ck_assert_int_eq(word_at("#ifdef X", "if"), 3); /* a prefix matches */
	ck_assert_int_eq(word_at("#if", "if"), 3);	/* up to the end */
	ck_assert_int_eq(word_at("  #  define X 1", "define"), 11);
	ck_assert_int_eq(word_at("\t#\tinclude <a.h>", "include"), 10);
	ck_assert_int_eq(word_at("\v\f\r# endif", "endif"), 10);
	ck_assert_int_eq(word_at("#ifdef X", "ifndef"), -1);
	ck_assert_int_eq(word_at("#el", "else"), -1); /* shorter than the word */
	ck_assert_int_eq(word_at("if X", "if"), -1);  /* no '#' */
	ck_assert_int_eq(word_at("x #if", "if"), -1); /* text before the '#' */
	ck_assert_int_eq(word_at("/* c */ #if", "if"), -1);
	ck_assert_int_eq(word_at("", "if"), -1);
	ck_assert_int_eq(word_at("   ", "if"), -1);
	ck_assert_int_eq(word_at("#", "if"), -1);
	ck_assert_int_eq(word_at("# ", ""), 2); /* the empty word: just past the blanks */
}
END_TEST

START_TEST(test_directive_word_bounds)
{
	static const char s[] = "#ifdef X";

	/* the range, not the NUL, ends the text */
	ck_assert_ptr_null(ud_directive_word(s, s + 2, "if"));
	ck_assert_ptr_eq(ud_directive_word(s, s + 3, "if"), s + 3);
	ck_assert_ptr_null(ud_directive_word(s, s, "if"));
	ck_assert_ptr_null(ud_directive_word(s, s + 1, "if"));
}
END_TEST

/* ud_skip_comment on a whole string; the offset of the result. */
static long
skip_at(const char *s, bool *in)
{
	return ud_skip_comment(s, s + strlen(s), in) - s;
}

START_TEST(test_skip_comment)
{
	bool in = false;

	ck_assert_int_eq(skip_at("x /* c */", &in), 0); /* not at a comment */
	ck_assert(!in);
	ck_assert_int_eq(skip_at("/* a */ b", &in), 7); /* the blank after it */
	ck_assert(!in);
	ck_assert_int_eq(skip_at("/* a *//* b */x", &in), 14); /* one after the other */
	ck_assert(!in);
	ck_assert_int_eq(skip_at("/**/", &in), 4);
	ck_assert(!in);
	ck_assert_int_eq(skip_at("/*/ x", &in), 5); /* slash-star-slash does not close */
	ck_assert(in);
	in = false;
	ck_assert_int_eq(skip_at("/", &in), 0); /* a lone slash */
	ck_assert(!in);
	ck_assert_int_eq(skip_at("*/ x", &in), 0); /* a close outside a comment is text */
	ck_assert(!in);
	ck_assert_int_eq(skip_at("", &in), 0);
	ck_assert(!in);
	ck_assert_int_eq(skip_at("\"/* not special */\"", &in), 0);
	ck_assert(!in);
}
END_TEST

START_TEST(test_skip_comment_lines)
{
	static const char *const lines[] = {"/* opens here", " * goes on /* still the same",
					    " * closes */ int a;", "int b; /* once more */"};
	bool in = false;

	/* state carries from line to line */
	ck_assert_int_eq(skip_at(lines[0], &in), (long)strlen(lines[0]));
	ck_assert(in);
	ck_assert_int_eq(skip_at(lines[1], &in), (long)strlen(lines[1])); /* no nesting */
	ck_assert(in);
	ck_assert_int_eq(skip_at(lines[2], &in), 12);
	ck_assert(!in);
	ck_assert_int_eq(skip_at(lines[3], &in), 0);
	ck_assert(!in);
	/* an opening inside a comment does not nest: the first close ends it */
	in = true;
	ck_assert_int_eq(skip_at("a /* b */c */", &in), 9);
	ck_assert(!in);
	/* unterminated */
	in = false;
	ck_assert_int_eq(skip_at("/* never closed", &in), 15);
	ck_assert(in);
	/* an empty range leaves the state alone */
	ck_assert_int_eq(skip_at("", &in), 0);
	ck_assert(in);
}
END_TEST

START_TEST(test_skip_comment_bounds)
{
	static const char s[] = "/* a */b";
	bool in = false;

	/* a close beyond the range does not count */
	ck_assert_ptr_eq(ud_skip_comment(s, s + 6, &in), s + 6);
	ck_assert(in);
	in = false;
	ck_assert_ptr_eq(ud_skip_comment(s, s + 7, &in), s + 7);
	ck_assert(!in);
	/* "/" as the last byte of the range is not an opening */
	ck_assert_ptr_eq(ud_skip_comment(s, s + 1, &in), s);
	ck_assert(!in);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_squeeze_each_space);
	tcase_add_test(tc, test_squeeze);
	tcase_add_test(tc, test_directive_word);
	tcase_add_test(tc, test_directive_word_bounds);
	tcase_add_test(tc, test_skip_comment);
	tcase_add_test(tc, test_skip_comment_lines);
	tcase_add_test(tc, test_skip_comment_bounds);
	suite_add_tcase(s, tc);
	return test_run(s);
}
