/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File helpers of the io layer: whole-file reads, atomic writes.
 *
 * Functions return 0 or a negative errno and, on failure, set *cause (when
 * not NULL) to a malloc'd message naming the file.
 */
#ifndef UAPID_FSUTIL_H
#define UAPID_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "uapid/util/buf.h"

/* Reads a regular file whole into out (replacing its contents). */
int ud_read_file(const char *path, struct ud_buf *out, char **cause);
/* The same from an open descriptor, which it closes; path names it in messages. */
int ud_read_fd(int fd, const char *path, struct ud_buf *out, char **cause);
struct stat;
/* ud_read_fd, and the descriptor's fstat in *st (when not NULL) once read. */
int ud_read_fd_stat(int fd, const char *path, struct ud_buf *out, struct stat *st, char **cause);
enum ud_write_flag {
	UD_WRITE_DURABLE =
		1 << 0, /* fsync the file before it takes its name, and the directory after */
	UD_WRITE_MKDIR = 1 << 1, /* create the parent directories first */
	/*
	 * Private, whatever the umask: the file is 0600 (an existing one keeps
	 * only its owner's bits), the directories UD_WRITE_MKDIR makes 0700.
	 */
	UD_WRITE_PRIVATE = 1 << 2,
	/*
	 * The file is believed absent (its directory was just made): link the
	 * new file in without looking first.  If it is there after all, nothing
	 * is written and the call returns -EEXIST (the caller decides).
	 */
	UD_WRITE_NEW = 1 << 3,
	/*
	 * The caller promises that no thread changes the umask while the
	 * write runs: a new file then takes its mode at creation, under the
	 * umask read once, and is chmod'ed only when the umask takes bits of
	 * it (one system call a file fewer in the common case).
	 */
	UD_WRITE_STEADY_UMASK = 1 << 4,
};

/*
 * Writes data to path atomically: a temporary file in the same directory,
 * then rename() (or, for a new file, an unnamed file linked in).  Keeps the
 * mode of an existing file (0644 for a new one; UD_WRITE_PRIVATE: 0600).  On failure nothing is
 * left behind and the old file is untouched.  Without UD_WRITE_DURABLE a
 * crash can lose the write, but never leaves half a file under the name.
 */
int ud_write_file(const char *path, const void *data, size_t len, unsigned flags, char **cause);
/* Removes a file (a missing one is fine); UD_WRITE_DURABLE flushes the directory. */
int ud_remove_file(const char *path, unsigned flags, char **cause);
/* Creates a directory and its parents (mode 0755); existing ones are fine. */
int ud_mkdir_p(const char *path, char **cause);
/* The same with mode for the directories it makes (0700: private, whatever the umask). */
int ud_mkdir_p_mode(const char *path, mode_t mode, char **cause);
/*
 * Makes dir and everything under it private: takes the group's and the
 * others' bits off each directory and file that has any (symlinks are
 * left, and not followed).  *changed (may be NULL) counts what it changed.
 * 0, or the first failure as a negative errno with *cause.
 */
int ud_make_private(const char *dir, size_t *changed, char **cause);
/* True if path names an existing regular file. */
bool ud_is_file(const char *path);
/* True if path names an existing directory. */
bool ud_is_dir(const char *path);

#endif /* UAPID_FSUTIL_H */
