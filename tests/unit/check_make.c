// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Make reader tests: what GNU make does with the constructs kernel
 * Makefiles use (the expectations were checked against GNU make 4.3),
 * and the errors uapid gives where it stops.  Files come from a small
 * table in memory through the reader's io callbacks.
 */
#include <errno.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/make.h"

/* An in-memory tree: name -> text; directories are the prefixes of the names. */
static const struct {
	const char *name, *text;
} files[] = {
	{"inc.mk", "from_inc := yes\nINC_SEEN += inc\n"},
	{"bad.mk", "fine := 1\n$(error stop in bad.mk)\n"},
	{"d/a.h", ""},
	{"d/b.h", ""},
	{"d/c.c", ""},
	{"d/sub/x.h", ""},
	{"d/sub2/y.h", ""},
};

static bool
mem_exists(const char *path, void *ctx)
{
	size_t i, n = strlen(path);

	(void)ctx;
	if (n > 0 && path[n - 1] == '/')
		n--;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (strncmp(files[i].name, path, n) == 0 &&
		    (files[i].name[n] == '\0' || files[i].name[n] == '/'))
			return true;
	return false;
}

static int
mem_read(const char *path, struct ud_buf *out, void *ctx)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (strcmp(files[i].name, path) == 0) {
			ud_buf_reset(out);
			ud_buf_addstr(out, files[i].text);
			return 0;
		}
	return -ENOENT;
}

static int
mem_list(const char *path, struct ud_strlist *names, void *ctx)
{
	size_t i, n = strcmp(path, ".") == 0 ? 0 : strlen(path);

	(void)ctx;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const char *rest = files[i].name + n + (n > 0), *slash;

		if (n > 0 && (strncmp(files[i].name, path, n) != 0 || files[i].name[n] != '/'))
			continue;
		slash = strchr(rest, '/');
		if (slash == NULL) {
			ud_strlist_add(names, rest);
		} else {
			char *dir = ud_xstrndup(rest, (size_t)(slash - rest) + 1);

			if (!ud_strlist_has(names, dir))
				ud_strlist_add(names, dir);
			free(dir);
		}
	}
	return 0;
}

static const struct ud_make_io mem_io = {mem_exists, mem_read, mem_list, NULL};

/* A reader in mode that has read text as "Makefile"; *rc gets what the read returned. */
static struct ud_make *
reader(enum ud_make_mode mode, const char *text, struct ud_diags *d, int *rc)
{
	struct ud_make *m = ud_make_new(mode, &mem_io);

	*rc = ud_make_read(m, "Makefile", text, strlen(text), d);
	return m;
}

/* Reads text (strict), which must read cleanly. */
static struct ud_make *
ok_reader(const char *text)
{
	struct ud_diags d = UD_DIAGS_INIT;
	int rc;
	struct ud_make *m = reader(UD_MAKE_STRICT, text, &d, &rc);

	ck_assert_msg(rc == 0, "read failed: %s", d.n > 0 ? d.v[0].message : "(no diagnostic)");
	ck_assert_uint_eq(d.n, 0);
	ud_diags_free(&d);
	return m;
}

/* Checks the expanded value of variable name. */
static void
assert_var(struct ud_make *m, const char *name, const char *want)
{
	struct ud_diags d = UD_DIAGS_INIT;
	char *got = ud_make_var(m, name, &d);

	ck_assert_msg(got != NULL, "%s is not defined", name);
	ck_assert_msg(strcmp(got, want) == 0, "$(%s) is '%s', want '%s'", name, got, want);
	ck_assert_uint_eq(d.n, 0);
	free(got);
	ud_diags_free(&d);
}

/* Checks what text expands to in the global scope. */
static void
assert_expands(struct ud_make *m, const char *text, const char *want)
{
	struct ud_diags d = UD_DIAGS_INIT;
	char *got = ud_make_expand(m, text, &d);

	ck_assert_msg(got != NULL, "%s failed: %s", text, d.n > 0 ? d.v[0].message : "?");
	ck_assert_msg(strcmp(got, want) == 0, "%s -> '%s', want '%s'", text, got, want);
	free(got);
	ud_diags_free(&d);
}

