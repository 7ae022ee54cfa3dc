// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sources of tree bytes (see source.h): the directory kind, and the walk
 * every kind shares.
 *
 * The directory source keeps a descriptor on its root and resolves every
 * path beneath it, so it works from any thread and never sees a root
 * renamed under it.  A symlink is followed only while it stays beneath the
 * root (arm64's syscall table is one, pointing at scripts/syscall.tbl); a
 * path that leads out of the tree, through ".." or a symlink, is refused,
 * so a link to /etc cannot make uapid read outside the tree.  openat2's
 * RESOLVE_BENEATH does that in one call; on kernels (and under valgrind)
 * without it, the path is resolved here one component at a time.  The
 * directory listing leaves symlinks out: the tree's headers are its files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/io/fsutil.h"
#include "uapid/io/source.h"
#include "uapid/util/xmalloc.h"

struct dir_source {
	int rootfd;
};

/* Sets *cause to "LABEL/REL: what: strerror(err)" and returns -err. */
static int
fail(const struct ud_source *s, const char *rel, int err, const char *what, char **cause)
{
	if (cause != NULL)
		*cause = ud_xasprintf("%s%s%s: %s: %s", s->label, rel[0] ? "/" : "", rel, what,
				      strerror(err));
	return -err;
}

static const char *
at(const char *rel)
{
	return rel[0] != '\0' ? rel : ".";
}

static enum ud_ftype
type_of(mode_t m)
{
	return S_ISREG(m) ? UD_FT_FILE : S_ISDIR(m) ? UD_FT_DIR : UD_FT_OTHER;
}

#define MAX_LINKS 40 /* as the kernel's own limit */

/* Pushes the components of path onto the front of the to-do list (reversed order). */
static void
push_components(struct ud_strlist *todo, const char *path)
{
	struct ud_strlist parts = UD_STRLIST_INIT;
	const char *p = path;
	size_t i;

	while (*p != '\0') {
		const char *e = strchr(p, '/');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (n > 0)
			ud_strlist_addn(&parts, p, n);
		p += n;
		if (*p == '/')
			p++;
	}
	for (i = parts.n; i-- > 0;)
		ud_strlist_add(todo, parts.v[i]);
	ud_strlist_free(&parts);
}

/* The components joined by '/' ("." for none), malloc'd. */
static char *
joined(const struct ud_strlist *done, const char *last)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < done->n; i++)
		ud_buf_addf(&b, "%s%s", i ? "/" : "", done->v[i]);
	if (last != NULL)
		ud_buf_addf(&b, "%s%s", done->n ? "/" : "", last);
	if (b.len == 0)
		ud_buf_addstr(&b, ".");
	return ud_buf_detach(&b, NULL);
}

/*
 * Resolves rel beneath rootfd by hand: ".." pops, symlinks are read and
 * spliced in, and leaving the root is EXDEV.  Returns the resolved path
 * (malloc'd; "." for the root) or NULL with errno.
 */
static char *
resolve_walk(int rootfd, const char *rel)
{
	struct ud_strlist todo = UD_STRLIST_INIT, done = UD_STRLIST_INIT;
	unsigned links = 0;
	char *res = NULL;

	push_components(&todo, rel);
	while (todo.n > 0) {
		char *c = todo.v[--todo.n], *path;
		struct stat sb;

		if (strcmp(c, ".") == 0) {
			free(c);
			continue;
		}
		if (strcmp(c, "..") == 0) {
			free(c);
			if (done.n == 0) {
				errno = EXDEV;
				goto out;
			}
			ud_strlist_remove(&done, done.n - 1);
			continue;
		}
		path = joined(&done, c);
		if (fstatat(rootfd, path, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode)) {
			char target[4096];
			ssize_t n = readlinkat(rootfd, path, target, sizeof(target) - 1);

			free(path);
			free(c);
			if (n < 0)
				goto out;
			target[n] = '\0';
			if (target[0] == '/' || ++links > MAX_LINKS) {
				errno = target[0] == '/' ? EXDEV : ELOOP;
				goto out;
			}
			push_components(&todo, target);
			continue;
		}
		free(path);
		ud_strlist_take(&done, c);
	}
	res = joined(&done, NULL);
out:
	ud_strlist_free(&todo);
	ud_strlist_free(&done);
	return res;
}

#ifdef SYS_openat2
/* once the kernel (or valgrind, or a seccomp filter) refused openat2, the walk is used */
static int no_openat2;
#endif

/* openat2 beneath rootfd: an fd, or -1 with errno (ENOSYS: no openat2 here, walk). */
static int
openat2_beneath(int rootfd, const char *rel, int flags)
{
#ifdef SYS_openat2
	struct open_how how;
	int fd;

	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)(flags | O_CLOEXEC);
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, rootfd, at(rel), &how, sizeof(how));
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return fd;
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
	}
