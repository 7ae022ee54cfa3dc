// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole-file reads and atomic writes (see fsutil.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/io/fsutil.h"
#include "uapid/core/lex.h"
#include "uapid/util/xmalloc.h"

/* Sets *cause to "path: what: strerror(err)" and returns -err. */
static int
fail(char **cause, int err, const char *what, const char *path)
{
	if (cause != NULL)
		*cause = ud_xasprintf("%s: %s: %s", path, what, strerror(err));
	return -err;
}

int
ud_read_file(const char *path, struct ud_buf *out, char **cause)
{
	int fd;

	ud_buf_reset(out);
	/* O_NONBLOCK: a FIFO named like a header must not hang the run */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fail(cause, errno, "cannot open", path);
	return ud_read_fd(fd, path, out, cause);
}

int
ud_read_fd(int fd, const char *path, struct ud_buf *out, char **cause)
{
	return ud_read_fd_stat(fd, path, out, NULL, cause);
}

int
ud_read_fd_stat(int fd, const char *path, struct ud_buf *out, struct stat *stp, char **cause)
{
	struct stat st;
	int err;

	ud_buf_reset(out);
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return fail(cause, err, "cannot stat", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(cause, EINVAL, "not a regular file", path);
	}
	if ((unsigned long long)st.st_size > UD_LEX_MAX_SIZE) {
		close(fd);
		return fail(cause, EFBIG, "larger than the 16 MiB limit", path);
	}
	ud_buf_grow(out, (size_t)st.st_size);
	for (;;) {
		ssize_t n;
		size_t want;

		ud_buf_grow(out, 4096);
		want = out->alloc - out->len - 1;
		n = read(fd, out->data + out->len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			close(fd);
			return fail(cause, err, "read error", path);
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		if (out->len > UD_LEX_MAX_SIZE) {
			close(fd);
			return fail(cause, EFBIG, "larger than the 16 MiB limit", path);
		}
		/*
		 * A short read of a regular file is its end: once the size fstat
		 * gave is in, no read of 0 bytes is needed to learn it (not for a
		 * file that says it is empty: /proc's are read to the end).
		 */
		if ((size_t)n < want && st.st_size > 0 && out->len >= (size_t)st.st_size)
			break;
	}
	out->data[out->len] = '\0';
	close(fd);
	if (stp != NULL)
		*stp = st;
	return 0;
}

/* Writes all of data to fd; 0 or an errno. */
static int
write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Flushes a directory's entries to the disk (after a rename or link into it). */
static int
sync_dir_of(const char *path)
{
	char *dir = ud_xstrdup(path), *slash = strrchr(dir, '/');
	int fd, err = 0;

	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return err;
}

/* The process's umask, read once (-1: unknown): umask(2) cannot read it without setting it. */
static int process_umask = -1;
static pthread_once_t process_umask_once = PTHREAD_ONCE_INIT;

static void
read_umask(void)
{
	struct ud_buf b = UD_BUF_INIT;
	const char *u;

	if (ud_read_file("/proc/self/status", &b, NULL) == 0 &&
	    (u = strstr(ud_buf_str(&b), "\nUmask:")) != NULL)
		process_umask = (int)(strtoul(u + 7, NULL, 8) & 0777);
	ud_buf_free(&b);
}

/* Would a file created with mode under the umask have exactly mode? */
static bool
umask_keeps(mode_t mode)
{
	pthread_once(&process_umask_once, read_umask);
	return process_umask >= 0 && (mode & (mode_t)process_umask) == 0;
}

/*
 * Writes data to fd, then sets its mode (unless mode_set: it has it) and,
 * when asked, flushes it; 0 or an errno.
 */
static int
fill(int fd, const void *data, size_t len, mode_t mode, bool mode_set, unsigned flags)
{
	int err = write_all(fd, data, len);

	if (err == 0 && !mode_set && fchmod(fd, mode) < 0)
		err = errno;
	if (err == 0 && (flags & UD_WRITE_DURABLE) && fsync(fd) < 0)
		err = errno;
	return err;
}

/*
 * For a file that does not exist yet: an unnamed file in its directory
 * (O_TMPFILE), written whole, then linked to its name.  The name appears
 * only complete, and it costs one directory operation instead of a
 * temporary name and a rename.  Returns 0, 1 when this way is unavailable
 * (the caller falls back), EEXIST when the file exists, or another errno.
 */
static int
write_new_file(const char *path, const void *data, size_t len, unsigned flags)
{
#ifdef O_TMPFILE
	char *dir = ud_xstrdup(path), *slash = strrchr(dir, '/');
	char proc[64];
	mode_t mode = (flags & UD_WRITE_PRIVATE) ? 0600 : 0644;
	bool mode_set = (flags & UD_WRITE_STEADY_UMASK) && umask_keeps(mode);
	int fd, err;

	if (slash == NULL) {
		free(dir);
		return 1;
	}
	*slash = '\0';
	/* unnamed until linked: its mode matters only once it has its contents */
	fd = open(slash == dir ? "/" : dir, O_TMPFILE | O_WRONLY | O_CLOEXEC,
		  mode_set ? mode : 0600);
	free(dir);
	if (fd < 0)
		return 1; /* file system or kernel without O_TMPFILE */
	err = fill(fd, data, len, mode, mode_set, flags);
	if (err != 0) {
		close(fd);
		return err;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) < 0) {
		err = errno;
		close(fd);
		return err == ENOENT ? 1 : err; /* no /proc, or EEXIST */
	}
	close(fd);
	return 0;
#else
	(void)path;
	(void)data;
	(void)len;
	(void)flags;
	return 1;
#endif
}