/* Whether d has a diagnostic of sev at path:line containing text. */
static bool
has_diag_at(const struct ud_diags *d, enum ud_severity sev, const char *path, unsigned line,
	    const char *text)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == sev && d->v[i].line == line && d->v[i].path != NULL &&
		    strcmp(d->v[i].path, path) == 0 && strstr(d->v[i].message, text) != NULL)
			return true;
	return false;
}

/* The recipe line i of the rule for target, expanded (malloc'd); NULL if it fails. */
static char *
recipe_of(struct ud_make *m, const char *target, size_t i, struct ud_diags *d)
{
	char *stem = NULL;
	const struct ud_make_rule *r = ud_make_rule(m, target, &stem);
	char *x;

	ck_assert_msg(r != NULL, "no rule for %s", target);
	ck_assert_uint_gt(r->recipe.n, i);
	x = ud_make_recipe(m, r, i, target, stem, d);
	free(stem);
	return x;
}

static void
assert_recipe(struct ud_make *m, const char *target, const char *want)
{
	struct ud_diags d = UD_DIAGS_INIT;
	char *got = recipe_of(m, target, 0, &d);

	ck_assert_msg(got != NULL, "recipe of %s failed: %s", target,
		      d.n > 0 ? d.v[0].message : "?");
	ck_assert_msg(strcmp(got, want) == 0, "recipe of %s is '%s', want '%s'", target, got, want);
	free(got);
	ud_diags_free(&d);
}

/* --- variables -------------------------------------------------------------- */

START_TEST(test_assign_flavours)
{
	struct ud_make *m = ok_reader("a = $(b)\n"
				      "b = one\n"
				      "c := $(b)\n"
				      "b = two\n"
				      "d ::= $(b)\n"
				      "e ?= first\n"
				      "e ?= second\n"
				      "f = x\n"
				      "f += $(b)\n"
				      "g := x\n"
				      "g += $(b)\n"
				      "h += $(b)\n"
				      "empty :=\n"
				      "empty ?= not-set\n"
				      "export exp := exported\n"
				      "override ovr = overridden\n"
				      "i != echo hi\n"
				      "b = three\n"
				      "t = a   # a comment keeps the blanks before it\n");

	assert_var(m, "a", "three"); /* recursive: expanded when used */
	ck_assert_str_eq(ud_make_raw(m, "a"), "$(b)");
	assert_var(m, "c", "one"); /* simple: expanded when set */
	ck_assert_str_eq(ud_make_raw(m, "c"), "one");
	assert_var(m, "d", "two");
	assert_var(m, "e", "first");
	assert_var(m, "f", "x three"); /* += on a recursive variable stays recursive */
	ck_assert_str_eq(ud_make_raw(m, "f"), "x $(b)");
	assert_var(m, "g", "x two"); /* += on a simple one expands at once */
	assert_var(m, "h", "three"); /* += on an undefined one is recursive */
	assert_var(m, "empty", "");  /* ?= keeps a variable that is defined, even empty */
	assert_var(m, "exp", "exported");
	assert_var(m, "ovr", "overridden");
	assert_var(m, "i", ""); /* != would run the shell: uapid does not */
	assert_var(m, "t", "a   ");
	ck_assert_ptr_null(ud_make_var(m, "undefined", NULL));
	ck_assert_ptr_null(ud_make_raw(m, "undefined"));
	ud_make_free(m);
}
END_TEST

START_TEST(test_command_line_wins)
{
	struct ud_make *m = ud_make_new(UD_MAKE_STRICT, &mem_io);
	static const char text[] = "ARCH := arm\nARCH += more\nARCH ?= other\nSRC := $(ARCH)\n";
	struct ud_diags d = UD_DIAGS_INIT;

	ud_make_define(m, "ARCH", "x86");
	ck_assert_int_eq(ud_make_read(m, "Makefile", text, sizeof(text) - 1, &d), 0);
	assert_var(m, "ARCH", "x86");
	assert_var(m, "SRC", "x86");
	ud_make_free(m);
	ud_make_free(NULL);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_define)
{
	struct ud_make *m = ok_reader("b := B\n"
				      "define cmd_x\n"
				      "\techo '#define X 1' # not a comment here\n"
				      "\techo $(b)\n"
				      "endef\n"
				      "define simple :=\n"
				      "$(b)\n"
				      "endef\n"
				      "define outer\n"
				      "define inner\n"
				      "x\n"
				      "endef\n"
				      "endef\n"
				      "after := $(b)\n");

	ck_assert_str_eq(ud_make_raw(m, "cmd_x"), "\techo '#define X 1' # not a comment here\n"
						  "\techo $(b)");
	assert_var(m, "cmd_x", "\techo '#define X 1' # not a comment here\n\techo B");
	ck_assert_str_eq(ud_make_raw(m, "simple"), "B");
	ck_assert_str_eq(ud_make_raw(m, "outer"), "define inner\nx\nendef");
	ck_assert_ptr_null(ud_make_raw(m, "inner"));
	assert_var(m, "after", "B");
	ud_make_free(m);
}
END_TEST

