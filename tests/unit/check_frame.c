// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header frame tests (src/core/frame.h), through the classifier: the
 * leading banner, the late and later licence banners, the include guard
 * and the include-order check.
 */
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/arena.h"
#include "uapid/core/classify.h"
#include "frame.h"

static void
classify(struct ud_classified *c, const char *text)
{
	ck_assert_int_eq(ud_classify(text, strlen(text), NULL, 0, c), 0);
	ck_assert(c->lexed);
}

/* The logical lines whose role is UD_ROLE_BANNER, as "0 1 2" (malloc'd). */
static char *
banner_lines(const struct ud_classified *c)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < c->lx.nlines; i++)
		if (c->role[i] == UD_ROLE_BANNER)
			ud_buf_addf(&b, "%s%zu", b.len ? " " : "", i);
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

/* Classifies text and checks its banner lines and banner_last. */
static void
expect_banner(const char *text, const char *lines, size_t last)
{
	struct ud_classified c;
	char *got;

	classify(&c, text);
	got = banner_lines(&c);
	ck_assert_msg(strcmp(got, lines) == 0, "banner lines '%s', want '%s' in:\n%s", got, lines,
		      text);
	ck_assert_msg(c.banner_last == last, "banner_last %zu, want %zu in:\n%s", c.banner_last,
		      last, text);
	free(got);
	ud_classified_free(&c);
}

#define GUARD "#ifndef _LINUX_X_H\n#define _LINUX_X_H\nint x;\n#endif\n"

START_TEST(test_banner_run)
{
	/* two comments and the empty lines between and after them, less the last */
	expect_banner("/*\n"	       /* 0 */
		      " * first\n"     /* 1 */
		      " */\n"	       /* 2 */
		      "\n"	       /* 3 */
		      "/* second */\n" /* 4 */
		      "\n"	       /* 5 */
		      "\n"	       /* 6: stays */
		      GUARD,
		      "0 1 2 3 4 5", 5);
	/* one empty line after: it stays where it is */
	expect_banner("/* a */\n\n" GUARD, "0", 0);
	/* none after */
	expect_banner("/* a */\n" GUARD, "0", 0);
	/* a file that is all comment */
	expect_banner("/* a */\n/* b */\n", "0 1", 1);
	/* empty lines first belong to the run */
	expect_banner("\n/* a */\n" GUARD, "0 1", 1);
}
END_TEST

START_TEST(test_banner_ends)
{
	/* a line of white space is not empty: it ends the run */
	expect_banner("/* a */\n   \n/* b */\n" GUARD, "0", 0);
	expect_banner("/* a */\n\t\n" GUARD, "0", 0);
	/* text after the close: no banner */
	expect_banner("/* a */ int y;\n" GUARD, "", UD_NO_LINE);
	/* after a banner comment, one with text after its close ends the run */
	expect_banner("/* a */\n/* b */ int y;\n" GUARD, "0", 0);
	/* a comment not at column 0 */
	expect_banner(" /* a */\n" GUARD, "", UD_NO_LINE);
	/* a line comment is not a banner */
	expect_banner("// a\n" GUARD, "", UD_NO_LINE);
	/* an unterminated comment */
	expect_banner("/* a\n * b\n", "", UD_NO_LINE);
	/* code first */
	expect_banner(GUARD "/* late */\n", "", UD_NO_LINE);
	/* several closes on the last line: only blanks after the last */
	expect_banner("/* a */ /* b */  \n" GUARD, "0", 0);
}
END_TEST