/*
 * What write_new_file returned (rc), finished: the directory flushed where
 * asked.  Returns 0 when written, 1 when the caller falls back to a
 * temporary name and rename, or a negative errno (cause set).
 */
static int
finish_new_file(const char *path, int rc, unsigned flags, char **cause)
{
	if (rc == 0 && (flags & UD_WRITE_DURABLE) && (rc = sync_dir_of(path)) != 0)
		return fail(cause, rc, "cannot flush the directory of", path);
	if (rc == 0 || rc == 1)
		return rc;
	return fail(cause, rc, "cannot write", path);
}

/* The parent directory of path, made when missing. */
static int
make_parent(const char *path, unsigned flags, char **cause)
{
	char *dir = ud_xstrdup(path), *slash = strrchr(dir, '/');
	int rc = 0;

	if (slash != NULL && slash != dir) {
		*slash = '\0';
		rc = ud_mkdir_p_mode(dir, (flags & UD_WRITE_PRIVATE) ? 0700 : 0755, cause);
	}
	free(dir);
	return rc;
}

int
ud_write_file(const char *path, const void *data, size_t len, unsigned flags, char **cause)
{
	char *tmp;
	struct stat st;
	mode_t mode = 0644;
	int fd, err;

	if ((flags & UD_WRITE_MKDIR) && (err = make_parent(path, flags, cause)) < 0)
		return err;
	if (flags & UD_WRITE_PRIVATE)
		mode = 0600;
	if (flags & UD_WRITE_NEW) {
		int rc =
			finish_new_file(path, write_new_file(path, data, len, flags), flags, cause);

		if (rc != 1)
			return rc;
	}
	if (stat(path, &st) == 0) {
		mode = st.st_mode & ((flags & UD_WRITE_PRIVATE) ? 07700 : 07777);
	} else if (errno == ENOENT) {
		int rc = write_new_file(path, data, len, flags);

		if (rc == EEXIST)
			rc = 1; /* made meanwhile: replaced the ordinary way */
		if ((rc = finish_new_file(path, rc, flags, cause)) != 1)
			return rc;
	}
	tmp = ud_xasprintf("%s.uapid-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		return fail(cause, err, "cannot create a temporary file beside it", path);
	}
	if ((err = fill(fd, data, len, mode, false, flags)) != 0)
		goto bad;
	if (close(fd) < 0) {
		err = errno;
		fd = -1;
		goto bad;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		err = errno;
		goto bad;
	}
	free(tmp);
	if ((flags & UD_WRITE_DURABLE) && (err = sync_dir_of(path)) != 0)
		return fail(cause, err, "cannot flush the directory of", path);
	return 0;
bad:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return fail(cause, err, "cannot write", path);
}