START_TEST(test_continuations)
{
	struct ud_make *m = ok_reader("x := a \\\n"
				      "\t    b\\\n"
				      "c\n"
				      "y := one # comment \\\n"
				      "still the comment\n"
				      "z := after\n"
				      "esc := \\#not-a-comment\n");

	assert_var(m, "x", "a b c");
	assert_var(m, "y", "one ");
	assert_var(m, "z", "after");
	assert_var(m, "esc", "#not-a-comment");
	ud_make_free(m);
}
END_TEST

/* --- conditionals ------------------------------------------------------------ */

START_TEST(test_conditionals)
{
	struct ud_make *m = ok_reader("A := x\n"
				      "E =\n"
				      "F = $(E)\n"
				      "ifeq ($(A),x)\nr1 := yes\nelse\nr1 := no\nendif\n"
				      "ifneq \"$(A)\" 'y'\nr2 := yes\nendif\n"
				      "ifeq ($(A), x)\nr3 := yes\nendif\n"
				      "ifdef A\nr4 := yes\nendif\n"
				      "ifndef UNDEFINED\nr5 := yes\nendif\n"
				      "ifdef E\nr6 := E\nelse\nr6 := empty-is-undefined\nendif\n"
				      "ifdef F\nr7 := not-expanded\nendif\n"
				      "ifeq ($(A),y)\n"
				      "r8 := y\n"
				      "else ifeq ($(A),x)\n"
				      "r8 := x\n"
				      "else ifeq ($(A),x)\n"
				      "r8 := second-x\n"
				      "else\n"
				      "r8 := other\n"
				      "endif\n"
				      "ifeq ($(A),q)\n"
				      "  ifeq ($(error not evaluated),)\n"
				      "  r9 := inner\n"
				      "  else\n"
				      "  r9 := inner-else\n"
				      "  endif\n"
				      "else\n"
				      "  ifdef A\n"
				      "    ifneq ($(wildcard d/a.h),)\n"
				      "      r9 := nested\n"
				      "    endif\n"
				      "  endif\n"
				      "endif\n"
				      "ifeq (,$(wildcard d/none.h))\nr10 := missing\nendif\n");

	assert_var(m, "r1", "yes");
	assert_var(m, "r2", "yes");
	assert_var(m, "r3", "yes");
	assert_var(m, "r4", "yes");
	assert_var(m, "r5", "yes");
	assert_var(m, "r6", "empty-is-undefined");
	assert_var(m, "r7", "not-expanded");
	assert_var(m, "r8", "x");
	assert_var(m, "r9", "nested");
	assert_var(m, "r10", "missing");
	ud_make_free(m);
}
END_TEST

START_TEST(test_conditional_errors)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *msg;
	} cases[] = {
		{"x := 1\nifeq ($(x),1)\ny := 2\n", 0, "without endif"},
		{"x := 1\nelse\n", 2, "else without a conditional"},
		{"x := 1\n\nendif\n", 3, "endif without a conditional"},
		{"ifeq (a\nendif\n", 1, "a condition uapid cannot read"},
		{"define never\nx\n", 1, "define without endef"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_diags d = UD_DIAGS_INIT;
		int rc;
		struct ud_make *m = reader(UD_MAKE_STRICT, cases[i].text, &d, &rc);

		ck_assert_msg(rc == -EINVAL, "case %zu read", i);
		ck_assert_msg(d.n == 1 && d.v[0].severity == UD_SEV_ERROR &&
				      strstr(d.v[0].message, cases[i].msg) != NULL,
			      "case %zu: %s", i, d.n > 0 ? d.v[0].message : "(none)");
		ck_assert_str_eq(d.v[0].path, "Makefile");
		if (cases[i].line > 0)
			ck_assert_uint_eq(d.v[0].line, cases[i].line);
		ud_make_free(m);
		ud_diags_free(&d);
	}
}
END_TEST

