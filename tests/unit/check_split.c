// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Splitter tests: every fixture directory tests/data/<case>/ holds in.h and
 * the expected result:
 *   kernel.h + uapi.h   split, with these contents
 *   uapi.h only         moved whole (uapi.h equals in.h)
 *   refused             needs coaching; the file holds a substring of the error
 *   skipped             a skip marker applies
 * Optional: path (the tree path, default include/linux/test.h), markers (an
 * out-of-tree markers file), warnings (substrings that some diagnostic must
 * contain, one a line).  UD_REGEN=1 rewrites the expectations from the
 * current output, for review with git diff.
 *
 * Every case also goes through an independent no-line-lost check.
 */
#include <dirent.h>
#include <stdio.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/core/markers.h"
#include "uapid/core/split.h"

static char *
case_path(const char *name, const char *file)
{
	return ud_xasprintf("%s/tests/data/%s/%s", test_srcdir(), name, file);
}

static bool
case_read(const char *name, const char *file, struct ud_buf *b)
{
	char *p = case_path(name, file);
	bool ok = ud_read_file(p, b, NULL) == 0;

	free(p);
	return ok;
}

static void
case_write(const char *name, const char *file, const char *data, size_t len)
{
	char *p = case_path(name, file);

	ck_assert_int_eq(ud_write_file(p, data, len, 0, NULL), 0);
	free(p);
}

static void
case_unlink(const char *name, const char *file)
{
	char *p = case_path(name, file);

	remove(p);
	free(p);
}

/* The fixtures, by name: the suite fails when tests/data holds one more or one less. */
static const char *const fixtures[] = {
	"banner-run",
	"banner-run-whitespace",
	"basic",
	"compound-retained",
	"construct-retained",
	"continued-directive",
	"crlf",
	"descriptive-after-guard",
	"empty-shell-nested",
	"enclosing-conditional",
	"if-defined-forms",
	"ifdef-else",
	"ifndef-else",
	"include-slide",
	"late-banner",
	"later-licence",
	"licence-run",
	"marker-file-include-here",
	"marker-file-kernel",
	"marker-file-retain",
	"marker-file-skip",
	"marker-file-split-compound",
	"marker-include-here",
	"marker-retain",
	"moved-no-kernel",
	"moved-trailing-blank",
	"no-final-newline",
	"order-check",
	"refuse-elif",
	"refuse-nested",
	"refuse-no-guard",
	"single-include",
	"slide-byteorder",
	"types-exported",
	"uapi-single-include",
	"uapi-trailing-blank",
};
#define NFIXTURES (ARRAY_SIZE(fixtures))

/* One physical line: text without its line end and trailing blanks. */
struct tline {
	const char *p;
	size_t n;
};

struct tlines {
	struct tline *v;
	size_t n, alloc;
};

static void
lines_of(const char *buf, size_t len, struct tlines *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e != NULL ? (size_t)(e - p) : (size_t)(end - p);

		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		out->v = ud_xgrow(out->v, &out->alloc, out->n + 1, sizeof(*out->v));
		out->v[out->n].p = p;
		out->v[out->n].n = n;
		out->n++;
		p = e != NULL ? e + 1 : end;
	}
}

static bool
is_blank(const struct tline *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->p[i] != ' ' && l->p[i] != '\t' && l->p[i] != '\f')
			return false;
	return true;
}

/* The directive word of a line ("if", "endif"), or NULL: a '#' first, blanks allowed. */
static const char *
directive(const struct tline *l, size_t *wlen)
{
	size_t i = 0, w;

	while (i < l->n && (l->p[i] == ' ' || l->p[i] == '\t'))
		i++;
	if (i >= l->n || l->p[i] != '#')
		return NULL;
	for (i++; i < l->n && (l->p[i] == ' ' || l->p[i] == '\t'); i++)
		;
	for (w = i; w < l->n && l->p[w] >= 'a' && l->p[w] <= 'z'; w++)
		;
	*wlen = w - i;
	return l->p + i;
}

static bool
mentions_kernel(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 10 <= n; i++)
		if (memcmp(p + i, "__KERNEL__", 10) == 0)
			return true;
	return false;
}