#else
	(void)rootfd;
	(void)rel;
	(void)flags;
#endif
	errno = ENOSYS;
	return -1;
}

/* Opens rel beneath rootfd with flags; -1 with errno (EXDEV: it leads out). */
static int
open_beneath(int rootfd, const char *rel, int flags)
{
	char *path;
	int fd;

	if (strlen(rel) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = openat2_beneath(rootfd, rel, flags)) >= 0 || errno != ENOSYS)
		return fd;
	if ((path = resolve_walk(rootfd, rel)) == NULL)
		return -1;
	fd = openat(rootfd, path, flags | O_CLOEXEC | O_NOFOLLOW);
	free(path);
	return fd;
}

/* Is the last component of rel a symlink (its directory resolved beneath root)? */
static bool
is_symlink(int rootfd, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	char *dir;
	struct stat sb;
	int pfd;
	bool link;

	if (rel[0] == '\0')
		return false;
	dir = slash != NULL ? ud_xstrndup(rel, (size_t)(slash - rel)) : ud_xstrdup("");
	pfd = open_beneath(rootfd, dir, O_PATH | O_DIRECTORY);
	free(dir);
	if (pfd < 0)
		return false;
	link = fstatat(pfd, slash != NULL ? slash + 1 : rel, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISLNK(sb.st_mode);
	close(pfd);
	return link;
}

/* st from sb (st->symlink is left to the caller). */
static void
fill_stat(struct ud_fstat *st, const struct stat *sb)
{
	st->type = type_of(sb->st_mode);
	st->other = S_ISFIFO(sb->st_mode)			   ? "a FIFO"
		    : S_ISSOCK(sb->st_mode)			   ? "a socket"
		    : S_ISCHR(sb->st_mode) || S_ISBLK(sb->st_mode) ? "a device"
								   : NULL;
	st->size = (uint64_t)sb->st_size;
	st->mtime_ns = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
	st->ino = (uint64_t)sb->st_ino;
}

static int
dir_stat(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause)
{
	struct dir_source *d = s->impl;
	struct stat sb;
	int fd;

	memset(st, 0, sizeof(*st));
	/*
	 * The common case in three calls, not six: rel itself, its last
	 * component not followed, is no symlink, so its stat is the file's and
	 * is_symlink() would say no.  A symlink, an error or no openat2 takes
	 * the long way below, which says what each is.
	 */
	if (strlen(rel) < PATH_MAX &&
	    (fd = openat2_beneath(d->rootfd, rel, O_PATH | O_NOFOLLOW)) >= 0) {
		bool plain = fstat(fd, &sb) == 0 && !S_ISLNK(sb.st_mode);

		close(fd);
		if (plain) {
			fill_stat(st, &sb);
			return 0;
		}
		memset(st, 0, sizeof(*st));
	}
	fd = open_beneath(d->rootfd, rel, O_PATH);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		if (err == ENOENT || err == ENOTDIR)
			return 0; /* UD_FT_NONE */
		if (err == EXDEV || err == ELOOP) {
			st->type = UD_FT_OTHER; /* it leads out of the tree */
			st->other = err == ELOOP ? "a symlink loop"
						 : "a symlink leading out of the tree";
			return 0;
		}
		return fail(s, rel, err, "cannot stat", cause);
	}
	close(fd);
	fill_stat(st, &sb);
	st->symlink = is_symlink(d->rootfd, rel);
	return 0;
}

/* dir_read, and the stat of what it read in *sb (when not NULL). */
static int
dir_read_sb(struct ud_source *s, const char *rel, struct ud_buf *out, struct stat *sb, char **cause)
{
	struct dir_source *d = s->impl;
	char *name;
	int fd, rc;

	ud_buf_reset(out);
	/* O_NONBLOCK: a FIFO named like a header must not hang the run */
	fd = open_beneath(d->rootfd, rel, O_RDONLY | O_NONBLOCK);
	if (fd < 0 && (errno == EXDEV || errno == ELOOP))
		return fail(s, rel, EXDEV, "leads out of the tree, not read", cause);
	if (fd < 0)
		return fail(s, rel, errno, "cannot open", cause);
	name = ud_xasprintf("%s/%s", s->label, rel);
	rc = ud_read_fd_stat(fd, name, out, sb, cause);
	free(name);
	return rc;
}

static int
dir_read(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause)
{
	return dir_read_sb(s, rel, out, NULL, cause);
}