/* --- include ------------------------------------------------------------------ */

START_TEST(test_include)
{
	struct ud_diags d = UD_DIAGS_INIT;
	int rc;
	struct ud_make *m = ok_reader("name := inc\n"
				      "include $(name).mk\n"
				      "-include missing.mk\n"
				      "sinclude missing2.mk\n"
				      "include scripts/Kbuild.include\n"
				      "got := $(from_inc)\n");

	assert_var(m, "got", "yes");
	assert_var(m, "INC_SEEN", "inc");
	ud_make_free(m);

	/* strict: a missing include stops the read, naming it */
	m = reader(UD_MAKE_STRICT, "x := 1\ninclude missing.mk\n", &d, &rc);
	ck_assert_int_eq(rc, -EINVAL);
	/* in make's words: "Makefile:2: missing.mk: No such file or directory" */
	ck_assert(has_diag_at(&d, UD_SEV_ERROR, "Makefile", 2,
			      "missing.mk: No such file or directory"));
	ud_make_free(m);
	ud_diags_free(&d);

	/* an error in the included file names that file and its line */
	m = reader(UD_MAKE_STRICT, "x := 1\ninclude bad.mk\ny := 2\n", &d, &rc);
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert(has_diag_at(&d, UD_SEV_ERROR, "bad.mk", 2, "stop in bad.mk"));
	ck_assert_ptr_null(ud_make_raw(m, "y"));
	ud_make_free(m);
	ud_diags_free(&d);

	/* tolerant (a whole top Makefile): includes are not followed */
	m = reader(UD_MAKE_TOLERANT, "include inc.mk\ninclude missing.mk\nafter := 1\n", &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_null(ud_make_raw(m, "from_inc"));
	assert_var(m, "after", "1");
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0);
	ud_make_free(m);
	ud_diags_free(&d);
}
END_TEST

/* --- functions ----------------------------------------------------------------- */

START_TEST(test_functions)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"$(if x,yes,no)", "yes"},
		{"$(if ,yes,no)", "no"},
		{"$(if  $(E) ,yes,no)", "no"},
		{"$(if ,yes)", ""},
		{"$(or ,,x,y)", "x"},
		{"$(or ,$(E))", ""},
		{"$(and a,b,c)", "c"},
		{"$(and a, ,c)", ""},
		{"$(foreach w,a b c,<$(w)>)", "<a> <b> <c>"},
		{"$(foreach w,a b,$(foreach v,1 2,$(w)$(v)))", "a1 a2 b1 b2"},
		{"$(foreach w,a b,x)$(w)", "x xkeep"},
		{"$(call f,1,2)", "<f|1|2|>"},
		{"$(call f, 1 , 2 )", "<f| 1 | 2 |>"},
		{"$(call g,in)", "[<f|in||>]"},
		{"$(subst .h,.c,a.h b.h)", "a.c b.c"},
		{"$(subst a,,banana)", "bnn"},
		{"$(subst $(space),$(comma),$(strip a  b c))", "a,b,c"},
		{"$(patsubst %.h,%.c,a.h b.x)", "a.c b.x"},
		{"$(patsubst %/,%,linux/ asm/ x.h)", "linux asm x.h"},
		{"$(patsubst %,x%,a b)", "xa xb"},
		{"$(filter %.h b%,a.h b.c c.x)", "a.h b.c"},
		{"$(filter-out %.h,a.h b.c c.x)", "b.c c.x"},
		{"$(filter um, x86)", ""},
		{"$(filter um, um)", "um"},
		{"$(sort c b a  b)", "a b c"},
		{"$(strip   a   b  )", "a b"},
		{"$(word 2,a b c)", "b"},
		{"$(word 4,a b c)", ""},
		{"$(words a b  c)", "3"},
		{"$(words )", "0"},
		{"$(firstword a b c)", "a"},
		{"$(lastword a b c)", "c"},
		{"$(notdir a/b.c d)", "b.c d"},
		{"$(dir a/b.c d)", "a/ ./"},
		{"$(basename a/b.c d.e.f a.b/c)", "a/b d.e a.b/c"},
		{"$(suffix a/b.c d g.x/y e.f.g)", ".c .g"},
		{"$(addprefix p/,a b)", "p/a p/b"},
		{"$(addsuffix .h,a b)", "a.h b.h"},
		{"$(findstring an,banana)", "an"},
		{"$(findstring x,banana)", ""},
		{"$(wildcard d/a.h d/none.h d/c.c)", "d/a.h d/c.c"},
		{"$(wildcard d/*.h)", "d/a.h d/b.h"},
		{"$(wildcard none/*.h)", ""},
		{"[$(shell mkdir -p x; echo made)]", "[]"},
		{"$(l:.h=.x)", "a.x b.c"},
		{"$(l:%.c=%.o)", "a.h b.o"},
		{"$(l:a%=z%)", "z.h b.c"},
		{"$($(ptr))", "B"},
		{"${b}$b", "BB"},
		{"$$x $$(y)", "$x $(y)"},
		{"$(syshdr_abi_$(basename unistd_64.h))", "common,64"},
		{"$(comma)$(empty)$(space)$(pound)", ", #"},
		{"a$(info printed)b", "ab"},
	};
	struct ud_make *m = ok_reader("E =\n"
				      "b := B\n"
				      "ptr := b\n"
				      "w := keep\n"
				      "l := a.h  b.c\n"
				      "f = <$(0)|$(1)|$(2)|$(3)>\n"
				      "g = [$(call f,$(1))]\n"
				      "syshdr_abi_unistd_64 := common,64\n");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_expands(m, cases[i].in, cases[i].want);
	ud_make_free(m);
}
END_TEST

