/*
 * uapid split: split a tree's exported headers as the 2012 scripted
 * commits did, in place or into an output directory.
 *
 * Every path argument is checked before anything is written; headers are
 * split in memory, and each result is written with atomic renames (the
 * uapi header first, so an interrupted run never leaves a kernel header
 * that includes a missing file).  Kbuild edits are collected and written
 * once at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "uapid/fsutil.h"
#include "uapid/kbuild.h"
#include "uapid/markers.h"
#include "uapid/path.h"
#include "uapid/split.h"
#include "uapid/tree.h"
#include "uapid/xmalloc.h"

static const char split_usage[] =
	"usage: uapid split [--in-place | --output DIR] [--markers FILE] [--dry-run] [--diff] [--json]\n"
	"                   TREE [PATH...]\n";

#define MAX_FILE_MARKERS 64

struct split_opts {
	bool in_place, dry_run, diff, json;
	const char *output;
	const char *markers;
};

/* A Kbuild file as the run has edited it so far. */
struct kbuild_file {
	char *rel;
	struct ud_buf text;
	bool existed, changed;
};

struct kbuild_include;

struct split_run {
	struct split_opts o;
	struct ud_tree tree;
	struct ud_markers markers;
	struct kbuild_file *kb;
	size_t nkb, akb;
	struct kbuild_include *inc;
	size_t ninc, ainc;
	unsigned counts[UD_SPLIT__COUNT];
	unsigned unchanged, failed;
	struct ud_paths removed;
	json_t *files; /* for --json */
	bool io_error;
};

static bool
writes(const struct split_run *r)
{
	return !r->o.dry_run && (r->o.in_place || r->o.output != NULL);
}

/* Where a tree-relative result goes: the tree itself, or the output dir. */
static char *
target(const struct split_run *r, const char *rel)
{
	if (r->o.output != NULL)
		return ud_xasprintf("%s/%s", r->o.output, rel);
	return ud_tree_path(&r->tree, rel);
}

static char *
dir_of(const char *rel)
{
	const char *s = strrchr(rel, '/');

	return s != NULL ? ud_xstrndup(rel, (size_t)(s - rel)) : ud_xstrdup(".");
}

static void
print_diff(const char *old_rel, const char *old, size_t oldlen, const char *new_rel,
	   const char *new, size_t newlen)
{
	git_patch *patch = NULL;
	git_buf out = {NULL, 0, 0};
	/* libgit2 adds the a/ and b/ prefixes itself */
	if (git_patch_from_buffers(&patch, old, oldlen, old != NULL ? old_rel : NULL, new, newlen,
				   new != NULL ? new_rel : NULL, NULL) == 0 &&
	    git_patch_to_buf(&out, patch) == 0 && out.ptr != NULL)
		fwrite(out.ptr, 1, out.size, stdout);
	git_buf_dispose(&out);
	git_patch_free(patch);
}

static int
write_result(struct split_run *r, const char *rel, const struct ud_buf *text, char **cause)
{
	char *path = target(r, rel), *dir = dir_of(path);
	int rc = ud_mkdir_p(dir, cause);

	if (rc == 0)
		rc = ud_write_atomic(path, ud_buf_str(text), text->len, cause);
	free(dir);
	free(path);
	return rc;
}

static struct kbuild_file *
kbuild_get(struct split_run *r, const char *dir, bool create_uapi)
{
	char *rel = ud_xasprintf("%s/Kbuild", dir), *abs;
	struct kbuild_file *k;
	size_t i;

	for (i = 0; i < r->nkb; i++)
		if (strcmp(r->kb[i].rel, rel) == 0) {
			free(rel);
			return &r->kb[i];
		}
	r->kb = ud_xgrow(r->kb, &r->akb, r->nkb + 1, sizeof(*r->kb));
	k = &r->kb[r->nkb++];
	memset(k, 0, sizeof(*k));
	k->rel = rel;
	abs = ud_tree_path(&r->tree, rel);
	k->existed = ud_read_file(abs, &k->text, NULL) == 0;
	if (!k->existed && create_uapi) {
		ud_buf_addstr(&k->text, UD_KBUILD_UAPI_HEADER);
		k->changed = true;
	}
	free(abs);
	return k;
}

/* A Kbuild file named by an "include" line, parsed once per run. */
struct kbuild_include {
	char *rel;
	struct ud_kbuild kb;
};