START_TEST(test_late_banner)
{
	/* licence comments right inside the guard; a descriptive one stops the run */
	static const char text[] = "#ifndef _LINUX_L_H\n"			 /* 0 */
				   "#define _LINUX_L_H\n"			 /* 1 */
				   "\n"						 /* 2 */
				   "/*\n"					 /* 3 */
				   " * Copyright (C) 2012 Someone\n"		 /* 4 */
				   " */\n"					 /* 5 */
				   "\n"						 /* 6 */
				   "/* Author: Jane Doe <jane@example.com> */\n" /* 7 */
				   "\n"						 /* 8 */
				   "/* This header describes things. */\n"	 /* 9 */
				   "\n"						 /* 10 */
				   "/* Licensed under the GPL. */\n"		 /* 11 */
				   "struct s { int a; };\n"			 /* 12 */
				   "#endif\n";					 /* 13 */
	struct ud_classified c;

	expect_banner(text, "3 4 5 7", 7);
	classify(&c, text);
	ck_assert_str_eq(c.guard_name, "_LINUX_L_H");
	ck_assert_uint_eq(c.guard_define, 1);
	ud_classified_free(&c);

	/* the run starts right after the #define (blank lines allowed) */
	expect_banner("#ifndef G\n#define G\n/* GPL v2 */\n\n\n/* (c) 2001 <a@b.org> */\nint x;\n"
		      "#endif\n",
		      "2 5", 5);
	/* licence words in any case */
	expect_banner("#ifndef G\n#define G\n/* LICENCE: MIT */\nint x;\n#endif\n", "2", 2);
	expect_banner("#ifndef G\n#define G\n/* copyright me */\nint x;\n#endif\n", "2", 2);
	/* a leading banner takes precedence: no late one */
	expect_banner("/* top */\n#ifndef G\n#define G\n/* Copyright me */\nint x;\n#endif\n", "0",
		      0);
	/* no guard: no late banner */
	expect_banner("int y;\n/* Copyright me */\n", "", UD_NO_LINE);
	/* "GPL" counts only in upper case, an address needs a dot after the '@' */
	expect_banner("#ifndef G\n#define G\n/* gpl */\n/* x@y */\nint x;\n#endif\n", "",
		      UD_NO_LINE);
}
END_TEST

START_TEST(test_later_licence)
{
	/* no run after the guard: the first licence comment further down moves */
	static const char text[] = "#ifndef _LINUX_M_H\n"		   /* 0 */
				   "#define _LINUX_M_H\n"		   /* 1 */
				   "\n"					   /* 2 */
				   "/* This header describes things. */\n" /* 3 */
				   "\n"					   /* 4 */
				   "#include <linux/types.h>\n"		   /* 5 */
				   "#ifdef __KERNEL__\n"		   /* 6 */
				   "/* Copyright: the kernel part */\n"	   /* 7: not here */
				   "int k;\n"				   /* 8 */
				   "#endif\n"				   /* 9 */
				   "/* Contact: bob@example.com */\n"	   /* 10: e-mail only */
				   "/*\n"				   /* 11 */
				   " * Licensed under the GPL.\n"	   /* 12 */
				   " */\n"				   /* 13 */
				   "/* Copyright: a second one */\n"	   /* 14: only the first */
				   "struct m { int a; };\n"		   /* 15 */
				   "#endif\n";				   /* 16 */

	expect_banner(text, "11 12 13", 13);
	/* a licence comment after the guard's #endif does not count */
	expect_banner("#ifndef G\n#define G\n/* about */\nint x;\n#endif\n/* Copyright */\n", "",
		      UD_NO_LINE);
	/* nor one with text after its close */
	expect_banner("#ifndef G\n#define G\n/* about */\n/* Copyright */ int y;\n#endif\n", "",
		      UD_NO_LINE);
}
END_TEST

