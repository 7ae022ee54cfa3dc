// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Watcher tests, with real inotify on directories of the scratch
 * directory and a real libuv loop: which kinds each change of a file or
 * a directory gives, new and moved-in directories watched as they come,
 * a subtree moved away forgotten, the filter honoured, and the test hooks
 * for the watch limit and for lost events.
 *
 * inotify queues an event when the change is made, in order: after a
 * change, a marker file is created in the top and the loop runs until
 * its event is seen, so every event before it has been handled, and
 * nothing waits on a clock.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <uv.h>

#include "testutil.h"
#include "uapid/util/hash.h"
#include "uapid/util/map.h"
#include "uapid/daemon/watch.h"

#define WAIT_MS test_wait_ms(2000) /* the longest any expected event may take */

struct fx {
	uv_loop_t loop;
	uv_timer_t tick;
	struct ud_watch *w;
	char *dir;		 /* the test's directory */
	char *root;		 /* the watched tree: DIR/tree */
	struct ud_map seen;	 /* rel -> (void *)(uintptr_t) OR of the kinds reported */
	struct ud_strlist log;	 /* "rel=KINDS", in order */
	struct ud_strlist asked; /* what the filter was asked about */
	unsigned syncs;		 /* markers created */
	unsigned synced;	 /* the last marker seen */
	unsigned limits;	 /* UD_WATCH_LIMIT reports */
};

/* Appends "CHANGED|ENTRY"... for k. */
static void
kinds_name(struct ud_buf *b, unsigned k)
{
	static const char *const names[] = {"CHANGED", "ENTRY", "DIR", "RESCAN", "LIMIT"};
	const char *sep = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (k & (1u << i)) {
			ud_buf_addf(b, "%s%s", sep, names[i]);
			sep = "|";
		}
	ud_buf_addstr(b, "");
}

static void
on_event(void *ctx, const char *rel, unsigned kinds)
{
	struct fx *x = ctx;
	struct ud_buf b = UD_BUF_INIT;
	uintptr_t old;

	if (strncmp(rel, ".sync-", 6) == 0) {
		unsigned n = (unsigned)atoi(rel + 6);

		if (n > x->synced)
			x->synced = n;
		return;
	}
	if (kinds & UD_WATCH_LIMIT)
		x->limits++;
	old = (uintptr_t)ud_map_get(&x->seen, rel);
	ud_map_put(&x->seen, rel, (void *)(old | kinds));
	ud_buf_addf(&b, "%s=", rel);
	kinds_name(&b, kinds);
	ud_strlist_take(&x->log, ud_buf_detach(&b, NULL));
}

/* The filter of these tests: by the directory's last name. */
static enum ud_watch_mode
filter(void *ctx, const char *rel)
{
	struct fx *x = ctx;
	const char *base = strrchr(rel, '/');

	base = base != NULL ? base + 1 : rel;
	ud_strlist_add(&x->asked, rel);
	if (strncmp(base, "skip", 4) == 0)
		return UD_WATCH_SKIP;
	if (strncmp(base, "pass", 4) == 0)
		return UD_WATCH_PASS;
	return UD_WATCH_ON;
}

static void
on_tick(uv_timer_t *t)
{
	(void)t;
}

/* Runs the loop until done(x) or WAIT_MS have passed; returns done(x). */
static bool
run_until(struct fx *x, bool (*done)(const struct fx *x))
{
	uint64_t end = uv_hrtime() + (uint64_t)WAIT_MS * 1000000;

	while (!done(x) && uv_hrtime() < end) {
		uv_timer_start(&x->tick, on_tick, 10, 0); /* wakes the loop up */
		uv_run(&x->loop, UV_RUN_ONCE);
	}
	uv_timer_stop(&x->tick);
	return done(x);
}

static bool
marker_seen(const struct fx *x)
{
	return x->synced >= x->syncs;
}