int
ud_remove_file(const char *path, unsigned flags, char **cause)
{
	int err;

	if (unlink(path) < 0)
		return errno == ENOENT ? 0 : fail(cause, errno, "cannot remove", path);
	if ((flags & UD_WRITE_DURABLE) && (err = sync_dir_of(path)) != 0)
		return fail(cause, err, "cannot flush the directory of", path);
	return 0;
}

int
ud_mkdir_p(const char *path, char **cause)
{
	return ud_mkdir_p_mode(path, 0755, cause);
}

int
ud_mkdir_p_mode(const char *path, mode_t mode, char **cause)
{
	char *p, *s;
	int err = 0;

	/* the common case: the directory is there already */
	if (mkdir(path, mode) == 0 || (errno == EEXIST && ud_is_dir(path)))
		return 0;
	p = ud_xstrdup(path);
	for (s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		if (s[-1] != '/') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				err = errno;
				break;
			}
			if (!ud_is_dir(p)) {
				err = ENOTDIR;
				break;
			}
			*s = c;
		}
		if (*s == '\0')
			break;
	}
	if (err != 0) {
		int rc = fail(cause, err, "cannot create directory", p);

		free(p);
		return rc;
	}
	free(p);
	return 0;
}

bool
ud_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool
ud_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --- private modes ----------------------------------------------------------- */

struct private_walk {
	size_t changed;
	int err;
	char *cause;
};

static void
make_one_private(int dirfd, const char *name, const char *path, struct private_walk *w)
{
	struct stat st;

	if (w->err != 0)
		return;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) {
			w->err = errno;
			w->cause = ud_xasprintf("%s: %s", path, strerror(errno));
		}
		return;
	}
	if (S_ISLNK(st.st_mode) || (st.st_mode & 077) == 0)
		return;
	if (fchmodat(dirfd, name, st.st_mode & 07700, 0) < 0) {
		w->err = errno;
		w->cause = ud_xasprintf("%s: cannot make it private: %s", path, strerror(errno));
		return;
	}
	w->changed++;
}

/* Everything in the open directory fd (path names it), and below: fd is closed. */
static void
walk_private(int fd, const char *path, struct private_walk *w)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (d == NULL) {
		close(fd);
		w->err = errno;
		w->cause = ud_xasprintf("%s: %s", path, strerror(errno));
		return;
	}
	while (w->err == 0 && (de = readdir(d)) != NULL) {
		char *child;
		int sub;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		child = ud_xasprintf("%s/%s", path, de->d_name);
		make_one_private(dirfd(d), de->d_name, child, w);
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			walk_private(sub, child, w);
		free(child);
	}
	closedir(d);
}

int
ud_make_private(const char *dir, size_t *changed, char **cause)
{
	struct private_walk w = {0, 0, NULL};
	int fd;

	make_one_private(AT_FDCWD, dir, dir, &w);
	fd = w.err == 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd >= 0)
		walk_private(fd, dir, &w);
	else if (w.err == 0)
		w.err = errno, w.cause = ud_xasprintf("%s: %s", dir, strerror(errno));
	if (changed != NULL)
		*changed = w.changed;
	if (w.err != 0) {
		if (cause != NULL)
			*cause = w.cause;
		else
			free(w.cause);
		return -w.err;
	}
	return 0;
}