START_TEST(test_guard_forms)
{
	static const struct {
		const char *text;
		const char *name; /* NULL: no guard */
	} cases[] = {
		{"#ifndef G\n#define G\nint x;\n#endif\n", "G"},
		{"#ifndef G\n#define G 1\nint x;\n#endif\n", "G"},
		{"#ifndef _LINUX_G_H\n#define _LINUX_G_H 1\n#endif\n", "_LINUX_G_H"},
		{"#ifndef G\n#define G 2\n#endif\n", NULL},
		{"#ifndef G\n#define GG\n#endif\n", NULL},
		{"#ifndef G\n#define H\n#endif\n", NULL},
		{"#ifndef G\n\n#define G\n#endif\n", NULL}, /* the define must follow */
		{"#ifndef G\n#define G\n#else\n#endif\n", NULL},
		{"#ifndef __KERNEL__\n#define __KERNEL__\n#endif\n", NULL},
		{"#ifndef CONFIG_G\n#define CONFIG_G\n#endif\n", NULL},
		{"#ifdef G\n#define G\n#endif\n", NULL},
		{"#ifndef G\n#define G\n", NULL},			 /* no #endif */
		{"#if 1\n#ifndef G\n#define G\n#endif\n#endif\n", NULL}, /* not top level */
		{"int y;\n#ifndef G\n#define G\n#endif\n", "G"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_classified c;

		classify(&c, cases[i].text);
		if (cases[i].name == NULL) {
			ck_assert_msg(c.guard == -1, "guard in:\n%s", cases[i].text);
			ck_assert_ptr_null(c.guard_name);
		} else {
			ck_assert_msg(c.guard >= 0, "no guard in:\n%s", cases[i].text);
			ck_assert_str_eq(c.guard_name, cases[i].name);
			ck_assert(ud_frame_is_guard(&c, c.guard));
		}
		ud_classified_free(&c);
	}
}
END_TEST

START_TEST(test_order_check)
{
	static const char text[] = "#ifndef _ASM_X86_TYPES_H\n"
				   "#error only <asm/types.h> can be included\n"
				   "#endif\n"
				   "#ifndef G\n"
				   "#define G\n"
				   "#ifndef _LINUX_TYPES_H\n" /* inside the guard: not top level */
				   "#error types first\n"
				   "#endif\n"
				   "#endif\n";
	struct ud_classified c;

	classify(&c, text);
	ck_assert_int_eq(c.order_check, 0);
	ck_assert_int_eq(c.guard, 1);
	ck_assert(ud_frame_is_order_check(&c, 0));
	ck_assert(!ud_frame_is_order_check(&c, 1)); /* the guard */
	ck_assert(!ud_frame_is_order_check(&c, 2)); /* nested */
	ck_assert(!ud_frame_is_guard(&c, 0));
	ud_classified_free(&c);

	/* what is not an order check */
	classify(&c, "#ifndef X\n#error a\nint y;\n#endif\n"); /* more than the #error */
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
	classify(&c, "#ifndef X\n#pragma a\n#endif\n");
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
	classify(&c, "#ifndef X\n#warning a\n#endif\n"); /* #warning is an #error too */
	ck_assert_int_eq(c.order_check, 0);
	ud_classified_free(&c);
	classify(&c, "#ifdef X\n#error a\n#endif\n");
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
	classify(&c, "#ifndef __KERNEL__\n#error a\n#endif\n");
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
	classify(&c, "#ifndef CONFIG_X\n#error a\n#endif\n");
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
	classify(&c, "#ifndef X\n#error a\n#else\n#endif\n");
	ck_assert_int_eq(c.order_check, -1);
	ud_classified_free(&c);
}
END_TEST

START_TEST(test_first_ident)
{
	struct ud_arena a = UD_ARENA_INIT;

	ck_assert_str_eq(ud_frame_first_ident(&a, "_LINUX_X_H 1"), "_LINUX_X_H");
	ck_assert_str_eq(ud_frame_first_ident(&a, "G"), "G");
	ck_assert_str_eq(ud_frame_first_ident(&a, "a1_b(x)"), "a1_b");
	ck_assert_str_eq(ud_frame_first_ident(&a, "1abc"), "1abc"); /* digits are ident bytes */
	ck_assert_ptr_null(ud_frame_first_ident(&a, " G"));
	ck_assert_ptr_null(ud_frame_first_ident(&a, ""));
	ck_assert_ptr_null(ud_frame_first_ident(&a, "(G)"));
	ud_arena_free(&a);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("frame");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_banner_run);
	tcase_add_test(tc, test_banner_ends);
	tcase_add_test(tc, test_late_banner);
	tcase_add_test(tc, test_later_licence);
	tcase_add_test(tc, test_guard_forms);
	tcase_add_test(tc, test_order_check);
	tcase_add_test(tc, test_first_ident);
	suite_add_tcase(s, tc);
	return test_run(s);
}
