// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * API model and diff tests: the model of a header (macros with values,
 * ioctls decoded, enums, structs with bit-fields, arrays and function
 * pointers, typedefs, declarations, conditionals), then one planted change
 * of every kind, each with its expected verdict and reason.
 */
#include <stdio.h>
#include <string.h>

#include "api-fixtures.h"
#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "api-stages.h" /* the model's steps, driven one by one */
#include "uapid/util/buf.h"

static const char base[] = "#ifndef _LINUX_T_H\n"
			   "#define _LINUX_T_H\n"
			   "#include <linux/types.h>\n"
			   "#define T_VERSION 3\n"
			   "#define T_FLAG (1U << 4)\n"
			   "#define T_MAX 7\n"
			   "#define T_NAME(x) ((x) + 1)\n"
			   "#define T_IOC 'T'\n"
			   "#define T_GET _IOR(T_IOC, 1, struct t_req)\n"
			   "#define T_RESET _IO('T', 2)\n"
			   "enum t_mode { T_OFF, T_ON = 5, T_AUTO };\n"
			   "struct t_req {\n"
			   "\t__u32 id;\n"
			   "\t__u32 flags:3, kind:5;\n"
			   "\tchar name[16];\n"
			   "\tvoid (*cb)(int);\n"
			   "\tunion { __u64 a; __u32 b; };\n"
			   "\t__u32 reserved[2];\n"
			   "\t__u8 data[];\n"
			   "};\n"
			   "typedef __u32 t_id;\n"
			   "#ifdef __x86_64__\n"
			   "#define T_ARCH 64\n"
			   "#else\n"
			   "#define T_ARCH 32\n"
			   "#endif\n"
			   "#if T_A\n#define T_C 1\n#elif T_B\n#define T_C 2\n#else\n"
			   "#define T_C 3\n#endif\n"
			   "#ifndef T_X\n#define T_D 1\n#else\n#define T_D 2\n#endif\n"
			   "#endif /* _LINUX_T_H */\n";

static const struct ud_api_sym *
sym(const struct ud_api_header *h, enum ud_api_kind k, const char *name, const char *cond)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->v[i].kind == k && strcmp(h->v[i].name, name) == 0 &&
		    (cond == NULL || strcmp(h->v[i].cond, cond) == 0))
			return &h->v[i];
	return NULL;
}

START_TEST(test_model)
{
	struct ud_api_header h;
	const struct ud_api_sym *s;

	ud_api_parse("linux/t.h", base, strlen(base), &h);
	ck_assert_ptr_null(sym(&h, UD_API_MACRO, "_LINUX_T_H", NULL)); /* the guard is not API */
	ck_assert_uint_eq(h.nincludes, 1);
	ck_assert_str_eq(h.includes[0], "linux/types.h");
	ck_assert_uint_eq(h.include_lines[0], 3); /* its line: what a condition after it sees */
	s = sym(&h, UD_API_MACRO, "T_FLAG", "");
	ck_assert_ptr_nonnull(s);
	ck_assert(s->has_value);
	ck_assert_int_eq(s->value, 16);
	s = sym(&h, UD_API_MACRO, "T_NAME", "");
	ck_assert_str_eq(s->params, "x");
	s = sym(&h, UD_API_MACRO, "T_GET", "");
	ck_assert(s->is_ioctl);
	ck_assert_str_eq(s->ioctl->dir, "_IOR");
	ck_assert(s->ioctl->known);
	ck_assert_int_eq(s->ioctl->typev, 'T');
	ck_assert_int_eq(s->ioctl->nrv, 1);
	ck_assert_str_eq(s->ioctl->arg, "struct t_req");
	ck_assert(sym(&h, UD_API_MACRO, "T_RESET", "")->is_ioctl);
	ck_assert_int_eq(sym(&h, UD_API_ENUM_CONST, "T_AUTO", "")->value, 6);
	ck_assert_uint_eq(sym(&h, UD_API_ENUM, "enum t_mode", "")->nmembers, 3);
	s = sym(&h, UD_API_STRUCT, "struct t_req", "");
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->nmembers, 8);
	ck_assert_str_eq(s->members[1].name, "flags");
	ck_assert_int_eq(s->members[1].bits, 3);
	ck_assert_str_eq(s->members[2].name, "kind");
	ck_assert_str_eq(s->members[2].type, "__u32");
	ck_assert_str_eq(s->members[3].array, "[16]");
	ck_assert_str_eq(s->members[4].name, "cb");
	ck_assert_str_eq(s->members[4].type, "void (*)(int)");
	ck_assert_str_eq(s->members[5].name, "");
	ck_assert_str_eq(s->members[7].array, "[]");
	ck_assert_str_eq(sym(&h, UD_API_TYPEDEF, "t_id", "")->text, "__u32 t_id");
	/* both branches of a conditional, each with its condition */
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_ARCH", "defined(__x86_64__)")->value, 64);
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_ARCH", "!defined(__x86_64__)")->value, 32);
	/* an #else after #elif: none of the earlier branches */
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_C", "(T_A)")->value, 1);
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_C", "!(T_A) && (T_B)")->value, 2);
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_C", "!(T_A) && !(T_B)")->value, 3);
	ck_assert_int_eq(sym(&h, UD_API_MACRO, "T_D", "defined(T_X)")->value, 2);
	ud_api_header_free(&h);
	/* a tagged type defined inside a member is a type of its own, an enum's constants too */
	{
		static const char nested[] =
			"struct outer { __u32 a; struct inner { __u32 x; } in;"
			" enum { N_A, N_B = 5 } e; union { __u32 u; } anon; };";

		ud_api_parse("linux/n.h", nested, strlen(nested), &h);
		ck_assert_uint_eq(sym(&h, UD_API_STRUCT, "struct outer", "")->nmembers, 4);
		ck_assert_uint_eq(sym(&h, UD_API_STRUCT, "struct inner", "")->nmembers, 1);
		ck_assert_int_eq(sym(&h, UD_API_ENUM_CONST, "N_B", "")->value, 5);
		ud_api_header_free(&h);
	}
}
END_TEST

/* Diffs base against base with from replaced by to; the one change's verdict and reason. */
static void
planted(const char *from, const char *to, enum ud_api_verdict want, const char *reason_has)
{
	struct ud_api_header o, n;
	struct ud_api_diff d;
	char *text = ud_xstrdup(base), *at = strstr(text, from), *edited;
	size_t i;
	bool found = false;

	ck_assert_msg(at != NULL, "planted: '%s' not in the base header", from);
	*at = '\0';
	edited = ud_xasprintf("%s%s%s", text, to, at + strlen(from));
	ud_api_parse("linux/t.h", base, strlen(base), &o);
	ud_api_parse("linux/t.h", edited, strlen(edited), &n);
	memset(&d, 0, sizeof(d));
	ud_api_diff_header(&o, &n, &d);
	for (i = 0; i < d.n; i++) {
		if (strstr(d.v[i].reason, reason_has) != NULL && d.v[i].verdict == want)
			found = true;
	}
	if (!found) {
		for (i = 0; i < d.n; i++)
			fprintf(stderr, "  got: %s: %s: %s\n", ud_api_verdict_name(d.v[i].verdict),
				d.v[i].symbol, d.v[i].reason);
	}
	ck_assert_msg(found, "'%s' -> '%s': want %s with '%s'", from, to, ud_api_verdict_name(want),
		      reason_has);
	ud_api_diff_free(&d);
	ud_api_header_free(&o);
	ud_api_header_free(&n);
	free(text);
	free(edited);
}

START_TEST(test_same)
{
	struct ud_api_header o, n;
	struct ud_api_diff d;
	/* comments and white space are not API */
	const char *spaced = "/* a comment */\n#ifndef _LINUX_T_H\n#define _LINUX_T_H\n";

	ud_api_parse("linux/t.h", base, strlen(base), &o);
	ud_api_parse("linux/t.h", base, strlen(base), &n);
	memset(&d, 0, sizeof(d));
	ud_api_diff_header(&o, &n, &d);
	ck_assert_uint_eq(d.n, 0);
	ck_assert(o.fingerprint == n.fingerprint);
	ud_api_header_free(&n);
	{
		char *t = ud_xasprintf("%s%s", spaced,
				       base + strlen("#ifndef _LINUX_T_H\n#define _LINUX_T_H\n"));

		ud_api_parse("linux/t.h", t, strlen(t), &n);
		free(t);
	}
	ck_assert(o.fingerprint == n.fingerprint);
	ud_api_header_free(&n);
	/* __DECLARE_FLEX_ARRAY(T, n) is T n[] */
	{
		char *t = ud_xstrdup(base), *at = strstr(t, "\t__u8 data[];\n");
		char *u;

		*at = '\0';
		u = ud_xasprintf("%s\t__DECLARE_FLEX_ARRAY(__u8, data);\n%s", t,
				 at + strlen("\t__u8 data[];\n"));
		ud_api_parse("linux/t.h", u, strlen(u), &n);
		free(t);
		free(u);
	}
	ck_assert(o.fingerprint == n.fingerprint);
	ud_api_diff_free(&d);
	ud_api_header_free(&o);
	ud_api_header_free(&n);
}
END_TEST

START_TEST(test_compatible)
{
	planted("#define T_MAX 7\n", "#define T_MAX 7\n#define T_NEW 9\n", UD_API_COMPATIBLE,
		"macro added");
	planted("T_AUTO };", "T_AUTO, T_BOOST };", UD_API_COMPATIBLE,
		"1 constant added at the end");
	planted("#define T_FLAG (1U << 4)", "#define T_FLAG 16", UD_API_COMPATIBLE,
		"same value 16");
	planted("struct t_req {", "struct t_new { int x; };\nstruct t_req {", UD_API_COMPATIBLE,
		"struct added");
	/* T_FLAG is 16 */
	planted("char name[16]", "char name[T_FLAG]", UD_API_COMPATIBLE,
		"the same bounds, spelled differently");
}
END_TEST

START_TEST(test_breaking)
{
	planted("#define T_VERSION 3\n", "", UD_API_BREAKING, "macro removed");
	planted("#define T_FLAG (1U << 4)", "#define T_FLAG (1U << 5)", UD_API_BREAKING,
		"replacement 16 -> 32");
	planted("T_ON = 5", "T_ON = 6", UD_API_BREAKING, "value 5 -> 6");
	planted("T_ON = 5,", "T_ON = 5, T_MID,", UD_API_BREAKING,
		"value 6 -> 7" /* T_AUTO is renumbered */);
	planted("\t__u32 id;\n", "", UD_API_BREAKING, "member id removed");
	planted("\t__u32 id;\n\t__u32 flags:3, kind:5;\n",
		"\t__u32 flags:3, kind:5;\n\t__u32 id;\n", UD_API_BREAKING, "moved before");
	planted("\t__u32 id;", "\t__u64 id;", UD_API_BREAKING, "member id: __u32 id -> __u64 id");
	planted("char name[16]", "char name[32]", UD_API_BREAKING, "name[16] -> char name[32]");
	planted("flags:3", "flags:4", UD_API_BREAKING, "flags : 3 -> __u32 flags : 4");
	planted("\t__u32 id;\n", "\t__u32 id;\n\t__u32 extra;\n", UD_API_BREAKING,
		"inserted before others");
	planted("_IOR(T_IOC, 1,", "_IOR(T_IOC, 9,", UD_API_BREAKING, "ioctl number");
	planted("_IOR(T_IOC, 1, struct t_req)", "_IOR(T_IOC, 1, __u64)", UD_API_BREAKING,
		"ioctl argument type struct t_req -> __u64");
	planted("_IOR(T_IOC, 1,", "_IOW(T_IOC, 1,", UD_API_BREAKING, "ioctl direction");
	planted("typedef __u32 t_id;", "typedef __u64 t_id;", UD_API_BREAKING, "typedef");
	planted("#define T_NAME(x)", "#define T_NAME(x, y)", UD_API_BREAKING, "parameters");
	/* counted on from a base of another header: a constant inserted before still shows */
	{
		static const char eo[] = "enum x { X_A = OTHER_BASE, X_B, X_C };\n";
		static const char en[] = "enum x { X_A = OTHER_BASE, X_NEW, X_B, X_C };\n";
		struct ud_api_header o, n;
		struct ud_api_diff d;
		size_t i;
		bool found = false;

		ud_api_parse("linux/x.h", eo, strlen(eo), &o);
		ud_api_parse("linux/x.h", en, strlen(en), &n);
		memset(&d, 0, sizeof(d));
		ud_api_diff_header(&o, &n, &d);
		for (i = 0; i < d.n; i++)
			if (strcmp(d.v[i].symbol, "X_C") == 0 &&
			    d.v[i].verdict == UD_API_BREAKING &&
			    strstr(d.v[i].reason, "'(OTHER_BASE) + 2' -> '(OTHER_BASE) + 3'") !=
				    NULL)
				found = true;
		ck_assert(found);
		ud_api_diff_free(&d);
		ud_api_header_free(&o);
		ud_api_header_free(&n);
	}
}
END_TEST

START_TEST(test_review)
{
	planted("\t__u8 data[];\n", "\t__u8 data[];\n\t__u32 tail;\n", UD_API_REVIEW,
		"grew at its end");
	planted("__u8 data[]", "__u8 data[0]", UD_API_REVIEW, "flexible arrays respelled");
	planted("union { __u64 a;", "union { __aligned_u64 a;", UD_API_REVIEW,
		"aligned to 8 bytes on every ABI now");
	planted("char name[16]", "char name[T_FLAG + 1]", UD_API_BREAKING,
		"name[16] -> char name[T_FLAG + 1]");
	planted("#define T_MAX 7", "#define T_MAX 8", UD_API_REVIEW, "sentinel moved");
	planted("#define T_VERSION 3", "#define T_VERSION 4", UD_API_REVIEW, "version moved");
	planted("__u32 reserved[2];", "__u32 reserved2[2];", UD_API_REVIEW,
		"reserved member reserved renamed to reserved2");
	/* a reserved array replaced by a smaller member of its type: said, not a rename */
	planted("\t__u32 reserved[2];\n", "\t__u32 fresh;\n", UD_API_BREAKING,
		"member __u32 fresh inserted before others");
	planted("\t__u32 reserved[2];\n", "\t__u32 fresh;\n\t__u32 reserved[1];\n", UD_API_REVIEW,
		"takes room from reserved member reserved");
	planted("typedef __u32 t_id;", "typedef __u32 t_id;\nint t_func(int);", UD_API_REVIEW,
		"functions and variables do not belong in uapi headers");
}
END_TEST

static const struct ud_api_header *the_new;

static const struct ud_api_header *
lookup(const char *path, void *ctx)
{
	const struct ud_api_header *v = ctx;
	size_t i;

	for (i = 0; i < 2; i++)
		if (strcmp(v[i].path, path) == 0)
			return &v[i];
	return NULL;
}