/* Cuts a coaching marker ("// DISINTEGRATE: ...") off a line, with the blanks before it. */
static void
drop_marker(struct tline *l)
{
	static const char mark[] = "// DISINTEGRATE:";
	size_t i, k = sizeof(mark) - 1;

	for (i = 0; i + k <= l->n; i++)
		if (memcmp(l->p + i, mark, k) == 0) {
			l->n = i;
			while (l->n > 0 && (l->p[l->n - 1] == ' ' || l->p[l->n - 1] == '\t'))
				l->n--;
			return;
		}
}

/*
 * The exact no-line-lost check, independent of the splitter: the input's
 * physical lines (trailing blanks aside) form a multiset that the two
 * outputs together must contain.  The only exemptions are the directive
 * lines of conditionals whose opening directive names __KERNEL__ (the
 * split removes or rewrites those); a coaching marker is cut off its line
 * first, as the split consumes it.  Directives are found on logical lines
 * (backslash continuations joined).
 */
static size_t
lost_line(const char *in, size_t len, const struct ud_split_result *r)
{
	struct tlines src = {0}, out = {0};
	size_t lost = 0;
	bool *used, *exempt, stack[256];
	size_t i, j, k, depth = 0;

	lines_of(in, len, &src);
	lines_of(ud_buf_str(&r->kernel), r->kernel.len, &out);
	lines_of(ud_buf_str(&r->uapi), r->uapi.len, &out);
	used = ud_xcalloc(out.n + 1, sizeof(bool));
	exempt = ud_xcalloc(src.n + 1, sizeof(bool));
	for (i = 0; i < src.n; i = j) {
		struct ud_buf logical = UD_BUF_INIT;
		struct tline lg;
		const char *w;
		size_t wlen = 0;

		for (j = i; j < src.n;) {
			const struct tline *l = &src.v[j++];
			bool cont = l->n > 0 && l->p[l->n - 1] == '\\';

			ud_buf_add(&logical, l->p, cont ? l->n - 1 : l->n);
			if (!cont)
				break;
		}
		lg.p = ud_buf_str(&logical);
		lg.n = logical.len;
		w = directive(&lg, &wlen);
		if (w != NULL && wlen >= 2 && memcmp(w, "if", 2) == 0) {
			ck_assert_uint_lt(depth, 256);
			stack[depth++] = mentions_kernel(lg.p, lg.n);
		}
		if (w != NULL && wlen >= 2 && depth > 0 && stack[depth - 1] &&
		    (memcmp(w, "if", 2) == 0 || memcmp(w, "el", 2) == 0 ||
		     (wlen == 5 && memcmp(w, "endif", 5) == 0)))
			for (k = i; k < j; k++)
				exempt[k] = true;
		if (w != NULL && wlen == 5 && memcmp(w, "endif", 5) == 0 && depth > 0)
			depth--;
		ud_buf_free(&logical);
	}
	for (i = 0; i < src.n && lost == 0; i++) {
		bool found = false;

		drop_marker(&src.v[i]);
		if (exempt[i] || is_blank(&src.v[i]))
			continue;
		for (j = 0; j < out.n && !found; j++)
			if (!used[j] && out.v[j].n == src.v[i].n &&
			    memcmp(out.v[j].p, src.v[i].p, src.v[i].n) == 0)
				found = used[j] = true;
		if (!found)
			lost = i + 1;
	}
	free(used);
	free(exempt);
	free(src.v);
	free(out.v);
	return lost;
}

static void
assert_no_line_lost(const char *name, const char *in, size_t len, const struct ud_split_result *r)
{
	size_t lost = lost_line(in, len, r);

	ck_assert_msg(lost == 0, "%s: input line %zu lost by the split", name, lost);
}

