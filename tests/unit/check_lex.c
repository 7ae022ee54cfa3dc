// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lexer tests: logical lines, comments, literals, depth, limits.
 */
#include "testutil.h"
#include "uapid/core/lex.h"

struct lexed_case {
	struct ud_lexed lx;
	struct ud_diags d;
};

static void
lex(struct lexed_case *c, const char *s)
{
	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(ud_lex(s, strlen(s), &c->lx, &c->d), 0);
}

static void
done(struct lexed_case *c)
{
	ud_lexed_free(&c->lx);
	ud_diags_free(&c->d);
}

START_TEST(test_continuation)
{
	struct lexed_case c;

	lex(&c, "#define A(x) \\\n\t((x) + 1)\nint a;\n");
	ck_assert_uint_eq(c.lx.nlines, 2);
	ck_assert_uint_eq(c.lx.nphys, 3);
	ck_assert_uint_eq(c.lx.lines[0].first, 1);
	ck_assert_uint_eq(c.lx.lines[0].last, 2);
	ck_assert_int_eq(c.lx.lines[0].dir, UD_DIR_DEFINE);
	ck_assert_str_eq(c.lx.lines[0].dtext, "define A(x) ((x) + 1)");
	ck_assert_str_eq(c.lx.lines[0].arg, "A(x) ((x) + 1)");
	ck_assert(c.lx.lines[0].flags & UD_LINE_CONTINUED);
	ck_assert_uint_eq(c.lx.lines[1].first, 3);
	done(&c);
}
END_TEST

START_TEST(test_comment_in_directive)
{
	struct lexed_case c;

	lex(&c, "#ifdef __KERNEL__ /* comment\n continues */\nint k;\n#endif // end\n");
	ck_assert_uint_eq(c.lx.nlines, 3);
	ck_assert_uint_eq(c.lx.lines[0].last, 2);
	ck_assert_int_eq(c.lx.lines[0].dir, UD_DIR_IFDEF);
	ck_assert_str_eq(c.lx.lines[0].dtext, "ifdef __KERNEL__");
	ck_assert_str_eq(c.lx.lines[0].arg, "__KERNEL__");
	ck_assert_int_eq(c.lx.lines[2].dir, UD_DIR_ENDIF);
	ck_assert_str_eq(c.lx.lines[2].dtext, "endif");
	done(&c);
}
END_TEST

START_TEST(test_block_comment_lines_stay_separate)
{
	struct lexed_case c;

	lex(&c, "/*\n * text\n */\nint a; /* x\n y */ int b;\n\n");
	ck_assert_uint_eq(c.lx.nlines, 6);
	ck_assert(c.lx.lines[0].flags & UD_LINE_COMMENT);
	ck_assert(c.lx.lines[0].flags & UD_LINE_ENDS_IN_COMMENT);
	ck_assert(c.lx.lines[1].flags & UD_LINE_STARTS_IN_COMMENT);
	ck_assert(!(c.lx.lines[1].flags & UD_LINE_CODE));
	ck_assert(!(c.lx.lines[2].flags & UD_LINE_ENDS_IN_COMMENT));
	ck_assert(c.lx.lines[3].flags & UD_LINE_CODE);
	ck_assert(c.lx.lines[4].flags & UD_LINE_STARTS_IN_COMMENT);
	ck_assert(c.lx.lines[4].flags & UD_LINE_CODE);
	ck_assert(c.lx.lines[5].flags & UD_LINE_BLANK);
	done(&c);
}
END_TEST

START_TEST(test_strings_do_not_open_comments)
{
	struct lexed_case c;

	lex(&c, "char *s = \"/*\";\n#define Q '\"'\nint x; // \"\n#if 1\n");
	ck_assert_uint_eq(c.lx.nlines, 4);
	ck_assert(!(c.lx.lines[0].flags & UD_LINE_ENDS_IN_COMMENT));
	ck_assert_int_eq(c.lx.lines[1].dir, UD_DIR_DEFINE);
	ck_assert_str_eq(c.lx.lines[1].arg, "Q '\"'");
	ck_assert_int_eq(c.lx.lines[3].dir, UD_DIR_IF);
	done(&c);
}
END_TEST

START_TEST(test_unterminated_literal_ends_at_newline)
{
	struct lexed_case c;

	lex(&c, "#error don't do this\n#ifdef X\n");
	ck_assert_uint_eq(c.lx.nlines, 2);
	ck_assert_int_eq(c.lx.lines[0].dir, UD_DIR_ERROR);
	ck_assert_int_eq(c.lx.lines[1].dir, UD_DIR_IFDEF);
	done(&c);
}
END_TEST