START_TEST(test_headers_and_moves)
{
	static const char a_old[] = "#define A_ONE 1\nstruct a_s { int x; };\n";
	static const char a_new[] = "#include <asm/a.h>\n#define A_ONE 1\n";
	static const char b_new[] = "struct a_s { int x; };\n";
	struct ud_api_header o, n[2], gone;
	struct ud_api_diff d;
	size_t i;
	bool moved = false;

	ud_api_parse("linux/a.h", a_old, strlen(a_old), &o);
	ud_api_parse("asm/a.h", b_new, strlen(b_new), &n[0]);
	ud_api_parse("linux/a.h", a_new, strlen(a_new), &n[1]);
	the_new = n;
	memset(&d, 0, sizeof(d));
	ud_api_diff_header(NULL, &n[0], &d); /* asm/a.h is new */
	ud_api_diff_header(&o, &n[1], &d);
	ck_assert_uint_eq(d.verdicts[UD_API_BREAKING], 1); /* struct a_s removed from linux/a.h */
	ud_api_diff_moves(&d, lookup, n);
	for (i = 0; i < d.n; i++)
		if (strstr(d.v[i].reason, "moved to asm/a.h, which linux/a.h includes") != NULL)
			moved = d.v[i].verdict == UD_API_COMPATIBLE;
	ck_assert(moved);
	ck_assert_uint_eq(d.verdicts[UD_API_BREAKING], 0);
	ck_assert_uint_eq(d.headers_added, 1);
	/* a header removed: breaking */
	ud_api_parse("linux/gone.h", a_old, strlen(a_old), &gone);
	ud_api_diff_header(&gone, NULL, &d);
	ck_assert_uint_eq(d.verdicts[UD_API_BREAKING], 1);
	ck_assert_uint_eq(d.headers_removed, 1);
	ck_assert_ptr_nonnull(strstr(d.v[d.n - 1].reason, "header removed"));
	ud_api_diff_free(&d);
	ud_api_header_free(&gone);
	ud_api_header_free(&o);
	ud_api_header_free(&n[0]);
	ud_api_header_free(&n[1]);
}
END_TEST

/* The change reported for symbol in header, or NULL. */
static const struct ud_api_change *
change_of(const struct ud_api_diff *d, const char *header, const char *symbol)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].header, header) == 0 && strcmp(d->v[i].symbol, symbol) == 0)
			return &d->v[i];
	return NULL;
}

/* Some change of symbol in header has verdict v and a reason containing reason_has. */
static void
want_change(const struct ud_api_diff *d, const char *header, const char *symbol,
	    enum ud_api_verdict v, const char *reason_has)
{
	const struct ud_api_change *c = change_of(d, header, symbol);
	size_t i;

	ck_assert_msg(c != NULL, "%s: %s: not reported", header, symbol);
	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].header, header) == 0 && strcmp(d->v[i].symbol, symbol) == 0 &&
		    d->v[i].verdict == v && strstr(d->v[i].reason, reason_has) != NULL)
			return;
	ck_assert_msg(false, "%s: %s: %s '%s' (first of its changes), want %s '%s'", header, symbol,
		      ud_api_verdict_name(c->verdict), c->reason, ud_api_verdict_name(v),
		      reason_has);
}

START_TEST(test_through)
{
	/* linux/in.h changes; linux/out.h does not, but uses what changed */
	static const char in_old[] = "typedef unsigned char cc_t;\n"
				     "struct grow { __u32 a; };\n"
				     "typedef struct { __u32 x; } anon_t;\n"
				     "struct same { __u32 s; };\n"
				     "struct resv { __u32 a; __u32 reserved; };\n";
	static const char in_new[] = "typedef unsigned int cc_t;\n"
				     "struct grow { __u32 a; __u32 b; };\n"
				     "typedef struct { __u64 x; } anon_t;\n"
				     "struct same { __u32 s; };\n"
				     "struct resv { __u32 a; __u32 flags; };\n";
	static const char out[] = "#include <linux/in.h>\n"
				  "struct tio { cc_t c_cc[8]; __u32 flags; };\n"
				  "struct mid { struct grow g; __u32 after; };\n"
				  "struct end { __u32 first; struct grow g; };\n"
				  "struct ptr { struct grow *g; anon_t *a; };\n"
				  "struct list { struct list *next; struct same s; };\n"
				  "struct wrap { struct tio t; };\n"
				  "struct anon_user { anon_t a; };\n"
				  "typedef struct grow grow_t;\n"
				  "#define T_GET _IOR('T', 1, struct tio)\n"
				  "#define T_SIZE sizeof(struct end)\n"
				  "#define T_CAST(p) ((struct grow *)(p))\n"
				  "#define T_BODY struct { struct tio t; }\n"
				  "struct cbs { union { void (*cb)(int); struct grow g; } u; };\n"
				  "struct rmid { struct resv r; __u32 after; };\n"
				  "enum { T_E = _IOW('T', 2, struct mid) };\n";
	struct ud_api_header o[2], n[2];
	struct ud_api_diff d;

	ud_api_parse("linux/in.h", in_old, strlen(in_old), &o[0]);
	ud_api_parse("linux/out.h", out, strlen(out), &o[1]);
	ud_api_parse("linux/in.h", in_new, strlen(in_new), &n[0]);
	ud_api_parse("linux/out.h", out, strlen(out), &n[1]);
	memset(&d, 0, sizeof(d));
	ud_api_diff_sets(o, 2, n, 2, &d);
	ck_assert_uint_eq(d.headers_changed, 1);
	ud_api_diff_through(&d, n, 2);
	ck_assert_uint_eq(d.headers_changed, 2);
	want_change(&d, "linux/out.h", "struct tio", UD_API_BREAKING, "member c_cc is a cc_t");
	/* grown at its end (review), embedded in the middle: what follows moves */
	want_change(&d, "linux/out.h", "struct mid", UD_API_BREAKING, "the members after it move");
	want_change(&d, "linux/out.h", "struct end", UD_API_REVIEW, "member g is a struct grow");
	want_change(&d, "linux/out.h", "struct ptr", UD_API_COMPATIBLE, "points to");
	/* a function pointer before it in an inline body does not make it a pointer */
	want_change(&d, "linux/out.h", "struct cbs", UD_API_REVIEW, "member u is a struct grow");
	/* users of users */
	want_change(&d, "linux/out.h", "struct wrap", UD_API_BREAKING, "struct tio");
	want_change(&d, "linux/out.h", "struct anon_user", UD_API_BREAKING, "anon_t");
	want_change(&d, "linux/out.h", "grow_t", UD_API_REVIEW, "names struct grow");
	want_change(&d, "linux/out.h", "T_GET", UD_API_BREAKING,
		    "the request number encodes sizeof(struct tio)");
	want_change(&d, "linux/out.h", "T_SIZE", UD_API_REVIEW,
		    "its value holds the size of struct end");
	want_change(&d, "linux/out.h", "T_BODY", UD_API_BREAKING,
		    "its replacement uses struct tio");
	/* a reserved member renamed (review) keeps the size: nothing after it moves */
	want_change(&d, "linux/out.h", "struct rmid", UD_API_REVIEW, "member r is a struct resv");
	want_change(&d, "linux/out.h", "T_E", UD_API_BREAKING, "struct mid");
	/* a cast to a pointer, a self-reference and an unchanged type: nothing */
	ck_assert_ptr_null(change_of(&d, "linux/out.h", "T_CAST"));
	ck_assert_ptr_null(change_of(&d, "linux/out.h", "struct list"));
	/* sorted: linux/in.h's own changes, then linux/out.h's by symbol */
	{
		size_t i;

		for (i = 1; i < d.n; i++) {
			int c = strcmp(d.v[i - 1].header, d.v[i].header);

			ck_assert_int_le(c, 0);
			if (c == 0 && strcmp(d.v[i].header, "linux/out.h") == 0)
				ck_assert_int_le(strcmp(d.v[i - 1].symbol, d.v[i].symbol), 0);
		}
	}
	ud_api_diff_free(&d);
	ud_api_header_free(&o[0]);
	ud_api_header_free(&o[1]);
	ud_api_header_free(&n[0]);
	ud_api_header_free(&n[1]);
}
END_TEST

/* The changes of text against text (one header), for cases planted() cannot plant in one edit. */
static void
diff_texts(const char *a, const char *b, struct ud_api_diff *d)
{
	struct ud_api_header o, n;

	ud_api_parse("linux/x.h", a, strlen(a), &o);
	ud_api_parse("linux/x.h", b, strlen(b), &n);
	memset(d, 0, sizeof(*d));
	ud_api_diff_header(&o, &n, d);
	ud_api_header_free(&o);
	ud_api_header_free(&n);
}

START_TEST(test_conditions)
{
	struct ud_api_diff d;

	/* wrapped in #ifndef __ASSEMBLY__: the same for C, its member changes still seen */
	diff_texts("struct s { int a; };\nenum { E_A };\n",
		   "#ifndef __ASSEMBLY__\nstruct s { int a; int b; };\nenum { E_A };\n#endif\n",
		   &d);
	ck_assert_uint_eq(d.symbols_removed, 0);
	ck_assert_uint_eq(d.symbols_added, 0);
	ck_assert_uint_eq(d.verdicts[UD_API_BREAKING], 0);
	ck_assert_ptr_nonnull(change_of(&d, "linux/x.h", "E_A [if !defined(__ASSEMBLY__)]"));
	want_change(&d, "linux/x.h", "struct s [if !defined(__ASSEMBLY__)]", UD_API_REVIEW,
		    "grew at its end");
	ud_api_diff_free(&d);
	/* another configuration: review */
	diff_texts("#define M 1\n", "#ifdef CONFIG_X\n#define M 1\n#endif\n", &d);
	want_change(&d, "linux/x.h", "M [if defined(CONFIG_X)]", UD_API_REVIEW,
		    "seen by other configurations");
	ud_api_diff_free(&d);
	/* two branches in one version, one in the other: not paired, removed and added */
	diff_texts("#ifdef A\n#define M 1\n#else\n#define M 2\n#endif\n", "#define M 1\n", &d);
	ck_assert_uint_eq(d.symbols_removed, 2);
	ck_assert_uint_eq(d.symbols_added, 1);
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_includes)
{
	/* linux/u.h drops its #include of asm/p.h; linux/w.h gains it */
	static const char p[] = "struct pt_regs { long r; };\ntypedef int p_t;\n";
	static const char u_old[] = "#include <asm/p.h>\n#define U 1\n";
	static const char u_new[] = "#define U 1\n";
	static const char w_old[] = "#define W 1\n";
	static const char w_new[] = "#include <asm/p.h>\n#define W 1\n";
	struct ud_api_header o[3], n[3];
	struct ud_api_diff d;
	size_t i;

	ud_api_parse("asm/p.h", p, strlen(p), &o[0]);
	ud_api_parse("linux/u.h", u_old, strlen(u_old), &o[1]);
	ud_api_parse("linux/w.h", w_old, strlen(w_old), &o[2]);
	ud_api_parse("asm/p.h", p, strlen(p), &n[0]);
	ud_api_parse("linux/u.h", u_new, strlen(u_new), &n[1]);
	ud_api_parse("linux/w.h", w_new, strlen(w_new), &n[2]);
	memset(&d, 0, sizeof(d));
	ud_api_diff_sets(o, 3, n, 3, &d);
	ud_api_diff_includes(&d, o, 3, n, 3);
	want_change(&d, "linux/u.h", "struct pt_regs", UD_API_REVIEW,
		    "no longer seen through its #includes (asm/p.h defines it)");
	want_change(&d, "linux/u.h", "p_t", UD_API_REVIEW, "no longer seen");
	want_change(&d, "linux/w.h", "struct pt_regs", UD_API_COMPATIBLE,
		    "now seen through its #includes");
	ck_assert_ptr_null(change_of(&d, "asm/p.h", "struct pt_regs"));
	ud_api_diff_free(&d);
	for (i = 0; i < 3; i++)
		ud_api_header_free(&n[i]);
	/* the type removed for good: reported where it was defined, not in every includer */
	ud_api_parse("asm/p.h", "typedef int p_t;\n", strlen("typedef int p_t;\n"), &n[0]);
	ud_api_parse("linux/u.h", u_old, strlen(u_old), &n[1]);
	ud_api_parse("linux/w.h", w_old, strlen(w_old), &n[2]);
	memset(&d, 0, sizeof(d));
	ud_api_diff_sets(o, 3, n, 3, &d);
	ud_api_diff_includes(&d, o, 3, n, 3);
	want_change(&d, "asm/p.h", "struct pt_regs", UD_API_BREAKING, "struct removed");
	ck_assert_ptr_null(change_of(&d, "linux/u.h", "struct pt_regs"));
	ud_api_diff_free(&d);
	for (i = 0; i < 3; i++) {
		ud_api_header_free(&o[i]);
		ud_api_header_free(&n[i]);
	}
}
END_TEST

/* ---- verdict rules on real changes (issue 27), read for a target ABI ---- */

struct file {
	const char *path;
	const char *text;
};

/* What every fixture may use: the kernel's integer types, ioctl and constant macros. */
static const struct file common[] = {
	{"asm-generic/int-ll64.h", int_ll64},
	{"linux/types.h", types_h},
	{"asm-generic/ioctl.h", ioctl_h},
	{"linux/const.h", const_h},
	{"linux/bits.h", bits_h},
	{"asm-generic/bitsperlong.h", bitsperlong_h},
};
#define NCOMMON (ARRAY_SIZE(common))

static void
read_version(const char *path, const char *text, const char *extra_path, const char *extra,
	     struct ud_api_header *v, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < NCOMMON; i++, (*n)++)
		ud_api_parse(common[i].path, common[i].text, strlen(common[i].text), &v[*n]);
	ud_api_parse(path, text, strlen(text), &v[(*n)++]);
	if (extra_path != NULL)
		ud_api_parse(extra_path, extra, strlen(extra), &v[(*n)++]);
	ud_api_sort_headers(v, *n);
}

/*
 * What `uapid api-diff --abi ABI` reports when header path changes from
 * old to new (extra: one more header of the new version, or NULL).
 */
static void
versions_extra(const char *path, const char *old, const char *new_, const char *extra_path,
	       const char *extra, const char *abi, struct ud_api_diff *d)
{
	struct ud_api_header o[NCOMMON + 2], n[NCOMMON + 2];
	size_t no, nn, i;

	read_version(path, old, NULL, NULL, o, &no);
	read_version(path, new_, extra_path, extra, n, &nn);
	ud_api_resolve_pair(o, no, n, nn, ud_abi_find(abi));
	memset(d, 0, sizeof(*d));
	ud_api_diff_versions(o, no, n, nn, d);
	for (i = 0; i < no; i++)
		ud_api_header_free(&o[i]);
	for (i = 0; i < nn; i++)
		ud_api_header_free(&n[i]);
}

static void
versions(const char *path, const char *old, const char *new_, struct ud_api_diff *d)
{
	versions_extra(path, old, new_, NULL, NULL, "x86_64", d);
}

static void
dump(const struct ud_api_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		fprintf(stderr, "  got: %s: %s: %s %s: %s\n", ud_api_verdict_name(d->v[i].verdict),
			ud_api_rule_name(d->v[i].rule), ud_api_kind_name(d->v[i].kind),
			d->v[i].symbol, d->v[i].reason);
}