static void
run_case(const char *name)
{
	struct ud_buf in = UD_BUF_INIT, path = UD_BUF_INIT, mk = UD_BUF_INIT, exp = UD_BUF_INIT;
	struct ud_markers markers = UD_MARKERS_INIT;
	const struct ud_marker **ms = NULL;
	struct ud_diags md = UD_DIAGS_INIT;
	struct ud_split_result r;
	const char *tpath = "include/linux/test.h";
	bool regen = getenv("UD_REGEN") != NULL;
	size_t nms = 0, i;

	ck_assert_msg(case_read(name, "in.h", &in), "%s: no in.h", name);
	if (case_read(name, "path", &path)) {
		while (path.len > 0 && path.data[path.len - 1] == '\n')
			path.data[--path.len] = '\0';
		tpath = path.data;
	}
	if (case_read(name, "markers", &mk)) {
		ck_assert_int_eq(ud_markers_parse(&markers, mk.data, mk.len, &md), 0);
		nms = ud_markers_for(&markers, tpath, &ms);
		ck_assert_msg(nms > 0, "%s: markers name another path", name);
	}
	ck_assert_int_eq(ud_split(tpath, in.data, in.len, ms, nms, &r), 0);

	if (regen) {
		case_unlink(name, "kernel.h");
		case_unlink(name, "uapi.h");
		case_unlink(name, "refused");
		case_unlink(name, "skipped");
		if (r.outcome == UD_SPLIT_SPLIT) {
			case_write(name, "kernel.h", ud_buf_str(&r.kernel), r.kernel.len);
			case_write(name, "uapi.h", ud_buf_str(&r.uapi), r.uapi.len);
		} else if (r.outcome == UD_SPLIT_MOVED) {
			case_write(name, "uapi.h", ud_buf_str(&r.uapi), r.uapi.len);
		} else if (r.outcome == UD_SPLIT_REFUSED) {
			const char *m = r.diags.n > 0 ? r.diags.v[0].message : "";

			for (i = 0; i < r.diags.n; i++)
				if (r.diags.v[i].severity == UD_SEV_ERROR) {
					m = r.diags.v[i].message;
					break;
				}
			case_write(name, "refused", m, strlen(m));
		} else {
			case_write(name, "skipped", "", 0);
		}
	}

	if (case_read(name, "refused", &exp)) {
		bool found = false;

		ck_assert_msg(r.outcome == UD_SPLIT_REFUSED, "%s: expected a refusal, got %s", name,
			      ud_split_outcome_name(r.outcome));
		for (i = 0; i < r.diags.n; i++)
			if (r.diags.v[i].severity == UD_SEV_ERROR &&
			    strstr(r.diags.v[i].message, ud_buf_str(&exp)) != NULL &&
			    r.diags.v[i].line > 0)
				found = true;
		ck_assert_msg(found || strstr(ud_buf_str(&exp), "no include guard") != NULL,
			      "%s: no error with a line saying '%s'", name, ud_buf_str(&exp));
	} else if (case_read(name, "skipped", &exp)) {
		ck_assert_msg(r.outcome == UD_SPLIT_SKIPPED, "%s: expected skipped", name);
	} else if (case_read(name, "kernel.h", &exp)) {
		ck_assert_msg(r.outcome == UD_SPLIT_SPLIT, "%s: expected split, got %s", name,
			      ud_split_outcome_name(r.outcome));
		ck_assert_msg(exp.len == r.kernel.len &&
				      memcmp(exp.data, r.kernel.data, exp.len) == 0,
			      "%s: kernel header differs:\n%s", name, ud_buf_str(&r.kernel));
		ck_assert(case_read(name, "uapi.h", &exp));
		ck_assert_msg(exp.len == r.uapi.len &&
				      memcmp(ud_buf_str(&exp), ud_buf_str(&r.uapi), exp.len) == 0,
			      "%s: uapi header differs:\n%s", name, ud_buf_str(&r.uapi));
		assert_no_line_lost(name, in.data, in.len, &r);
	} else {
		ck_assert_msg(case_read(name, "uapi.h", &exp), "%s: no expectation", name);
		ck_assert_msg(r.outcome == UD_SPLIT_MOVED, "%s: expected moved, got %s", name,
			      ud_split_outcome_name(r.outcome));
		ck_assert(exp.len == in.len && memcmp(exp.data, in.data, in.len) == 0);
		ck_assert(r.uapi.len == in.len && memcmp(r.uapi.data, in.data, in.len) == 0);
	}
	if (case_read(name, "warnings", &exp)) {
		char *save = NULL, *w;

		for (w = strtok_r(exp.data, "\n", &save); w != NULL;
		     w = strtok_r(NULL, "\n", &save)) {
			bool found = false;

			for (i = 0; i < r.diags.n; i++)
				if (strstr(r.diags.v[i].message, w) != NULL &&
				    r.diags.v[i].line > 0)
					found = true;
			ck_assert_msg(found, "%s: no diagnostic with a line saying '%s'", name, w);
		}
	}
	ud_split_result_free(&r);
	free(ms);
	ud_markers_free(&markers);
	ud_diags_free(&md);
	ud_buf_free(&in);
	ud_buf_free(&path);
	ud_buf_free(&mk);
	ud_buf_free(&exp);
}