/* Globs: "*" in any component, and "*\/" (directories only) at the end. */
START_TEST(test_wildcard_dirs)
{
	struct ud_make *m = ok_reader("x := 1\n");

	assert_expands(m, "$(wildcard d/*/)", "d/sub/ d/sub2/");
	assert_expands(m, "$(wildcard d/s*2/)", "d/sub2/");
	assert_expands(m, "$(wildcard d/sub/)", "d/sub/");
	/* as GNU make 4.3: a '*' in a directory component ("$(INSTALL_HDR_PATH)/asm-*\/x.h") */
	assert_expands(m, "$(wildcard d/*/x.h)", "d/sub/x.h");
	assert_expands(m, "$(wildcard d/s*/*.h)", "d/sub/x.h d/sub2/y.h");
	assert_expands(m, "$(wildcard none/*/x.h)", "");
	assert_expands(m, "$(wildcard */sub/)", "d/sub/");
	ud_make_free(m);
}
END_TEST

START_TEST(test_function_errors)
{
	struct ud_diags d = UD_DIAGS_INIT;
	struct ud_make *m = ok_reader("x := 1\n");

	ck_assert_ptr_null(ud_make_expand(m, "a $(error broken $(x)) b", &d));
	ck_assert(has_diag(&d, UD_SEV_ERROR, 0, "broken 1"));
	ud_diags_free(&d);
	ck_assert_ptr_null(ud_make_expand(m, "$(eval y := 2)", &d));
	ck_assert(has_diag(&d, UD_SEV_ERROR, 0, "does not evaluate"));
	ud_diags_free(&d);
	ck_assert_ptr_null(ud_make_expand(m, "$(foreach a,b)", &d));
	ck_assert(has_diag(&d, UD_SEV_ERROR, 0, "foreach"));
	ud_diags_free(&d);
	ck_assert_ptr_null(ud_make_expand(m, "$(patsubst a,b)", &d));
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	ud_make_free(m);
}
END_TEST