/* A change of symbol with this verdict, rule and words in its reason. */
static void
expect(const struct ud_api_diff *d, const char *symbol, enum ud_api_verdict v,
       enum ud_api_rule rule, const char *reason_has)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].symbol, symbol) == 0 && d->v[i].verdict == v &&
		    d->v[i].rule == rule && strstr(d->v[i].reason, reason_has) != NULL)
			return;
	dump(d);
	ck_abort_msg("want %s: %s (%s) with '%s'", symbol, ud_api_verdict_name(v),
		     ud_api_rule_name(rule), reason_has);
}

/* Nothing breaking in d. */
static void
none_breaking(const struct ud_api_diff *d)
{
	if (d->verdicts[UD_API_BREAKING] != 0)
		dump(d);
	ck_assert_uint_eq(d->verdicts[UD_API_BREAKING], 0);
}

/* No change of symbol at all. */
static void
unchanged(const struct ud_api_diff *d, const char *symbol)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].symbol, symbol) == 0) {
			dump(d);
			ck_abort_msg("%s reported: %s", symbol, d->v[i].reason);
		}
}

/* text with its first from replaced by to (a variant of a fixture). */
static char *
with(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	ck_assert_msg(at != NULL, "'%s' not in the fixture", from);
	return ud_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

START_TEST(test_rule_macro_enum)
{
	struct ud_api_diff d;
	char *moved;

	/* #define AH_V4_FLOW 0x09 -> AH_V4_FLOW = 0x09 in an anonymous enum: review at most */
	versions("linux/ethtool.h", eth_old, eth_new, &d);
	expect(&d, "AH_V4_FLOW", UD_API_REVIEW, UD_API_RULE_MACRO_ENUM,
	       "macro became an enum constant (#ifdef no longer sees it), same value 9");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* a changed value keeps its verdict */
	moved = with(eth_new, "AH_V4_FLOW\t= 0x09", "AH_V4_FLOW\t= 0x19");
	versions("linux/ethtool.h", eth_old, moved, &d);
	expect(&d, "AH_V4_FLOW", UD_API_BREAKING, UD_API_RULE_VALUE, "9 -> 25");
	ud_api_diff_free(&d);
	free(moved);
	/* MAX_BPF_LINK_TYPE: the enum's sentinel became #define MAX_BPF_LINK_TYPE __MAX_... */
	versions("linux/bpf.h", link_old, link_new, &d);
	expect(&d, "MAX_BPF_LINK_TYPE", UD_API_REVIEW, UD_API_RULE_SENTINEL,
	       "enum constant became a macro, sentinel moved: value 10 -> 15");
	expect(&d, "enum bpf_link_type", UD_API_REVIEW, UD_API_RULE_ENUM,
	       "constant MAX_BPF_LINK_TYPE no longer in the enum");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* binder's ioctls from #define to enum constants: the same request numbers */
	versions("linux/android/binder.h", binder_old, binder_new, &d);
	expect(&d, "BINDER_WRITE_READ", UD_API_REVIEW, UD_API_RULE_MACRO_ENUM,
	       "same value 0xc0306201");
	none_breaking(&d);
	ud_api_diff_free(&d);
}
END_TEST

/* ---- what `compatible` hid in 6.1 -> 6.12 (issue 40), and the two axes ---- */

/* The change of symbol (one entry per symbol and edit) with its two axes. */
static void
expect_axes(const struct ud_api_diff *d, const char *symbol, enum ud_api_verdict binary,
	    enum ud_api_verdict source)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].symbol, symbol) == 0) {
			n++;
			ck_assert_msg(d->v[i].axis[UD_API_BINARY] == binary &&
					      d->v[i].axis[UD_API_SOURCE] == source,
				      "%s: binary %s, source %s; want %s, %s", symbol,
				      ud_api_verdict_name(d->v[i].axis[UD_API_BINARY]),
				      ud_api_verdict_name(d->v[i].axis[UD_API_SOURCE]),
				      ud_api_verdict_name(binary), ud_api_verdict_name(source));
			ck_assert_uint_eq(d->v[i].verdict, binary > source ? binary : source);
		}
	if (n != 1)
		dump(d);
	ck_assert_uint_eq(n, 1);
}

static const char kvm_s390_old[] =
	"#include <linux/types.h>\n"
	"#include <asm-generic/ioctl.h>\n"
	"struct kvm_s390_mem_op {\n"
	"\t__u64 gaddr;\n\t__u64 flags;\n\t__u32 size;\n\t__u32 op;\n\t__u64 buf;\n"
	"\tunion {\n\t\t__u8 ar;\n\t\t__u32 sida_offset;\n\t\t__u8 reserved[32];\n\t};\n"
	"};\n"
	"struct kvm_s390_irq_state {\n"
	"\t__u64 buf;\n\t__u32 flags;\n\t__u32 len;\n\t__u32 reserved[4];\n"
	"};\n"
	"#define KVMIO 0xAE\n"
	"#define KVM_S390_MEM_OP           _IOW(KVMIO,  0xb1, struct kvm_s390_mem_op)\n"
	"#define KVM_S390_GET_IRQ_STATE\t  _IOW(KVMIO, 0xb6, struct kvm_s390_irq_state)\n";

/* x86's linux/kvm.h of 6.12: the structs went to s390's asm/kvm.h, the requests stayed */
static const char kvm_s390_new[] =
	"#include <linux/types.h>\n"
	"#include <asm-generic/ioctl.h>\n"
	"#define KVMIO 0xAE\n"
	"#define KVM_S390_MEM_OP           _IOW(KVMIO,  0xb1, struct kvm_s390_mem_op)\n"
	"#define KVM_S390_GET_IRQ_STATE\t  _IOW(KVMIO, 0xb6, struct kvm_s390_irq_state)\n";

START_TEST(test_rule_ioctl_undeclared)
{
	struct ud_api_diff d;

	/* a request number that cannot be computed any more is not the same request */
	versions("linux/kvm.h", kvm_s390_old, kvm_s390_new, &d);
	expect(&d, "KVM_S390_GET_IRQ_STATE", UD_API_BREAKING, UD_API_RULE_IOCTL_ARG,
	       "its argument type struct kvm_s390_irq_state is no longer declared here");
	expect(&d, "KVM_S390_MEM_OP", UD_API_BREAKING, UD_API_RULE_IOCTL_ARG,
	       "its argument type struct kvm_s390_mem_op is no longer declared here");
	/* a built program keeps its request number: the break is the source's */
	expect_axes(&d, "KVM_S390_GET_IRQ_STATE", UD_API_COMPATIBLE, UD_API_BREAKING);
	expect_axes(&d, "KVM_S390_MEM_OP", UD_API_COMPATIBLE, UD_API_BREAKING);
	ud_api_diff_free(&d);
}
END_TEST

static const char mptcp_old[] =
	"enum {\n"
	"\tMPTCP_ATTR_UNSPEC,\n\tMPTCP_ATTR_TOKEN,\n\tMPTCP_ATTR_FAMILY,\n"
	"\tMPTCP_ATTR_LOC_ID,\n\tMPTCP_ATTR_REM_ID,\n\tMPTCP_ATTR_SADDR4,\n"
	"\tMPTCP_ATTR_SADDR6,\n\tMPTCP_ATTR_DADDR4,\n\tMPTCP_ATTR_DADDR6,\n"
	"\tMPTCP_ATTR_SPORT,\n\tMPTCP_ATTR_DPORT,\n\tMPTCP_ATTR_BACKUP,\n"
	"\tMPTCP_ATTR_ERROR,\n\tMPTCP_ATTR_FLAGS,\n\tMPTCP_ATTR_TIMEOUT,\n"
	"\tMPTCP_ATTR_IF_IDX,\n\tMPTCP_ATTR_RESET_REASON,\n\tMPTCP_ATTR_RESET_FLAGS,\n"
	"\tMPTCP_ATTR_SERVER_SIDE,\n"
	"\n\t__MPTCP_ATTR_AFTER_LAST\n"
	"};\n";

static const char mptcp_new[] = "#include <linux/mptcp_pm.h>\n";

/* 6.12's generated linux/mptcp_pm.h: the name now ends another enum */
static const char mptcp_pm_new[] =
	"enum {\n"
	"\tMPTCP_PM_ENDPOINT_ADDR = 1,\n"
	"\n\t__MPTCP_PM_ENDPOINT_MAX,\n"
	"};\n"
	"enum {\n"
	"\tMPTCP_ATTR_UNSPEC,\n\tMPTCP_ATTR_TOKEN,\n\tMPTCP_ATTR_FAMILY,\n"
	"\tMPTCP_ATTR_LOC_ID,\n\tMPTCP_ATTR_REM_ID,\n\tMPTCP_ATTR_SADDR4,\n"
	"\tMPTCP_ATTR_SADDR6,\n\tMPTCP_ATTR_DADDR4,\n\tMPTCP_ATTR_DADDR6,\n"
	"\tMPTCP_ATTR_SPORT,\n\tMPTCP_ATTR_DPORT,\n\tMPTCP_ATTR_BACKUP,\n"
	"\tMPTCP_ATTR_ERROR,\n\tMPTCP_ATTR_FLAGS,\n\tMPTCP_ATTR_TIMEOUT,\n"
	"\tMPTCP_ATTR_IF_IDX,\n\tMPTCP_ATTR_RESET_REASON,\n\tMPTCP_ATTR_RESET_FLAGS,\n"
	"\tMPTCP_ATTR_SERVER_SIDE,\n"
	"\n\t__MPTCP_ATTR_MAX\n"
	"};\n"
	"enum {\n"
	"\tMPTCP_SUBFLOW_ATTR_UNSPEC,\n\tMPTCP_SUBFLOW_ATTR_TOKEN_REM,\n"
	"\tMPTCP_SUBFLOW_ATTR_TOKEN_LOC,\n\tMPTCP_SUBFLOW_ATTR_RELWRITE_SEQ,\n"
	"\tMPTCP_SUBFLOW_ATTR_MAP_SEQ,\n\tMPTCP_SUBFLOW_ATTR_MAP_SFSEQ,\n"
	"\tMPTCP_SUBFLOW_ATTR_SSN_OFFSET,\n"
	"\n\t__MPTCP_ATTR_AFTER_LAST\n"
	"};\n";

START_TEST(test_rule_move_keeps_value)
{
	struct ud_api_diff d;

	/* reachable through the #include, yes: but 19 -> 7 */
	versions_extra("linux/mptcp.h", mptcp_old, mptcp_new, "linux/mptcp_pm.h", mptcp_pm_new,
		       "x86_64", &d);
	expect(&d, "__MPTCP_ATTR_AFTER_LAST", UD_API_BREAKING, UD_API_RULE_VALUE,
	       "moved to linux/mptcp_pm.h, which linux/mptcp.h includes, but: value 19 -> 7");
	expect_axes(&d, "__MPTCP_ATTR_AFTER_LAST", UD_API_BREAKING, UD_API_COMPATIBLE);
	/* the ones that kept their values only moved */
	expect(&d, "MPTCP_ATTR_SERVER_SIDE", UD_API_COMPATIBLE, UD_API_RULE_MOVED,
	       "moved to linux/mptcp_pm.h");
	ud_api_diff_free(&d);
}
END_TEST

static const char devlink_old[] =
	"enum devlink_command {\n"
	"\tDEVLINK_CMD_UNSPEC,\n\tDEVLINK_CMD_GET,\n\tDEVLINK_CMD_SELFTESTS_GET,\n"
	"\tDEVLINK_CMD_SELFTESTS_RUN,\n"
	"\n\t/* add new commands above here */\n"
	"\t__DEVLINK_CMD_MAX,\n"
	"\tDEVLINK_CMD_MAX = __DEVLINK_CMD_MAX - 1\n"
	"};\n";

static const char devlink_new[] =
	"enum devlink_command {\n"
	"\tDEVLINK_CMD_UNSPEC,\n\tDEVLINK_CMD_GET,\n\tDEVLINK_CMD_SELFTESTS_GET,\n"
	"\tDEVLINK_CMD_SELFTESTS_RUN,\n"
	"\n\tDEVLINK_CMD_NOTIFY_FILTER_SET,\n"
	"\n\t/* add new commands above here */\n"
	"\t__DEVLINK_CMD_MAX,\n"
	"\tDEVLINK_CMD_MAX = __DEVLINK_CMD_MAX - 1\n"
	"};\n";

static const char bpf_func_old[] = "#define __BPF_FUNC_MAPPER(FN)\t\t\\\n"
				   "\tFN(unspec),\t\t\t\\\n"
				   "\tFN(map_lookup_elem),\t\t\\\n"
				   "\tFN(user_ringbuf_drain),\t\t\\\n"
				   "\t/* */\n"
				   "#define __BPF_ENUM_FN(x) BPF_FUNC_ ## x\n"
				   "enum bpf_func_id {\n"
				   "\t__BPF_FUNC_MAPPER(__BPF_ENUM_FN)\n"
				   "\t__BPF_FUNC_MAX_ID,\n"
				   "};\n"
				   "#undef __BPF_ENUM_FN\n";

static const char bpf_func_new[] =
	"#define ___BPF_FUNC_MAPPER(FN, ctx...)\t\t\t\\\n"
	"\tFN(unspec, 0, ##ctx)\t\t\t\t\\\n"
	"\tFN(map_lookup_elem, 1, ##ctx)\t\t\t\\\n"
	"\tFN(user_ringbuf_drain, 2, ##ctx)\t\t\\\n"
	"\tFN(cgrp_storage_get, 3, ##ctx)\t\t\t\\\n"
	"\tFN(cgrp_storage_delete, 4, ##ctx)\t\t\\\n"
	"\t/* */\n"
	"#define __BPF_FUNC_MAPPER_APPLY(name, value, FN) FN(name),\n"
	"#define __BPF_FUNC_MAPPER(FN) ___BPF_FUNC_MAPPER(__BPF_FUNC_MAPPER_APPLY, FN)\n"
	"#define __BPF_ENUM_FN(x, y) BPF_FUNC_ ## x = y,\n"
	"enum bpf_func_id {\n"
	"\t___BPF_FUNC_MAPPER(__BPF_ENUM_FN)\n"
	"\t__BPF_FUNC_MAX_ID,\n"
	"};\n"
	"#undef __BPF_ENUM_FN\n";

START_TEST(test_rule_enum_sentinel)
{
	struct ud_api_diff d;

	/* a constant inserted before the count sentinel is not "added at the end" */
	versions("linux/devlink.h", devlink_old, devlink_new, &d);
	expect(&d, "enum devlink_command", UD_API_REVIEW, UD_API_RULE_ENUM_SENTINEL,
	       "1 constant inserted before its count sentinel __DEVLINK_CMD_MAX, which grows");
	expect(&d, "__DEVLINK_CMD_MAX", UD_API_REVIEW, UD_API_RULE_SENTINEL, "4 -> 5");
	expect_axes(&d, "enum devlink_command", UD_API_REVIEW, UD_API_COMPATIBLE);
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* the same where an X-macro writes the constants */
	versions("linux/bpf.h", bpf_func_old, bpf_func_new, &d);
	expect(&d, "enum bpf_func_id", UD_API_REVIEW, UD_API_RULE_ENUM_SENTINEL,
	       "2 constants inserted before its count sentinel __BPF_FUNC_MAX_ID, which grows");
	expect(&d, "__BPF_FUNC_MAX_ID", UD_API_REVIEW, UD_API_RULE_SENTINEL, "3 -> 5");
	none_breaking(&d);
	ud_api_diff_free(&d);
}
END_TEST

