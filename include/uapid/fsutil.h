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

#include "uapid/buf.h"

/* Reads a regular file whole into out (replacing its contents). */
int ud_read_file(const char *path, struct ud_buf *out, char **cause);
/*
 * Writes data to path atomically: a temporary file in the same directory,
 * then rename().  Keeps the mode of an existing file (0644 for a new one).
 * On failure nothing is left behind and the old file is untouched.
 */
int ud_write_atomic(const char *path, const void *data, size_t len, char **cause);
/* Creates a directory and its parents (mode 0755); existing ones are fine. */
int ud_mkdir_p(const char *path, char **cause);
/* True if path names an existing regular file. */
bool ud_is_file(const char *path);
/* True if path names an existing directory. */
bool ud_is_dir(const char *path);

#endif /* UAPID_FSUTIL_H */