/* $(error) stops a strict read with file:line; a tolerant read notes it outside rules. */
START_TEST(test_error_and_warning)
{
	static const char text[] = "A := 1\n"
				   "B := $(error stop at $(A))\n"
				   "C := 2\n";
	static const char warn[] = "A := 1\n"
				   "$(warning careful $(A))\n"
				   "B := 2\n";
	struct ud_diags d = UD_DIAGS_INIT;
	int rc;
	struct ud_make *m = reader(UD_MAKE_STRICT, text, &d, &rc);

	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	ck_assert(has_diag_at(&d, UD_SEV_ERROR, "Makefile", 2, "stop at 1"));
	ck_assert_ptr_null(ud_make_raw(m, "C"));
	ud_make_free(m);
	ud_diags_free(&d);

	m = reader(UD_MAKE_TOLERANT, text, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0);
	ck_assert(has_diag_at(&d, UD_SEV_NOTE, "Makefile", 2, "stop at 1"));
	assert_var(m, "C", "2");
	ud_make_free(m);
	ud_diags_free(&d);

	m = reader(UD_MAKE_STRICT, warn, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert(has_diag_at(&d, UD_SEV_NOTE, "Makefile", 2, "make: careful 1"));
	assert_var(m, "B", "2");
	ud_make_free(m);
	ud_diags_free(&d);
}
END_TEST

/* In tolerant mode, the $(error) of a recipe is the rule's own: an error. */
START_TEST(test_tolerant_recipe_error)
{
	static const char text[] =
		"SRCARCH := um\n"
		"\n"
		"headers: archheaders\n"
		"\t$(if $(filter um, $(SRCARCH)), $(error Headers not exportable))\n"
		"\t$(Q)$(MAKE) next\n";
	struct ud_diags d = UD_DIAGS_INIT;
	int rc;
	struct ud_make *m = reader(UD_MAKE_TOLERANT, text, &d, &rc);
	char *x;

	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_ptr_null(recipe_of(m, "headers", 0, &d));
	ck_assert(has_diag_at(&d, UD_SEV_ERROR, "Makefile", 4, "Headers not exportable"));
	ud_diags_free(&d);
	x = recipe_of(m, "headers", 1, &d);
	ck_assert_str_eq(x, "make next");
	free(x);
	ud_diags_free(&d);
	ud_make_free(m);
}
END_TEST

START_TEST(test_self_reference)
{
	struct ud_diags d = UD_DIAGS_INIT;
	int rc;
	struct ud_make *m = ok_reader("x = $(x) y\nz = $(w)\nw = $(z)\n");
	char *v;

	v = ud_make_var(m, "x", &d);
	free(v); /* whatever it holds, the error says why */
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "refer to themselves"));
	ud_diags_free(&d);
	ck_assert_ptr_null(ud_make_expand(m, "$(z)", &d));
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	ud_make_free(m);

	/* when read with :=, it stops the read */
	m = reader(UD_MAKE_STRICT, "x = $(x)\ny := $(x)\n", &d, &rc);
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert(has_diag_at(&d, UD_SEV_ERROR, "Makefile", 2, "refer to themselves"));
	ud_make_free(m);
	ud_diags_free(&d);
}
END_TEST

START_TEST(test_bad_syntax)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *msg;
	} cases[] = {
		{"x := 1\ny := $(x\n", 2, "unterminated variable reference"},
		{"x := 1\n\nthis is not make\n", 3, "missing separator"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_diags d = UD_DIAGS_INIT;
		int rc;
		struct ud_make *m = reader(UD_MAKE_STRICT, cases[i].text, &d, &rc);

		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_msg(
			has_diag_at(&d, UD_SEV_ERROR, "Makefile", cases[i].line, cases[i].msg),
			"case %zu: %s", i, d.n > 0 ? d.v[0].message : "(none)");
		ud_make_free(m);
		ud_diags_free(&d);

		/* tolerant: noted and skipped */
		m = reader(UD_MAKE_TOLERANT, cases[i].text, &d, &rc);
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_WARNING), 0);
		ck_assert(has_diag_at(&d, UD_SEV_NOTE, "Makefile", cases[i].line, cases[i].msg));
		ud_make_free(m);
		ud_diags_free(&d);
	}
}
END_TEST

/* --- rules and recipes ------------------------------------------------------------ */