static const char ebt_old[] =
	"#include <linux/types.h>\n"
	"struct ebt_replace {\n\tunsigned int valid_hooks;\n\tunsigned int nentries;\n"
	"\tchar *entries;\n};\n"
	"struct ebt_entry {\n"
	"\tunsigned int bitmask;\n\tunsigned int invflags;\n\t__be16 ethproto;\n"
	"\tchar in[16];\n\tunsigned int watchers_offset;\n\tunsigned int target_offset;\n"
	"\tunsigned int next_offset;\n"
	"\tunsigned char elems[0] __attribute__ ((aligned (__alignof__(struct ebt_replace))));\n"
	"};\n";

static const char rt0_old[] =
	"#include <linux/types.h>\n"
	"struct in6_addr {\n\tunion {\n\t\t__u8 u6_addr8[16];\n\t\t__be32 u6_addr32[4];\n"
	"\t} in6_u;\n};\n"
	"struct ipv6_rt_hdr {\n\t__u8 nexthdr;\n\t__u8 hdrlen;\n\t__u8 type;\n"
	"\t__u8 segments_left;\n};\n"
	"struct rt0_hdr {\n"
	"\tstruct ipv6_rt_hdr\trt_hdr;\n"
	"\t__u32\t\t\treserved;\n"
	"\tstruct in6_addr\t\taddr[0];\n"
	"\n#define rt0_type\t\trt_hdr.type\n"
	"};\n";

START_TEST(test_rule_zero_array_flexible)
{
	struct ud_api_diff d;
	char *now;

	/* [0] -> []: the same layout, but sizeof(e.elems) and C++ embedding stop compiling */
	now = with(ebt_old, "elems[0]", "elems[]");
	versions("linux/netfilter_bridge/ebtables.h", ebt_old, now, &d);
	expect(&d, "struct ebt_entry", UD_API_REVIEW, UD_API_RULE_FLEX,
	       "zero-length array made flexible (was elems)");
	expect_axes(&d, "struct ebt_entry", UD_API_COMPATIBLE, UD_API_REVIEW);
	none_breaking(&d);
	ud_api_diff_free(&d);
	free(now);
	now = with(rt0_old, "addr[0]", "addr[]");
	versions("linux/ipv6.h", rt0_old, now, &d);
	expect(&d, "struct rt0_hdr", UD_API_REVIEW, UD_API_RULE_FLEX,
	       "zero-length array made flexible (was addr)");
	expect_axes(&d, "struct rt0_hdr", UD_API_COMPATIBLE, UD_API_REVIEW);
	none_breaking(&d);
	ud_api_diff_free(&d);
	free(now);
}
END_TEST

START_TEST(test_rule_constant_type)
{
	struct ud_api_diff d;
	static const char rs485_old[] = "#define SER_RS485_RX_DURING_TX\t\t(1 << 4)\n";
	static const char rs485_new[] = "#include <linux/const.h>\n"
					"#define SER_RS485_RX_DURING_TX\t\t_BITUL(4)\n";

	/* 16 both times, but sizeof 4 -> 8 and (FLAG > -1) 1 -> 0 */
	versions("linux/serial.h", rs485_old, rs485_new, &d);
	expect(&d, "SER_RS485_RX_DURING_TX", UD_API_REVIEW, UD_API_RULE_CONST_TYPE,
	       "same value 16 with another type (now unsigned)");
	expect_axes(&d, "SER_RS485_RX_DURING_TX", UD_API_COMPATIBLE, UD_API_REVIEW);
	ud_api_diff_free(&d);
}
END_TEST

static const char syncobj_old[] =
	"#include <linux/types.h>\n"
	"#include <asm-generic/ioctl.h>\n"
	"#define DRM_IOCTL_BASE\t\t\t'd'\n"
	"#define DRM_IOWR(nr,type)\t\t_IOWR(DRM_IOCTL_BASE,nr,type)\n"
	"struct drm_syncobj_wait {\n"
	"\t__u64 handles;\n\t__s64 timeout_nsec;\n\t__u32 count_handles;\n\t__u32 flags;\n"
	"\t__u32 first_signaled;\n\t__u32 pad;\n"
	"};\n"
	"#define DRM_IOCTL_SYNCOBJ_WAIT\t\tDRM_IOWR(0xC3, struct drm_syncobj_wait)\n"
	"#define DRM_IOCTL_SYNCOBJ_WAIT_PLAIN\t_IOWR('d', 0xC4, struct drm_syncobj_wait)\n";

START_TEST(test_rule_ioctl_grew)
{
	struct ud_api_diff d;
	char *now = with(syncobj_old, "\t__u32 pad;\n", "\t__u32 pad;\n\t__u64 deadline_nsec;\n");

	/*
	 * A request number that changes only because its struct grew at its
	 * end: review wherever the macro is (through a wrapper or not), as the
	 * struct's own entry says: old binaries pass the smaller size.
	 */
	versions("drm/drm.h", syncobj_old, now, &d);
	expect(&d, "struct drm_syncobj_wait", UD_API_REVIEW, UD_API_RULE_GREW, "size 32 -> 40");
	expect(&d, "DRM_IOCTL_SYNCOBJ_WAIT", UD_API_REVIEW, UD_API_RULE_IOCTL_GREW,
	       "0xc02064c3 -> 0xc02864c3 only as struct drm_syncobj_wait grew at its end");
	expect(&d, "DRM_IOCTL_SYNCOBJ_WAIT_PLAIN", UD_API_REVIEW, UD_API_RULE_IOCTL_GREW,
	       "0xc02064c4 -> 0xc02864c4 only as struct drm_syncobj_wait grew at its end");
	expect_axes(&d, "DRM_IOCTL_SYNCOBJ_WAIT", UD_API_REVIEW, UD_API_COMPATIBLE);
	none_breaking(&d);
	ud_api_diff_free(&d);
	free(now);
}
END_TEST