static const struct ud_kbuild *
included_kbuild(struct split_run *r, const char *rel)
{
	struct kbuild_include *inc;
	struct ud_buf t = UD_BUF_INIT;
	char *abs;
	size_t i;

	for (i = 0; i < r->ninc; i++)
		if (strcmp(r->inc[i].rel, rel) == 0)
			return &r->inc[i].kb;
	r->inc = ud_xgrow(r->inc, &r->ainc, r->ninc + 1, sizeof(*r->inc));
	inc = &r->inc[r->ninc++];
	inc->rel = ud_xstrdup(rel);
	memset(&inc->kb, 0, sizeof(inc->kb));
	abs = ud_tree_path(&r->tree, rel);
	if (ud_read_file(abs, &t, NULL) == 0)
		ud_kbuild_parse(t.data, t.len, &inc->kb);
	ud_buf_free(&t);
	free(abs);
	return &inc->kb;
}

/* Is name exported by the Kbuild text of k, or a file it includes? */
static bool
kbuild_exports(struct split_run *r, const struct kbuild_file *k, const char *name)
{
	struct ud_kbuild kb = UD_KBUILD_INIT;
	size_t i;
	bool found;

	ud_kbuild_parse(k->text.data, k->text.len, &kb);
	found = ud_kbuild_find(&kb, name) >= 0;
	for (i = 0; !found && i < kb.nincludes; i++)
		found = ud_kbuild_find(included_kbuild(r, kb.includes[i]), name) >= 0;
	ud_kbuild_free(&kb);
	return found;
}

/* Moves rel's export entry from its directory's Kbuild to the uapi one's. */
static void
move_export(struct split_run *r, const char *rel, const char *twin)
{
	char *dir = dir_of(rel), *udir = dir_of(twin);
	const char *name = strrchr(rel, '/') + 1;
	struct kbuild_file *k = kbuild_get(r, dir, false), *u;
	struct ud_buf out = UD_BUF_INIT, moved = UD_BUF_INIT;

	if (k->existed && ud_kbuild_remove(k->text.data, k->text.len, name, &out, &moved) == 1) {
		ud_buf_free(&k->text);
		k->text = out;
		ud_buf_init(&out);
		k->changed = true;
	} else {
		ud_buf_reset(&moved);
		ud_buf_addf(&moved, "header-y += %s\n", name);
	}
	u = kbuild_get(r, udir, true);
	if (!kbuild_exports(r, u, name)) {
		ud_kbuild_append(&u->text, ud_buf_str(&moved));
		u->changed = true;
	}
	ud_buf_free(&out);
	ud_buf_free(&moved);
	free(dir);
	free(udir);
}

static void
file_json(struct split_run *r, const char *rel, const char *outcome, const char *twin,
	  const struct ud_diags *d)
{
	if (!r->o.json)
		return;
	json_array_append_new(r->files,
			      json_pack("{s:s, s:s, s:s?, s:o}", "path", rel, "outcome", outcome,
					"uapi_path", twin, "diagnostics", report_diags_json(d)));
}

static void
split_one(struct split_run *r, const char *rel)
{
	struct ud_marker *ms[MAX_FILE_MARKERS];
	size_t nms = ud_markers_for(&r->markers, rel, ms, MAX_FILE_MARKERS);
	struct ud_split_result res;
	struct ud_buf in = UD_BUF_INIT;
	char *abs = ud_tree_path(&r->tree, rel), *twin = ud_path_uapi_twin(rel), *cause = NULL;
	int rc;

	if (ud_read_file(abs, &in, &cause) < 0) {
		report_error("%s", cause);
		r->io_error = true;
		r->failed++;
		goto out;
	}
	rc = ud_split(rel, in.data, in.len, ms, nms, &res);
	if (!r->o.json)
		report_diags(stderr, rel, &res.diags);
	if (rc < 0) {
		r->io_error = true;
		r->failed++;
		file_json(r, rel, "error", NULL, &res.diags);
		ud_split_result_free(&res);
		goto out;
	}
	r->counts[res.outcome]++;
	file_json(r, rel, ud_split_outcome_name(res.outcome), twin, &res.diags);
	if (res.outcome == UD_SPLIT_SPLIT || res.outcome == UD_SPLIT_MOVED) {
		bool moved = res.outcome == UD_SPLIT_MOVED;

		if (r->o.diff) {
			print_diff(rel, in.data, in.len, rel, moved ? NULL : res.kernel.data,
				   moved ? 0 : res.kernel.len);
			print_diff(twin, NULL, 0, twin, res.uapi.data, res.uapi.len);
		}
		if (writes(r)) {
			if (write_result(r, twin, &res.uapi, &cause) < 0) {
				report_error("%s", cause);
				r->io_error = true;
			} else if (!moved && write_result(r, rel, &res.kernel, &cause) < 0) {
				char *t = target(r, twin);

				report_error("%s", cause);
				unlink(t); /* do not leave half a split behind */
				free(t);
				r->io_error = true;
			} else if (moved && r->o.in_place && unlink(abs) < 0) {
				report_error("%s: cannot remove after moving it: %s", rel,
					     strerror(errno));
				r->io_error = true;
			}
		}
		if (moved)
			ud_paths_add(&r->removed, rel);
		move_export(r, rel, twin);
	}
	ud_split_result_free(&res);
out:
	free(cause);
	free(abs);
	free(twin);
	ud_buf_free(&in);
}

