// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid check [--arch ARCH] [--jobs N] [--json] TREE: the kernel's header
 * checks in one pass: install into a private directory (SPDX and CONFIG_
 * rules included), run the headers_check.pl rules and the kernel-only
 * leftovers check on every installed header, then compile each header
 * alone, twice included, with cc -std=c90 as CONFIG_UAPI_HEADER_TEST does,
 * N at a time.  Every finding points at the source file and line.
 */
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "uapid/util/hash.h"
#include "uapid/io/compile.h"
#include "uapid/io/fsutil.h"
#include "uapid/core/hcheck.h"
#include "uapid/io/headers.h"
#include "uapid/io/sink.h"
#include "uapid/util/xmalloc.h"

static const char check_usage[] =
	"usage: uapid check [--arch ARCH] [--jobs N] [--json] [--quiet] TREE\n";

struct checked {
	const struct ud_hdr_file *f;
	struct ud_installed in; /* source, installed text, line map, diagnostics */
	bool installed;		/* in.text is in the scratch directory */
};

struct check_run {
	struct checked *v;
	size_t n;
	size_t *by_dst; /* indices sorted by installed name */
	char *tmp;
};

static int
cmp_dst(const void *a, const void *b, void *arg)
{
	const struct check_run *r = arg;

	return strcmp(r->v[*(const size_t *)a].f->dst, r->v[*(const size_t *)b].f->dst);
}