START_TEST(test_depth)
{
	struct lexed_case c;

	lex(&c, "struct a {\n#ifdef __KERNEL__\n\tint k;\n#endif\n};\n#ifdef __KERNEL__\n#endif\n");
	ck_assert_uint_eq(c.lx.lines[1].depth, 1);
	ck_assert_uint_eq(c.lx.lines[5].depth, 0);
	done(&c);

	lex(&c, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n#ifdef __KERNEL__\n#endif\n");
	ck_assert_uint_eq(c.lx.lines[3].depth, 0);
	done(&c);

	lex(&c,
	    "#ifdef A\nstruct a {\n#else\nstruct b {\n#endif\n\tint x;\n#ifdef __KERNEL__\n#endif\n};\n#if X\n");
	ck_assert_uint_eq(c.lx.lines[3].depth, 0);
	ck_assert_uint_eq(c.lx.lines[6].depth, 1);
	ck_assert_uint_eq(c.lx.lines[9].depth, 0);
	done(&c);

	lex(&c, "#if 0\n{ { (\n#endif\n#ifdef __KERNEL__\n#endif\n");
	ck_assert_uint_eq(c.lx.lines[3].depth, 0);
	done(&c);

	lex(&c, "}}} ))\n#if X\n"); /* unbalanced closes do not underflow */
	ck_assert_uint_eq(c.lx.lines[1].depth, 0);
	done(&c);

	lex(&c, "#define OPEN {\nint x;\n"); /* directives do not count */
	ck_assert_uint_eq(c.lx.lines[1].depth, 0);
	done(&c);
}
END_TEST

START_TEST(test_crlf_and_final_newline)
{
	struct lexed_case c;

	lex(&c, "#ifdef A\r\nint a;\r\n#endif");
	ck_assert(c.lx.crlf);
	ck_assert(!c.lx.final_newline);
	ck_assert_uint_eq(c.lx.nlines, 3);
	ck_assert_str_eq(c.lx.lines[0].arg, "A");
	ck_assert_uint_eq(ud_line_textlen(&c.lx, &c.lx.lines[0]), 8);
	ck_assert_uint_eq(ud_line_textlen(&c.lx, &c.lx.lines[2]), 6);
	ck_assert_int_eq(c.lx.lines[2].dir, UD_DIR_ENDIF);
	done(&c);
}
END_TEST

START_TEST(test_directive_kinds)
{
	struct lexed_case c;

	lex(&c, "#include_next <x.h>\n# warning hi\n#\n  #  pragma once\n#if\n");
	ck_assert_int_eq(c.lx.lines[0].dir, UD_DIR_INCLUDE);
	ck_assert_int_eq(c.lx.lines[1].dir, UD_DIR_ERROR);
	ck_assert_int_eq(c.lx.lines[2].dir, UD_DIR_OTHER);
	ck_assert_int_eq(c.lx.lines[3].dir, UD_DIR_OTHER);
	ck_assert_str_eq(c.lx.lines[3].dtext, "pragma once");
	ck_assert_int_eq(c.lx.lines[4].dir, UD_DIR_IF);
	ck_assert_str_eq(c.lx.lines[4].arg, "");
	ck_assert_str_eq(ud_dir_name(UD_DIR_IFNDEF), "ifndef");
	done(&c);
}
END_TEST

START_TEST(test_rejects_nul_and_size)
{
	struct ud_lexed lx;
	struct ud_diags d = UD_DIAGS_INIT;
	static const char nul[] = "a\nb\n\0c\n";
	char *big;

	ck_assert_int_lt(ud_lex(nul, sizeof(nul) - 1, &lx, &d), 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.v[0].line, 3);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "NUL"));
	ud_lexed_free(&lx);
	ud_diags_free(&d);

	big = ud_xcalloc(UD_LEX_MAX_SIZE + 1, 1);
	memset(big, 'x', UD_LEX_MAX_SIZE + 1);
	ck_assert_int_lt(ud_lex(big, UD_LEX_MAX_SIZE + 1, &lx, &d), 0);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "16 MiB"));
	ud_lexed_free(&lx);
	ud_diags_free(&d);
	free(big);
}
END_TEST

START_TEST(test_empty_and_coverage)
{
	struct lexed_case c;
	size_t i;
	unsigned next = 1;

	lex(&c, "");
	ck_assert_uint_eq(c.lx.nlines, 0);
	ck_assert_uint_eq(c.lx.nphys, 0);
	done(&c);

	lex(&c, "a\\\nb\n/* x\n#if y */\n#define Z /*\n*/ 1\n\"s\\\n\"\n");
	for (i = 0; i < c.lx.nlines; i++) {
		ck_assert_uint_eq(c.lx.lines[i].first, next);
		next = c.lx.lines[i].last + 1;
	}
	ck_assert_uint_eq(next - 1, c.lx.nphys);
	ck_assert_uint_eq(c.lx.nphys, 8);
	/* a directive inside a comment is not a directive */
	ck_assert_int_eq(c.lx.lines[2].dir, UD_DIR_NONE);
	done(&c);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("lex");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_continuation);
	tcase_add_test(tc, test_comment_in_directive);
	tcase_add_test(tc, test_block_comment_lines_stay_separate);
	tcase_add_test(tc, test_strings_do_not_open_comments);
	tcase_add_test(tc, test_unterminated_literal_ends_at_newline);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_crlf_and_final_newline);
	tcase_add_test(tc, test_directive_kinds);
	tcase_add_test(tc, test_rejects_nul_and_size);
	tcase_add_test(tc, test_empty_and_coverage);
	suite_add_tcase(s, tc);
	return test_run(s);
}