/* A struct with a member added in room it had and a reserved one given a use: one entry. */
START_TEST(test_one_entry_per_edit)
{
	struct ud_api_diff d;
	static const char fuse_old[] = "#include <linux/types.h>\n"
				       "struct fuse_open_out {\n\t__u64 fh;\n\t__u32 open_flags;\n"
				       "\t__u32 padding;\n};\n";
	static const char fuse_new[] = "#include <linux/types.h>\n"
				       "struct fuse_open_out {\n\t__u64 fh;\n\t__u32 open_flags;\n"
				       "\t__s32 backing_id;\n};\n";

	versions("linux/fuse.h", fuse_old, fuse_new, &d);
	expect(&d, "struct fuse_open_out", UD_API_REVIEW, UD_API_RULE_RESERVED, "padding");
	/* binary ok (the same bytes), source review (a name and a meaning) */
	expect_axes(&d, "struct fuse_open_out", UD_API_COMPATIBLE, UD_API_REVIEW);
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_rule_access_path)
{
	struct ud_api_diff d;
	char *swapped;

	/* smac/dmac now inside union { struct { mark; }; struct { smac; dmac; }; }: 52, 58, 64 */
	versions("linux/bpf.h", fib_old, fib_new, &d);
	expect(&d, "struct bpf_fib_lookup", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "members added: mark in room it already had: no offset or size moves (size 64)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* the same change with the two swapped: offsets do move */
	swapped = with(fib_new, "\t\t\t__u8\tsmac[6];\n\t\t\t__u8\tdmac[6];\n",
		       "\t\t\t__u8\tdmac[6];\n\t\t\t__u8\tsmac[6];\n");
	versions("linux/bpf.h", fib_old, swapped, &d);
	expect(&d, "struct bpf_fib_lookup", UD_API_BREAKING, UD_API_RULE_MEMBER_MOVED,
	       "member smac: offset 52 -> 58");
	ud_api_diff_free(&d);
	free(swapped);
	/* nbd_request.handle now in union { __be64 cookie; char handle[8]; } */
	versions("linux/nbd.h", nbd_old, nbd_new, &d);
	expect(&d, "struct nbd_request", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "members added: cookie in room it already had");
	none_breaking(&d);
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_rule_sizes)
{
	struct ud_api_diff d;

	/* a reserved byte reused: key_type; __align[5] (264 bytes both times) */
	versions("linux/sed-opal.h", opal_old, opal_new, &d);
	expect(&d, "struct opal_key", UD_API_REVIEW, UD_API_RULE_RESERVED,
	       "reserved member __align: offset 2 -> 3");
	/* one entry per symbol and edit: the member added is in the same entry */
	expect(&d, "struct opal_key", UD_API_REVIEW, UD_API_RULE_RESERVED,
	       "members added: key_type in room it already had");
	expect(&d, "IOC_OPAL_TAKE_OWNERSHIP", UD_API_COMPATIBLE, UD_API_RULE_THROUGH,
	       "the request number is the same");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* max_phase_adj takes an int of rsv[12]: 80 bytes both times, so GETCAPS2 stands */
	versions("linux/ptp_clock.h", ptp_old, ptp_new, &d);
	expect(&d, "struct ptp_clock_caps", UD_API_REVIEW, UD_API_RULE_RESERVED, "member rsv");
	expect(&d, "PTP_CLOCK_GETCAPS2", UD_API_COMPATIBLE, UD_API_RULE_THROUGH,
	       "the request number is the same (0x80503d0a)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* a flexible-array wrapper of size 0 in a union (24 bytes both times) */
	versions("xen/gntalloc.h", gref_old, gref_new, &d);
	expect(&d, "struct ioctl_gntalloc_alloc_gref", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "(size 24)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* a size that did change: said with both sizes, and the request number with it */
	versions("drm/drm.h", sync_old, sync_new, &d);
	expect(&d, "struct drm_syncobj_wait", UD_API_REVIEW, UD_API_RULE_GREW,
	       "grew at its end: size 32 -> 40, members added: deadline_nsec");
	/* the request number with it, grown only as the struct did: review (issue 40) */
	expect(&d, "DRM_IOCTL_SYNCOBJ_WAIT", UD_API_REVIEW, UD_API_RULE_IOCTL_GREW,
	       "0xc02064c3 -> 0xc02864c3 only as struct drm_syncobj_wait grew at its end");
	ud_api_diff_free(&d);
	/* a member that shrank: breaking with both sizes */
	versions("linux/ublk_cmd.h", ublk_old, ublk_new, &d);
	expect(&d, "struct ublksrv_ctrl_cmd", UD_API_BREAKING, UD_API_RULE_MEMBER_RESIZED,
	       "member data: unsigned long long [2] -> unsigned long long [1], size 16 -> 8");
	/* shrunk: code indexing data[1] breaks when rebuilt too */
	expect_axes(&d, "struct ublksrv_ctrl_cmd", UD_API_BREAKING, UD_API_BREAKING);
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_rule_conditions)
{
	struct ud_api_diff d;

	/* #ifndef __ASSEMBLY__ -> #ifndef __ASSEMBLER__: C defines neither, nothing changed */
	versions("asm/ptrace.h", ptregs_old, ptregs_new, &d);
	unchanged(&d, "struct pt_regs");
	ck_assert_uint_eq(d.n, 0);
	ud_api_diff_free(&d);
	versions_extra("asm/ptrace.h", ptregs_old, ptregs_new, NULL, NULL, "i386", &d);
	ck_assert_uint_eq(d.n, 0);
	ud_api_diff_free(&d);
	/* fields under #ifdef __ia64__ removed: x86-64 never had them, ia64 did */
	versions("asm-generic/siginfo.h", sifields_old, sifields_new, &d);
	unchanged(&d, "union __sifields");
	ud_api_diff_free(&d);
	versions_extra("asm-generic/siginfo.h", sifields_old, sifields_new, NULL, NULL, "ia64", &d);
	expect(&d, "union __sifields", UD_API_BREAKING, UD_API_RULE_MEMBER_RETYPED,
	       "member _sigfault");
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_rule_families)
{
	struct ud_api_diff d;
	char *shrunk;

	versions("linux/bpf.h", tcp_old, tcp_new, &d);
	expect(&d, "BPF_TCP_MAX_STATES", UD_API_REVIEW, UD_API_RULE_SENTINEL,
	       "sentinel moved: value 13 -> 14");
	none_breaking(&d);
	ud_api_diff_free(&d);
	versions("linux/dvb/version.h", dvb_old, dvb_new, &d);
	expect(&d, "DVB_API_VERSION_MINOR", UD_API_REVIEW, UD_API_RULE_VERSION,
	       "version moved: replacement 11 -> 12");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* GENMASK was not defined for userspace in 6.1: a *_MASK, review */
	versions("asm/kvm_para.h", vec_old, vec_new, &d);
	expect(&d, "KVM_ASYNC_PF_VEC_MASK", UD_API_REVIEW, UD_API_RULE_SENTINEL,
	       "'GENMASK(7, 0)' -> '__GENMASK(7, 0)'");
	ud_api_diff_free(&d);
	/* a mask that lost a bit is not a bound that grew */
	shrunk = with(vec_new, "__GENMASK(7, 0)", "__GENMASK(6, 0)");
	versions("asm/kvm_para.h", vec_new, shrunk, &d);
	expect(&d, "KVM_ASYNC_PF_VEC_MASK", UD_API_BREAKING, UD_API_RULE_VALUE,
	       "replacement 255 -> 127");
	ud_api_diff_free(&d);
	free(shrunk);
}
END_TEST

/*
 * Character constants are read as their values wherever they stand: 'd'
 * (100) and above take three digits, as many bytes as the quoted form,
 * and once ended the text there ('d' + 1 was read as 100).
 */
START_TEST(test_char_constants)
{
	static const char text[] = "#define C_LOW 'A' + 1\n"
				   "#define C_HIGH 'd' + 1\n"
				   "#define C_PAREN ('x' + 1)\n"
				   "#define C_TWO ('d' << 8 | 'z')\n"
				   "#define C_IOC _IOW('d', 1, int)\n";
	struct ud_api_header h;
	const struct ud_api_sym *s;

	ud_api_parse("linux/c.h", text, strlen(text), &h);
	s = sym(&h, UD_API_MACRO, "C_LOW", "");
	ck_assert(s->has_value);
	ck_assert_int_eq(s->value, 'A' + 1);
	s = sym(&h, UD_API_MACRO, "C_HIGH", "");
	ck_assert(s->has_value);
	ck_assert_int_eq(s->value, 'd' + 1);
	s = sym(&h, UD_API_MACRO, "C_PAREN", "");
	ck_assert(s->has_value);
	ck_assert_int_eq(s->value, 'x' + 1);
	s = sym(&h, UD_API_MACRO, "C_TWO", "");
	ck_assert(s->has_value);
	ck_assert_int_eq(s->value, 'd' << 8 | 'z');
	s = sym(&h, UD_API_MACRO, "C_IOC", "");
	ck_assert(s->is_ioctl);
	ck_assert_int_eq(s->ioctl->typev, 'd');
	ck_assert_int_eq(s->ioctl->nrv, 1);
	ud_api_header_free(&h);
}
END_TEST

/*
 * The fingerprints' values, pinned: the daemon stores them (api_versions)
 * and compares what it reads again with what it stored, so a change of the
 * hashing, however fast, would report every header as changed once after
 * an upgrade.  Changing these numbers needs a store migration.
 */
START_TEST(test_fingerprints_pinned)
{
	static const char text[] = "#ifndef _LINUX_FP_H\n#define _LINUX_FP_H\n"
				   "#include <linux/types.h>\n"
				   "#define FP_FLAG 0x10\n"
				   "#define FP_GET _IOR('F', 1, struct fp_req)\n"
				   "#ifdef __x86_64__\n#define FP_ARCH 64\n#endif\n"
				   "struct fp_req { __u32 a; __u8 b[4]; unsigned c:3; };\n"
				   "enum fp_mode { FP_OFF, FP_ON = 4 };\n"
				   "typedef __u64 fp_id;\n#endif\n";
	static const struct {
		const char *key;
		uint64_t fingerprint, body;
	} want[] = {
		{"0 FP_ARCH @ defined(__x86_64__)", 0xa008f13d58a7df98ull, 0xee06bf9f141c2321ull},
		{"0 FP_FLAG", 0x620fc5562eaa2cabull, 0xad0d80c826bd6fa0ull},
		{"0 FP_GET", 0x2cd9fc5241070775ull, 0x39fbdfc5d7a523adull},
		{"1 FP_OFF", 0xdb58019cf0281bedull, 0xdcad6319fcf51f99ull},
		{"1 FP_ON", 0xeb183789dc3c3f86ull, 0xd218887249d06d69ull},
		{"2 enum fp_mode", 0x1a2b26ae277bf09full, 0xb8607ad9cdfbf1d0ull},
		{"3 struct fp_req", 0xb913fddd128d848full, 0xbc18b6fce351a662ull},
		{"5 fp_id", 0x785092465669611aull, 0x16f0f16045af6dcfull},
	};
	struct ud_api_header h;
	size_t i;

	ud_api_parse("linux/fp.h", text, strlen(text), &h);
	ck_assert_uint_eq(h.n, ARRAY_SIZE(want));
	for (i = 0; i < h.n; i++) {
		ck_assert_str_eq(h.v[i].key, want[i].key);
		ck_assert_uint_eq(h.v[i].fingerprint, want[i].fingerprint);
		ck_assert_uint_eq(h.v[i].body, want[i].body);
	}
	ck_assert_uint_eq(h.fingerprint, 0x53225bfc4f9af430ull);
	ud_api_header_free(&h);
}
END_TEST

START_TEST(test_rule_values)
{
	struct ud_api_diff d;

	/* (1 << 8) -> _BITUL(8): 256 both times, after expansion */
	versions("linux/serial.h", ser_old, ser_new, &d);
	expect(&d, "SER_RS485_ADDR_DEST", UD_API_REVIEW, UD_API_RULE_CONST_TYPE,
	       "same value 256 with another type (now unsigned)");
	ud_api_diff_free(&d);
	/* the same type after typedefs */
	versions("linux/capability.h", cap_old, cap_new, &d);
	expect(&d, "cap_user_data_t", UD_API_COMPATIBLE, UD_API_RULE_SPELLING,
	       "the same type after typedefs (struct __user_cap_data_struct *)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* the mask of supported flags gained two, every old one kept */
	versions("linux/fs.h", rwf_old, rwf_new, &d);
	expect(&d, "RWF_SUPPORTED", UD_API_REVIEW, UD_API_RULE_FLAGS_ADDED,
	       "flags added to the set: 31 -> 127 (every old one kept)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* parameters renamed, the same replacement */
	versions("linux/ioprio.h", ioprio_old, ioprio_new, &d);
	expect(&d, "IOPRIO_PRIO_VALUE_HINT", UD_API_COMPATIBLE, UD_API_RULE_PARAMS,
	       "parameters renamed (class, level, hint) -> (prioclass, priolevel, priohint)");
	ud_api_diff_free(&d);
}
END_TEST

/*
 * A macro whose text stays the same but names, through a chain of others,
 * one whose value changed: its value is read in both versions however
 * long the chain (a rescan of every text once stopped after four passes,
 * about eight links).
 */
START_TEST(test_rule_value_chain)
{
	struct ud_buf o = UD_BUF_INIT, n = UD_BUF_INIT;
	struct ud_api_diff d;
	int i;

	for (i = 0; i < 2; i++) {
		struct ud_buf *b = i == 0 ? &o : &n;
		int k;

		ud_buf_addf(b, "#ifndef _LINUX_CHAIN_H\n#define _LINUX_CHAIN_H\n");
		ud_buf_addf(b, "#define CH_BASE %d\n", i + 1);
		for (k = 1; k < 20; k++)
			ud_buf_addf(b, "#define CH_M%02d (CH_M%02d + 0)\n", k, k + 1);
		ud_buf_addf(b, "#define CH_M20 (CH_BASE + 0)\n#endif\n");
	}
	versions("linux/chain.h", ud_buf_str(&o), ud_buf_str(&n), &d);
	expect(&d, "CH_M20", UD_API_BREAKING, UD_API_RULE_VALUE, "1 -> 2");
	expect(&d, "CH_M01", UD_API_BREAKING, UD_API_RULE_VALUE, "1 -> 2");
	ud_api_diff_free(&d);
	ud_buf_free(&o);
	ud_buf_free(&n);
}
END_TEST

START_TEST(test_rule_room)
{
	struct ud_api_diff d;

	/* unnamed padding given a name: __u64 :64; __u64 :64 -> __u64 __opaque[2] */
	versions("linux/bpf.h", timer_old, timer_new, &d);
	expect(&d, "struct bpf_timer", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "members added: __opaque in room it already had");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* an attribute that changes no layout */
	versions("linux/btrfs.h", btrfs_old, btrfs_new, &d);
	expect(&d, "struct btrfs_ioctl_search_header", UD_API_COMPATIBLE, UD_API_RULE_SPELLING,
	       "the layout does not change (size 32)");
	ud_api_diff_free(&d);
	/* a union that gained members without growing */
	versions("linux/io_uring.h", sqe_old, sqe_new, &d);
	expect(&d, "struct io_uring_sqe", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "no offset or size moves (size 64)");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* a signedness change in the same place */
	versions("sound/emu10k1.h", emu_old, emu_new, &d);
	expect(&d, "struct snd_emu10k1_fx8010_control_gpr", UD_API_REVIEW, UD_API_RULE_SIGNEDNESS,
	       "member min: unsigned int -> int");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* a rename is still a member removed */
	versions("linux/usb/video.h", uvc_old, uvc_new, &d);
	expect(&d, "struct uvc_format_mjpeg", UD_API_BREAKING, UD_API_RULE_MEMBER_REMOVED,
	       "member bmInterfaceFlags removed (was unsigned char, at 9, size 1); its room now "
	       "holds bmInterlaceFlags");
	ud_api_diff_free(&d);
}
END_TEST

/* Linux 6.1's and 6.12's bpf_func_id, the list of helpers cut after its first entries. */
static const char func_old[] =
	"#define __BPF_FUNC_MAPPER(FN)\t\t\\\n\tFN(unspec),\t\t\t\\\n"
	"\tFN(map_lookup_elem),\t\t\\\n\tFN(map_update_elem),\n"
	"#define __BPF_ENUM_FN(x) BPF_FUNC_ ## x\n"
	"enum bpf_func_id {\n\t__BPF_FUNC_MAPPER(__BPF_ENUM_FN)\n\t__BPF_FUNC_MAX_ID,\n};\n"
	"#undef __BPF_ENUM_FN\n";
static const char func_new[] =
	"#define ___BPF_FUNC_MAPPER(FN, ctx...)\t\t\t\\\n\tFN(unspec, 0, ##ctx)\t\t\t\t\\\n"
	"\tFN(map_lookup_elem, 1, ##ctx)\t\t\t\\\n\tFN(map_update_elem, 2, ##ctx)\t\t\t\\\n"
	"\tFN(map_delete_elem, 3, ##ctx)\n"
	"#define __BPF_FUNC_MAPPER_APPLY(name, value, FN) FN(name),\n"
	"#define __BPF_FUNC_MAPPER(FN) ___BPF_FUNC_MAPPER(__BPF_FUNC_MAPPER_APPLY, FN)\n"
	"#define __BPF_ENUM_FN(x, y) BPF_FUNC_ ## x = y,\n"
	"enum bpf_func_id {\n\t___BPF_FUNC_MAPPER(__BPF_ENUM_FN)\n\t__BPF_FUNC_MAX_ID,\n};\n"
	"#undef __BPF_ENUM_FN\n";

/*
 * Linux 6.1's and 6.12's linux/cxl_mem.h, the command list cut: an
 * anonymous enum the list writes through a helper the header redefines
 * and #undefs, deprecated commands renamed.
 */
static const char cxl_old[] =
	"#define CXL_CMDS                                                          \\\n"
	"\t___C(INVALID, \"Invalid Command\"),                                 \\\n"
	"\t___C(GET_POISON, \"Get Poison List\"),                              \\\n"
	"\t___C(MAX, \"invalid / last command\")\n"
	"\n#define ___C(a, b) CXL_MEM_COMMAND_ID_##a\n"
	"enum { CXL_CMDS };\n\n#undef ___C\n#define ___C(a, b) { b }\n"
	"static const struct {\n\tconst char *name;\n} cxl_command_names[] "
	"__attribute__((__unused__)) = { CXL_CMDS };\n\n#undef ___C\n";
static const char cxl_new[] =
	"#define CXL_CMDS                                                          \\\n"
	"\t___C(INVALID, \"Invalid Command\"),                                 \\\n"
	"\t___DEPRECATED(GET_POISON, \"Get Poison List\"),                     \\\n"
	"\t___C(GET_TIMESTAMP, \"Get Timestamp\"),                             \\\n"
	"\t___C(MAX, \"invalid / last command\")\n"
	"\n#define ___C(a, b) CXL_MEM_COMMAND_ID_##a\n"
	"#define ___DEPRECATED(a, b) CXL_MEM_DEPRECATED_ID_##a\n"
	"enum { CXL_CMDS };\n\n#undef ___C\n#undef ___DEPRECATED\n"
	"#define ___C(a, b) { b }\n#define ___DEPRECATED(a, b) { \"Deprecated \" b }\n"
	"static const struct {\n\tconst char *name;\n} cxl_command_names[] "
	"__attribute__((__unused__)) = { CXL_CMDS };\n\n#undef ___C\n#undef ___DEPRECATED\n";

/* Linux 6.1's and 6.12's union bpf_attr, cut to two of its command structs. */
static const char attr_old[] =
	"union bpf_attr {\n\tstruct {\n\t\t__u32\tmap_type;\n\t\t__u32\tkey_size;\n"
	"\t\t__u32\tvalue_size;\n\t\t__u32\tmax_entries;\n\t\t__u32\tmap_flags;\n"
	"\t\t__u32\tinner_map_fd;\n\t\t__u32\tnuma_node;\n\t};\n"
	"\tstruct {\n\t\t__aligned_u64\tpathname;\n\t\t__u32\t\tbpf_fd;\n"
	"\t\t__u32\t\tfile_flags;\n\t};\n} __attribute__((aligned(8)));\n";
static const char attr_new[] =
	"union bpf_attr {\n\tstruct {\n\t\t__u32\tmap_type;\n\t\t__u32\tkey_size;\n"
	"\t\t__u32\tvalue_size;\n\t\t__u32\tmax_entries;\n\t\t__u32\tmap_flags;\n"
	"\t\t__u32\tinner_map_fd;\n\t\t__u32\tnuma_node;\n\t};\n"
	"\tstruct {\n\t\t__aligned_u64\tpathname;\n\t\t__u32\t\tbpf_fd;\n"
	"\t\t__u32\t\tfile_flags;\n\t\t__s32\t\tpath_fd;\n\t};\n} __attribute__((aligned(8)));\n";

/*
 * Expansions are made only where the diff reads them (a function-like
 * macro whose replacement changed): a table macro whose text names a
 * struct is wanted but the same in both, its changed neighbour's
 * expansion still compared.
 */
START_TEST(test_rule_same_expansion)
{
	struct ud_api_diff d;

	versions("linux/xm.h",
		 "struct xm { int a; };\n#define XM_ONE(x) ((x) + 1)\n"
		 "#define XM_INC(x) XM_ONE(x)\n#define XM_MAP(n) struct xm n = { XM_INC(1) }\n",
		 "struct xm { int a; };\n#define XM_ONE(x) ((x) + 1)\n"
		 "#define XM_INC(x) ((x) + 1)\n#define XM_MAP(n) struct xm n = { XM_INC(1) }\n",
		 &d);
	expect(&d, "XM_INC", UD_API_COMPATIBLE, UD_API_RULE_PARAMS, "the same expansion");
	unchanged(&d, "XM_MAP");
	unchanged(&d, "XM_ONE");
	ud_api_diff_free(&d);
}
END_TEST

START_TEST(test_rule_generated)
{
	struct ud_api_diff d;

	/* an X-macro enum: its constants are what the macros write */
	versions("linux/bpf.h", func_old, func_new, &d);
	/* before the count sentinel, which grows (issue 40) */
	expect(&d, "enum bpf_func_id", UD_API_REVIEW, UD_API_RULE_ENUM_SENTINEL,
	       "1 constant inserted before its count sentinel __BPF_FUNC_MAX_ID");
	expect(&d, "BPF_FUNC_map_delete_elem", UD_API_COMPATIBLE, UD_API_RULE_ADDED,
	       "enum constant added");
	expect(&d, "__BPF_FUNC_MAX_ID", UD_API_REVIEW, UD_API_RULE_SENTINEL, "value 3 -> 4");
	expect(&d, "BPF_FUNC_map_update_elem", UD_API_COMPATIBLE, UD_API_RULE_SAME_VALUE,
	       "same value 2");
	/* the mapper kept for users: its list only grew; its helper takes another argument */
	expect(&d, "__BPF_FUNC_MAPPER", UD_API_REVIEW, UD_API_RULE_PARAMS,
	       "the list it expands to gained entries at its end");
	/* its helper, #undef'd after use, is no API: its new parameter is not reported */
	unchanged(&d, "__BPF_ENUM_FN");
	none_breaking(&d);
	ud_api_diff_free(&d);
	/* an anonymous enum a list writes: its constants, with their values */
	versions("linux/cxl_mem.h", cxl_old, cxl_new, &d);
	expect(&d, "CXL_MEM_COMMAND_ID_GET_POISON", UD_API_BREAKING, UD_API_RULE_REMOVED,
	       "enum constant removed");
	expect(&d, "CXL_MEM_DEPRECATED_ID_GET_POISON", UD_API_COMPATIBLE, UD_API_RULE_ADDED,
	       "enum constant added");
	expect(&d, "CXL_MEM_COMMAND_ID_GET_TIMESTAMP", UD_API_COMPATIBLE, UD_API_RULE_ADDED,
	       "enum constant added");
	expect(&d, "CXL_MEM_COMMAND_ID_MAX", UD_API_REVIEW, UD_API_RULE_SENTINEL, "value 2 -> 3");
	unchanged(&d, "___C");
	unchanged(&d, "___DEPRECATED");
	unchanged(&d, "CXL_MEM_COMMAND_ID_INVALID");
	ud_api_diff_free(&d);
	/* a field appended to one of a union's structs: the union does not grow */
	versions("linux/bpf.h", attr_old, attr_new, &d);
	expect(&d, "union bpf_attr", UD_API_COMPATIBLE, UD_API_RULE_MEMBER_ADDED,
	       "members added: path_fd in room it already had: no offset or size moves (size 32)");
	none_breaking(&d);
	ud_api_diff_free(&d);
}
END_TEST

/*
 * An enumerator is evaluated where it stands, with a helper macro the
 * header #undefs after it (the CXL and sonet.h pattern): its value is
 * known, and changes with the helper.
 */
START_TEST(test_in_place)
{
	static const char old_h[] = "#define L_V(x) ((x) << 2)\n"
				    "enum { L_A = L_V(1), L_B = L_V(2) };\n#undef L_V\n";
	static const char new_h[] = "#define L_V(x) ((x) << 3)\n"
				    "enum { L_A = L_V(1), L_B = L_V(2) };\n#undef L_V\n";
	struct ud_api_diff d;

	versions("linux/l.h", old_h, new_h, &d);
	expect(&d, "L_A", UD_API_BREAKING, UD_API_RULE_VALUE, "4 -> 8");
	expect(&d, "L_B", UD_API_BREAKING, UD_API_RULE_VALUE, "8 -> 16");
	unchanged(&d, "L_V");
	ud_api_diff_free(&d);
}
END_TEST

/* ---- the layout engine: sizes, alignments and offsets on an ABI ---- */

static const char layout_h[] =
	"#include <linux/types.h>\n"
	"#include <linux/la.h>\n"
	"#define __struct_group_tag(TAG) TAG\n"
	"#define __struct_group(TAG, NAME, ATTRS, MEMBERS...) \\\n"
	"\tunion { \\\n"
	"\t\tstruct { MEMBERS } ATTRS; \\\n"
	"\t\tstruct __struct_group_tag(TAG) { MEMBERS } ATTRS NAME; \\\n"
	"\t} ATTRS\n"
	"#if defined(__sparc__)\n"
	"#define L_ALIGN __attribute__((aligned(8)))\n"
	"#else\n"
	"#define L_ALIGN\n"
	"#endif\n"
	"#define L_WORDS (128 / (8 * sizeof (long)))\n"
	/* rdma/ib_user_mad.h: aligned(4) on a typedef lowers the alignment */
	"typedef unsigned long __attribute__((aligned(4))) packed_ulong;\n"
	"typedef __u16 l16;\n"
	"struct l_basic { __u8 a; __u64 b; char c[2 * 4]; };\n"
	"struct l_packed { __u8 a; __u32 b; } __attribute__((packed));\n"
	"struct l_aligned { __u8 a; __u8 b __attribute__((aligned(16))); };\n"
	"struct l_bits { __u32 a:3, b:7; __u32 :0; __u8 c:4; };\n"
	"struct l_flex { __u32 n; __u64 data[]; };\n"
	"struct l_anon { __u32 a; union { __u32 b; struct { l16 c; l16 d; }; }; };\n"
	"struct l_ulong { __u32 id; packed_ulong mask[L_WORDS]; __u8 q; };\n"
	/* linux/pkt_cls.h: a tagged group is a struct of its own */
	"struct l_group { int x; __struct_group(l_hdr, hdr, /* no attrs */, __u8 f; __u16 g;); };\n"
	/* linux/atm.h: a macro after an inline member's name is its attributes */
	"struct l_atm { unsigned short fam; struct { short i; int v; } addr L_ALIGN; };\n"
	/* linux/atmapi.h: there the macro comes before the typedef's name */
	"typedef struct { unsigned char _[8]; } L_ALIGN l_kptr_t;\n"
	"struct l_kptr { int t; l_kptr_t vcc; };\n"
	/* linux/sonet.h: the helper is defined in the struct, #undef'd after its use */
	"#define __SONET_ITEMS \\\n    __HANDLE_ITEM(section_bip); \\\n"
	"    __HANDLE_ITEM(tx_cells);\n"
	"struct l_sonet {\n#define __HANDLE_ITEM(i) int i\n\t__SONET_ITEMS\n#undef __HANDLE_ITEM\n"
	"} __attribute__ ((packed));\n"
	/* i386: a long long bit-field may span two of its 4-byte alignment units */
	"struct l_bits64 { unsigned long long a:30, b:3, c:31; };\n"
	/* m68k: a 16- or 32-bit-wide bit-field at an offset so aligned aligns the record */
	"struct l_bits16 { unsigned int a:16; };\n"
	"struct l_bits16b { unsigned char x; unsigned int a:16; };\n"
	"struct l_bits16c { unsigned short x; unsigned int a:32; char y; };\n"
	"union l_bits16u { unsigned int a:16; char c; };\n"
	/* linux/atmsap.h: the macro after the body is linux/atmapi.h's (here linux/la.h's) */
	"struct l_atmsap { char c; } L_API_ALIGN;\n"
	/* parisc's asm/pdc.h: an #ifdef inside one declaration's declarator list */
	"struct l_declif { unsigned int\n#ifdef __LP64__\n pad:16,\n#endif\n a:4; };\n"
	/* asm/bootinfo-vme.h: the record is named after the first declarator, not the pointer's */
	"typedef struct { int a; char b; } l_tx, *l_px;\n"
	"#pragma pack(push, 2)\n"
	"struct l_pragma { __u8 a; __u32 b; };\n"
	"#pragma pack(pop)\n";

/* The layout of symbol name of linux/l.h read for abi. */
static void
layout_on(const char *abi, struct ud_api_header *v, size_t *n)
{
	read_version("linux/l.h", layout_h, "linux/la.h",
		     "#if defined(__sparc__)\n#define L_API_ALIGN __attribute__((aligned(8)))\n"
		     "#else\n#define L_API_ALIGN\n#endif\n",
		     v, n);
	ud_api_resolve(v, *n, ud_abi_find(abi));
}

static const struct ud_api_layout *
layout_of(const struct ud_api_header *v, size_t n, const char *name)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].path, "linux/l.h") == 0)
			for (k = 0; k < v[i].n; k++)
				if (strcmp(v[i].v[k].name, name) == 0) {
					ck_assert_msg(v[i].v[k].layout != NULL, "%s: no layout: %s",
						      name, v[i].v[k].layout_why);
					return v[i].v[k].layout;
				}
	ck_abort_msg("%s not read", name);
	return NULL;
}

/* size and alignment in bytes; then (path, offset in bits, size in bits) per field */
static void
want_layout(const struct ud_api_header *v, size_t n, const char *name, uint64_t size,
	    uint64_t align, const char *fields)
{
	const struct ud_api_layout *l = layout_of(v, n, name);
	struct ud_buf got = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < l->nfields; i++)
		ud_buf_addf(&got, "%s%s@%llu:%llu", i ? " " : "", l->fields[i].path,
			    (unsigned long long)l->fields[i].offset,
			    (unsigned long long)l->fields[i].size);
	ck_assert_msg(l->size == size && l->align == align && strcmp(ud_buf_str(&got), fields) == 0,
		      "%s: size %llu align %llu fields '%s'; want %llu %llu '%s'", name,
		      (unsigned long long)l->size, (unsigned long long)l->align, ud_buf_str(&got),
		      (unsigned long long)size, (unsigned long long)align, fields);
	ud_buf_free(&got);
}