static struct checked *
find_dst(const struct check_run *r, const char *dst)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(r->v[r->by_dst[mid]].f->dst, dst);

		if (c == 0)
			return &r->v[r->by_dst[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const char *
lookup_cb(const char *name, size_t *len, void *ctx)
{
	struct checked *c = find_dst(ctx, name);

	if (c == NULL || !c->installed)
		return NULL;
	*len = c->in.text.len;
	return ud_buf_str(&c->in.text);
}

static int
rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static bool
no_header_test(const struct ud_strlist *skip, const char *dst)
{
	size_t i;

	for (i = 0; i < skip->n; i++) {
		const char *pct = strchr(skip->v[i], '%');

		if (pct != NULL ? strncmp(dst, skip->v[i], (size_t)(pct - skip->v[i])) == 0
				: strcmp(dst, skip->v[i]) == 0)
			return true;
	}
	return false;
}

/* "FILE:LINE:COL: error: MSG" from a compiler's output, mapped to the source. */
static void
report_compile(struct check_run *r, struct checked *c, const struct ud_buf *output)
{
	const char *p = ud_buf_str(output), *end = p + output->len;
	size_t tlen = strlen(r->tmp);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *err = memmem(p, (size_t)(e - p), ": error: ", 9);
		const char *fatal = memmem(p, (size_t)(e - p), ": fatal error: ", 15);
		const char *at = err != NULL ? err : fatal;

		if (at != NULL) {
			const char *colon = memchr(p, ':', (size_t)(at - p));
			char *file = colon ? ud_xstrndup(p, (size_t)(colon - p)) : ud_xstrdup("");
			unsigned line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
			const char *msg = at + (err != NULL ? 9 : 15);
			struct checked *where = c;

			if (strncmp(file, r->tmp, tlen) == 0 &&
			    strncmp(file + tlen, "/include/", 9) == 0)
				where = find_dst(r, file + tlen + 9);
			if (where == NULL)
				where = c;
			if (where->in.map.n > 0 && line >= 1 && line <= where->in.map.n)
				line = where->in.map.v[line - 1];
			if (where == c)
				ud_diags_add(&c->in.diags, line, UD_SEV_ERROR,
					     "does not compile alone: %.*s", (int)(e - msg), msg);
			else
				ud_diags_add(&c->in.diags, 0, UD_SEV_ERROR,
					     "does not compile alone: %s:%u: %.*s", where->f->src,
					     line, (int)(e - msg), msg);
			free(file);
			return;
		}
		p = nl ? nl + 1 : end;
	}
	ud_diags_add(&c->in.diags, 0, UD_SEV_ERROR, "does not compile alone: %.*s",
		     (int)(output->len > 200 ? 200 : output->len), ud_buf_str(output));
}

/*
 * The compile test of CONFIG_UAPI_HEADER_TEST for one header: the header
 * included twice (to catch a missing guard) into an empty file, C90.
 */
static char **
compile_argv(const char *cc, const char *inc, const char *dummy, const char *header)
{
	const char *const args[] = {cc,
				    "-std=c90",
				    "-Wall",
				    "-Werror=implicit-function-declaration",
				    "-I",
				    inc,
				    "-I",
				    dummy,
				    "-fsyntax-only",
				    "-x",
				    "c",
				    "/dev/null",
				    "-include",
				    header,
				    "-include",
				    header};
	size_t n = ARRAY_SIZE(args), i;
	char **argv = ud_xcalloc(n + 1, sizeof(char *));

	for (i = 0; i < n; i++)
		argv[i] = ud_xstrdup(args[i]);
	return argv;
}

/* Compiles every header that no-header-test allows; returns how many ran. */
static size_t
compile_all(struct check_run *r, struct cmd_plan *p, unsigned jobs, bool quiet, size_t *skipped)
{
	struct ud_progress progress;
	struct ud_progress_cb cb;
	struct ud_strlist skip = UD_STRLIST_INIT;
	struct ud_compile_job *cj = ud_xcalloc(r->n ? r->n : 1, sizeof(*cj));
	size_t *which = ud_xcalloc(r->n ? r->n : 1, sizeof(size_t)), n = 0, i;
	const char *env_cc = getenv("CC"), *cc = env_cc != NULL && *env_cc != '\0' ? env_cc : "cc";
	char *inc = ud_xasprintf("%s/include", r->tmp),
	     *dummy = ud_tree_path(&p->tree, "usr/dummy-include");
	struct ud_diags problems = UD_DIAGS_INIT;
	char *cause = NULL;
	int rc;

	if (ud_headers_make_list(&p->src, p->plan.srcarch, "usr/include/Makefile", "no-header-test",
				 &skip, &problems) < 0)
		report_diags(stderr, p->tree.root, &problems);
	ud_diags_free(&problems);
	*skipped = 0;
	for (i = 0; i < r->n; i++) {
		struct checked *c = &r->v[i];
		char *h;

		if (!c->installed)
			continue;
		if (no_header_test(&skip, c->f->dst)) {
			(*skipped)++;
			continue;
		}
		h = ud_xasprintf("%s/%s", inc, c->f->dst);
		cj[n].argv = compile_argv(cc, inc, dummy, h);
		free(h);
		which[n++] = i;
	}
	ud_progress_start(&progress, "compile test", "headers", quiet);
	cb = ud_progress_cb_for(&progress);
	rc = ud_compile_run(cj, n, jobs, r->tmp, &cb, &cause);
	ud_progress_end(&progress);
	if (rc < 0) {
		report_error("compile test: %s", cause);
		free(cause);
		for (i = 0; i < n; i++)
			cj[i].status = 0;
	}
	for (i = 0; i < n; i++) {
		char **a;

		if (cj[i].status != 0)
			report_compile(r, &r->v[which[i]], &cj[i].output);
		for (a = cj[i].argv; *a != NULL; a++)
			free(*a);
		free(cj[i].argv);
		ud_buf_free(&cj[i].output);
	}
	free(cj);
	free(which);
	free(inc);
	free(dummy);
	ud_strlist_free(&skip);
	return n;
}

struct check_opts {
	const char *arch, *tree;
	unsigned jobs;
	bool json, quiet;
};

/* Reads the command line into o: -1 to go on, else the exit status. */
static int
parse_options(struct check_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"arch", required_argument, NULL, 'a'}, {"jobs", required_argument, NULL, 'j'},
		{"json", no_argument, NULL, 'J'},	{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},	{NULL, 0, NULL, 0},
	};
	int opt;

	optind = 1;
	/* -J: --json's short form of before, kept; --json has no short form now */
	while ((opt = getopt_long(argc, argv, "a:j:Jqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			o->arch = optarg;
			break;
		case 'j':
			if (cmd_parse_count("--jobs", optarg, 1, 4096, &o->jobs) < 0)
				return EXIT_USAGE;
			break;
		case 'J':
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return EXIT_OK;
		default:
			fputs(check_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs(check_usage, stderr);
		return EXIT_USAGE;
	}
	o->tree = argv[optind];
	return -1;
}

int
cmd_check(int argc, char **argv)
{
	struct check_opts o = {NULL, NULL, (unsigned)sysconf(_SC_NPROCESSORS_ONLN), false, false};
	const char *tmpdir = getenv("TMPDIR");
	struct cmd_plan p;
	struct ud_sink scratch;
	struct check_run r;
	struct ud_treeinfo input;
	const char *no_compile = NULL; /* why the compile test is not run */
	bool can_compile;
	size_t i, compiled = 0, skipped = 0, errors = 0, warnings = 0;
	char *cause = NULL;
	int status;

	if ((status = parse_options(&o, argc, argv)) >= 0)
		return status;
	if (o.json)
		report_keep();
	if (cmd_input(o.tree, CMD_TREES, &input) < 0 || cmd_open_plan(o.tree, o.arch, &p) < 0) {
		report_json_failure(o.tree);
		ud_treeinfo_free(&input);
		return EXIT_USAGE;
	}
	if (!o.json)
		cmd_input_print(stdout, "tree", o.tree, &input, p.plan.srcarch);
	memset(&r, 0, sizeof(r));
	r.tmp = ud_xasprintf("%s/uapid-check.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (mkdtemp(r.tmp) == NULL || ud_sink_open_dir(&scratch, r.tmp, 0, &cause) < 0) {
		report_error("%s: cannot create a scratch directory%s%s", r.tmp, cause ? ": " : "",
			     cause ? cause : "");
		report_json_failure(o.tree);
		free(cause);
		free(r.tmp);
		cmd_close_plan(&p);
		ud_treeinfo_free(&input);
		return EXIT_USAGE;
	}

	/* install every header into the scratch directory, keeping line maps */
	r.n = p.plan.n;
	r.v = ud_xcalloc(r.n ? r.n : 1, sizeof(*r.v));
	r.by_dst = ud_xcalloc(r.n ? r.n : 1, sizeof(size_t));
	for (i = 0; i < r.n; i++) {
		struct checked *c = &r.v[i];
		char *dst;

		c->f = &p.plan.v[i];
		r.by_dst[i] = i;
		ud_headers_install_file(&p.plan, c->f, &p.src, &c->in);
		if (!c->in.ok)
			continue;
		dst = ud_xasprintf("include/%s", c->f->dst);
		if (ud_sink_write(&scratch, dst, ud_buf_str(&c->in.text), c->in.text.len, &cause) <
		    0) {
			ud_diags_add(&c->in.diags, 0, UD_SEV_ERROR, "not checked: %s", cause);
			free(cause);
			cause = NULL;
		} else {
			c->installed = true;
		}
		free(dst);
	}
	ud_sink_close(&scratch);
	qsort_r(r.by_dst, r.n, sizeof(size_t), cmp_dst, &r);

	/* the text checks */
	for (i = 0; i < r.n; i++) {
		struct checked *c = &r.v[i];
		struct ud_hcheck_input in;

		if (!c->installed)
			continue;
		memset(&in, 0, sizeof(in));
		in.dst = c->f->dst;
		in.text = ud_buf_str(&c->in.text);
		in.len = c->in.text.len;
		in.src = c->f->generated ? NULL : ud_buf_str(&c->in.source);
		in.srclen = c->in.source.len;
		in.map = c->f->generated ? NULL : &c->in.map;
		in.srcarch = p.plan.srcarch;
		in.lookup = lookup_cb;
		in.ctx = &r;
		ud_hcheck(&in, &c->in.diags);
	}

	/* the compile test, with the host compiler unless CC names another */
	can_compile = strcmp(p.plan.srcarch, ud_headers_srcarch(cmd_default_arch())) == 0 ||
		      getenv("CC") != NULL;
	if (!can_compile)
		no_compile = "no compiler for the architecture (set CC)";
	/*
	 * Without its list of the headers that cannot compile alone (and its
	 * dummy includes), the kernel has no compile test: its errors would
	 * be the test's, not the headers'.
	 */
	if (can_compile && ud_source_type(&p.src, "usr/include/Makefile") == UD_FT_NONE) {
		no_compile = "the tree has no usr/include/Makefile (the kernel's compile test and "
			     "its no-header-test list)";
		can_compile = false;
	}
	if (can_compile)
		compiled = compile_all(&r, &p, o.jobs, o.quiet || o.json, &skipped);

	for (i = 0; i < r.n; i++) {
		errors += ud_diags_count(&r.v[i].in.diags, UD_SEV_ERROR);
		warnings += ud_diags_count(&r.v[i].in.diags, UD_SEV_WARNING) -
			    ud_diags_count(&r.v[i].in.diags, UD_SEV_ERROR);
	}
	if (o.json) {
		json_t *files = json_array();

		for (i = 0; i < r.n; i++)
			if (r.v[i].in.diags.n > 0)
				json_array_append_new(
					files, json_pack("{s:s, s:s, s:o}", "path", r.v[i].f->src,
							 "installed", r.v[i].f->dst, "diagnostics",
							 report_diags_json(&r.v[i].in.diags)));
		/* the tree's own problems (the plan's), as the text output prints them */
		report_json_line(json_pack(
			"{s:o, s:s, s:s?, s:i, s:i, s:i, s:i, s:i, s:o, s:o}", "input",
			cmd_input_json(o.tree, &input, p.plan.srcarch), "arch", p.plan.srcarch,
			"compile_skipped", no_compile, "headers", (json_int_t)r.n, "compiled",
			(json_int_t)compiled, "skipped", (json_int_t)skipped, "errors",
			(json_int_t)errors, "warnings", (json_int_t)warnings, "files", files,
			"diagnostics", report_diags_json(report_kept())));
	} else {
		for (i = 0; i < r.n; i++)
			report_diags(stderr, r.v[i].f->src, &r.v[i].in.diags);
		printf("checked %zu headers for %s: %zu errors, %zu warnings; ", r.n,
		       p.plan.srcarch, errors, warnings);
		if (can_compile)
			printf("%zu compiled alone (%zu excluded by no-header-test)\n", compiled,
			       skipped);
		else
			printf("compile test skipped: %s\n", no_compile);
	}

	nftw(r.tmp, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	for (i = 0; i < r.n; i++)
		ud_installed_free(&r.v[i].in);
	free(r.v);
	free(r.by_dst);
	free(r.tmp);
	cmd_close_plan(&p);
	ud_treeinfo_free(&input);
	return errors > 0 ? EXIT_FINDINGS : EXIT_OK;
}
