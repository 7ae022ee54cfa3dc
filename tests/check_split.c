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
#include "uapid/markers.h"
#include "uapid/split.h"

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

	ck_assert_int_eq(ud_write_atomic(p, data, len, NULL), 0);
	free(p);
}

static void
case_unlink(const char *name, const char *file)
{
	char *p = case_path(name, file);

	remove(p);
	free(p);
}

static bool
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* Does line [s, s+n) occur as a whole line in text? */
static bool
has_line(const struct ud_buf *text, const char *s, size_t n)
{
	const char *p = ud_buf_str(text), *end = p + text->len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t len = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		size_t l = len > 0 && p[len - 1] == '\r' ? len - 1 : len;

		if (l == n && memcmp(p, s, n) == 0)
			return true;
		p = e != NULL ? e + 1 : end;
	}
	return false;
}

/* Is the line just "#" and a continuation backslash (blanks allowed)? */
static bool
lone_hash(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	if (*l++ != '#')
		return false;
	while (*l == ' ' || *l == '\t')
		l++;
	return l[0] == '\\' && l[1] == '\0';
}

/*
 * Independent of the splitter's own bookkeeping: every non-blank input line
 * appears in an output, unless it is a __KERNEL__ directive, an #else or
 * #endif the split drops, a coaching marker, or the banner's last line.
 */
static void
assert_no_line_lost(const char *name, const char *in, size_t len, const struct ud_split_result *r)
{
	const char *p = in, *end = in + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e != NULL ? (size_t)(e - p) : (size_t)(end - p);

		lineno++;
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (!blank(p, n) && !has_line(&r->kernel, p, n) && !has_line(&r->uapi, p, n)) {
			char *l = ud_xstrndup(p, n);
			bool allowed =
				strstr(l, "__KERNEL__") != NULL || strstr(l, "#endif") != NULL ||
				strstr(l, "#else") != NULL || strstr(l, "DISINTEGRATE") != NULL ||
				strstr(l, "*/") != NULL || strstr(l, "#if defined") != NULL ||
				lone_hash(l); /* "#\\": a directive continued on the next line */

			ck_assert_msg(allowed, "%s: line %u lost: %s", name, lineno, l);
			free(l);
		}
		p = e != NULL ? e + 1 : end;
	}
}

static void
run_case(const char *name)
{
	struct ud_buf in = UD_BUF_INIT, path = UD_BUF_INIT, mk = UD_BUF_INIT, exp = UD_BUF_INIT;
	struct ud_markers markers = UD_MARKERS_INIT;
	struct ud_marker *ms[16];
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
		nms = ud_markers_for(&markers, tpath, ms, 16);
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
	ud_markers_free(&markers);
	ud_diags_free(&md);
	ud_buf_free(&in);
	ud_buf_free(&path);
	ud_buf_free(&mk);
	ud_buf_free(&exp);
}

START_TEST(test_fixtures)
{
	char *dir = ud_xasprintf("%s/tests/data", test_srcdir());
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		char *in;

		if (de->d_name[0] == '.')
			continue;
		in = case_path(de->d_name, "in.h");
		if (ud_is_file(in)) {
			run_case(de->d_name);
			n++;
		}
		free(in);
	}
	closedir(d);
	free(dir);
	ck_assert_uint_ge(n, 25);
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

START_TEST(test_deterministic)
{
	struct ud_buf in = UD_BUF_INIT;
	struct ud_split_result a, b;

	ck_assert(test_read_data("basic/in.h", &in));
	ud_split("include/linux/basic.h", in.data, in.len, NULL, 0, &a);
	ud_split("include/linux/basic.h", in.data, in.len, NULL, 0, &b);
	ck_assert_str_eq(ud_buf_str(&a.kernel), ud_buf_str(&b.kernel));
	ck_assert_str_eq(ud_buf_str(&a.uapi), ud_buf_str(&b.uapi));
	ck_assert_ptr_nonnull(strstr(ud_buf_str(&a.kernel), "#include <uapi/linux/basic.h>"));
	ud_split_result_free(&a);
	ud_split_result_free(&b);
	ud_buf_free(&in);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fixtures);
	tcase_add_test(tc, test_path_errors);
	tcase_add_test(tc, test_nul_refused);
	tcase_add_test(tc, test_deterministic);
	suite_add_tcase(s, tc);
	return test_run(s);
}