/* Returns once every event of the changes made so far has been handled. */
static void
sync_events(struct fx *x)
{
	char *p = ud_xasprintf("%s/.sync-%u", x->root, ++x->syncs);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_msg(run_until(x, marker_seen), "%s not reported within %u ms", p, WAIT_MS);
	ck_assert_int_eq(unlink(p), 0); /* its own events are not recorded */
	free(p);
}

/* Forgets what was reported. */
static void
forget(struct fx *x)
{
	ud_map_free(&x->seen, NULL);
	ud_strlist_free(&x->log);
}

static char *
log_text(const struct fx *x)
{
	return joined(&x->log);
}

static unsigned
kinds_of(const struct fx *x, const char *rel)
{
	return (unsigned)(uintptr_t)ud_map_get(&x->seen, rel);
}

/* rel was reported with exactly these kinds. */
static void
assert_kinds(const struct fx *x, const char *rel, unsigned want)
{
	unsigned got = kinds_of(x, rel);
	char *log = log_text(x);

	ck_assert_msg(got == want, "%s: kinds %#x, want %#x; reported: %s", rel, got, want, log);
	free(log);
}

/* rel was reported with at least these kinds. */
static void
assert_some_kinds(const struct fx *x, const char *rel, unsigned want)
{
	unsigned got = kinds_of(x, rel);
	char *log = log_text(x);

	ck_assert_msg((got & want) == want, "%s: kinds %#x, want %#x at least; reported: %s", rel,
		      got, want, log);
	free(log);
}

/* Nothing at all was reported. */
static void
assert_quiet(const struct fx *x)
{
	char *log = log_text(x);

	ck_assert_msg(x->log.n == 0, "reported: %s", log);
	free(log);
}