static int
dir_list(struct ud_source *s, const char *rel, struct ud_strlist *names, char **cause)
{
	struct dir_source *d = s->impl;
	struct dirent *de;
	DIR *dir;
	int fd = open_beneath(d->rootfd, rel, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || (dir = fdopendir(fd)) == NULL) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return fail(s, rel, err, "cannot read directory", cause);
	}
	while ((errno = 0, de = readdir(dir)) != NULL) {
		unsigned char type = de->d_type;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (type == DT_UNKNOWN) {
			/* file systems without d_type: ask, without following links */
			struct stat sb;

			type = fstatat(dirfd(dir), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0
				       ? DT_UNKNOWN
			       : S_ISDIR(sb.st_mode) ? DT_DIR
			       : S_ISREG(sb.st_mode) ? DT_REG
						     : DT_UNKNOWN;
		}
		if (type == DT_DIR)
			ud_strlist_take(names, ud_xasprintf("%s/", de->d_name));
		else if (type == DT_REG)
			ud_strlist_add(names, de->d_name);
	}
	if (errno != 0) {
		int err = errno;

		closedir(dir);
		return fail(s, rel, err, "cannot read directory", cause);
	}
	closedir(dir);
	return 0;
}

static void
dir_close(struct ud_source *s)
{
	struct dir_source *d = s->impl;

	if (d != NULL && d->rootfd >= 0)
		close(d->rootfd);
	free(d);
}

static const struct ud_source_ops dir_ops = {dir_stat, dir_read, dir_list, dir_close};

int
ud_source_open_dir(struct ud_source *s, const char *root, char **cause)
{
	struct dir_source *d;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	memset(s, 0, sizeof(*s));
	if (fd < 0) {
		int err = errno;

		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", root, strerror(err));
		return -err;
	}
	d = ud_xmalloc(sizeof(*d));
	d->rootfd = fd;
	s->ops = &dir_ops;
	s->impl = d;
	s->label = ud_xstrdup(root);
	return 0;
}

struct stat_dir {
	char *rel; /* the directory, relative to the root ("" for the root) */
	int fd;	   /* O_PATH, resolved beneath the root; -1: not there */
};

struct ud_stat_cache {
	struct stat_dir *v;
	size_t n, alloc, last; /* last: the entry hit last (files come directory by directory) */
};

struct ud_stat_cache *
ud_stat_cache_new(void)
{
	return ud_xcalloc(1, sizeof(struct ud_stat_cache));
}

void
ud_stat_cache_free(struct ud_stat_cache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		if (c->v[i].fd >= 0)
			close(c->v[i].fd);
		free(c->v[i].rel);
	}
	free(c->v);
	free(c);
}

/* The cached descriptor of directory dir[0..n) beneath rootfd, opened when first asked. */
static int
cached_dir(struct ud_stat_cache *c, int rootfd, const char *dir, size_t n)
{
	struct stat_dir *e;
	size_t i;

	for (i = 0; i < c->n; i++) {
		e = &c->v[(c->last + i) % c->n];
		if (strlen(e->rel) == n && memcmp(e->rel, dir, n) == 0) {
			c->last = (c->last + i) % c->n;
			return e->fd;
		}
	}
	c->v = ud_xgrow(c->v, &c->alloc, c->n + 1, sizeof(*c->v));
	e = &c->v[c->n];
	e->rel = ud_xstrndup(dir, n);
	e->fd = open_beneath(rootfd, e->rel, O_PATH | O_DIRECTORY);
	c->last = c->n++;
	return e->fd;
}

int
ud_source_stat_cached(struct ud_source *s, struct ud_stat_cache *c, const char *rel,
		      struct ud_fstat *st, char **cause)
{
	const char *slash = strrchr(rel, '/'), *name = slash != NULL ? slash + 1 : rel;
	struct stat sb;
	int dfd;

	if (s->ops != &dir_ops || c == NULL || name[0] == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return ud_source_stat(s, rel, st, cause);
	dfd = cached_dir(c, ((struct dir_source *)s->impl)->rootfd, rel,
			 slash != NULL ? (size_t)(slash - rel) : 0);
	/* the plain cases only: a link, an error or a missing directory ask the full way */
	if (dfd < 0 || fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !(S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)))
		return ud_source_stat(s, rel, st, cause);
	memset(st, 0, sizeof(*st));
	st->type = type_of(sb.st_mode);
	st->size = (uint64_t)sb.st_size;
	st->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	st->ino = (uint64_t)sb.st_ino;
	return 0;
}

struct recorder {
	struct ud_source *inner;
	struct ud_strlist *seen;   /* the paths read */
	struct ud_strlist *looked; /* those stat'd or listed (the same list, or another) */
};

static void
record(struct ud_source *s, const char *rel, bool read)
{
	struct recorder *r = s->impl;
	struct ud_strlist *l = read ? r->seen : r->looked;

	if (!ud_strlist_has(l, rel))
		ud_strlist_add(l, rel);
}

static int
rec_stat(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause)
{
	record(s, rel, false);
	return ud_source_stat(((struct recorder *)s->impl)->inner, rel, st, cause);
}

