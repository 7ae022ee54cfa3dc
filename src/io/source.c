/*
 * Sources of tree bytes (see source.h): the directory kind, and the walk
 * every kind shares.
 *
 * The directory source keeps a descriptor on its root and resolves every
 * path beneath it, so it works from any thread and never sees a root
 * renamed under it.  No symlink is followed, at any component of a path:
 * a tree's symlinks are not headers, and one pointing out of the tree must
 * not let a path read outside it.  openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS) does that in one call; on kernels without it the
 * path is walked one directory at a time with O_NOFOLLOW.
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

#include "uapid/fsutil.h"
#include "uapid/source.h"
#include "uapid/xmalloc.h"

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

/* Opens the directories of rel one at a time, never following a symlink. */
static int
open_walk(int rootfd, const char *rel, int flags)
{
	char *copy, *part, *save = NULL, *next;
	int fd;

	if (rel[0] == '\0')
		return openat(rootfd, ".",
			      flags); /* a fresh descriptor: dup would share its offset */
	copy = ud_xstrdup(rel);
	fd = dup(rootfd);
	for (part = strtok_r(copy, "/", &save); fd >= 0 && part != NULL; part = next) {
		struct stat sb;
		int nfd, err;

		next = strtok_r(NULL, "/", &save);
		nfd = openat(fd, part,
			     next != NULL ? O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW
					  : flags | O_NOFOLLOW);
		err = errno;
		/* O_NOFOLLOW | O_DIRECTORY says ENOTDIR for a symlink: name it one */
		if (nfd < 0 && (err == ENOTDIR || err == ELOOP) &&
		    fstatat(fd, part, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
			err = ELOOP;
		close(fd);
		fd = nfd;
		errno = err;
	}
	free(copy);
	return fd;
}

/*
 * Opens rel beneath rootfd with flags, following no symlink on the way
 * (ELOOP when one is met); returns a descriptor or -1 with errno.
 */
static int
open_beneath(int rootfd, const char *rel, int flags)
{
#ifdef SYS_openat2
	struct open_how how;
	int fd;
#endif
	size_t n = strlen(rel);

	if (n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* tree-relative paths never climb: a ".." component is refused, whatever it resolves to */
	if (strcmp(rel, "..") == 0 || strncmp(rel, "../", 3) == 0 || strstr(rel, "/../") != NULL ||
	    (n >= 3 && strcmp(rel + n - 3, "/..") == 0)) {
		errno = EXDEV;
		return -1;
	}
#ifdef SYS_openat2
	/* once the kernel (or valgrind, or a seccomp filter) refused openat2, walk */
	static int no_openat2;

	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)(flags | O_CLOEXEC);
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, rootfd, at(rel), &how, sizeof(how));
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return fd;
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
	}
#endif
	return open_walk(rootfd, rel, flags | O_CLOEXEC);
}

/* The directory holding rel, opened beneath the root; *base gets the last component. */
static int
open_parent(int rootfd, const char *rel, char **base)
{
	const char *slash = strrchr(rel, '/');
	char *dir;
	int fd;

	if (slash == NULL) {
		*base = ud_xstrdup(at(rel));
		return dup(rootfd);
	}
	dir = ud_xstrndup(rel, (size_t)(slash - rel));
	fd = open_beneath(rootfd, dir, O_RDONLY | O_DIRECTORY);
	free(dir);
	*base = ud_xstrdup(slash + 1);
	return fd;
}

static enum ud_ftype
type_of(mode_t m)
{
	return S_ISREG(m) ? UD_FT_FILE : S_ISDIR(m) ? UD_FT_DIR : UD_FT_OTHER;
}

static int
dir_stat(struct ud_source *s, const char *rel, struct ud_fstat *st, char **cause)
{
	struct dir_source *d = s->impl;
	struct stat sb;
	char *base = NULL;
	int dfd, rc;

	memset(st, 0, sizeof(*st));
	dfd = open_parent(d->rootfd, rel, &base);
	rc = dfd < 0 ? -1 : fstatat(dfd, base, &sb, AT_SYMLINK_NOFOLLOW);
	if (rc < 0) {
		int err = errno;

		if (dfd >= 0)
			close(dfd);
		free(base);
		if (err == ENOENT || err == ENOTDIR)
			return 0; /* UD_FT_NONE */
		if (err == ELOOP || err == EXDEV) {
			st->type = UD_FT_OTHER; /* behind a symlink: not part of the tree */
			return 0;
		}
		return fail(s, rel, err, "cannot stat", cause);
	}
	close(dfd);
	free(base);
	st->type = type_of(sb.st_mode);
	st->size = (uint64_t)sb.st_size;
	st->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	st->ino = (uint64_t)sb.st_ino;
	return 0;
}

static int
dir_read(struct ud_source *s, const char *rel, struct ud_buf *out, char **cause)
{
	struct dir_source *d = s->impl;
	char *name;
	int fd, rc;

	ud_buf_reset(out);
	/* O_NONBLOCK: a FIFO named like a header must not hang the run */
	fd = open_beneath(d->rootfd, rel, O_RDONLY | O_NONBLOCK);
	if (fd < 0 && errno == ELOOP)
		return fail(s, rel, EINVAL, "behind a symlink, not read", cause);
	if (fd < 0 && errno == EXDEV)
		return fail(s, rel, EINVAL, "a path with '..', not read", cause);
	if (fd < 0)
		return fail(s, rel, errno, "cannot open", cause);
	name = ud_xasprintf("%s/%s", s->label, rel);
	rc = ud_read_fd(fd, name, out, cause);
	free(name);
	return rc;
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

void
ud_source_close(struct ud_source *s)
{
	if (s == NULL || s->ops == NULL)
		return;
	s->ops->close(s);
	free(s->label);
	memset(s, 0, sizeof(*s));
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
	size_t first = out->n;
	int rc = 0;

	if (ud_source_type(s, rel) != UD_FT_DIR)
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