static void
write_kbuilds(struct split_run *r)
{
	size_t i;

	for (i = 0; i < r->nkb; i++) {
		struct kbuild_file *k = &r->kb[i];
		char *cause = NULL;

		if (!k->changed)
			continue;
		if (r->o.diff) {
			char *abs = ud_tree_path(&r->tree, k->rel);
			struct ud_buf old = UD_BUF_INIT;
			bool had = ud_read_file(abs, &old, NULL) == 0;

			print_diff(k->rel, had ? old.data : NULL, old.len, k->rel, k->text.data,
				   k->text.len);
			ud_buf_free(&old);
			free(abs);
		}
		if (writes(r) && write_result(r, k->rel, &k->text, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			r->io_error = true;
		}
	}
}

/* Stale markers: for files in this run, markers that selected nothing. */
static void
report_stale(struct split_run *r, const struct ud_paths *run)
{
	size_t i, j;

	for (i = 0; i < r->markers.n; i++) {
		const struct ud_marker *m = &r->markers.v[i];

		if (m->hits > 0)
			continue;
		for (j = 0; j < run->n; j++)
			if (strcmp(run->v[j], m->path) == 0)
				break;
		if (j == run->n)
			continue;
		fprintf(stderr, "%s:%u: warning: stale marker: '%s%s%s' matches nothing in %s\n",
			r->o.markers, m->line, ud_marker_action_name(m->action),
			m->selector ? " " : "", m->selector ? m->selector : "", m->path);
	}
}

/* Is rel listed by its directory's Kbuild (or a file that one includes)? */
static bool
is_exported(struct split_run *r, const char *rel, char **cached_dir, struct ud_kbuild *cached)
{
	char *dir = dir_of(rel);
	const char *name = strrchr(rel, '/') + 1;

	if (*cached_dir == NULL || strcmp(*cached_dir, dir) != 0) {
		free(*cached_dir);
		ud_kbuild_free(cached);
		ud_tree_kbuild(&r->tree, dir, cached);
		*cached_dir = dir;
	} else {
		free(dir);
	}
	return ud_kbuild_find(cached, name) >= 0;
}

/*
 * Resolves the PATH arguments into the headers to split (every exported
 * header when there are none); false on bad input, before anything ran.
 */
static bool
select_headers(struct split_run *r, int argc, char **argv, struct ud_paths *run)
{
	struct ud_kbuild kb = UD_KBUILD_INIT;
	char *kb_dir = NULL;
	bool ok = true;
	int a;

	if (argc == 0) {
		ud_tree_exported(&r->tree, run);
		return true;
	}
	for (a = 0; a < argc && ok; a++) {
		char *rel = NULL, *cause = NULL, *abs;

		if (ud_tree_relpath(&r->tree, argv[a], &rel, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			ok = false;
			break;
		}
		abs = ud_tree_path(&r->tree, rel);
		if (ud_is_dir(abs)) {
			size_t before = run->n;

			ud_tree_exported_under(&r->tree, rel[0] ? rel : ".", run);
			if (run->n == before)
				fprintf(stderr, "%s: note: no exported headers in this directory\n",
					rel[0] ? rel : ".");
		} else if (ud_path_include_name(rel) == NULL) {
			report_error("%s: not a header under include/ or arch/*/include/", argv[a]);
			ok = false;
		} else if (is_exported(r, rel, &kb_dir, &kb)) {
			ud_paths_add(run, rel);
		} else {
			fprintf(stderr,
				"%s: note: not exported by its directory's Kbuild: left untouched\n",
				rel);
			r->unchanged++;
		}
		free(abs);
		free(rel);
	}
	free(kb_dir);
	ud_kbuild_free(&kb);
	ud_paths_sort(run);
	return ok;
}

static int
load_markers(struct split_run *r)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	char *cause = NULL;
	int rc = 0;

	if (r->o.markers == NULL)
		return 0;
	if (ud_read_file(r->o.markers, &b, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		ud_buf_free(&b);
		return -1;
	}
	if (ud_markers_parse(&r->markers, b.data, b.len, &d) < 0)
		rc = -1;
	report_diags(stderr, r->o.markers, &d);
	ud_diags_free(&d);
	ud_buf_free(&b);
	return rc;
}

static void
print_summary(struct split_run *r)
{
	size_t i;

	if (r->o.json) {
		json_t *removed = json_array();

		for (i = 0; i < r->removed.n; i++)
			json_array_append_new(removed, json_string(r->removed.v[i]));
		report_json_line(json_pack(
			"{s:s, s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:o, s:o}", "tree", r->tree.root,
			"summary", "split", r->counts[UD_SPLIT_SPLIT], "moved",
			r->counts[UD_SPLIT_MOVED], "unchanged", r->unchanged, "needs_coaching",
			r->counts[UD_SPLIT_REFUSED], "skipped", r->counts[UD_SPLIT_SKIPPED],
			"errors", r->failed, "files", r->files, "removed", removed));
		r->files = NULL;
		return;
	}
	fflush(stdout);
	printf("split: %u\nmoved: %u\nunchanged: %u\nneeds coaching: %u\n",
	       r->counts[UD_SPLIT_SPLIT], r->counts[UD_SPLIT_MOVED], r->unchanged,
	       r->counts[UD_SPLIT_REFUSED]);
	if (r->counts[UD_SPLIT_SKIPPED] > 0)
		printf("skipped: %u\n", r->counts[UD_SPLIT_SKIPPED]);
	if (r->failed > 0)
		printf("errors: %u\n", r->failed);
	if (r->o.output != NULL && r->removed.n > 0 && writes(r)) {
		struct ud_buf list = UD_BUF_INIT;
		char *path = ud_xasprintf("%s/.uapid-removed", r->o.output), *cause = NULL;

		for (i = 0; i < r->removed.n; i++)
			ud_buf_addf(&list, "%s\n", r->removed.v[i]);
		if (ud_write_atomic(path, list.data, list.len, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			r->io_error = true;
		}
		printf("removed files listed in %s\n", path);
		free(path);
		ud_buf_free(&list);
	}
}

int
cmd_split(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"in-place", no_argument, NULL, 'i'},	   {"output", required_argument, NULL, 'o'},
		{"markers", required_argument, NULL, 'm'}, {"dry-run", no_argument, NULL, 'n'},
		{"diff", no_argument, NULL, 'd'},	   {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},	   {NULL, 0, NULL, 0},
	};
	struct split_run r;
	struct ud_paths run = UD_PATHS_INIT;
	char *cause = NULL;
	int opt, status = EXIT_OK;
	size_t i;

	memset(&r, 0, sizeof(r));
	optind = 1;
	while ((opt = getopt_long(argc, argv, "io:m:ndjh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			r.o.in_place = true;
			break;
		case 'o':
			r.o.output = optarg;
			break;
		case 'm':
			r.o.markers = optarg;
			break;
		case 'n':
			r.o.dry_run = true;
			break;
		case 'd':
			r.o.diff = true;
			break;
		case 'j':
			r.o.json = true;
			break;
		case 'h':
			fputs(split_usage, stdout);
			return EXIT_OK;
		default:
			fputs(split_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc || (r.o.in_place && r.o.output != NULL)) {
		if (r.o.in_place && r.o.output != NULL)
			report_error("--in-place and --output exclude each other");
		fputs(split_usage, stderr);
		return EXIT_USAGE;
	}
	if (ud_tree_open(&r.tree, argv[optind], &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (r.o.output != NULL && writes(&r) && ud_mkdir_p(r.o.output, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		ud_tree_close(&r.tree);
		return EXIT_USAGE;
	}
	if (load_markers(&r) < 0) {
		ud_markers_free(&r.markers);
		ud_tree_close(&r.tree);
		return EXIT_USAGE;
	}
	if (r.o.json)
		r.files = json_array();
	git_libgit2_init();
	if (!select_headers(&r, argc - optind - 1, argv + optind + 1, &run)) {
		status = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < run.n; i++)
		split_one(&r, run.v[i]);
	write_kbuilds(&r);
	report_stale(&r, &run);
	print_summary(&r);
	if (r.io_error)
		status = EXIT_USAGE;
	else if (r.counts[UD_SPLIT_REFUSED] > 0)
		status = EXIT_FINDINGS;
out:
	git_libgit2_shutdown();
	json_decref(r.files);
	for (i = 0; i < r.nkb; i++) {
		free(r.kb[i].rel);
		ud_buf_free(&r.kb[i].text);
	}
	free(r.kb);
	for (i = 0; i < r.ninc; i++) {
		free(r.inc[i].rel);
		ud_kbuild_free(&r.inc[i].kb);
	}
	free(r.inc);
	ud_paths_free(&r.removed);
	ud_paths_free(&run);
	ud_markers_free(&r.markers);
	ud_tree_close(&r.tree);
	return status;
}
