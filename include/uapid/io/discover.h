/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a tree's daemon listens, found from any path inside the tree, so
 * that uapictl and editors need no configuration.
 *
 * The rule: for PATH and each of its ancestors A (deepest first), a daemon
 * for tree A listens on, or has left a symlink to its socket at,
 *   $XDG_RUNTIME_DIR/uapid/<tree id of A>.sock   (else /tmp/uapid-<uid>/...)
 * and a system instance (uapid@.service) on
 *   /run/uapid/<systemd-escape --path A>.sock      (uapid@.socket)
 *   /run/uapid/<systemd-escape --path A>/uapid.sock (without the socket unit)
 * The first that exists is the one.  $UAPID_SOCKET overrides it all.
 */
#ifndef UAPID_DISCOVER_H
#define UAPID_DISCOVER_H

#include <stdbool.h>

/* The tree's id: its directory name and a hash of its canonical path ("linux-1a2b3c4d"). */
char *ud_tree_id(const char *root);
/* The user-level socket path of the tree at root (the first rule above). */
char *ud_user_socket(const char *root);
/*
 * Makes dir (mode 0700) when it is missing and checks that it is a real
 * directory of the caller's uid that no one else can write: a runtime
 * directory under /tmp could have been planted by another user.  0, or a
 * negative errno with *cause.
 */
int ud_private_dir(const char *dir, char **cause);
/* Does a server accept connections on the Unix socket at path (through a symlink too)? */
bool ud_socket_answers(const char *path);
/* systemd-escape --path: "/srv/linux" -> "srv-linux" (malloc'd). */
char *ud_systemd_escape_path(const char *path);
/*
 * Finds the socket for path (a file or directory, absolute or relative to
 * the working directory): 0 with *socket and *tree (malloc'd; tree NULL when
 * $UAPID_SOCKET decided), or -ENOENT when none is there.
 */
int ud_discover_socket(const char *path, char **socket, char **tree);

#endif /* UAPID_DISCOVER_H */
