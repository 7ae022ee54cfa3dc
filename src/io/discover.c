// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding a tree's daemon (discover.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/io/discover.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/xmalloc.h"

char *
ud_tree_id(const char *root)
{
	const char *base = strrchr(root, '/'), *c;
	uint32_t h = ud_fnv32_str(root);
	struct ud_buf id = UD_BUF_INIT;

	base = base != NULL && base[1] != '\0' ? base + 1 : "root";
	for (c = base; *c != '\0'; c++) {
		bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-';

		ud_buf_addch(&id, plain ? *c : '_');
	}
	ud_buf_addf(&id, "-%08x", h);
	return ud_buf_detach(&id, NULL);
}

char *
ud_user_socket(const char *root)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	char *id = ud_tree_id(root), *path;

	if (x != NULL && x[0] != '\0')
		path = ud_xasprintf("%s/uapid/%s.sock", x, id);
	else
		path = ud_xasprintf("/tmp/uapid-%u/%s.sock", (unsigned)getuid(), id);
	free(id);
	return path;
}

int
ud_private_dir(const char *dir, char **cause)
{
	const char *slash = strrchr(dir, '/');
	struct stat st;

	if (slash != NULL && slash != dir) {
		char *parent = ud_xstrndup(dir, (size_t)(slash - dir));
		int rc = ud_mkdir_p(parent, cause);

		free(parent);
		if (rc < 0)
			return rc;
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		int err = errno;

		*cause = ud_xasprintf("%s: cannot make the directory: %s", dir, strerror(err));
		return -err;
	}
	if (lstat(dir, &st) < 0) {
		int err = errno;

		*cause = ud_xasprintf("%s: %s", dir, strerror(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 022) != 0) {
		*cause =
			ud_xasprintf("%s: not a private directory of uid %u (owner %u, mode %04o): "
				     "refusing to use it",
				     dir, (unsigned)getuid(), (unsigned)st.st_uid,
				     (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

char *
ud_systemd_escape_path(const char *path)
{
	struct ud_buf b = UD_BUF_INIT;
	const char *p = path;
	size_t n;

	while (*p == '/')
		p++;
	n = strlen(p);
	while (n > 0 && p[n - 1] == '/')
		n--;
	if (n == 0)
		return ud_xstrdup("-");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '/') {
			/* runs of slashes are one */
			if (i > 0 && p[i - 1] == '/')
				continue;
			ud_buf_addch(&b, '-');
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_' || (c == '.' && i > 0) || c == ':') {
			ud_buf_addch(&b, (char)c);
		} else {
			ud_buf_addf(&b, "\\x%02x", c);
		}
	}
	return ud_buf_detach(&b, NULL);
}

bool
ud_socket_answers(const char *path)
{
	struct sockaddr_un sun;
	int fd;
	bool ok;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return false;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return ok;
}

static bool
is_socket(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/*
 * The canonical path of path, or of its nearest existing ancestor (an
 * editor's new buffer names a file that is not on disk yet); NULL with
 * errno when not even that resolves.
 */
static char *
existing_ancestor(const char *path)
{
	char real[PATH_MAX], *p = ud_xstrdup(path), *slash;

	for (;;) {
		if (realpath(p, real) != NULL) {
			free(p);
			return ud_xstrdup(real);
		}
		if (errno != ENOENT && errno != ENOTDIR)
			break;
		slash = strrchr(p, '/');
		if (slash == NULL) {
			if (strcmp(p, ".") == 0)
				break;
			free(p);
			p = ud_xstrdup(".");
		} else if (slash == p) {
			p[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
	free(p);
	return NULL;
}

int
ud_discover_socket(const char *path, char **socket, char **tree)
{
	const char *env = getenv("UAPID_SOCKET");
	char *dir;

	*socket = NULL;
	*tree = NULL;
	if (env != NULL && env[0] != '\0') {
		*socket = ud_xstrdup(env);
		return 0;
	}
	dir = existing_ancestor(path);
	if (dir == NULL)
		return -errno;
	for (;;) {
		char *esc = ud_systemd_escape_path(dir);
		char *cands[3] = {ud_user_socket(dir), ud_xasprintf("/run/uapid/%s.sock", esc),
				  ud_xasprintf("/run/uapid/%s/uapid.sock", esc)};
		char *slash;
		int i, found = -1;

		for (i = 0; i < 3 && found < 0; i++)
			if (is_socket(cands[i]))
				found = i;
		for (i = 0; i < 3; i++) {
			if (i == found)
				*socket = cands[i];
			else
				free(cands[i]);
		}
		free(esc);
		if (found >= 0) {
			*tree = dir;
			return 0;
		}
		slash = strrchr(dir, '/');
		if (slash == NULL || dir[1] == '\0')
			break;
		if (slash == dir)
			slash[1] = '\0'; /* "/" itself, last */
		else
			*slash = '\0';
	}
	free(dir);
	return -ENOENT;
}
