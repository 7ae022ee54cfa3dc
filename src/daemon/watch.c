// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watcher (watch.h): raw inotify on one uv_poll handle.
 *
 * Why not uv_fs_event: on Linux it is one inotify watch per handle, not
 * recursive, and libuv's reader drops what a tree watcher must see: the
 * queue overflow event (wd -1) is discarded without a word, IN_IGNORED
 * (a lost watch) is not reported, and the event names arrive as
 * UV_RENAME/UV_CHANGE without IN_ISDIR, so a directory that moved in
 * cannot be told from a file.  A tree watcher built on it would converge
 * only by luck after an overflow.  One inotify descriptor read here gives
 * every bit of the event, one handle for thousands of directories, and
 * the overflow as a rescan.
 *
 * Each watched directory maps its watch descriptor to its tree-relative
 * path.  A directory renamed or deleted loses its watches (and those
 * below it); one that appears is walked and watched, and reported as a
 * directory entry so the caller rescans it (files created in it before the
 * watch was in place are found by that rescan).
 *
 * Test hooks, read from the environment at open: UAPID_TEST_MAX_WATCHES=N
 * makes the N+1th watch fail with ENOSPC, as the kernel's limit does;
 * UAPID_TEST_DROP_EVENTS=N drops what remains of a read after every N
 * events and reports an overflow, as the kernel does when its queue is
 * full.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/util/map.h"
#include "uapid/util/strlist.h"
#include "uapid/daemon/watch.h"
#include "uapid/util/xmalloc.h"

/* What a watched directory reports: entries coming and going, and file writes. */
#define WATCH_MASK                                                                                 \
	(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY |        \
	 IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

struct ud_watch {
	uv_poll_t poll;
	int fd;
	int rootfd;
	char *root;
	ud_watch_fn fn;
	ud_watch_filter filter;
	void *ctx;
	char **by_wd; /* watch descriptor -> tree-relative directory (NULL: none) */
	size_t nwd;
	struct ud_map by_rel; /* directory -> (void *)(intptr_t)wd */
	bool degraded;
	long max_watches; /* test hook: < 0 for none */
	long drop_every;  /* test hook: 0 for none */
	long seen;
};

static char *
join(const char *dir, const char *name)
{
	return dir[0] != '\0' ? ud_xasprintf("%s/%s", dir, name) : ud_xstrdup(name);
}

static long
env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? strtol(v, NULL, 10) : def;
}

static void
forget_wd(struct ud_watch *w, int wd)
{
	if (wd < 0 || (size_t)wd >= w->nwd || w->by_wd[wd] == NULL)
		return;
	ud_map_del(&w->by_rel, w->by_wd[wd]);
	free(w->by_wd[wd]);
	w->by_wd[wd] = NULL;
}

/* Stops watching rel and every directory below it (it moved away or is gone). */
static void
unwatch_below(struct ud_watch *w, const char *rel)
{
	size_t n = strlen(rel), i;

	for (i = 0; i < w->nwd; i++) {
		const char *r = w->by_wd[i];

		if (r == NULL ||
		    (n > 0 && (strncmp(r, rel, n) != 0 || (r[n] != '\0' && r[n] != '/'))))
			continue; /* rel "" is the top: everything is below it */
		inotify_rm_watch(w->fd, (int)i);
		forget_wd(w, (int)i);
	}
}

