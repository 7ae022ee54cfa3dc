// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Engine tests, in-process: a small tree in a temporary directory, a real
 * state directory and SQLite store, batches handed to the engine directly
 * (no socket, no watcher, no timers) and run on a real libuv loop and its
 * thread pool.  After each batch, the outputs must be what the per-header
 * pipeline gives for the tree as it is (hsplit.h, computed here), and the
 * store's rows must say so.
 */
#include <errno.h>
#include <stdint.h>
#include <uv.h>
#include <git2.h>

#include "testutil.h"
#include "uapid/daemon/engine.h"
#include "uapid/io/hsplit.h"
#include "uapid/util/map.h"
#include "uapid/daemon/sched.h"
#include "uapid/store/store.h"
#include "uapid/daemon/watch.h"

/* A tree, its engine and what the last batch reported. */
struct fx {
	char *dir, *tree, *state;
	uv_loop_t loop;
	struct ud_engine *e;
	bool done;
	int error;
	bool full;
	size_t resplit, written, removed;
	int64_t clock;
	struct ud_strlist changed;
};

static const char split_h[] = "#ifndef _LINUX_SPLIT_H\n#define _LINUX_SPLIT_H\n"
			      "struct split_user { int a; };\n"
			      "#ifdef __KERNEL__\nstruct split_kernel { int k; };\n#endif\n"
			      "#endif\n";
static const char moved_h[] = "#ifndef _LINUX_MOVED_H\n#define _LINUX_MOVED_H\n"
			      "#define MOVED 1\n#endif\n";
static const char private_h[] = "#ifndef _LINUX_PRIVATE_H\n#define _LINUX_PRIVATE_H\n"
				"#ifdef __KERNEL__\nint private;\n#endif\n#endif\n";
static const char agh[] = "#define SV_ADDR 0xb0000000\n";

/*
 * include/linux: split.h (split), moved.h (moved), private.h (not listed),
 * sv_addr.agh (listed: a header whatever its name), N more to fill a wave
 * of the pool (gen00.h ...), sub/one.h listed in sub/Kbuild.
 */
static void
setup(struct fx *x, const char *name, unsigned more)
{
	struct ud_buf kb = UD_BUF_INIT;
	unsigned i;

	memset(x, 0, sizeof(*x));
	x->dir = test_dir(name);
	x->tree = ud_xasprintf("%s/tree", x->dir);
	x->state = ud_xasprintf("%s/state", x->dir);
	ud_buf_addstr(&kb, "header-y += split.h\nheader-y += moved.h\nheader-y += sv_addr.agh\n");
	put(x->tree, "include/linux/split.h", split_h);
	put(x->tree, "include/linux/moved.h", moved_h);
	put(x->tree, "include/linux/private.h", private_h);
	put(x->tree, "include/linux/sv_addr.agh", agh);
	put(x->tree, "include/linux/notes.txt", "not a header\n");
	put(x->tree, "include/linux/sub/Kbuild", "header-y += one.h\n");
	put(x->tree, "include/linux/sub/one.h", split_h);
	for (i = 0; i < more; i++) {
		char rel[64],
			*text = ud_xasprintf("#ifndef _LINUX_GEN%u_H\n#define _LINUX_GEN%u_H\n"
					     "#define GEN%u %u\n#ifdef __KERNEL__\nint gen%u;\n"
					     "#endif\n#endif\n",
					     i, i, i, i, i);

		snprintf(rel, sizeof(rel), "include/linux/gen%02u.h", i);
		put(x->tree, rel, text);
		ud_buf_addf(&kb, "header-y += gen%02u.h\n", i);
		free(text);
	}
	put(x->tree, "include/linux/Kbuild", ud_buf_str(&kb));
	ud_buf_free(&kb);
	ck_assert_int_eq(uv_loop_init(&x->loop), 0);
}

static void
on_done(void *ctx, const struct ud_engine_report *r)
{
	struct fx *x = ctx;
	size_t i;

	x->done = true;
	x->error = r->error;
	x->full = r->full;
	x->resplit = r->resplit;
	x->written = r->written;
	x->removed = r->removed;
	x->clock = r->clock;
	ud_strlist_free(&x->changed);
	for (i = 0; i < r->changed.n; i++)
		ud_strlist_add(&x->changed, r->changed.v[i]);
}

