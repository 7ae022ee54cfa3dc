// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid split: split a tree's exported headers as the 2012 scripted
 * commits did, in place or into an output directory.
 *
 * A loop over the per-header pipeline (hsplit.h): every path argument is
 * checked before anything is written; each header is computed, reported
 * and applied through a sink (the uapi header first); the export lists of
 * each directory are edited once, from all its headers' moves, at the end.
 */
#include <getopt.h>
#include <stdarg.h>
#include <git2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/core/coach.h"

#include "cmd.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/hsplit.h"
#include "uapid/util/path.h"
#include "uapid/io/progress.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

static const char split_usage[] =
	"usage: uapid split [--in-place | --output DIR] [--markers FILE] [--dry-run] [--diff] [--json]\n"
	"                   [--quiet] TREE [PATH...]\n";

struct split_opts {
	bool in_place, dry_run, diff, json, quiet;
	const char *output;
	const char *markers;
};

/* The headers of one directory whose exports move, in the order the run met them. */
struct dir_moves {
	char *dir;
	struct ud_strlist names;
};

struct split_run {
	struct split_opts o;
	const char *tree_arg; /* as given, for a run that cannot open it */
	struct ud_tree tree;
	struct ud_source src;
	struct ud_tindex *idx;
	struct ud_sink sink; /* when the run writes */
	struct ud_markers markers;
	unsigned *marker_hits; /* per marker of the set */
	struct dir_moves *dirs;
	size_t ndirs, adirs;
	unsigned counts[UD_SPLIT__COUNT];
	unsigned unchanged, failed;
	struct ud_strlist removed;
	struct ud_diags notes; /* about the run, each naming its file */
	json_t *files;	       /* for --json */
	bool io_error;
	char *first_refused;	    /* the first header that needs coaching, for the hint */
	struct ud_treeinfo input;   /* what TREE is (cmd_input) */
	struct ud_strlist coaching; /* the markers that decide the refused headers (coach.h) */
	unsigned broken;	    /* headers whose text is broken: errors, not coaching */
};