/* Watches one directory; 0, -ENOSPC (reported) or another negative errno. */
static int
watch_one(struct ud_watch *w, const char *rel, char **cause)
{
	char *abs = rel[0] != '\0' ? ud_xasprintf("%s/%s", w->root, rel) : ud_xstrdup(w->root);
	int wd;

	if (w->max_watches >= 0 && (long)w->by_rel.n >= w->max_watches) {
		wd = -1;
		errno = ENOSPC;
	} else {
		wd = inotify_add_watch(w->fd, abs, WATCH_MASK);
	}
	free(abs);
	if (wd < 0) {
		int err = errno;

		if (err == ENOSPC) {
			if (!w->degraded)
				w->fn(w->ctx, rel, UD_WATCH_LIMIT);
			w->degraded = true;
			return -ENOSPC;
		}
		if (err == ENOENT || err == ENOTDIR)
			return 0; /* gone already: its parent's event says so */
		if (cause != NULL)
			*cause = ud_xasprintf("%s/%s: cannot watch: %s", w->root, rel,
					      strerror(err));
		return -err;
	}
	if ((size_t)wd >= w->nwd) {
		size_t n = w->nwd;

		w->by_wd = ud_xgrow(w->by_wd, &w->nwd, (size_t)wd + 1, sizeof(*w->by_wd));
		memset(w->by_wd + n, 0, (w->nwd - n) * sizeof(*w->by_wd));
	}
	if (w->by_wd[wd] != NULL && strcmp(w->by_wd[wd], rel) != 0) {
		/* the same directory under another name: it moved; the old name is gone */
		ud_map_del(&w->by_rel, w->by_wd[wd]);
		free(w->by_wd[wd]);
		w->by_wd[wd] = NULL;
	}
	if (w->by_wd[wd] == NULL) {
		w->by_wd[wd] = ud_xstrdup(rel);
		ud_map_put(&w->by_rel, rel, (void *)(intptr_t)wd);
	}
	return 0;
}

/* The subdirectories of rel (tree-relative), appended to out as full relative paths. */
static int
subdirs(struct ud_watch *w, const char *rel, struct ud_strlist *out)
{
	int fd = openat(w->rootfd, rel[0] != '\0' ? rel : ".",
			O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return -errno;
	if ((d = fdopendir(fd)) == NULL) {
		int err = errno;

		close(fd);
		return -err;
	}
	while ((e = readdir(d)) != NULL) {
		bool dir = e->d_type == DT_DIR;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;

			dir = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			      S_ISDIR(st.st_mode);
		}
		if (dir)
			ud_strlist_take(out, join(rel, e->d_name));
	}
	closedir(d);
	return 0;
}

int
ud_watch_add(struct ud_watch *w, const char *rel, char **cause)
{
	struct ud_strlist todo = UD_STRLIST_INIT;
	int rc = 0;

	ud_strlist_add(&todo, rel);
	while (todo.n > 0 && rc == 0) {
		char *dir = todo.v[--todo.n];
		enum ud_watch_mode mode = w->filter(w->ctx, dir);

		if (mode == UD_WATCH_ON && !ud_map_has(&w->by_rel, dir))
			rc = watch_one(w, dir, cause);
		/* a directory that vanished meanwhile is not an error: its parent's event tells */
		if (rc == 0 && mode != UD_WATCH_SKIP)
			(void)subdirs(w, dir, &todo);
		free(dir);
	}
	ud_strlist_free(&todo);
	return rc;
}

static void
handle(struct ud_watch *w, const struct inotify_event *ev)
{
	const char *dir;
	char *rel;

	if (ev->mask & IN_Q_OVERFLOW) {
		w->fn(w->ctx, "", UD_WATCH_RESCAN);
		return;
	}
	if (ev->wd < 0 || (size_t)ev->wd >= w->nwd || (dir = w->by_wd[ev->wd]) == NULL)
		return; /* a watch already dropped */
	if (ev->mask & IN_IGNORED) {
		/*
		 * The watch is gone: its directory was deleted or moved (the
		 * parent's event said so), or it was unmounted.  Whatever is there
		 * now is looked at again.
		 */
		rel = ud_xstrdup(dir);
		forget_wd(w, ev->wd);
		w->fn(w->ctx, rel, UD_WATCH_RESCAN);
		free(rel);
		return;
	}
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
		if (ev->mask & IN_MOVE_SELF) {
			/* the top moved, or a directory whose parent is not watched */
			rel = ud_xstrdup(dir);
			unwatch_below(w, rel);
			w->fn(w->ctx, rel, UD_WATCH_RESCAN);
			free(rel);
		}
		return;
	}
	if (ev->len == 0)
		return;
	rel = join(dir, ev->name);
	if (ev->mask & IN_ISDIR) {
		if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
			unwatch_below(w, rel);
			w->fn(w->ctx, rel, UD_WATCH_ENTRY | UD_WATCH_DIR);
		} else if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
			if (w->filter(w->ctx, rel) != UD_WATCH_SKIP)
				(void)ud_watch_add(w, rel, NULL);
			w->fn(w->ctx, rel, UD_WATCH_ENTRY | UD_WATCH_DIR);
		}
	} else if (ev->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) {
		w->fn(w->ctx, rel, UD_WATCH_ENTRY);
	} else if (ev->mask & (IN_CLOSE_WRITE | IN_ATTRIB)) {
		w->fn(w->ctx, rel, UD_WATCH_CHANGED);
	}
	free(rel);
}