static void
open_engine(struct fx *x, const char *markers)
{
	struct ud_engine_opts o;
	char *cause = NULL;

	memset(&o, 0, sizeof(o));
	o.root = x->tree;
	o.state_dir = x->state;
	o.arch = "x86";
	o.markers = markers;
	ck_assert_int_eq(ud_mkdir_p(x->state, NULL), 0);
	ck_assert_msg(ud_engine_open(&x->e, &x->loop, &o, &cause) == 0, "open: %s", cause);
}

/* Runs the loop until the batch in flight has reported (the pool's work included). */
static void
wait_batch(struct fx *x)
{
	while (!x->done)
		if (uv_run(&x->loop, UV_RUN_ONCE) == 0)
			ck_assert_msg(x->done,
				      "the loop ran out of work before the batch reported");
	ck_assert_int_eq(x->error, 0);
	ck_assert(!ud_engine_busy(x->e));
}

static void
start(struct fx *x)
{
	char *cause = NULL;

	x->done = false;
	ck_assert_msg(ud_engine_start(x->e, on_done, x, &cause) == 0, "start: %s", cause);
	wait_batch(x);
	ck_assert(x->full);
}

/* Starts a batch for the paths (space-separated) with kinds; does not wait. */
static void
begin(struct fx *x, const char *paths, unsigned kinds, bool full)
{
	struct ud_sched_batch *b = ud_xcalloc(1, sizeof(*b));
	char *list = ud_xstrdup(paths), *save = NULL, *p;

	for (p = strtok_r(list, " ", &save); p != NULL; p = strtok_r(NULL, " ", &save))
		ud_map_put(&b->paths, p, (void *)(uintptr_t)kinds);
	free(list);
	b->full = full;
	b->first_ns = uv_hrtime();
	x->done = false;
	ud_engine_batch(x->e, b, on_done, x);
}

static void
batch(struct fx *x, const char *paths, unsigned kinds)
{
	begin(x, paths, kinds, false);
	wait_batch(x);
}

static void
teardown(struct fx *x)
{
	ud_engine_close(x->e);
	while (uv_run(&x->loop, UV_RUN_NOWAIT) != 0)
		;
	ck_assert_int_eq(uv_loop_close(&x->loop), 0);
	ud_strlist_free(&x->changed);
	free(x->tree);
	free(x->state);
	free(x->dir);
}

/* The row of path: its outcome (malloc'd), NULL when there is none. */
static char *
row_outcome(struct fx *x, const char *path, bool *exported, char **key)
{
	struct ud_hrow r;
	char *out;

	memset(&r, 0, sizeof(r));
	if (ud_store_header(ud_engine_store(x->e), path, &r, NULL) != 1)
		return NULL;
	out = ud_xstrdup(r.outcome);
	if (exported != NULL)
		*exported = r.exported;
	if (key != NULL)
		*key = ud_xstrdup(r.split_key);
	ud_hrow_free(&r);
	return out;
}

static void
assert_row(struct fx *x, const char *path, const char *outcome, bool exported)
{
	bool ex = false;
	char *got = row_outcome(x, path, &ex, NULL);

	ck_assert_msg(got != NULL, "no row for %s", path);
	ck_assert_str_eq(got, outcome);
	ck_assert_msg(ex == exported, "%s: exported %d", path, ex);
	free(got);
}

static void
assert_no_row(struct fx *x, const char *path)
{
	char *got = row_outcome(x, path, NULL, NULL);

	ck_assert_msg(got == NULL, "a row for %s (%s)", path, got);
}

/*
 * The outputs of header path are what the pipeline gives for it now with
 * set: the uapi twin (and the kernel header when split) below split/.
 */
static void
assert_split_of(struct fx *x, const char *path, const struct ud_markers *set)
{
	struct ud_source src;
	struct ud_hsplit h;
	char *k = ud_xasprintf("split/%s", path), *u;

	ck_assert_int_eq(ud_source_open_dir(&src, x->tree, NULL), 0);
	ud_hsplit_compute(&src, path, set, &h);
	ck_assert(ud_hsplit_moves(&h));
	u = ud_xasprintf("split/%s", h.twin);
	assert_text(x->state, u, ud_buf_str(&h.res.uapi));
	if (h.res.outcome == UD_SPLIT_SPLIT)
		assert_text(x->state, k, ud_buf_str(&h.res.kernel));
	else
		ck_assert_msg(!exists(x->state, k), "%s is there, %s moved", k, path);
	ud_hsplit_free(&h);
	ud_source_close(&src);
	free(k);
	free(u);
}

static bool
changed_has(struct fx *x, const char *path)
{
	return ud_strlist_has(&x->changed, path);
}