/*
 * __u64 on a 32-bit ABI as the compiler sees it (issue 37): through a
 * neighbour included by a quoted name ("drm.h" is drm/drm.h), and in a
 * header that includes nothing (the view of <linux/types.h>, not
 * asm-generic/int-l64.h's unsigned long, first in path order).
 */
START_TEST(test_layout_u64_32bit)
{
	static const struct file more[] = {
		{"asm/types.h", "#include <asm-generic/int-ll64.h>\n"},
		{"asm-generic/int-l64.h", "#ifndef _ASM_GENERIC_INT_L64_H\n"
					  "#define _ASM_GENERIC_INT_L64_H\n"
					  "typedef unsigned long __u64;\n"
					  "#endif\n"},
		{"drm/drm.h", "#include <linux/types.h>\n"},
		{"drm/zz.h", "#include \"drm.h\"\nstruct zz_e { __u32 a; __u64 b; };\n"},
		{"drm/up.h", "#include \"../drm/./drm.h\"\nstruct zz_u { __u32 a; __u64 b; };\n"},
		{"drm/alone.h", "struct zz_g { __u32 a; __u64 b; };\n"},
	};
	static const struct {
		const char *abi;
		uint64_t size, align, b;
	} want[] = {{"arm", 16, 8, 64}, {"i386", 12, 4, 32}, {"powerpc", 16, 8, 64}};
	static const char *const names[] = {"struct zz_e", "struct zz_u", "struct zz_g"};
	struct ud_api_header v[NCOMMON + ARRAY_SIZE(more)];
	size_t n, i, k, w;

	for (w = 0; w < ARRAY_SIZE(want); w++) {
		for (n = 0; n < NCOMMON; n++)
			ud_api_parse(common[n].path, common[n].text, strlen(common[n].text), &v[n]);
		for (i = 0; i < ARRAY_SIZE(more); i++, n++)
			ud_api_parse(more[i].path, more[i].text, strlen(more[i].text), &v[n]);
		ud_api_sort_headers(v, n);
		ud_api_resolve(v, n, ud_abi_find(want[w].abi));
		for (k = 0; k < ARRAY_SIZE(names); k++) {
			const struct ud_api_layout *l = NULL;

			for (i = 0; i < n && l == NULL; i++) {
				size_t j;

				for (j = 0; j < v[i].n; j++)
					if (strcmp(v[i].v[j].name, names[k]) == 0)
						l = v[i].v[j].layout;
			}
			ck_assert_msg(l != NULL, "%s: %s has no layout", want[w].abi, names[k]);
			ck_assert_msg(
				l->size == want[w].size && l->align == want[w].align &&
					l->nfields == 2 && l->fields[1].offset == want[w].b,
				"%s: %s: size %llu align %llu, b at bit %llu", want[w].abi,
				names[k], (unsigned long long)l->size, (unsigned long long)l->align,
				(unsigned long long)(l->nfields == 2 ? l->fields[1].offset : 0));
		}
		for (i = 0; i < n; i++)
			ud_api_header_free(&v[i]);
	}
}
END_TEST

/*
 * Whether the header at path of files, read for abi, defines macro name
 * (on the target, whatever conditions it leaves), and its value in *value.
 */
static bool
macro_on(const struct file *files, size_t nfiles, const char *abi, const char *path,
	 const char *name, long long *value)
{
	struct ud_api_header v[16];
	size_t n, i, j;
	bool found = false;

	ck_assert_uint_le(nfiles, ARRAY_SIZE(v));
	for (n = 0; n < nfiles; n++)
		ud_api_parse(files[n].path, files[n].text, strlen(files[n].text), &v[n]);
	ud_api_sort_headers(v, n);
	ud_api_resolve(v, n, ud_abi_find(abi));
	for (i = 0; i < n; i++)
		for (j = 0; strcmp(v[i].path, path) == 0 && j < v[i].n; j++)
			if (strcmp(v[i].v[j].name, name) == 0 && v[i].v[j].kind == UD_API_MACRO) {
				ck_assert_msg(v[i].v[j].has_value, "%s: %s has no value", abi,
					      name);
				*value = v[i].v[j].value;
				found = true;
			}
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);
	return found;
}

/* The value of macro name in the header at path of files, read for abi. */
static long long
value_on(const struct file *files, size_t nfiles, const char *abi, const char *path,
	 const char *name)
{
	long long value = 0;

	ck_assert_msg(macro_on(files, nfiles, abi, path, name, &value), "%s: macro %s not read",
		      abi, name);
	return value;
}

/*
 * A condition sees what was included before its line, not after (issue 37,
 * cause G): mips' asm/fcntl.h tests __BITS_PER_LONG before it includes
 * asm-generic/fcntl.h, which brings asm/bitsperlong.h, so for the compiler
 * F_GETLK64 is not its 33 (but asm-generic's 12) on o32 and n32.  A header
 * that includes asm/bitsperlong.h first sees __BITS_PER_LONG, and so does
 * a condition or a macro's value after the #include.
 */
START_TEST(test_include_order)
{
	static const struct file f[] = {
		{"asm/bitsperlong.h", "#ifndef __ASM_BPL\n#define __ASM_BPL\n"
				      "#define __BITS_PER_LONG 32\n#endif\n"},
		{"asm-generic/fcntl.h", "#include <asm/bitsperlong.h>\n"
					"#ifndef F_GETLK64\n#define F_GETLK64 12\n#endif\n"},
		{"asm/fcntl.h", "#ifndef _ASM_FCNTL_H\n#define _ASM_FCNTL_H\n"
				"#if __BITS_PER_LONG == 32\n#define F_GETLK64 33\n#endif\n"
				"#define F_BPL __BITS_PER_LONG\n"
				"#include <asm-generic/fcntl.h>\n"
				"#if __BITS_PER_LONG == 32\n#define F_AFTER 1\n#endif\n"
				"#endif\n"},
		{"linux/zz.h", "#include <asm/bitsperlong.h>\n"
			       "#if __BITS_PER_LONG == 32\n#define ZZ_32 1\n#endif\n"},
	};
	static const char *const abis[] = {"mips-o32", "mips-n32", "arm"};
	long long value = 0;
	size_t a;

	for (a = 0; a < ARRAY_SIZE(abis); a++) {
		ck_assert_msg(
			!macro_on(f, ARRAY_SIZE(f), abis[a], "asm/fcntl.h", "F_GETLK64", &value),
			"%s: F_GETLK64 %lld: its #if saw a header included after it", abis[a],
			value);
		ck_assert_int_eq(value_on(f, ARRAY_SIZE(f), abis[a], "asm/fcntl.h", "F_AFTER"), 1);
		ck_assert_int_eq(value_on(f, ARRAY_SIZE(f), abis[a], "asm/fcntl.h", "F_BPL"), 32);
		ck_assert_int_eq(value_on(f, ARRAY_SIZE(f), abis[a], "linux/zz.h", "ZZ_32"), 1);
	}
}
END_TEST

/*
 * A macro's value where it is used (issue 37): powerpc's asm/ioctl.h
 * defines _IOC_SIZEBITS 13 before asm-generic/ioctl.h's #ifndef default
 * of 14, so _IOC_DIRSHIFT is 29 in a header that includes it, though 30
 * in asm-generic/ioctl.h alone; and a macro naming itself takes what it
 * names once ("#define X (X - 1)" after an enum constant X).
 */