static int
rec_read(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause)
{
	record(s, rel, true);
	return ud_source_read(((struct recorder *)s->impl)->inner, rel, out, cause);
}

static int
rec_list(struct ud_source *s, const char *rel, struct ud_strlist *names, char **cause)
{
	record(s, rel, false);
	return ud_source_list(((struct recorder *)s->impl)->inner, rel, names, cause);
}

static void
rec_close(struct ud_source *s)
{
	free(s->impl);
}

static const struct ud_source_ops recorder_ops = {rec_stat, rec_read, rec_list, rec_close};

void
ud_source_open_recorder(struct ud_source *s, struct ud_source *inner, struct ud_strlist *seen)
{
	struct recorder *r = ud_xmalloc(sizeof(*r));

	r->inner = inner;
	r->seen = seen;
	r->looked = seen;
	s->ops = &recorder_ops;
	s->impl = r;
	s->label = ud_xstrdup(inner->label);
}

void
ud_source_open_recorder_split(struct ud_source *s, struct ud_source *inner, struct ud_strlist *read,
			      struct ud_strlist *looked)
{
	ud_source_open_recorder(s, inner, read);
	((struct recorder *)s->impl)->looked = looked;
}

void
ud_source_close(struct ud_source *s)
{
	if (s == NULL || s->ops == NULL)
		return;
	s->ops->close(s);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

int
ud_source_read_stat(struct ud_source *s, const char *rel, struct ud_buf *out, struct ud_fstat *st,
		    char **cause)
{
	struct stat sb;
	int rc;

	memset(st, 0, sizeof(*st));
	memset(&sb, 0, sizeof(sb));
	if (s->ops != &dir_ops)
		return ud_source_read(s, rel, out, cause);
	if ((rc = dir_read_sb(s, rel, out, &sb, cause)) < 0)
		return rc;
	fill_stat(st, &sb);
	return 0;
}

enum ud_ftype
ud_source_type(struct ud_source *s, const char *rel)
{
	struct ud_fstat st;

	return ud_source_stat(s, rel, &st, NULL) == 0 ? st.type : UD_FT_NONE;
}

static bool
pruned(const char *const *prune, const char *name, size_t n)
{
	for (; prune != NULL && *prune != NULL; prune++)
		if (strlen(*prune) == n && memcmp(*prune, name, n) == 0)
			return true;
	return false;
}

static bool
has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = suffix != NULL ? strlen(suffix) : 0;

	return n >= k && strcmp(name + n - k, suffix != NULL ? suffix : "") == 0;
}

int
ud_source_walk(struct ud_source *s, const char *rel, const char *suffix, const char *const *prune,
	       struct ud_strlist *out, char **cause)
{
	struct ud_strlist todo = UD_STRLIST_INIT; /* directories to read, relative to rel */
	struct ud_fstat st;
	size_t first = out->n;
	int rc;

	/* a stat that fails (not ENOENT: no descriptor left...) is no empty directory */
	if ((rc = ud_source_stat(s, rel, &st, cause)) < 0 && rc != -ENOENT && rc != -ENOTDIR)
		return rc;
	if (rc < 0) {
		if (cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
		return 0;
	}
	if (st.type != UD_FT_DIR)
		return 0;
	ud_strlist_add(&todo, "");
	while (todo.n > 0) {
		char *sub = todo.v[--todo.n];
		char *dir = sub[0] ? (rel[0] ? ud_xasprintf("%s/%s", rel, sub) : ud_xstrdup(sub))
				   : ud_xstrdup(rel);
		struct ud_strlist names = UD_STRLIST_INIT;
		char *why = NULL;
		size_t i;

		if (ud_source_list(s, dir, &names, &why) < 0) {
			if (rc == 0) {
				rc = -EIO;
				if (cause != NULL)
					*cause = why;
				else
					free(why);
			} else {
				free(why);
			}
		}
		for (i = 0; i < names.n; i++) {
			const char *name = names.v[i];
			size_t n = strlen(name);
			char *child;

			if (name[n - 1] == '/' && pruned(prune, name, n - 1))
				continue;
			if (name[n - 1] != '/' && !has_suffix(name, suffix))
				continue;
			child = sub[0] ? ud_xasprintf("%s/%s", sub, name) : ud_xstrdup(name);
			if (name[n - 1] == '/') {
				child[strlen(child) - 1] = '\0';
				ud_strlist_take(&todo, child);
			} else {
				ud_strlist_take(out, child);
			}
		}
		ud_strlist_free(&names);
		free(dir);
		free(sub);
	}
	ud_strlist_free(&todo);
	if (out->n > first) {
		struct ud_strlist tail = {out->v + first, out->n - first, out->n - first};

		ud_strlist_sort(&tail);
		out->n = first + tail.n;
	}
	return rc;
}