START_TEST(test_first_scan)
{
	struct fx x;
	struct ud_engine_counts c;

	setup(&x, "first-scan", 0);
	open_engine(&x, NULL);
	start(&x);
	assert_row(&x, "include/linux/split.h", "split", true);
	assert_row(&x, "include/linux/moved.h", "moved", true);
	assert_row(&x, "include/linux/sv_addr.agh", "moved", true); /* listed: a header */
	assert_row(&x, "include/linux/private.h", "unexported", false);
	assert_row(&x, "include/linux/sub/one.h", "split", true);
	assert_no_row(&x, "include/linux/notes.txt"); /* neither *.h nor listed */
	assert_no_row(&x, "include/linux/Kbuild");
	assert_split_of(&x, "include/linux/split.h", NULL);
	assert_split_of(&x, "include/linux/moved.h", NULL);
	assert_split_of(&x, "include/linux/sv_addr.agh", NULL);
	ck_assert(!exists(x.state, "split/include/linux/private.h"));
	/* the export lists and the removed list, as uapid split --output writes them */
	assert_text(x.state, "split/include/uapi/linux/Kbuild",
		    "# UAPI Header export list\nheader-y += moved.h\nheader-y += split.h\n"
		    "header-y += sv_addr.agh\n");
	assert_text(x.state, "split/include/linux/Kbuild", "");
	assert_text(x.state, "split/.uapid-removed",
		    "include/linux/moved.h\ninclude/linux/sv_addr.agh\n");
	ud_engine_counts(x.e, &c);
	ck_assert_uint_eq(c.headers, 5);
	ck_assert_uint_eq(c.exported, 4);
	ck_assert_uint_eq(c.split, 2);
	ck_assert_uint_eq(c.moved, 2);
	/* a tree with no install script: its split is served, the install refused, saying why */
	ck_assert_ptr_nonnull(strstr(ud_engine_problem(x.e, "install"),
				     "uapid does not know how this tree installs its headers"));
	ck_assert_int_eq(x.clock, ud_store_clock(ud_engine_store(x.e)));
	teardown(&x);
}
END_TEST

/* An edit, a new header, a deletion: each its own batch, outputs and rows following. */
START_TEST(test_edits)
{
	struct fx x;
	int64_t clock;
	struct ud_hrow r;

	setup(&x, "edits", 0);
	open_engine(&x, NULL);
	start(&x);
	clock = x.clock;

	put(x.tree, "include/linux/split.h",
	    "#ifndef _LINUX_SPLIT_H\n#define _LINUX_SPLIT_H\nstruct split_user { long b; };\n"
	    "#ifdef __KERNEL__\nint k;\n#endif\n#endif\n");
	batch(&x, "include/linux/split.h", UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.resplit, 1);
	ck_assert(x.clock > clock);
	ck_assert(changed_has(&x, "include/linux/split.h"));
	assert_split_of(&x, "include/linux/split.h", NULL);
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(ud_store_header(ud_engine_store(x.e), "include/linux/split.h", &r, NULL),
			 1);
	ck_assert_int_eq(r.clock, x.clock);
	ud_hrow_free(&r);

	/* the same bytes again: looked at, nothing written */
	put(x.tree, "include/linux/moved.h", moved_h);
	batch(&x, "include/linux/moved.h", UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.resplit, 0);
	ck_assert_uint_eq(x.written, 0);

	/* a header made unexported (its entry gone): outputs go, it stays a header */
	put(x.tree, "include/linux/Kbuild", "header-y += split.h\nheader-y += sv_addr.agh\n");
	batch(&x, "include/linux/Kbuild", UD_WATCH_CHANGED);
	assert_row(&x, "include/linux/moved.h", "unexported", false);
	ck_assert(!exists(x.state, "split/include/uapi/linux/moved.h"));
	assert_text(x.state, "split/.uapid-removed", "include/linux/sv_addr.agh\n");

	/* deleted */
	del(x.tree, "include/linux/split.h");
	batch(&x, "include/linux/split.h", UD_WATCH_ENTRY);
	assert_no_row(&x, "include/linux/split.h");
	ck_assert(!exists(x.state, "split/include/linux/split.h"));
	ck_assert(!exists(x.state, "split/include/uapi/linux/split.h"));
	assert_text(x.state, "split/include/uapi/linux/Kbuild",
		    "# UAPI Header export list\nheader-y += sv_addr.agh\n");
	teardown(&x);
}
END_TEST