START_TEST(test_value_in_view)
{
	static const struct file ioc[] = {
		{"asm/ioctl.h", "#ifndef _ASM_IOCTL_H\n#define _ASM_IOCTL_H\n"
				"#define _IOC_SIZEBITS 13\n#define _IOC_DIRBITS 3\n"
				"#define _IOC_READ 2U\n"
				"#include <asm-generic/ioctl.h>\n#endif\n"},
		{"asm-generic/ioctl.h",
		 "#ifndef _ASM_GENERIC_IOCTL_H\n#define _ASM_GENERIC_IOCTL_H\n"
		 "#define _IOC_NRBITS 8\n#define _IOC_TYPEBITS 8\n"
		 "#ifndef _IOC_SIZEBITS\n# define _IOC_SIZEBITS 14\n#endif\n"
		 "#ifndef _IOC_READ\n# define _IOC_READ 2U\n#endif\n"
		 "#define _IOC_NRSHIFT 0\n"
		 "#define _IOC_TYPESHIFT (_IOC_NRSHIFT + _IOC_NRBITS)\n"
		 "#define _IOC_SIZESHIFT (_IOC_TYPESHIFT + _IOC_TYPEBITS)\n"
		 "#define _IOC_DIRSHIFT (_IOC_SIZESHIFT + _IOC_SIZEBITS)\n"
		 "#define _IOC(d, t, nr, s) (((d) << _IOC_DIRSHIFT) | "
		 "((t) << _IOC_TYPESHIFT) | ((nr) << _IOC_NRSHIFT) | "
		 "((s) << _IOC_SIZESHIFT))\n"
		 "#define _IOR(t, nr, s) _IOC(_IOC_READ, (t), (nr), sizeof(s))\n"
		 "#endif\n"},
		{"linux/zz.h", "#include <asm/ioctl.h>\n#define ZZ_IOC _IOR(0x7a, 1, int)\n"
			       "#define ZZ_SHIFT _IOC_DIRSHIFT\n"},
		{"linux/self.h", "enum { Z_A, Z_B, __Z_MAX };\n#define __Z_MAX (__Z_MAX - 1)\n"},
	};

	ck_assert_int_eq(value_on(ioc, ARRAY_SIZE(ioc), "powerpc", "linux/zz.h", "ZZ_IOC"),
			 0x40047a01);
	ck_assert_int_eq(value_on(ioc, ARRAY_SIZE(ioc), "powerpc", "linux/zz.h", "ZZ_SHIFT"), 29);
	ck_assert_int_eq(
		value_on(ioc, ARRAY_SIZE(ioc), "powerpc", "asm-generic/ioctl.h", "_IOC_DIRSHIFT"),
		30);
	ck_assert_int_eq(value_on(ioc, ARRAY_SIZE(ioc), "x86_64", "linux/self.h", "__Z_MAX"), 1);
}
END_TEST

/*
 * A typedef resolved in its user's view (issue 37, x32): __kernel_old_time_t
 * is asm-generic's typedef of __kernel_long_t, long where that header stands
 * alone but long long where asm/pt.h (posix_types_x32.h) typedef'd it first.
 */
START_TEST(test_typedef_in_view)
{
	static const struct file more[] = {
		{"asm-generic/pt.h",
		 "#ifndef __kernel_long_t\ntypedef long __kernel_long_t;\n#endif\n"
		 "typedef __kernel_long_t __kernel_old_time_t;\n"
		 "struct zz_g { __kernel_old_time_t t; };\n"},
		{"asm/pt.h",
		 "typedef long long __kernel_long_t;\n#define __kernel_long_t __kernel_long_t\n"
		 "#include <asm-generic/pt.h>\n"},
		{"linux/zz.h", "#include <asm/pt.h>\nstruct zz_f { __kernel_old_time_t t; };\n"},
	};
	static const struct {
		const char *path, *name;
		uint64_t size;
	} want[] = {{"linux/zz.h", "struct zz_f", 8}, {"asm-generic/pt.h", "struct zz_g", 4}};
	struct ud_api_header v[NCOMMON + ARRAY_SIZE(more)];
	size_t n, i, k, w;

	for (n = 0; n < NCOMMON; n++)
		ud_api_parse(common[n].path, common[n].text, strlen(common[n].text), &v[n]);
	for (i = 0; i < ARRAY_SIZE(more); i++, n++)
		ud_api_parse(more[i].path, more[i].text, strlen(more[i].text), &v[n]);
	ud_api_sort_headers(v, n);
	ud_api_resolve(v, n, ud_abi_find("x32"));
	for (w = 0; w < ARRAY_SIZE(want); w++) {
		const struct ud_api_layout *l = NULL;

		for (i = 0; i < n; i++)
			if (strcmp(v[i].path, want[w].path) == 0)
				for (k = 0; k < v[i].n; k++)
					if (strcmp(v[i].v[k].name, want[w].name) == 0)
						l = v[i].v[k].layout;
		ck_assert_msg(l != NULL, "%s has no layout", want[w].name);
		ck_assert_msg(l->size == want[w].size && l->align == want[w].size,
			      "%s: size %llu align %llu, want %llu", want[w].name,
			      (unsigned long long)l->size, (unsigned long long)l->align,
			      (unsigned long long)want[w].size);
	}
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);
}
END_TEST

/*
 * A typedef whose name a macro of its view rewrites declares the name the
 * macro gives (issue 37, cause K): sparc's asm/signal.h defines
 * __old_sigset_t as sigset_t outside __KERNEL__, so "typedef unsigned long
 * __old_sigset_t;" is sigset_t's typedef, and a member written
 * __old_sigset_t (sigset_t once expanded) is that unsigned long, not
 * another header's sigset_t: struct __old_sigaction is 16 bytes, not 20.
 */
START_TEST(test_typedef_renamed)
{
	static const struct file f[] = {
		{"asm-generic/signal.h", "typedef struct { unsigned long sig[2]; } sigset_t;\n"},
		{"asm/signal.h",
		 "#ifdef __KERNEL__\n#define __old_sigset_t old_sigset_t\n"
		 "#define __new_sigset_t sigset_t\n"
		 "#else\n#define __old_sigset_t sigset_t\n#endif\n"
		 "typedef unsigned long __old_sigset_t;\n"
		 "typedef struct { unsigned long sig[2]; } __new_sigset_t;\n"
		 "struct zz_old { void *h; __old_sigset_t m; unsigned long f; };\n"},
	};
	static const struct {
		const char *abi;
		uint64_t size;
	} want[] = {{"sparc", 12}, {"arm", 12}, {"sparc64", 24}, {"x86_64", 24}};
	struct ud_api_header v[ARRAY_SIZE(f)];
	size_t n, i, k, w;

	for (w = 0; w < ARRAY_SIZE(want); w++) {
		const struct ud_api_layout *l = NULL;

		for (n = 0; n < ARRAY_SIZE(f); n++)
			ud_api_parse(f[n].path, f[n].text, strlen(f[n].text), &v[n]);
		ud_api_sort_headers(v, n);
		ud_api_resolve(v, n, ud_abi_find(want[w].abi));
		for (i = 0; i < n; i++)
			for (k = 0; k < v[i].n; k++)
				if (strcmp(v[i].v[k].name, "struct zz_old") == 0)
					l = v[i].v[k].layout;
		ck_assert_msg(l != NULL, "%s: struct zz_old has no layout", want[w].abi);
		ck_assert_msg(l->size == want[w].size, "%s: struct zz_old: size %llu, want %llu",
			      want[w].abi, (unsigned long long)l->size,
			      (unsigned long long)want[w].size);
		for (i = 0; i < n; i++)
			ud_api_header_free(&v[i]);
	}
}
END_TEST

/* The ABI table's predefined macros as the ABI's compiler has them (-dM -E; issue 37's oracle) */
START_TEST(test_abi_predefined)
{
	const char *value = NULL;

	ck_assert_int_eq(ud_abi_macro(ud_abi_find("arm"), "__thumb__", 9, &value),
			 UD_ABI_MACRO_DEFINED);
	ck_assert_str_eq(value, "1");
	ck_assert_int_eq(ud_abi_macro(ud_abi_find("x86_64"), "__thumb__", 9, &value),
			 UD_ABI_MACRO_UNDEFINED);
}
END_TEST

START_TEST(test_layout)
{
	struct ud_api_header v[NCOMMON + 2];
	size_t n, i;

	layout_on("x86_64", v, &n);
	want_layout(v, n, "struct l_basic", 24, 8, "a@0:8 b@64:64 c@128:64");
	want_layout(v, n, "struct l_packed", 5, 1, "a@0:8 b@8:32");
	want_layout(v, n, "struct l_aligned", 32, 16, "a@0:8 b@128:8");
	want_layout(v, n, "struct l_bits", 8, 4, "a@0:3 b@3:7 c@32:4");
	want_layout(v, n, "struct l_flex", 8, 8, "n@0:32 data@64:0");
	want_layout(v, n, "struct l_anon", 8, 4, "a@0:32 b@32:32 c@32:16 d@48:16");
	want_layout(v, n, "struct l_ulong", 24, 4, "id@0:32 mask@32:128 q@160:8");
	want_layout(v, n, "struct l_group", 8, 4,
		    "x@0:32 f@32:8 g@48:16 hdr@32:32 hdr.f@32:8 hdr.g@48:16");
	want_layout(v, n, "struct l_hdr", 4, 2, "f@0:8 g@16:16");
	want_layout(v, n, "struct l_atm", 12, 4, "fam@0:16 addr@32:64 addr.i@32:16 addr.v@64:32");
	want_layout(v, n, "struct l_pragma", 6, 2, "a@0:8 b@16:32");
	want_layout(v, n, "struct l_kptr", 12, 4, "t@0:32 vcc@32:64");
	want_layout(v, n, "struct l_sonet", 8, 1, "section_bip@0:32 tx_cells@32:32");
	want_layout(v, n, "struct (typedef l_tx)", 8, 4, "a@0:32 b@32:8");
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);

	/* i386: __u64 4-aligned in a struct, long of 4 bytes (four words of the mask) */
	layout_on("i386", v, &n);
	want_layout(v, n, "struct l_basic", 20, 4, "a@0:8 b@32:64 c@96:64");
	want_layout(v, n, "struct l_flex", 4, 4, "n@0:32 data@32:0");
	want_layout(v, n, "struct l_ulong", 24, 4, "id@0:32 mask@32:128 q@160:8");
	want_layout(v, n, "struct l_bits64", 8, 4, "a@0:30 b@30:3 c@33:31");
	want_layout(v, n, "struct l_bits16b", 4, 4, "x@0:8 a@8:16");
	want_layout(v, n, "struct l_declif", 4, 4, "a@0:4");
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);

	/* m68k: bit-fields unaligned, but one of an integer's width at its alignment aligns */
	layout_on("m68k", v, &n);
	want_layout(v, n, "struct l_bits64", 8, 1, "a@0:30 b@30:3 c@33:31");
	want_layout(v, n, "struct l_bits16", 2, 2, "a@0:16");
	want_layout(v, n, "struct l_bits16b", 3, 1, "x@0:8 a@8:16");
	want_layout(v, n, "struct l_bits16c", 8, 2, "x@0:16 a@16:32 y@48:8");
	want_layout(v, n, "union l_bits16u", 2, 2, "a@0:16 c@0:8");
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);

	/* sparc64: __sparc__ defined, the member is 8-aligned */
	layout_on("sparc64", v, &n);
	want_layout(v, n, "struct l_atm", 16, 8, "fam@0:16 addr@64:64 addr.i@64:16 addr.v@96:32");
	want_layout(v, n, "struct l_kptr", 16, 8, "t@0:32 vcc@64:64");
	want_layout(v, n, "struct l_atmsap", 8, 8, "c@0:8");
	want_layout(v, n, "struct (typedef l_kptr_t)", 8, 8, "_@0:64");
	for (i = 0; i < n; i++)
		ud_api_header_free(&v[i]);
}
END_TEST

START_TEST(test_junk)
{
	/* what is not C, or half of it, is skipped: never a crash */
	static const char *const junk[] = {
		"",
		"#",
		"#define",
		"struct",
		"struct {",
		"enum e { A = ",
		"typedef",
		"}}}};;;",
		"#if\n#else\n#else\n#endif\n#endif\n",
		"int (*(*x)(int))[3];",
		"\"unterminated",
		"/* unterminated",
		"struct s { int a:; };",
		"#define M(a, b",
		"extern \"C\" {",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		struct ud_api_header h;

		ud_api_parse("linux/j.h", junk[i], strlen(junk[i]), &h);
		ud_api_header_free(&h);
	}
}
END_TEST

/* ---- ud_api_header_copy: the copy equals what it copies, field by field ---- */

static void
same_str(const char *a, const char *b, const char *what)
{
	ck_assert_msg((a == NULL) == (b == NULL), "%s: NULL in one only", what);
	if (a != NULL) {
		ck_assert_ptr_ne(a, b); /* its own memory */
		ck_assert_str_eq(a, b);
	}
}

static void
same_members(const struct ud_api_member *a, const struct ud_api_member *b, size_t n)
{
	size_t i;

	ck_assert_msg((a == NULL) == (b == NULL), "members: NULL in one only");
	for (i = 0; a != NULL && i < n; i++) {
		same_str(a[i].name, b[i].name, "member name");
		same_str(a[i].type, b[i].type, "member type");
		same_str(a[i].array, b[i].array, "member array");
		same_str(a[i].dims, b[i].dims, "member dims");
		same_str(a[i].width, b[i].width, "member width");
		same_str(a[i].attrs, b[i].attrs, "member attrs");
		same_str(a[i].cond, b[i].cond, "member cond");
		ck_assert_int_eq(a[i].bits, b[i].bits);
		ck_assert_int_eq(a[i].sub_kind, b[i].sub_kind);
		ck_assert_uint_eq(a[i].nsub, b[i].nsub);
		ck_assert_int_eq(a[i].expands, b[i].expands);
		ck_assert_uint_eq(a[i].line, b[i].line);
		same_members(a[i].sub, b[i].sub, a[i].nsub);
	}
}

static void
same_layout(const struct ud_api_layout *a, const struct ud_api_layout *b)
{
	size_t i;

	ck_assert_msg((a == NULL) == (b == NULL), "layout: NULL in one only");
	if (a == NULL)
		return;
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->align, b->align);
	ck_assert_uint_eq(a->nfields, b->nfields);
	ck_assert_int_eq(a->integer, b->integer);
	same_str(a->type, b->type, "layout type");
	for (i = 0; i < a->nfields; i++) {
		same_str(a->fields[i].path, b->fields[i].path, "field path");
		same_str(a->fields[i].type, b->fields[i].type, "field type");
		ck_assert_uint_eq(a->fields[i].offset, b->fields[i].offset);
		ck_assert_uint_eq(a->fields[i].size, b->fields[i].size);
		ck_assert_uint_eq(a->fields[i].flags, b->fields[i].flags);
	}
}