START_TEST(test_automatic_variables)
{
	struct ud_make *m = ok_reader("out := gen\n"
				      "$(out)/%.h: src/%.tbl tool FORCE\n"
				      "\tcmd $@ $< $* $^ # kept: recipes keep '#'\n"
				      "\n"
				      "# a comment line does not end the recipe\n"
				      "\tsecond $(notdir $@)\n"
				      "x.o: x.c ; inline $< > $@\n");
	struct ud_diags d = UD_DIAGS_INIT;
	char *stem = NULL, *x;
	const struct ud_make_rule *r = ud_make_rule(m, "gen/unistd_64.h", &stem);

	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(stem, "unistd_64");
	ck_assert_uint_eq(r->recipe.n, 2);
	ck_assert_str_eq(r->file, "Makefile");
	ck_assert_uint_eq(r->line, 2);
	ck_assert_uint_eq(r->recipe_lines[0], 3);
	ck_assert_uint_eq(r->recipe_lines[1], 6);
	x = ud_make_recipe(m, r, 0, "gen/unistd_64.h", stem, &d);
	ck_assert_str_eq(x,
			 "cmd gen/unistd_64.h src/unistd_64.tbl unistd_64 src/unistd_64.tbl tool "
			 "FORCE # kept: recipes keep '#'");
	free(x);
	x = ud_make_recipe(m, r, 1, "gen/unistd_64.h", stem, &d);
	ck_assert_str_eq(x, "second unistd_64.h");
	free(x);
	free(stem);
	assert_recipe(m, "x.o", "inline x.c > x.o");
	ck_assert_uint_eq(d.n, 0);
	ud_make_free(m);
}
END_TEST

/* The kernel's shapes: a computed variable per target, target- and pattern-specific values. */
START_TEST(test_target_variables)
{
	struct ud_make *m =
		ok_reader("abis := global\n"
			  "offset :=\n"
			  "late = early\n"
			  "cmd_syshdr = run --abis $(abis) $(if $(offset),--offset $(offset)) "
			  "$(extra) $(late)\n"
			  "gen/a.h: abis := common,64\n"
			  "gen/a.h: offset := BASE\n"
			  "gen/%.h: extra = p-$*\n"
			  "gen/b.h: abis += more\n"
			  "gen/b.h: late += $(abis)\n"
			  "gen/%.h: src.tbl\n"
			  "\t$(call if_changed,syshdr)\n"
			  "late = changed\n"
			  "syshdr_abi_unistd_32 := i386\n"
			  "cmd_old = '$(syshdr_abi_$(basetarget))' '$(syshdr_pfx_$(basetarget))'\n"
			  "gen/unistd_32.h: src.tbl\n"
			  "\t$(call cmd,old)\n");

	assert_recipe(m, "gen/a.h", "run --abis common,64 --offset BASE p-a changed");
	assert_recipe(m, "gen/b.h", "run --abis global more  p-b changed global more");
	assert_recipe(m, "gen/unistd_32.h", "'i386' ''");
	/* outside the rule, the globals */
	assert_var(m, "abis", "global");
	assert_var(m, "offset", "");
	ud_make_free(m);
}
END_TEST

/* GNU make: a target's own value beats a pattern's, whatever the order they were set in. */
START_TEST(test_target_beats_pattern)
{
	struct ud_make *m = ok_reader("v := global\n"
				      "o/a.h: v := target\n"
				      "o/%.h: v := pattern\n"
				      "o/%.h:\n"
				      "\t@echo $(v)\n");

	assert_recipe(m, "o/a.h", "@echo target");
	assert_recipe(m, "o/b.h", "@echo pattern");
	ud_make_free(m);
}
END_TEST

START_TEST(test_rule_lookup)
{
	struct ud_make *m = ok_reader("obj := a/b/../c\n"
				      "x/%.h: ; wide $*\n"
				      "x/u_%.h: ; narrow $*\n"
				      "x/u_1.h: ; explicit\n"
				      "%: ; anything $*\n"
				      "$(obj)/../c/./t.h: dep\n"
				      "\tnormed $@\n"
				      "two.h: extra-prerequisite\n"
				      "two.h: dep\n"
				      "\tbuild $@\n"
				      "r1 r2: ; both $@\n");
	char *stem = NULL;
	const struct ud_make_rule *r;

	r = ud_make_rule(m, "x/u_1.h", &stem);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_null(stem);
	ck_assert_str_eq(r->recipe.v[0], "explicit");
	assert_recipe(m, "x/u_2.h", "narrow 2");
	assert_recipe(m, "x/q.h", "wide q");
	assert_recipe(m, "other", "anything other");
	assert_recipe(m, "a/c/t.h", "normed a/c/t.h");
	assert_recipe(m, "./a/c/t.h", "normed a/c/t.h");
	assert_recipe(m, "a//b/../c/t.h", "normed a/c/t.h");
	assert_recipe(m, "two.h", "build two.h");
	assert_recipe(m, "r2", "both r2");
	ud_make_free(m);

	m = ok_reader("x := 1\n");
	ck_assert_ptr_null(ud_make_rule(m, "x/u_1.h", &stem));
	ck_assert_ptr_null(stem);
	ud_make_free(m);
}
END_TEST

