// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid check-uapi [-b BASE_REF] [-p PAST_REF] [-j N] [-l ERROR_LOG] [-i]
 * [-q] [-v]: the kernel's scripts/check-uapi.sh (v6.8+) with uapid's
 * model underneath, for the people who already run that script: the same
 * options, environment (ARCH, KERNEL_SRC; CC is not needed: nothing is
 * compiled), refs and exit codes (0 backwards compatible, 1 ABI
 * difference, 2 prerequisite not met), run from the top of a kernel git
 * tree.
 *
 * As the script: BASE_REF empty means the dirty tree when `git diff`
 * would show something, else HEAD; PAST_REF empty means BASE_REF^1 (HEAD
 * against a dirty tree), and must be an ancestor of BASE_REF; only the
 * headers PAST_REF installs are checked (one added cannot break).  Where
 * the script compiles each header twice and compares the DWARF with
 * abidiff, check-uapi reads both versions' API with api-diff's model (in
 * memory, on two threads, -j is taken and not needed): a header fails on
 * a breaking change, and, without -i (the script's "ignore ambiguous
 * changes"), on a change to review.  The model also sees what DWARF
 * cannot: macro values, enum values behind a suppressed name, ioctl
 * request numbers.
 */
#include <errno.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "api-triage.h"
#include "cmd.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/progress.h"
#include "uapid/proto/json.h"
#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

#define CHECK_OK 0
#define CHECK_ABI 1
#define CHECK_PREREQ 2

static const char check_usage[] =
	"usage: uapid check-uapi [-b BASE_REF] [-p PAST_REF] [-j N] [-l ERROR_LOG] [-i] [-q] [-v]\n"
	"  -b BASE_REF    the newer reference (default: the dirty tree if any, else HEAD)\n"
	"  -p PAST_REF    the older one, an ancestor of BASE_REF (default: BASE_REF^1,\n"
	"                 or HEAD against a dirty tree)\n"
	"  -j N           accepted, as the script's (uapid reads both versions at once)\n"
	"  -l ERROR_LOG   write what failed to ERROR_LOG too\n"
	"  -i             ignore ambiguous changes (the review verdicts)\n"
	"  -q, -v         quiet; verbose (a line for each header without differences)\n"
	"environment: ARCH (default: the host's), KERNEL_SRC (default: the current directory);\n"
	"CC and ABIDIFF are not used (nothing is compiled)\n"
	"exit: 0 success, 1 ABI difference detected, 2 prerequisite not met\n";

struct check {
	const char *base, *past, *log, *arch;
	bool ignore_ambiguous, quiet, verbose;
	char *top;
	git_repository *repo;
};

/* "error - what" as the script says it (what is freed): CHECK_PREREQ */
static int
prereq(char *what)
{
	fprintf(stderr, "error - %s\n", what);
	free(what);
	return CHECK_PREREQ;
}

/* `git diff --quiet` fails: the working tree differs from the index. */
static bool
tree_is_dirty(git_repository *repo)
{
	git_diff *diff = NULL;
	git_diff_options o;
	bool dirty;

	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_index_to_workdir(&diff, repo, NULL, &o) < 0)
		return false;
	dirty = git_diff_num_deltas(diff) > 0;
	git_diff_free(diff);
	return dirty;
}