static void
same_sym(const struct ud_api_sym *a, const struct ud_api_sym *b)
{
	ck_assert_int_eq(a->kind, b->kind);
	same_str(a->name, b->name, "name");
	same_str(a->cond, b->cond, "cond");
	same_str(a->key, b->key, "key");
	same_str(a->text, b->text, "text");
	same_str(a->params, b->params, "params");
	same_str(a->source, b->source, "source");
	same_str(a->expansion, b->expansion, "expansion");
	same_str(a->layout_why, b->layout_why, "layout_why");
	ck_assert_uint_eq(a->line, b->line);
	ck_assert_int_eq(a->has_value, b->has_value);
	ck_assert_int_eq(a->value, b->value);
	ck_assert_int_eq(a->value_unsigned, b->value_unsigned);
	ck_assert_uint_eq(a->nmembers, b->nmembers);
	same_members(a->members, b->members, a->nmembers);
	same_members(a->decl, b->decl, 1);
	ck_assert_int_eq(a->is_ioctl, b->is_ioctl);
	/* the request only on an ioctl macro, the copy's its own */
	ck_assert_int_eq(a->ioctl != NULL, a->is_ioctl);
	ck_assert_int_eq(b->ioctl != NULL, b->is_ioctl);
	if (a->is_ioctl) {
		ck_assert_ptr_ne(a->ioctl, b->ioctl);
		ck_assert_str_eq(a->ioctl->dir, b->ioctl->dir);
		same_str(a->ioctl->type, b->ioctl->type, "ioctl type");
		same_str(a->ioctl->nr, b->ioctl->nr, "ioctl nr");
		same_str(a->ioctl->arg, b->ioctl->arg, "ioctl arg");
		ck_assert_int_eq(a->ioctl->known, b->ioctl->known);
		ck_assert_int_eq(a->ioctl->typev, b->ioctl->typev);
		ck_assert_int_eq(a->ioctl->nrv, b->ioctl->nrv);
		ck_assert_int_eq(a->ioctl->size_known, b->ioctl->size_known);
		ck_assert_uint_eq(a->ioctl->size, b->ioctl->size);
	}
	ck_assert_uint_eq(a->fingerprint, b->fingerprint);
	ck_assert_uint_eq(a->body, b->body);
	ck_assert_uint_eq(a->pack, b->pack);
	ck_assert_uint_eq(a->undef_line, b->undef_line);
	same_layout(a->layout, b->layout);
}

/* copies h and compares the copy with h, field by field (the copy its own memory) */
static void
same_copy(const struct ud_api_header *h)
{
	struct ud_api_header c;
	size_t i;

	ud_api_header_copy(&c, h);
	same_str(c.path, h->path, "path");
	ck_assert_uint_eq(c.n, h->n);
	ck_assert_uint_eq(c.fingerprint, h->fingerprint);
	ck_assert_uint_eq(c.nincludes, h->nincludes);
	ck_assert_ptr_eq(c.abi, h->abi);
	for (i = 0; i < h->n; i++)
		same_sym(&c.v[i], &h->v[i]);
	for (i = 0; i < h->nincludes; i++) {
		same_str(c.includes[i], h->includes[i], "include");
		same_str(c.include_conds[i], h->include_conds[i], "include cond");
		ck_assert_uint_eq(c.include_lines[i], h->include_lines[i]);
	}
	ud_api_header_free(&c);
}

START_TEST(test_copy)
{
	static const char *const texts[] = {base,	  types_h,	ioctl_h, const_h,
					    sifields_new, ptregs_new,	fib_new, layout_h,
					    "#define",	  "struct s {", ""};
	struct ud_api_header v[NCOMMON + 2], h;
	size_t i, n;

	/* as parsed: what api-diff copies for a text both versions share */
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		ud_api_parse("linux/c.h", texts[i], strlen(texts[i]), &h);
		same_copy(&h);
		ud_api_header_free(&h);
	}
	/* resolved too (layouts, values, the ABI): the copy is of the whole model */
	layout_on("x86_64", v, &n);
	for (i = 0; i < n; i++) {
		same_copy(&v[i]);
		ud_api_header_free(&v[i]);
	}
}
END_TEST

/*
 * resolve_end hashes again only what changed: a value found (L_SZ) alone
 * (refinish), or, when a rewritten condition moves a key past its
 * neighbour (L_M on x86_64: "(defined(L_X))" now sorts before
 * "(defined(L_Z))"), the whole header (api_finish).  Either way the keys are
 * in order, the header's fingerprint is the fold of its symbols', and a
 * symbol's fingerprint is the same by both paths.
 */
static const struct ud_api_sym *
resolved_in(const char *text, struct ud_api_header *v, size_t *n, const char *name,
	    const struct ud_api_header **hd)
{
	const struct ud_api_sym *found = NULL;
	uint64_t f = 14695981039346656037ull;
	size_t i, k;

	read_version("linux/l.h", text, NULL, NULL, v, n);
	ud_api_resolve(v, *n, ud_abi_find("x86_64"));
	for (i = 0; i < *n; i++)
		if (strcmp(v[i].path, "linux/l.h") == 0)
			*hd = &v[i];
	for (k = 0; k < (*hd)->n; k++) {
		const struct ud_api_sym *s = &(*hd)->v[k];

		ck_assert_msg(k == 0 || strcmp((*hd)->v[k - 1].key, s->key) < 0, "%s after %s",
			      s->key, (*hd)->v[k - 1].key);
		f = (f ^ s->fingerprint) * 1099511628211ull;
		if (strcmp(s->name, name) == 0)
			found = s;
	}
	ck_assert(f == (*hd)->fingerprint);
	ck_assert_ptr_nonnull(found);
	return found;
}

START_TEST(test_refinish)
{
	static const char *const a = "struct l_s { int a; long b; };\n"
				     "#define L_SZ sizeof(struct l_s)\n";
	char *b = ud_xasprintf(
		"%s%s", a,
		"#if defined(__x86_64__)\n#if defined(L_X)\n#define L_M 1\n#endif\n#endif\n"
		"#if defined(L_Z)\n#define L_M 2\n#endif\n");
	struct ud_api_header va[NCOMMON + 1], vb[NCOMMON + 1];
	const struct ud_api_header *ha, *hb;
	const struct ud_api_sym *sa, *sb;
	size_t na, nb, i;

	sa = resolved_in(a, va, &na, "L_SZ", &ha);
	sb = resolved_in(b, vb, &nb, "L_SZ", &hb);
	ck_assert(sa->has_value && sa->value == 16);
	ck_assert(sa->fingerprint == sb->fingerprint && sa->body == sb->body);
	ck_assert_str_eq(sa->key, sb->key);
	/* the first L_M: the one rewritten, now before the other */
	for (i = 0; i < hb->n && strcmp(hb->v[i].name, "L_M") != 0; i++)
		;
	ck_assert_uint_lt(i + 1, hb->n);
	ck_assert_str_eq(hb->v[i].cond, "(defined(L_X))");
	ck_assert_str_eq(hb->v[i + 1].cond, "(defined(L_Z))");
	for (i = 0; i < na; i++)
		ud_api_header_free(&va[i]);
	for (i = 0; i < nb; i++)
		ud_api_header_free(&vb[i]);
	free(b);
}
END_TEST

/*
 * The symbols a diff cannot see change are not evaluated nor laid out
 * (api-quiet.c): what a diff reports is what resolving every symbol would,
 * through types and #includes alike, and no symbol is reported for a value
 * the other version only happened to compute on the way.
 */
struct quiet_file {
	const char *path, *old, *new_; /* new_ NULL: the same as old */
};

static void
quiet_version(const struct quiet_file *f, size_t nf, bool new_, struct ud_api_header *v, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < NCOMMON; i++, (*n)++)
		ud_api_parse(common[i].path, common[i].text, strlen(common[i].text), &v[*n]);
	for (i = 0; i < nf; i++) {
		const char *text = new_ && f[i].new_ != NULL ? f[i].new_ : f[i].old;

		ud_api_parse(f[i].path, text, strlen(text), &v[(*n)++]);
	}
	ud_api_sort_headers(v, *n);
}

START_TEST(test_quiet)
{
	static const struct quiet_file files[] = {
		/* a struct that grows, and one that holds it in a header of the same text */
		{"linux/qa.h", "#include <linux/types.h>\nstruct qa_in { __u32 a; };\n",
		 "#include <linux/types.h>\nstruct qa_in { __u32 a; __u32 b; };\n"},
		{"linux/qb.h",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n#include <linux/qa.h>\n"
		 "struct qb_out { struct qa_in in; __u32 x; };\n"
		 "#define QB_IOC _IOR('q', 1, struct qb_out)\n",
		 NULL},
		/* nothing it names changed: quiet, and nothing said of it */
		{"linux/qc.h",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n"
		 "struct qc { __u32 y; };\n#define QC_IOC _IOR('q', 2, struct qc)\n",
		 NULL},
		/* QD_STD's value is needed by the old QD_LAST only: not a change of QD_STD */
		{"linux/qd.h", "#define QD_STD ((int)0)\n#define QD_LAST QD_STD\n",
		 "#define QD_STD ((int)0)\n#define QD_NEW 3\n#define QD_LAST QD_NEW\n"},
		/* the same text, but what its #include brings moved: QM is another macro's */
		{"linux/qi.h", "#include <linux/qx.h>\n", "#include <linux/qy.h>\n"},
		{"linux/qx.h", "#define QM 4\n", NULL},
		{"linux/qy.h", "#define QM 8\n", NULL},
		{"linux/qh.h",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n#include <linux/qi.h>\n"
		 "struct qh_s { char a[QM]; };\n#define QH_IOC _IOR('q', 3, struct qh_s)\n",
		 NULL},
		/* a struct's name made by pasting tokens: no text spells it (DRM_IOCTL_PVR) */
		{"linux/qp.h",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n#include <linux/qq.h>\n"
		 "#define QP_IOC(n, d) _IOR('p', n, struct qp_##d##_args)\n"
		 "#define QP_GET QP_IOC(1, get)\n",
		 NULL},
		{"linux/qq.h", "#include <linux/types.h>\nstruct qp_get_args { __u32 a; };\n",
		 "#include <linux/types.h>\nstruct qp_get_args { __u32 a; __u32 b; };\n"},
		/* a tag a macro renames: programs name it qr_s (sound/asound.h's
		   __snd_pcm_sync_ptr) */
		{"linux/qr.h",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n#define __qr_s qr_s\n"
		 "struct __qr_s { __u32 a; };\n#define QR_IOC _IOR('r', 1, struct qr_s)\n",
		 "#include <linux/types.h>\n#include <asm-generic/ioctl.h>\n#define __qr_s qr_s\n"
		 "struct __qr_s { __u32 a; __u32 b; };\n#define QR_IOC _IOR('r', 1, struct qr_s)\n"},
	};
	struct ud_api_header o[NCOMMON + ARRAY_SIZE(files)], n[NCOMMON + ARRAY_SIZE(files)];
	struct ud_api_wanted wo, wn;
	const struct ud_api_header *qc;
	struct ud_api_diff d;
	size_t no, nn, i, k;

	quiet_version(files, ARRAY_SIZE(files), false, o, &no);
	quiet_version(files, ARRAY_SIZE(files), true, n, &nn);
	/* the steps' own answer: linux/qc.h quiet, the holder of the grown struct not */
	ud_api_resolve_wanted(o, no, n, nn, &wo, &wn);
	ck_assert_ptr_nonnull(wo.quiet);
	for (i = 0; i < no; i++) {
		bool some = false;

		for (k = 0; wo.quiet[i] != NULL && k < o[i].n; k++)
			some |= wo.quiet[i][k];
		if (strcmp(o[i].path, "linux/qc.h") == 0 || strcmp(o[i].path, "linux/types.h") == 0)
			ck_assert_msg(some, "%s: no symbol quiet", o[i].path);
		if (strcmp(o[i].path, "linux/qb.h") == 0 || strcmp(o[i].path, "linux/qh.h") == 0)
			ck_assert_msg(!some, "%s: a symbol quiet", o[i].path);
	}
	ud_api_resolve_wanted_version(o, no, &wo, ud_abi_find("x86_64"));
	ud_api_resolve_wanted_version(n, nn, &wn, ud_abi_find("x86_64"));
	memset(&d, 0, sizeof(d));
	ud_api_diff_versions(o, no, n, nn, &d);
	want_change(&d, "linux/qb.h", "struct qb_out", UD_API_BREAKING, "member x: offset 4 -> 8");
	want_change(&d, "linux/qb.h", "QB_IOC", UD_API_BREAKING, "size 8 -> 12");
	want_change(&d, "linux/qd.h", "QD_LAST", UD_API_REVIEW, "replacement 0 -> 3");
	ck_assert_ptr_null(change_of(&d, "linux/qd.h", "QD_STD"));
	want_change(&d, "linux/qh.h", "QH_IOC", UD_API_BREAKING, "size 4 -> 8");
	want_change(&d, "linux/qp.h", "QP_GET", UD_API_BREAKING, "0x80047001 -> 0x80087001");
	want_change(&d, "linux/qr.h", "QR_IOC", UD_API_BREAKING, "size 4 -> 8");
	ck_assert_ptr_null(change_of(&d, "linux/qc.h", "QC_IOC"));
	/* a quiet header's values are the reader's: none made for a diff that reads none */
	qc = ud_api_find_header(n, nn, "linux/qc.h");
	for (i = 0; i < qc->n; i++)
		if (strcmp(qc->v[i].name, "QC_IOC") == 0)
			ck_assert(!qc->v[i].has_value);
	ud_api_diff_free(&d);
	for (i = 0; i < no; i++)
		ud_api_header_free(&o[i]);
	for (i = 0; i < nn; i++)
		ud_api_header_free(&n[i]);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_model);
	tcase_add_test(tc, test_char_constants);
	tcase_add_test(tc, test_fingerprints_pinned);
	tcase_add_test(tc, test_same);
	tcase_add_test(tc, test_compatible);
	tcase_add_test(tc, test_breaking);
	tcase_add_test(tc, test_review);
	tcase_add_test(tc, test_headers_and_moves);
	tcase_add_test(tc, test_through);
	tcase_add_test(tc, test_conditions);
	tcase_add_test(tc, test_includes);
	tcase_add_test(tc, test_junk);
	tcase_add_test(tc, test_rule_macro_enum);
	tcase_add_test(tc, test_rule_access_path);
	tcase_add_test(tc, test_rule_ioctl_undeclared);
	tcase_add_test(tc, test_rule_move_keeps_value);
	tcase_add_test(tc, test_rule_enum_sentinel);
	tcase_add_test(tc, test_rule_zero_array_flexible);
	tcase_add_test(tc, test_rule_constant_type);
	tcase_add_test(tc, test_one_entry_per_edit);
	tcase_add_test(tc, test_rule_ioctl_grew);
	tcase_add_test(tc, test_rule_sizes);
	tcase_add_test(tc, test_rule_conditions);
	tcase_add_test(tc, test_rule_families);
	tcase_add_test(tc, test_rule_values);
	tcase_add_test(tc, test_rule_value_chain);
	tcase_add_test(tc, test_rule_room);
	tcase_add_test(tc, test_rule_generated);
	tcase_add_test(tc, test_rule_same_expansion);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_layout_u64_32bit);
	tcase_add_test(tc, test_abi_predefined);
	tcase_add_test(tc, test_typedef_in_view);
	tcase_add_test(tc, test_value_in_view);
	tcase_add_test(tc, test_include_order);
	tcase_add_test(tc, test_typedef_renamed);
	tcase_add_test(tc, test_in_place);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_refinish);
	tcase_add_test(tc, test_quiet);
	suite_add_tcase(s, tc);
	return test_run(s);
}