/* GNU make: an explicit rule without a recipe adds prerequisites; a pattern rule's recipe makes it.
 */
START_TEST(test_explicit_without_recipe)
{
	struct ud_make *m = ok_reader("o/%.h: t.tbl\n"
				      "\techo pattern $@ $< $*\n"
				      "o/u.h: extra\n");

	assert_recipe(m, "o/u.h", "echo pattern o/u.h t.tbl u");
	ud_make_free(m);
}
END_TEST

/* --- words --------------------------------------------------------------------------- */

START_TEST(test_words)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"sh ./scripts/syscallhdr.sh --abis common,64 in out", "sh|./scripts/syscallhdr.sh|"
								       "--abis|common,64|in|out"},
		{"  a\tb  \n c ", "a|b|c"},
		{"sh 'a b' '' \"c d\"", "sh|a b||c d"},
		{"x'y'\"z\"w", "xyzw"},
		{"\"a\\\"b\\\\c\\d\"", "a\"b\\c\\d"},
		{"a\\ b c\\'d", "a b|c'd"},
		{"--prefix \"compat64_\"", "--prefix|compat64_"},
		{"", ""},
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ud_strlist w = UD_STRLIST_INIT;
		struct ud_buf b = UD_BUF_INIT;

		ud_make_words(cases[i].in, &w);
		for (j = 0; j < w.n; j++)
			ud_buf_addf(&b, "%s%s", j ? "|" : "", w.v[j]);
		ud_buf_addstr(&b, "");
		ck_assert_msg(strcmp(ud_buf_str(&b), cases[i].want) == 0, "[%s] -> [%s], want [%s]",
			      cases[i].in, ud_buf_str(&b), cases[i].want);
		ud_buf_free(&b);
		ud_strlist_free(&w);
	}
}
END_TEST

/* Without an io, wildcard finds nothing and include fails; a glob is an error. */
START_TEST(test_no_io)
{
	struct ud_make *m = ud_make_new(UD_MAKE_STRICT, NULL);
	static const char text[] = "x := $(wildcard d/a.h)\n-include inc.mk\n";
	struct ud_diags d = UD_DIAGS_INIT;

	ck_assert_int_eq(ud_make_read(m, "Makefile", text, sizeof(text) - 1, &d), 0);
	assert_var(m, "x", "");
	ck_assert_ptr_null(ud_make_expand(m, "$(wildcard d/*.h)", &d));
	ck_assert_uint_eq(ud_diags_count(&d, UD_SEV_ERROR), 1);
	ud_diags_free(&d);
	ud_make_free(m);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("make");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_assign_flavours);
	tcase_add_test(tc, test_command_line_wins);
	tcase_add_test(tc, test_define);
	tcase_add_test(tc, test_continuations);
	tcase_add_test(tc, test_conditionals);
	tcase_add_test(tc, test_conditional_errors);
	tcase_add_test(tc, test_include);
	tcase_add_test(tc, test_functions);
	tcase_add_test(tc, test_wildcard_dirs);
	tcase_add_test(tc, test_function_errors);
	tcase_add_test(tc, test_error_and_warning);
	tcase_add_test(tc, test_tolerant_recipe_error);
	tcase_add_test(tc, test_self_reference);
	tcase_add_test(tc, test_bad_syntax);
	tcase_add_test(tc, test_automatic_variables);
	tcase_add_test(tc, test_target_variables);
	tcase_add_test(tc, test_target_beats_pattern);
	tcase_add_test(tc, test_rule_lookup);
	tcase_add_test(tc, test_explicit_without_recipe);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_no_io);
	suite_add_tcase(s, tc);
	return test_run(s);
}