static void
on_readable(uv_poll_t *h, int status, int events)
{
	struct ud_watch *w = h->data;
	/* aligned for struct inotify_event, room for many events per read */
	char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));

	(void)events;
	if (status < 0) {
		w->fn(w->ctx, "", UD_WATCH_RESCAN);
		return;
	}
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		char *p;

		if (n <= 0)
			break; /* EAGAIN: drained */
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			p += sizeof(*ev) + ev->len;
			if (w->drop_every > 0 && ++w->seen % w->drop_every == 0) {
				/* the test hook: the rest of this read is lost, as on overflow */
				w->fn(w->ctx, "", UD_WATCH_RESCAN);
				break;
			}
			handle(w, ev);
		}
	}
}

int
ud_watch_open(struct ud_watch **out, uv_loop_t *loop, const char *root, ud_watch_fn fn,
	      ud_watch_filter filter, void *ctx, char **cause)
{
	struct ud_watch *w = ud_xcalloc(1, sizeof(*w));
	int rc;

	*out = NULL;
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->fd < 0 || w->rootfd < 0) {
		int err = errno;

		*cause =
			ud_xasprintf("%s: cannot watch: %s%s", root, strerror(err),
				     err == EMFILE ? " (raise fs.inotify.max_user_instances)" : "");
		if (w->fd >= 0)
			close(w->fd);
		if (w->rootfd >= 0)
			close(w->rootfd);
		free(w);
		return -err;
	}
	w->root = ud_xstrdup(root);
	w->fn = fn;
	w->filter = filter;
	w->ctx = ctx;
	w->max_watches = env_long("UAPID_TEST_MAX_WATCHES", -1);
	w->drop_every = env_long("UAPID_TEST_DROP_EVENTS", 0);
	if ((rc = uv_poll_init(loop, &w->poll, w->fd)) < 0 ||
	    (rc = uv_poll_start(&w->poll, UV_READABLE, on_readable)) < 0) {
		*cause = ud_xasprintf("%s: cannot poll inotify: %s", root, uv_strerror(rc));
		close(w->fd);
		close(w->rootfd);
		free(w->root);
		free(w);
		return rc;
	}
	w->poll.data = w;
	*out = w;
	return 0;
}

bool
ud_watch_has(const struct ud_watch *w, const char *rel)
{
	return ud_map_has(&w->by_rel, rel);
}

size_t
ud_watch_count(const struct ud_watch *w)
{
	return w->by_rel.n;
}

bool
ud_watch_degraded(const struct ud_watch *w)
{
	return w->degraded;
}

static void
on_closed(uv_handle_t *h)
{
	struct ud_watch *w = h->data;
	size_t i;

	close(w->fd);
	close(w->rootfd);
	for (i = 0; i < w->nwd; i++)
		free(w->by_wd[i]);
	free(w->by_wd);
	ud_map_free(&w->by_rel, NULL);
	free(w->root);
	free(w);
}

void
ud_watch_close(struct ud_watch *w)
{
	if (w == NULL)
		return;
	(void)uv_poll_stop(&w->poll); /* cannot fail: it only stops polling */
	uv_close((uv_handle_t *)&w->poll, on_closed);
}