/* The refs and the tree as the script settles them: CHECK_OK or CHECK_PREREQ. */
static int
check_deps(struct check *c, char **base_buf, char **past_buf)
{
	git_object *po = NULL, *bo = NULL;
	char *archdir;
	int rc = CHECK_OK;

	archdir = ud_xasprintf("%s/arch/%s", c->top, c->arch);
	if (!ud_is_dir(archdir))
		rc = prereq(ud_xasprintf("ARCH \"%s\" is not a subdirectory under arch/", c->arch));
	free(archdir);
	if (rc != CHECK_OK)
		return rc;
	if (git_repository_open_ext(&c->repo, c->top, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_repository_is_bare(c->repo))
		return prereq(ud_xstrdup(
			"this script requires the kernel tree to be initialized with Git"));
	if (c->base == NULL && !tree_is_dirty(c->repo))
		c->base = "HEAD";
	if (c->past == NULL)
		c->past = *past_buf =
			c->base != NULL ? ud_xasprintf("%s^1", c->base) : ud_xstrdup("HEAD");
	(void)base_buf;
	if (git_revparse_single(&po, c->repo, c->past) < 0)
		return prereq(ud_xasprintf("invalid git reference \"%s\"", c->past));
	if (c->base != NULL) {
		const git_oid *p, *b;

		if (git_revparse_single(&bo, c->repo, c->base) < 0) {
			git_object_free(po);
			return prereq(ud_xasprintf("invalid git reference \"%s\"", c->base));
		}
		p = git_object_id(po);
		b = git_object_id(bo);
		if (git_oid_equal(p, b))
			rc = prereq(ud_xasprintf("\"%s\" and \"%s\" are the same reference",
						 c->past, c->base));
		else if (git_graph_descendant_of(c->repo, b, p) != 1)
			rc = prereq(ud_xasprintf("\"%s\" is not an ancestor of base ref \"%s\"",
						 c->past, c->base));
	}
	git_object_free(po);
	git_object_free(bo);
	return rc;
}

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

/* Does the change fail the check? */
static bool
fails(const struct check *c, json_t *ch)
{
	const char *v = str(ch, "verdict");

	return strcmp(v, "breaking") == 0 || (!c->ignore_ambiguous && strcmp(v, "review") == 0);
}

/* Prints one header's failure block to err (and the log). */
static void
header_block(struct ud_buf *err, const struct check *c, const char *base, const char *hdr,
	     json_t *changes, size_t from, size_t to)
{
	struct ud_buf line = UD_BUF_INIT;
	size_t i, bar;
	json_t *ch;

	ch = json_array_get(changes, from);
	if (strcmp(str(ch, "what"), "removed") == 0 && str(ch, "symbol")[0] == '\0') {
		ud_buf_addf(err, "==== UAPI header %s was removed between %s and %s ====\n\n\n",
			    hdr, c->past, base);
		return;
	}
	ud_buf_addf(&line, "==== ABI differences detected in %s from %s -> %s ====", hdr, c->past,
		    base);
	bar = line.len;
	ud_buf_addstr(err, line.data);
	ud_buf_addstr(err, "\n");
	for (i = from; i < to; i++) {
		ch = json_array_get(changes, i);
		if (!fails(c, ch))
			continue;
		ud_buf_reset(&line);
		triage_change_line(&line, ch);
		ud_buf_addf(err, "  %s\n", line.data);
	}
	for (i = 0; i <= bar; i++)
		ud_buf_addch(err, '=');
	ud_buf_addstr(err, "\n\n\n");
	ud_buf_free(&line);
}

static int
run_check(struct check *c, int argc, char **argv)
{
	struct ud_progress po, pn;
	struct ud_progress *progress[2] = {&po, &pn};
	struct ud_api_version o, n;
	struct ud_api_diff d;
	struct api_opts ao = {false, NULL, NULL};
	const struct ud_abi *abi = NULL;
	const char *failed, *base = c->base != NULL ? c->base : "dirty tree";
	char *old_spec = ud_xasprintf("%s:%s", c->top, c->past);
	char *new_spec =
		c->base != NULL ? ud_xasprintf("%s:%s", c->top, c->base) : ud_xstrdup(c->top);
	struct ud_buf err = UD_BUF_INIT;
	json_t *j, *changes, *ch;
	size_t i, k, nfailed = 0, total;
	int rc, status = CHECK_OK;

	ao.arch = c->arch;
	if (api_opts_target(&ao, false, &abi) < 0) {
		free(old_spec);
		free(new_spec);
		return CHECK_PREREQ;
	}
	memset(&n, 0, sizeof(n));
	printf("Reading the userspace API of %s and %s (%s)... ", c->past, base, c->arch);
	fflush(stdout);
	ud_progress_start(&po, "api model of PAST_REF", "headers", true);
	ud_progress_start(&pn, "api model of BASE_REF", "headers", true);
	rc = api_side_load_pair(&o, old_spec, &n, new_spec, c->arch, progress, NULL, &failed);
	ud_progress_end(&po);
	ud_progress_end(&pn);
	free(old_spec);
	free(new_spec);
	if (rc < 0) {
		printf("failed\n");
		ud_api_version_free(&o);
		ud_api_version_free(&n);
		return CHECK_PREREQ;
	}
	printf("OK\n");
	ud_api_versions_resolve(&o, &n, abi, api_thread_start);
	memset(&d, 0, sizeof(d));
	ud_api_versions_diff(&o, &n, &d);
	total = o.n;
	ud_api_versions_exit(&o, &n, NULL, NULL);
	if (d.n == 0) {
		printf("No changes to UAPI headers were applied between %s and %s\n", c->past,
		       base);
		ud_api_diff_free(&d);
		return CHECK_OK;
	}
	j = ud_json_api_diff(&d);
	ud_api_diff_free(&d);
	changes = json_object_get(j, "changes");
	printf("Checking changes to UAPI headers between %s and %s...\n", c->past, base);
	/* the changes come by header; a header PAST_REF did not have cannot break */
	for (i = 0; i < json_array_size(changes); i = k) {
		const char *hdr = str(json_array_get(changes, i), "header");
		bool bad = false, added = false;

		for (k = i; k < json_array_size(changes); k++) {
			ch = json_array_get(changes, k);
			if (strcmp(str(ch, "header"), hdr) != 0)
				break;
			bad |= fails(c, ch);
			added |= str(ch, "symbol")[0] == '\0' &&
				 strcmp(str(ch, "what"), "added") == 0;
		}
		if (added)
			continue;
		if (bad) {
			nfailed++;
			header_block(&err, c, base, hdr, changes, i, k);
		} else if (c->verbose) {
			printf("No ABI differences detected in %s from %s -> %s\n", hdr, c->past,
			       base);
		}
	}
	if (c->log != NULL) {
		struct ud_buf lb = UD_BUF_INIT;
		git_oid head;
		char *cause = NULL;
		int a;

		ud_buf_addstr(&lb, "Generated by \"uapid check-uapi");
		for (a = 1; a < argc; a++)
			ud_buf_addf(&lb, " %s", argv[a]);
		ud_buf_addf(&lb, "\" from git ref %s\n\n",
			    git_reference_name_to_id(&head, c->repo, "HEAD") == 0
				    ? git_oid_tostr_s(&head)
				    : "?");
		ud_buf_add(&lb, err.data != NULL ? err.data : "", err.len);
		if (ud_write_file(c->log, lb.data, lb.len, 0, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
		}
		ud_buf_free(&lb);
	}
	if (err.len > 0)
		fputs(err.data, stderr);
	if (nfailed > 0) {
		fprintf(stderr,
			"error - %zu/%zu UAPI headers compatible with %s appear _not_ to be backwards "
			"compatible\n",
			nfailed, total, c->arch);
		if (c->log != NULL)
			fprintf(stderr, "Failure summary saved to %s\n", c->log);
		status = CHECK_ABI;
	} else {
		printf("All %zu UAPI headers compatible with %s appear to be backwards compatible\n",
		       total, c->arch);
	}
	ud_buf_free(&err);
	json_decref(j);
	return status;
}

int
cmd_check_uapi(int argc, char **argv)
{
	struct check c;
	struct utsname u;
	const char *src = getenv("KERNEL_SRC"), *arch = getenv("ARCH"), *cc = getenv("CC");
	char *past_buf = NULL, *base_buf = NULL, *end;
	int opt, status;

	memset(&c, 0, sizeof(c));
	/* getopts: an option's empty argument is the default, as in the script */
	while ((opt = getopt(argc, argv, "hb:p:j:l:iqv")) != -1) {
		switch (opt) {
		case 'h':
			fputs(check_usage, stdout);
			return CHECK_OK;
		case 'b':
			c.base = optarg[0] != '\0' ? optarg : NULL;
			break;
		case 'p':
			c.past = optarg[0] != '\0' ? optarg : NULL;
			break;
		case 'j':
			if (strtol(optarg, &end, 10) < 1 || *end != '\0') {
				report_error("-j %s: want a number of jobs", optarg);
				return CHECK_PREREQ;
			}
			break;
		case 'l':
			c.log = optarg[0] != '\0' ? optarg : NULL;
			break;
		case 'i':
			c.ignore_ambiguous = true;
			break;
		case 'q':
			c.quiet = true;
			c.verbose = false;
			break;
		case 'v':
			c.verbose = true;
			c.quiet = false;
			break;
		default:
			fputs(check_usage, stderr);
			return CHECK_PREREQ;
		}
	}
	if (optind < argc) {
		fputs(check_usage, stderr);
		return CHECK_PREREQ;
	}
	if (c.quiet && (freopen("/dev/null", "w", stdout) == NULL ||
			freopen("/dev/null", "w", stderr) == NULL))
		return CHECK_PREREQ;
	(void)cc; /* nothing is compiled: the compiler the script needs is not */
	if (arch == NULL || arch[0] == '\0')
		arch = uname(&u) == 0 ? u.machine : "x86";
	c.arch = strcmp(arch, "x86_64") == 0 ? "x86" : arch;
	c.top = realpath(src != NULL && src[0] != '\0' ? src : ".", NULL);
	if (c.top == NULL) {
		return prereq(ud_xasprintf("%s: %s", src != NULL ? src : ".", strerror(errno)));
	}
	git_libgit2_init();
	status = check_deps(&c, &base_buf, &past_buf);
	if (status == CHECK_OK)
		status = run_check(&c, argc, argv);
	git_repository_free(c.repo);
	git_libgit2_shutdown();
	free(past_buf);
	free(base_buf);
	free(c.top);
	return status;
}