/* Makes DIR/tree with the directories given (NULL-terminated), opens a watcher on it. */
static void
setup(struct fx *x, const char *name, const char *const *dirs)
{
	char *cause = NULL;

	memset(x, 0, sizeof(*x));
	x->dir = test_dir(name);
	x->root = ud_xasprintf("%s/tree", x->dir);
	ck_assert_int_eq(mkdir(x->root, 0755), 0);
	for (; dirs != NULL && *dirs != NULL; dirs++) {
		char *p = ud_xasprintf("%s/%s", x->root, *dirs);

		ck_assert_int_eq(ud_mkdir_p(p, NULL), 0);
		free(p);
	}
	ck_assert_int_eq(uv_loop_init(&x->loop), 0);
	ck_assert_int_eq(uv_timer_init(&x->loop, &x->tick), 0);
	ck_assert_int_eq(ud_watch_open(&x->w, &x->loop, x->root, on_event, filter, x, &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_ptr_nonnull(x->w);
	ck_assert_uint_eq(ud_watch_count(x->w), 0); /* nothing watched yet */
}

static void
teardown(struct fx *x)
{
	ud_watch_close(x->w);
	uv_close((uv_handle_t *)&x->tick, NULL);
	/* runs until the handles are closed (the watcher's memory goes then) */
	ck_assert_int_eq(uv_run(&x->loop, UV_RUN_DEFAULT), 0);
	ck_assert_int_eq(uv_loop_close(&x->loop), 0);
	forget(x);
	ud_strlist_free(&x->asked);
	free(x->root);
	free(x->dir);
}

static char *
at(const struct fx *x, const char *rel)
{
	return ud_xasprintf("%s/%s", x->root, rel);
}

/* The changes the tests make, with plain system calls. */
static void
create_file(const struct fx *x, const char *rel)
{
	char *p = at(x, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	ck_assert_msg(fd >= 0, "%s: %s", p, strerror(errno));
	close(fd);
	free(p);
}

static void
append_file(const struct fx *x, const char *rel, const char *text)
{
	char *p = at(x, rel);
	int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	free(p);
}

static void
make_dir(const struct fx *x, const char *rel)
{
	char *p = at(x, rel);

	ck_assert_msg(mkdir(p, 0755) == 0, "%s: %s", p, strerror(errno));
	free(p);
}

static void
move(const char *from, const char *to)
{
	ck_assert_msg(rename(from, to) == 0, "%s -> %s: %s", from, to, strerror(errno));
}

static void
move_rel(const struct fx *x, const char *from, const char *to)
{
	char *f = at(x, from), *t = at(x, to);

	move(f, t);
	free(f);
	free(t);
}

static void
remove_rel(const struct fx *x, const char *rel)
{
	char *p = at(x, rel);

	ck_assert_msg(remove(p) == 0, "%s: %s", p, strerror(errno));
	free(p);
}

START_TEST(test_files)
{
	static const char *const dirs[] = {"include/linux", NULL};
	struct fx x;
	char *p, *cause = NULL;

	setup(&x, "files", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(ud_watch_count(x.w), 3);
	ck_assert(ud_watch_has(x.w, ""));
	ck_assert(ud_watch_has(x.w, "include"));
	ck_assert(ud_watch_has(x.w, "include/linux"));
	ck_assert(!ud_watch_has(x.w, "include/linux/a.h"));
	ck_assert(!ud_watch_degraded(x.w));
	sync_events(&x);
	assert_quiet(&x); /* watching reports nothing by itself */

	/* created (and closed after writing): a new entry that may have content */
	create_file(&x, "include/linux/a.h");
	create_file(&x, "top.h");
	sync_events(&x);
	assert_kinds(&x, "include/linux/a.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	assert_kinds(&x, "top.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.seen.n, 2);
	forget(&x);

	/* written: changed, no entry */
	append_file(&x, "include/linux/a.h", "#define A 1\n");
	sync_events(&x);
	assert_kinds(&x, "include/linux/a.h", UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.seen.n, 1);
	forget(&x);

	/* attributes */
	p = at(&x, "include/linux/a.h");
	ck_assert_int_eq(chmod(p, 0600), 0);
	free(p);
	sync_events(&x);
	assert_kinds(&x, "include/linux/a.h", UD_WATCH_CHANGED);
	forget(&x);

	/* renamed in a directory, and across directories: both names are entries */
	move_rel(&x, "include/linux/a.h", "include/linux/b.h");
	move_rel(&x, "top.h", "include/top.h");
	sync_events(&x);
	assert_kinds(&x, "include/linux/a.h", UD_WATCH_ENTRY);
	assert_kinds(&x, "include/linux/b.h", UD_WATCH_ENTRY);
	assert_kinds(&x, "top.h", UD_WATCH_ENTRY);
	assert_kinds(&x, "include/top.h", UD_WATCH_ENTRY);
	ck_assert_uint_eq(x.seen.n, 4);
	forget(&x);

	/* deleted */
	remove_rel(&x, "include/linux/b.h");
	sync_events(&x);
	assert_kinds(&x, "include/linux/b.h", UD_WATCH_ENTRY);
	ck_assert_uint_eq(x.seen.n, 1);
	forget(&x);

	/* the editor's save: a temporary written, then renamed over the file */
	create_file(&x, "include/top.h.tmp");
	append_file(&x, "include/top.h.tmp", "new\n");
	move_rel(&x, "include/top.h.tmp", "include/top.h");
	sync_events(&x);
	assert_kinds(&x, "include/top.h.tmp", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	assert_kinds(&x, "include/top.h", UD_WATCH_ENTRY);
	teardown(&x);
}
END_TEST

START_TEST(test_new_dir)
{
	struct fx x;
	char *cause = NULL, *out, *in;

	setup(&x, "newdir", NULL);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	ck_assert_uint_eq(ud_watch_count(x.w), 1);

	/* a new directory: reported as a directory entry, and watched */
	make_dir(&x, "arch");
	sync_events(&x);
	assert_kinds(&x, "arch", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(ud_watch_has(x.w, "arch"));
	ck_assert_uint_eq(ud_watch_count(x.w), 2);
	forget(&x);
	create_file(&x, "arch/Kconfig");
	sync_events(&x);
	assert_kinds(&x, "arch/Kconfig", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	forget(&x);

	/* a directory made with directories in it before the loop looked: all watched */
	make_dir(&x, "arch/x86");
	make_dir(&x, "arch/x86/include");
	make_dir(&x, "arch/x86/include/uapi");
	sync_events(&x);
	assert_kinds(&x, "arch/x86", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(ud_watch_has(x.w, "arch/x86/include"));
	ck_assert(ud_watch_has(x.w, "arch/x86/include/uapi"));
	ck_assert_uint_eq(ud_watch_count(x.w), 5);
	forget(&x);
	create_file(&x, "arch/x86/include/uapi/a.h");
	sync_events(&x);
	assert_kinds(&x, "arch/x86/include/uapi/a.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	forget(&x);

	/* a tree moved in from outside: reported as one directory entry, watched whole */
	out = ud_xasprintf("%s/outside", x.dir);
	in = ud_xasprintf("%s/sub/deeper", out);
	ck_assert_int_eq(ud_mkdir_p(in, NULL), 0);
	free(in);
	in = at(&x, "moved-in");
	move(out, in);
	sync_events(&x);
	assert_kinds(&x, "moved-in", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert_uint_eq(x.seen.n, 1);
	ck_assert(ud_watch_has(x.w, "moved-in"));
	ck_assert(ud_watch_has(x.w, "moved-in/sub"));
	ck_assert(ud_watch_has(x.w, "moved-in/sub/deeper"));
	forget(&x);
	create_file(&x, "moved-in/sub/deeper/b.h");
	sync_events(&x);
	assert_kinds(&x, "moved-in/sub/deeper/b.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	ck_assert_ptr_null(cause);
	free(out);
	free(in);
	teardown(&x);
}
END_TEST

START_TEST(test_dir_moved_away)
{
	static const char *const dirs[] = {"a/b/c", "keep", "e/f", "g/h", NULL};
	struct fx x;
	char *cause = NULL, *from, *to, *p;
	size_t n;

	setup(&x, "away", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	n = ud_watch_count(x.w);
	ck_assert_uint_eq(n, 9);

	/* moved out of the tree: reported, and no longer watched, nor anything below */
	from = at(&x, "a");
	to = ud_xasprintf("%s/gone", x.dir);
	move(from, to);
	sync_events(&x);
	assert_kinds(&x, "a", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(!ud_watch_has(x.w, "a"));
	ck_assert(!ud_watch_has(x.w, "a/b"));
	ck_assert(!ud_watch_has(x.w, "a/b/c"));
	ck_assert(ud_watch_has(x.w, "keep"));
	ck_assert_uint_eq(ud_watch_count(x.w), n - 3);
	forget(&x);
	/* what happens there now is none of the tree's business */
	p = ud_xasprintf("%s/b/c/x.h", to);
	ck_assert_int_eq(ud_write_file(p, "x\n", 2, 0, NULL), 0);
	free(p);
	p = ud_xasprintf("%s/y.h", to);
	ck_assert_int_eq(ud_write_file(p, "y\n", 2, 0, NULL), 0);
	free(p);
	sync_events(&x);
	assert_quiet(&x);
	/* and a new "a" is a new directory */
	make_dir(&x, "a");
	sync_events(&x);
	assert_kinds(&x, "a", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(ud_watch_has(x.w, "a"));
	ck_assert(!ud_watch_has(x.w, "a/b"));
	forget(&x);

	/* renamed in the tree: the old name forgotten, the new one watched below */
	move_rel(&x, "e", "e2");
	sync_events(&x);
	assert_kinds(&x, "e", UD_WATCH_ENTRY | UD_WATCH_DIR);
	assert_kinds(&x, "e2", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(!ud_watch_has(x.w, "e"));
	ck_assert(!ud_watch_has(x.w, "e/f"));
	ck_assert(ud_watch_has(x.w, "e2"));
	ck_assert(ud_watch_has(x.w, "e2/f"));
	forget(&x);
	create_file(&x, "e2/f/z.h");
	sync_events(&x);
	assert_kinds(&x, "e2/f/z.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.seen.n, 1);
	forget(&x);

	/* deleted: reported, forgotten */
	remove_rel(&x, "g/h");
	sync_events(&x);
	assert_some_kinds(&x, "g/h", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(!ud_watch_has(x.w, "g/h"));
	ck_assert(ud_watch_has(x.w, "g"));
	ck_assert_uint_eq(ud_watch_count(x.w), n - 3 + 1 - 1);
	ck_assert_ptr_null(cause);
	free(from);
	free(to);
	teardown(&x);
}
END_TEST

START_TEST(test_filter)
{
	static const char *const dirs[] = {
		"skip/in", "pass/on", "pass/skip-too", "on/pass-x/on", "pass/del/sub", NULL,
	};
	struct fx x;
	char *cause = NULL;

	setup(&x, "filter", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	ck_assert_ptr_null(cause);
	/* skipped: neither watched nor entered */
	ck_assert(!ud_watch_has(x.w, "skip"));
	ck_assert(!ud_watch_has(x.w, "skip/in"));
	ck_assert(ud_strlist_has(&x.asked, "skip"));
	ck_assert(!ud_strlist_has(&x.asked, "skip/in"));
	/* passed: entered, not watched */
	ck_assert(!ud_watch_has(x.w, "pass"));
	ck_assert(ud_watch_has(x.w, "pass/on"));
	ck_assert(!ud_watch_has(x.w, "pass/skip-too"));
	ck_assert(ud_watch_has(x.w, "on"));
	ck_assert(!ud_watch_has(x.w, "on/pass-x"));
	ck_assert(ud_watch_has(x.w, "on/pass-x/on"));
	ck_assert(ud_watch_has(x.w, "pass/del/sub"));
	/* "", pass/on, pass/del, pass/del/sub, on, on/pass-x/on */
	ck_assert_uint_eq(ud_watch_count(x.w), 6);

	/* a skipped or passed directory reports nothing */
	create_file(&x, "skip/a.h");
	create_file(&x, "skip/in/a.h");
	make_dir(&x, "skip/in/newdir");
	create_file(&x, "pass/a.h");
	create_file(&x, "pass/skip-too/a.h");
	create_file(&x, "on/pass-x/a.h");
	sync_events(&x);
	assert_quiet(&x);
	/* what they hold that is watched does */
	create_file(&x, "pass/on/b.h");
	create_file(&x, "on/pass-x/on/b.h");
	sync_events(&x);
	assert_kinds(&x, "pass/on/b.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	assert_kinds(&x, "on/pass-x/on/b.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	ck_assert_uint_eq(x.seen.n, 2);
	forget(&x);

	/* a new directory is asked about: skipped, it is an entry of its parent, no more */
	make_dir(&x, "skip-new");
	sync_events(&x);
	assert_kinds(&x, "skip-new", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(ud_strlist_has(&x.asked, "skip-new"));
	ck_assert(!ud_watch_has(x.w, "skip-new"));
	forget(&x);
	make_dir(&x, "skip-new/sub");
	create_file(&x, "skip-new/a.h");
	sync_events(&x);
	assert_quiet(&x);

	/* passed: entered, and what is below it watched as the filter says */
	make_dir(&x, "pass-new");
	sync_events(&x);
	assert_kinds(&x, "pass-new", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(!ud_watch_has(x.w, "pass-new"));
	forget(&x);
	make_dir(&x, "pass-new/sub"); /* not seen: pass-new is not watched */
	create_file(&x, "pass-new/a.h");
	sync_events(&x);
	assert_quiet(&x);
	ck_assert(!ud_watch_has(x.w, "pass-new/sub"));
	/* the caller's rescan of it (ud_watch_add) finds it */
	ck_assert_int_eq(ud_watch_add(x.w, "pass-new", &cause), 0);
	ck_assert(!ud_watch_has(x.w, "pass-new"));
	ck_assert(ud_watch_has(x.w, "pass-new/sub"));
	create_file(&x, "pass-new/sub/c.h");
	sync_events(&x);
	assert_kinds(&x, "pass-new/sub/c.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	forget(&x);

	/*
	 * A watched directory in an unwatched one, moved or deleted: no parent
	 * tells, its own watch does, as a rescan of it.
	 */
	move_rel(&x, "pass/on", "pass/on-moved");
	sync_events(&x);
	assert_kinds(&x, "pass/on", UD_WATCH_RESCAN);
	ck_assert(!ud_watch_has(x.w, "pass/on"));
	ck_assert(!ud_watch_has(x.w, "pass/on-moved"));
	forget(&x);
	create_file(&x, "pass/on-moved/d.h");
	remove_rel(&x, "pass/del/sub");
	remove_rel(&x, "pass/del");
	sync_events(&x);
	assert_some_kinds(&x, "pass/del", UD_WATCH_RESCAN);
	ck_assert(!ud_watch_has(x.w, "pass/del"));
	ck_assert(!ud_watch_has(x.w, "pass/del/sub"));
	ck_assert(!ud_map_has(&x.seen, "pass/on-moved/d.h"));
	ck_assert_ptr_null(cause);
	teardown(&x);
}
END_TEST

START_TEST(test_limit)
{
	static const char *const dirs[] = {"a", "b", "c", NULL};
	struct fx x;
	char *cause = NULL, *limited = NULL;
	size_t i;
	const char *k;

	ck_assert_int_eq(setenv("UAPID_TEST_MAX_WATCHES", "2", 1), 0);
	setup(&x, "limit", dirs);
	ck_assert_int_eq(unsetenv("UAPID_TEST_MAX_WATCHES"), 0);
	ck_assert(!ud_watch_degraded(x.w));
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), -ENOSPC);
	ck_assert_ptr_null(cause); /* reported through fn, not as an error */
	ck_assert(ud_watch_degraded(x.w));
	ck_assert_uint_eq(ud_watch_count(x.w), 2);
	ck_assert(ud_watch_has(x.w, ""));
	/* said once, naming a directory that is not watched */
	ck_assert_uint_eq(x.limits, 1);
	ck_assert_uint_eq(x.seen.n, 1);
	for (i = 0; ud_map_next(&x.seen, &i, &k, NULL);)
		limited = ud_xstrdup(k);
	ck_assert_ptr_nonnull(limited);
	assert_kinds(&x, limited, UD_WATCH_LIMIT);
	ck_assert(strcmp(limited, "a") == 0 || strcmp(limited, "b") == 0 ||
		  strcmp(limited, "c") == 0);
	ck_assert(!ud_watch_has(x.w, limited));
	forget(&x);

	/* what is watched still reports; a new directory is an entry, not a watch */
	make_dir(&x, "d");
	sync_events(&x);
	assert_kinds(&x, "d", UD_WATCH_ENTRY | UD_WATCH_DIR);
	ck_assert(!ud_watch_has(x.w, "d"));
	ck_assert_uint_eq(x.limits, 1);
	ck_assert_uint_eq(ud_watch_count(x.w), 2);
	ck_assert_int_eq(ud_watch_add(x.w, limited, &cause), -ENOSPC);
	ck_assert_uint_eq(x.limits, 1);
	ck_assert(ud_watch_degraded(x.w));
	free(limited);
	teardown(&x);

	/* the hook was read at open: a watcher opened after is not limited */
	setup(&x, "limit2", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	ck_assert_uint_eq(ud_watch_count(x.w), 4);
	ck_assert(!ud_watch_degraded(x.w));
	ck_assert_uint_eq(x.limits, 0);
	teardown(&x);
}
END_TEST

static bool
rescan_seen(const struct fx *x)
{
	return (kinds_of(x, "") & UD_WATCH_RESCAN) != 0;
}

START_TEST(test_drop_events)
{
	struct fx x;
	char *cause = NULL, name[32];
	int i, reported = 0;

	ck_assert_int_eq(setenv("UAPID_TEST_DROP_EVENTS", "3", 1), 0);
	setup(&x, "drop", NULL);
	ck_assert_int_eq(unsetenv("UAPID_TEST_DROP_EVENTS"), 0);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	/* 20 events in one read of inotify: the third and what follows it are lost */
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "f%d.h", i);
		create_file(&x, name);
	}
	ck_assert_msg(run_until(&x, rescan_seen), "no rescan of the tree within %u ms", WAIT_MS);
	assert_kinds(&x, "", UD_WATCH_RESCAN);
	assert_kinds(&x, "f0.h", UD_WATCH_ENTRY | UD_WATCH_CHANGED);
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "f%d.h", i);
		reported += ud_map_has(&x.seen, name);
	}
	ck_assert_int_lt(reported, 10);
	ck_assert(!ud_watch_degraded(x.w)); /* lost events are not a lost watch */
	ck_assert_ptr_null(cause);
	teardown(&x);
}
END_TEST

START_TEST(test_top_moved)
{
	static const char *const dirs[] = {"d", NULL};
	struct fx x;
	char *cause = NULL, *to;

	setup(&x, "top", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	to = ud_xasprintf("%s/tree.old", x.dir);
	move(x.root, to);
	ck_assert_msg(run_until(&x, rescan_seen), "no rescan of the tree within %u ms", WAIT_MS);
	assert_kinds(&x, "", UD_WATCH_RESCAN);
	ck_assert(!ud_watch_has(x.w, ""));
	ck_assert(!ud_watch_has(x.w, "d"));
	ck_assert_uint_eq(ud_watch_count(x.w), 0);
	move(to, x.root);
	free(to);
	teardown(&x);
}
END_TEST

START_TEST(test_errors)
{
	struct fx x;
	struct ud_watch *w = (struct ud_watch *)&w; /* must be cleared */
	char *cause = NULL, *missing;

	setup(&x, "errors", NULL);
	missing = ud_xasprintf("%s/missing", x.dir);
	ck_assert_int_eq(ud_watch_open(&w, &x.loop, missing, on_event, filter, &x, &cause),
			 -ENOENT);
	ck_assert_ptr_null(w);
	assert_cause(&cause, missing, "cannot watch");
	/* a directory that is not there, or a file: nothing watched, not an error */
	ck_assert_int_eq(ud_watch_add(x.w, "nowhere", &cause), 0);
	ck_assert(!ud_watch_has(x.w, "nowhere"));
	create_file(&x, "file.h");
	ck_assert_int_eq(ud_watch_add(x.w, "file.h", &cause), 0);
	ck_assert(!ud_watch_has(x.w, "file.h"));
	ck_assert_uint_eq(ud_watch_count(x.w), 0);
	ck_assert_ptr_null(cause);
	free(missing);
	teardown(&x);
}
END_TEST

/* Closed with events still queued, never read: all goes once the loop has closed it. */
START_TEST(test_close_unread)
{
	static const char *const dirs[] = {"a/b", NULL};
	struct fx x;
	char *cause = NULL;

	setup(&x, "close", dirs);
	ck_assert_int_eq(ud_watch_add(x.w, "", &cause), 0);
	create_file(&x, "a/b/x.h");
	make_dir(&x, "a/c");
	teardown(&x);
	ck_assert_ptr_null(cause);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("watch");
	TCase *tc = tcase_create("inotify");

	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_new_dir);
	tcase_add_test(tc, test_dir_moved_away);
	tcase_add_test(tc, test_filter);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_drop_events);
	tcase_add_test(tc, test_top_moved);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_close_unread);
	suite_add_tcase(s, tc);
	return test_run_scratch(s, "watch");
}