/* Each fixture is a test of its own: the first failure hides no other. */
START_TEST(test_fixture)
{
	run_case(fixtures[_i]);
}
END_TEST

/* The table above names exactly the case directories of tests/data. */
START_TEST(test_fixture_count)
{
	char *dir = ud_xasprintf("%s/tests/data", test_srcdir());
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, i;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		char *in;
		bool listed = false;

		if (de->d_name[0] == '.')
			continue;
		in = case_path(de->d_name, "in.h");
		if (ud_is_file(in)) {
			for (i = 0; i < NFIXTURES; i++)
				listed = listed || strcmp(fixtures[i], de->d_name) == 0;
			ck_assert_msg(listed, "fixture %s is not in the table", de->d_name);
			n++;
		}
		free(in);
	}
	closedir(d);
	free(dir);
	ck_assert_uint_eq(n, NFIXTURES);
}
END_TEST

START_TEST(test_path_errors)
{
	struct ud_split_result r;

	ck_assert_int_lt(ud_split("drivers/foo/bar.h", "int x;\n", 7, NULL, 0, &r), 0);
	ck_assert_uint_eq(r.outcome, UD_SPLIT_REFUSED);
	ck_assert_ptr_nonnull(strstr(r.diags.v[0].message, "not a header under include/"));
	ud_split_result_free(&r);
	ck_assert_int_lt(ud_split("include/uapi/linux/x.h", "int x;\n", 7, NULL, 0, &r), 0);
	ck_assert_ptr_nonnull(strstr(r.diags.v[0].message, "already a uapi header"));
	ud_split_result_free(&r);
}
END_TEST

START_TEST(test_nul_refused)
{
	struct ud_split_result r;
	static const char in[] = "#ifndef X\n#define X\n\0\n#endif\n";

	ck_assert_int_eq(ud_split("include/linux/x.h", in, sizeof(in) - 1, NULL, 0, &r), 0);
	ck_assert_uint_eq(r.outcome, UD_SPLIT_REFUSED);
	ck_assert_uint_eq(r.diags.v[0].line, 3);
	ud_split_result_free(&r);
}
END_TEST

/* The lost-line check itself: a split that drops a line with a comment must fail it. */
START_TEST(test_lost_line_caught)
{
	static const char in[] = "#ifndef G\n#define G\nint x; /* y */\n#ifdef __KERNEL__\n"
				 "int k;\n#endif\n#endif\n";
	struct ud_split_result r;

	ck_assert_int_eq(ud_split("include/linux/g.h", in, sizeof(in) - 1, NULL, 0, &r), 0);
	ck_assert_uint_eq(r.outcome, UD_SPLIT_SPLIT);
	ck_assert_uint_eq(lost_line(in, sizeof(in) - 1, &r), 0);
	/* now lose the line with a comment from the uapi side */
	ck_assert_ptr_nonnull(strstr(r.uapi.data, "int x; /* y */\n"));
	memset(strstr(r.uapi.data, "int x; /* y */\n"), ' ', 14);
	ck_assert_uint_eq(lost_line(in, sizeof(in) - 1, &r), 3);
	ud_split_result_free(&r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("core");
	TCase *fx = tcase_create("fixtures");

	tcase_add_loop_test(fx, test_fixture, 0, (int)NFIXTURES);
	tcase_add_test(fx, test_fixture_count);
	tcase_add_test(tc, test_path_errors);
	tcase_add_test(tc, test_nul_refused);
	tcase_add_test(tc, test_lost_line_caught);
	suite_add_tcase(s, fx);
	suite_add_tcase(s, tc);
	return test_run(s);
}