/* A file not named *.h is a header while its directory's list names it, and only then. */
START_TEST(test_export_entry_not_h)
{
	struct fx x;

	setup(&x, "not-h", 0);
	open_engine(&x, NULL);
	start(&x);
	put(x.tree, "include/linux/Kbuild", "header-y += split.h\nheader-y += moved.h\n");
	batch(&x, "include/linux/Kbuild", UD_WATCH_CHANGED);
	assert_no_row(&x, "include/linux/sv_addr.agh");
	ck_assert(!exists(x.state, "split/include/uapi/linux/sv_addr.agh"));
	assert_text(x.state, "split/.uapid-removed", "include/linux/moved.h\n");
	/* a new one, listed in the same batch as it comes */
	put(x.tree, "include/linux/other.agh", agh);
	put(x.tree, "include/linux/Kbuild",
	    "header-y += split.h\nheader-y += moved.h\nheader-y += other.agh\n");
	batch(&x, "include/linux/Kbuild include/linux/other.agh", UD_WATCH_ENTRY);
	assert_row(&x, "include/linux/other.agh", "moved", true);
	assert_split_of(&x, "include/linux/other.agh", NULL);
	/* a listed one edited: split again like any header */
	put(x.tree, "include/linux/other.agh", "#define SV_ADDR 0xc0000000\n");
	batch(&x, "include/linux/other.agh", UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.resplit, 1);
	assert_split_of(&x, "include/linux/other.agh", NULL);
	/* a directory that moved in: what is there is looked at */
	{
		char *from = ud_xasprintf("%s/include/linux/sub", x.tree),
		     *to = ud_xasprintf("%s/include/linux/sub2", x.tree);

		ck_assert_int_eq(rename(from, to), 0);
		free(from);
		free(to);
	}
	batch(&x, "include/linux/sub include/linux/sub2", UD_WATCH_ENTRY | UD_WATCH_DIR);
	assert_no_row(&x, "include/linux/sub/one.h");
	assert_row(&x, "include/linux/sub2/one.h", "split", true);
	ck_assert(!exists(x.state, "split/include/linux/sub"));
	assert_split_of(&x, "include/linux/sub2/one.h", NULL);
	teardown(&x);
}
END_TEST

/*
 * The thread-pool contract: markers changed while a batch's chunks are on
 * the pool are not the batch's (it keeps its snapshot); the next batch
 * takes them.  40 headers: more than a wave computed on the loop thread.
 */
START_TEST(test_markers_during_batch)
{
	struct fx x;
	struct ud_markers skip = UD_MARKERS_INIT;
	char *cause = NULL, *key0 = NULL, *key1 = NULL, *out;
	int64_t id;

	setup(&x, "markers", 40);
	open_engine(&x, NULL);
	start(&x);
	free(row_outcome(&x, "include/linux/split.h", NULL, &key0));

	begin(&x, "", 0, true); /* a full batch: its chunks are on the pool now */
	ck_assert(ud_engine_busy(x.e));
	ud_markers_add(&skip, "include/linux/split.h", UD_MARK_SKIP, NULL, 1, NULL);
	/* the socket's way: into the store (the batch's open transaction), then taken in */
	ck_assert_int_eq(ud_store_add_marker(ud_engine_store(x.e), "socket", &skip.v[0], &id, NULL),
			 0);
	ck_assert_msg(ud_engine_reload_store_markers(x.e, &cause) == 0, "%s", cause);
	ck_assert_uint_eq(ud_engine_markers(x.e)->n, 1);
	wait_batch(&x);
	/* the batch split with the markers it started with */
	out = row_outcome(&x, "include/linux/split.h", NULL, &key1);
	ck_assert_str_eq(out, "split");
	ck_assert_str_eq(key1, key0);
	free(out);
	free(key1);
	assert_split_of(&x, "include/linux/split.h", NULL);

	/* the next batch takes them */
	batch(&x, "include/linux/split.h", UD_WATCH_CHANGED | UD_SCHED_FORCE);
	out = row_outcome(&x, "include/linux/split.h", NULL, &key1);
	ck_assert_str_eq(out, "skipped");
	ck_assert_str_ne(key1, key0);
	ck_assert(!exists(x.state, "split/include/uapi/linux/split.h"));
	free(out);
	free(key1);
	free(key0);
	ud_markers_free(&skip);
	teardown(&x);
}
END_TEST

/*
 * SIGHUP while a batch runs: the markers file is read and recorded in the
 * batch's open transaction (no nested BEGIN), committed with it.
 */