static bool
writes(const struct split_run *r)
{
	return !r->o.dry_run && (r->o.in_place || r->o.output != NULL);
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

/* Records that rel's export moves to the uapi list of its directory. */
static void
add_move(struct split_run *r, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	size_t n = (size_t)(slash - rel), i;

	for (i = 0; i < r->ndirs; i++)
		if (strncmp(r->dirs[i].dir, rel, n) == 0 && r->dirs[i].dir[n] == '\0')
			break;
	if (i == r->ndirs) {
		r->dirs = ud_xgrow(r->dirs, &r->adirs, r->ndirs + 1, sizeof(*r->dirs));
		memset(&r->dirs[i], 0, sizeof(r->dirs[i]));
		r->dirs[i].dir = ud_xstrndup(rel, n);
		r->ndirs++;
	}
	ud_strlist_add(&r->dirs[i].names, slash + 1);
}

/* A note about the run: kept for --json, printed at once otherwise. */
static void __attribute__((format(printf, 5, 6)))
note(struct split_run *r, const char *path, unsigned line, enum ud_severity sev, const char *fmt,
     ...)
{
	struct ud_diags one = UD_DIAGS_INIT;
	struct ud_buf msg = UD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ud_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ud_diags_add_at(&r->notes, path, line, sev, "%s", ud_buf_str(&msg));
	if (!r->o.json) {
		ud_diags_add(&one, line, sev, "%s", ud_buf_str(&msg));
		report_diags(stderr, path, &one);
		ud_diags_free(&one);
	}
	ud_buf_free(&msg);
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
	struct ud_hsplit h;
	const struct ud_split_result *res = &h.res;
	char *cause = NULL;
	size_t i;

	ud_hsplit_compute(&r->src, rel, &r->markers, &h);
	if (!r->o.json)
		report_diags(stderr, rel, &res->diags);
	for (i = 0; i < h.nmarkers; i++)
		r->marker_hits[h.markers[i] - r->markers.v] += res->model.marker_hits[i];
	if (h.unreadable || h.twin == NULL) {
		r->io_error = true;
		r->failed++;
		file_json(r, rel, "error", NULL, &res->diags);
		ud_hsplit_free(&h);
		return;
	}
	if (ud_hsplit_moves(&h)) {
		bool moved = res->outcome == UD_SPLIT_MOVED;

		if (r->o.diff) {
			ud_progress_interrupt();
			print_diff(rel, h.input.data, h.input.len, rel,
				   moved ? NULL : res->kernel.data, moved ? 0 : res->kernel.len);
			print_diff(h.twin, NULL, 0, h.twin, res->uapi.data, res->uapi.len);
		}
		if (writes(r) && ud_hsplit_apply(&r->sink, &h, r->o.in_place, &cause) < 0) {
			/*
			 * Not written (apply rolled back): nothing is recorded for
			 * it, so the export lists keep naming the header where it is.
			 */
			struct ud_diags why = UD_DIAGS_INIT;

			note(r, rel, 0, UD_SEV_ERROR, "not split: %s", cause);
			ud_diags_add(&why, 0, UD_SEV_ERROR, "not split: %s", cause);
			free(cause);
			r->io_error = true;
			r->failed++;
			file_json(r, rel, "error", h.twin, &why);
			ud_diags_free(&why);
			ud_hsplit_free(&h);
			return;
		}
		if (moved)
			ud_strlist_add(&r->removed, rel);
		add_move(r, rel);
	}
	if (res->outcome == UD_SPLIT_REFUSED) {
		struct ud_strlist mine = UD_STRLIST_INIT;
		size_t k;

		/*
		 * Broken text (a NUL byte, an unterminated #if) is an error at
		 * its line: no marker mends it, so it is not offered one.
		 */
		if (ud_coach(rel, res, &mine) == UD_COACH_BROKEN) {
			r->broken++;
			r->failed++;
			file_json(r, rel, "error", h.twin, &res->diags);
			ud_strlist_free(&mine);
			ud_hsplit_free(&h);
			return;
		}
		if (r->files != NULL) {
			json_t *m = json_array();

			for (k = 0; k < mine.n; k++)
				json_array_append_new(m, json_string(mine.v[k]));
			file_json(r, rel, ud_split_outcome_name(res->outcome), h.twin, &res->diags);
			json_object_set_new(json_array_get(r->files, json_array_size(r->files) - 1),
					    "coaching", m);
		}
		for (k = 0; k < mine.n; k++)
			ud_strlist_add(&r->coaching, mine.v[k]);
		ud_strlist_free(&mine);
		r->counts[res->outcome]++;
		if (r->first_refused == NULL)
			r->first_refused = ud_xstrdup(rel);
		ud_hsplit_free(&h);
		return;
	}
	r->counts[res->outcome]++;
	file_json(r, rel, ud_split_outcome_name(res->outcome), h.twin, &res->diags);
	ud_hsplit_free(&h);
}

/* Writes one edited Kbuild file; false when it could not be written. */
static bool
write_edit(struct split_run *r, const struct ud_kbuild_edit *e)
{
	char *cause = NULL;

	if (!e->changed)
		return true;
	if (r->o.diff)
		print_diff(e->rel, e->existed ? ud_buf_str(&e->old) : NULL, e->old.len, e->rel,
			   ud_buf_str(&e->text), e->text.len);
	if (writes(r) &&
	    ud_sink_write(&r->sink, e->rel, ud_buf_str(&e->text), e->text.len, &cause) < 0) {
		note(r, e->rel, 0, UD_SEV_ERROR, "export list not updated: %s", cause);
		free(cause);
		r->io_error = true;
		return false;
	}
	return true;
}

/* Each directory's export lists, edited once from all its headers' moves. */
static void
write_kbuilds(struct split_run *r)
{
	size_t i;

	for (i = 0; i < r->ndirs; i++) {
		struct ud_kbuild_edit k, u;

		struct ud_diags d = UD_DIAGS_INIT;

		int rc = ud_hsplit_kbuilds(&r->src, r->dirs[i].dir, &r->dirs[i].names, &k, &u, &d);

		if (!r->o.json)
			report_diags(stderr, r->dirs[i].dir, &d);
		ud_diags_move(&r->notes, &d);
		if (rc < 0) {
			r->io_error = true;
		} else if (write_edit(r, &u)) {
			/*
			 * The uapi list first: if it cannot be written, the kernel
			 * list keeps its entries and the headers stay exported.
			 */
			write_edit(r, &k);
		} else if (k.changed) {
			note(r, k.rel, 0, UD_SEV_ERROR,
			     "left as it was: its headers' uapi export list could not be written");
		}
		ud_kbuild_edit_free(&k);
		ud_kbuild_edit_free(&u);
	}
}

/* Stale markers: for files in this run, markers that selected nothing. */
static void
report_stale(struct split_run *r, const struct ud_strlist *run)
{
	size_t i;

	for (i = 0; i < r->markers.n; i++) {
		const struct ud_marker *m = &r->markers.v[i];

		if (r->marker_hits[i] > 0 || ud_strlist_bsearch(run, m->path) < 0)
			continue;
		note(r, r->o.markers, m->line, UD_SEV_WARNING,
		     "stale marker: '%s%s%s' matches nothing in %s",
		     ud_marker_action_name(m->action), m->selector ? " " : "",
		     m->selector ? m->selector : "", m->path);
	}
}

/*
 * Resolves the PATH arguments into the headers to split (every exported
 * header when there are none); false on bad input, before anything ran.
 */
static bool
select_headers(struct split_run *r, int argc, char **argv, struct ud_strlist *run)
{
	int a;

	if (argc == 0) {
		ud_tindex_exported_under(r->idx, "", run);
		return true;
	}
	for (a = 0; a < argc; a++) {
		char *rel = NULL, *cause = NULL;

		if (ud_tree_relpath(&r->tree, argv[a], &rel, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			return false;
		}
		enum ud_ftype type = ud_source_type(&r->src, rel);

		if (type == UD_FT_OTHER) {
			report_error("%s: not a regular file", rel);
			free(rel);
			return false;
		}
		if (type == UD_FT_DIR) {
			size_t before = run->n;

			ud_tindex_exported_under(r->idx, rel, run);
			if (run->n == before)
				note(r, rel[0] ? rel : ".", 0, UD_SEV_NOTE,
				     "no exported headers in this directory");
		} else if (ud_path_include_name(rel) == NULL) {
			report_error("%s: not a header under include/ or arch/*/include/", argv[a]);
			free(rel);
			return false;
		} else if (ud_tindex_exported(r->idx, rel)) {
			ud_strlist_add(run, rel);
		} else {
			note(r, rel, 0, UD_SEV_NOTE,
			     "not exported by its directory's Kbuild: left untouched");
			r->unchanged++;
		}
		free(rel);
	}
	ud_strlist_sort(run);
	return true;
}

/* Export list entries that name no header file (a FIFO, a directory, ...): said, not skipped. */
static void
report_odd_exports(struct split_run *r)
{
	struct ud_diags odd = UD_DIAGS_INIT;
	size_t i;

	ud_tindex_odd_exports(r->idx, &odd);
	for (i = 0; i < odd.n; i++)
		note(r, odd.v[i].path, odd.v[i].line, odd.v[i].severity, "%s", odd.v[i].message);
	ud_diags_free(&odd);
}

static int
load_markers(struct split_run *r)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_diags d = UD_DIAGS_INIT;
	char *cause = NULL;
	int rc = 0;

	if (r->o.markers != NULL) {
		if (ud_read_file(r->o.markers, &b, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			ud_buf_free(&b);
			return -1;
		}
		if (ud_markers_parse(&r->markers, b.data, b.len, &d) < 0)
			rc = -1;
		if (!r->o.json)
			report_diags(stderr, r->o.markers, &d);
		{
			size_t i;

			for (i = 0; i < d.n; i++)
				ud_diags_add_at(&r->notes, r->o.markers, d.v[i].line,
						d.v[i].severity, "%s", d.v[i].message);
		}
		ud_diags_free(&d);
		ud_buf_free(&b);
	}
	r->marker_hits = ud_xcalloc(r->markers.n ? r->markers.n : 1, sizeof(unsigned));
	return rc;
}

/* A split tree in which this run found nothing to split or move. */
static bool
already_split(const struct split_run *r)
{
	return r->input.kind == UD_TREEKIND_SPLIT && r->counts[UD_SPLIT_SPLIT] == 0 &&
	       r->counts[UD_SPLIT_MOVED] == 0 && r->counts[UD_SPLIT_REFUSED] == 0 && r->failed == 0;
}

static void
print_summary(struct split_run *r)
{
	size_t i;

	if (r->o.json) {
		json_t *removed = json_array();

		if (report_kept() != NULL)
			ud_diags_move(&r->notes, report_kept());

		for (i = 0; i < r->removed.n; i++)
			json_array_append_new(removed, json_string(r->removed.v[i]));
		report_json_line(json_pack(
			"{s:s, s:o, s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:b, s:o, s:o, s:o}", "tree",
			r->tree.root != NULL ? r->tree.root : r->tree_arg, "input",
			cmd_input_json(r->tree_arg, &r->input, NULL), "summary", "split",
			r->counts[UD_SPLIT_SPLIT], "moved", r->counts[UD_SPLIT_MOVED], "unchanged",
			r->unchanged, "needs_coaching", r->counts[UD_SPLIT_REFUSED], "skipped",
			r->counts[UD_SPLIT_SKIPPED], "errors", r->failed, "already_split",
			already_split(r), "files", r->files, "removed", removed, "diagnostics",
			report_diags_json(&r->notes)));
		r->files = NULL;
		return;
	}
	fflush(stdout);
	printf("split: %u\nmoved: %u\nunchanged: %u\nneeds coaching: %u\n",
	       r->counts[UD_SPLIT_SPLIT], r->counts[UD_SPLIT_MOVED], r->unchanged,
	       r->counts[UD_SPLIT_REFUSED]);
	if (r->counts[UD_SPLIT_SKIPPED] > 0)
		printf("skipped: %u\n", r->counts[UD_SPLIT_SKIPPED]);
	if (already_split(r))
		printf("already split: its userspace API is in include/uapi/, and no exported "
		       "header is left to split\n");
	if (r->failed > 0)
		printf("errors: %u\n", r->failed);
	if (r->o.output != NULL && r->removed.n > 0 && writes(r)) {
		struct ud_buf list = UD_BUF_INIT;
		char *cause = NULL;

		for (i = 0; i < r->removed.n; i++)
			ud_buf_addf(&list, "%s\n", r->removed.v[i]);
		if (ud_sink_write(&r->sink, ".uapid-removed", list.data, list.len, &cause) < 0) {
			report_error("%s", cause);
			free(cause);
			r->io_error = true;
		}
		printf("removed files listed in %s/.uapid-removed\n", r->o.output);
		ud_buf_free(&list);
	}
	if (r->first_refused != NULL) {
		struct ud_buf lines = UD_BUF_INIT;

		/* the markers that decide each refused header, ready for a --markers file */
		for (i = 0; i < r->coaching.n && i < 20; i++)
			ud_buf_addf(&lines, "    %s\n", r->coaching.v[i]);
		if (r->coaching.n > 20)
			ud_buf_addf(&lines, "    (%zu more: --json has each header's)\n",
				    r->coaching.n - 20);
		if (lines.len == 0)
			ud_buf_addf(&lines, "    %s skip\n", r->first_refused);
		fflush(stdout);
		report_hint("coaching markers decide what uapid cannot: --markers FILE with "
			    "the lines\n%s  (actions kernel, uapi, retain, split-compound, "
			    "include-here, skip: see MARKERS in uapid(1))",
			    ud_buf_str(&lines));
		ud_buf_free(&lines);
	}
}

static int
parse_options(struct split_run *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"in-place", no_argument, NULL, 'i'},
		{"output", required_argument, NULL, 'o'},
		{"markers", required_argument, NULL, 'm'},
		{"dry-run", no_argument, NULL, 'n'},
		{"diff", no_argument, NULL, 'd'},
		{"json", no_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	optind = 1;
	/*
	 * -d (--diff) and -j (--json) are the short forms of before, kept for
	 * scripts: -d is --state-dir and -j --jobs in the other commands, so
	 * neither is documented here (doc/options.md).
	 */
	while ((opt = getopt_long(argc, argv, "io:m:ndjqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			r->o.in_place = true;
			break;
		case 'o':
			r->o.output = optarg;
			break;
		case 'm':
			r->o.markers = optarg;
			break;
		case 'n':
			r->o.dry_run = true;
			break;
		case 'd':
			r->o.diff = true;
			break;
		case 'j':
			r->o.json = true;
			break;
		case 'q':
			r->o.quiet = true;
			break;
		case 'h':
			fputs(split_usage, stdout);
			return EXIT_OK;
		default:
			fputs(split_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc || (r->o.in_place && r->o.output != NULL)) {
		if (r->o.in_place && r->o.output != NULL)
			report_error("--in-place and --output exclude each other");
		fputs(split_usage, stderr);
		return EXIT_USAGE;
	}
	return -1;
}

/* Opens the tree, its index, the sink and the markers; false after reporting why. */
static bool
open_run(struct split_run *r, const char *tree)
{
	struct ud_diags problems = UD_DIAGS_INIT;
	char *cause = NULL;
	bool ok = true;

	if (cmd_input(tree, CMD_TREES, &r->input) < 0)
		return false;
	/* the first line says what TREE is (on stderr under --diff: stdout is a patch) */
	if (!r->o.json)
		cmd_input_print(r->o.diff ? stderr : stdout, "tree", tree, &r->input, NULL);
	if (ud_tree_open(&r->tree, tree, &cause) < 0 ||
	    ud_source_open_dir(&r->src, r->tree.root, &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		return false;
	}
	if (ud_tindex_build(&r->idx, &r->src, &problems) < 0) {
		report_diags(stderr, r->tree.root, &problems);
		ok = false;
	}
	ud_diags_free(&problems);
	if (ok) {
		struct ud_diags missing = UD_DIAGS_INIT;
		size_t i;

		/* header-y += missing.h: said where it is written, not ignored */
		ud_tindex_missing_exports(r->idx, &missing);
		for (i = 0; i < missing.n; i++)
			note(r, missing.v[i].path, missing.v[i].line, missing.v[i].severity, "%s",
			     missing.v[i].message);
		ud_diags_free(&missing);
	}
	if (ok && writes(r) &&
	    ud_sink_open_dir(&r->sink, r->o.output != NULL ? r->o.output : r->tree.root, 0,
			     &cause) < 0) {
		report_error("%s", cause);
		free(cause);
		ok = false;
	}
	return ok && load_markers(r) == 0;
}

static void
close_run(struct split_run *r)
{
	size_t i;

	json_decref(r->files);
	for (i = 0; i < r->ndirs; i++) {
		free(r->dirs[i].dir);
		ud_strlist_free(&r->dirs[i].names);
	}
	free(r->dirs);
	free(r->marker_hits);
	free(r->first_refused);
	ud_strlist_free(&r->removed);
	ud_strlist_free(&r->coaching);
	ud_diags_free(&r->notes);
	ud_markers_free(&r->markers);
	ud_sink_close(&r->sink);
	ud_tindex_free(r->idx);
	ud_source_close(&r->src);
	ud_tree_close(&r->tree);
	ud_treeinfo_free(&r->input);
}

int
cmd_split(int argc, char **argv)
{
	struct split_run r;
	struct ud_strlist run = UD_STRLIST_INIT;
	struct ud_progress progress;
	int status;
	size_t i;

	memset(&r, 0, sizeof(r));
	if ((status = parse_options(&r, argc, argv)) >= 0)
		return status;
	status = EXIT_OK;
	if (r.o.json)
		report_keep();
	r.tree_arg = argv[optind];
	if (!open_run(&r, argv[optind])) {
		if (r.o.json) {
			/* the summary, with what stopped the run */
			r.files = json_array();
			r.failed++;
			print_summary(&r);
		}
		close_run(&r);
		return EXIT_USAGE;
	}
	if (r.o.json)
		r.files = json_array();
	git_libgit2_init();
	if (!select_headers(&r, argc - optind - 1, argv + optind + 1, &run)) {
		if (r.o.json) {
			r.failed++;
			print_summary(&r);
		}
		status = EXIT_USAGE;
		goto out;
	}
	report_odd_exports(&r);
	/* a whole tree takes a moment; the line shows once it ran a second */
	ud_progress_start(&progress, "split", "headers", r.o.quiet || r.o.json);
	for (i = 0; i < run.n; i++) {
		ud_progress_update(&progress, i, run.n);
		split_one(&r, run.v[i]);
	}
	ud_progress_end(&progress);
	write_kbuilds(&r);
	report_stale(&r, &run);
	print_summary(&r);
	if (r.io_error || r.broken > 0 || ud_diags_count(&r.notes, UD_SEV_ERROR) > 0)
		status = EXIT_USAGE;
	else if (r.counts[UD_SPLIT_REFUSED] > 0)
		status = EXIT_FINDINGS;
out:
	git_libgit2_shutdown();
	ud_strlist_free(&run);
	close_run(&r);
	return status;
}