START_TEST(test_reload_markers_during_batch)
{
	struct fx x;
	struct ud_markers stored = UD_MARKERS_INIT;
	char *cause = NULL, *mfile, *out;

	setup(&x, "sighup", 40);
	mfile = ud_xasprintf("%s/markers", x.dir);
	put(x.dir, "markers", "");
	open_engine(&x, mfile);
	start(&x);
	begin(&x, "", 0, true);
	ck_assert(ud_engine_busy(x.e));
	put(x.dir, "markers", "include/linux/moved.h skip\n");
	ck_assert_msg(ud_engine_reload_markers(x.e, &cause) == 0, "reload: %s", cause);
	wait_batch(&x);
	assert_row(&x, "include/linux/moved.h", "moved", true); /* not this batch's */
	ck_assert_int_eq(ud_store_markers(ud_engine_store(x.e), "file", &stored, NULL, NULL), 0);
	ck_assert_uint_eq(stored.n, 1);
	ck_assert_str_eq(stored.v[0].path, "include/linux/moved.h");
	ck_assert(!ud_store_in_transaction(ud_engine_store(x.e)));
	begin(&x, "", 0, true);
	wait_batch(&x);
	out = row_outcome(&x, "include/linux/moved.h", NULL, NULL);
	ck_assert_str_eq(out, "skipped");
	free(out);
	/* a bad file: refused, the markers in effect stay */
	put(x.dir, "markers", "include/linux/moved.h nonsense\n");
	ck_assert_int_lt(ud_engine_reload_markers(x.e, &cause), 0);
	free(cause);
	ck_assert_uint_eq(ud_engine_markers(x.e)->n, 1);
	ud_markers_free(&stored);
	free(mfile);
	teardown(&x);
}
END_TEST

/* A restart finds damaged, missing and stray outputs, and puts them right. */
START_TEST(test_restart_repairs)
{
	struct fx x;

	setup(&x, "repair", 0);
	open_engine(&x, NULL);
	start(&x);
	ud_engine_close(x.e);
	put(x.state, "split/include/uapi/linux/split.h", "garbage\n");
	del(x.state, "split/include/uapi/linux/moved.h");
	put(x.state, "split/include/stray.h", "stray\n");
	open_engine(&x, NULL);
	start(&x);
	assert_split_of(&x, "include/linux/split.h", NULL);
	assert_split_of(&x, "include/linux/moved.h", NULL);
	ck_assert(!exists(x.state, "split/include/stray.h"));
	teardown(&x);
}
END_TEST

/* The install half, on a tree with include/uapi and the Makefiles of an install. */
START_TEST(test_install)
{
	struct fx x;
	char *cmd, *text;
	struct ud_engine_counts c;

	setup(&x, "install", 0);
	cmd = ud_xasprintf("cp -R '%s/tests/trees/mini/.' '%s/'", test_srcdir(), x.tree);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	open_engine(&x, NULL);
	start(&x);
	ck_assert_ptr_null(ud_engine_problem(x.e, "install"));
	ud_engine_counts(x.e, &c);
	ck_assert_uint_gt(c.installed, 0);
	ck_assert_uint_eq(c.install_failed, 0);
	ck_assert(exists(x.state, "install/include/linux/mini.h"));
	put(x.tree, "include/uapi/linux/mini.h",
	    "#ifndef _UAPI_LINUX_MINI_H\n#define _UAPI_LINUX_MINI_H\n#define MINI_NEW 2\n#endif\n");
	batch(&x, "include/uapi/linux/mini.h", UD_WATCH_CHANGED);
	text = slurp(x.state, "install/include/linux/mini.h");
	ck_assert_ptr_nonnull(strstr(text, "MINI_NEW 2"));
	ck_assert(changed_has(&x, "linux/mini.h"));
	free(text);
	/* a uapi header deleted: its installed one goes */
	del(x.tree, "include/uapi/linux/mini.h");
	batch(&x, "include/uapi/linux/mini.h", UD_WATCH_ENTRY);
	ck_assert(!exists(x.state, "install/include/linux/mini.h"));
	teardown(&x);
}
END_TEST

static Suite *
engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("batches");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_first_scan);
	tcase_add_test(tc, test_edits);
	tcase_add_test(tc, test_export_entry_not_h);
	tcase_add_test(tc, test_markers_during_batch);
	tcase_add_test(tc, test_reload_markers_during_batch);
	tcase_add_test(tc, test_restart_repairs);
	tcase_add_test(tc, test_install);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	int rc;

	git_libgit2_init();
	rc = test_run_scratch(engine_suite(), "engine");
	git_libgit2_shutdown();
	return rc;
}
