// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RPC server's socket (rpc-int.h): binding its path, and who may
 * connect to it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "rpc-int.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/xmalloc.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59 /* Linux 4.13 */
#endif

/*
 * Is the peer in group, as its primary group or a supplementary one (a
 * user added with usermod -aG has it only there)?  SO_PEERGROUPS gives the
 * groups the peer had when it connected.
 */
static bool
peer_in_group(int fd, gid_t primary, gid_t group)
{
	gid_t small[64], *groups = small;
	socklen_t len = sizeof(small);
	bool in = primary == group;
	size_t i;

	if (in)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0) {
		if (errno != ERANGE)
			return false;
		groups = ud_xmalloc(len);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0) {
			free(groups);
			return false;
		}
	}
	for (i = 0; i < len / sizeof(gid_t) && !in; i++)
		in = groups[i] == group;
	if (groups != small)
		free(groups);
	return in;
}

bool
ud_rpc_peer_allowed(uv_pipe_t *pipe, gid_t group, uid_t *uid, pid_t *pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	uv_os_fd_t fd;

	if (uv_fileno((uv_handle_t *)pipe, &fd) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return false;
	*uid = cred.uid;
	*pid = cred.pid;
	if (cred.uid == geteuid() || cred.uid == 0)
		return true;
	return group != (gid_t)-1 && peer_in_group(fd, cred.gid, group);
}

/* Is someone answering on path?  (A daemon left no socket behind, or it is alive.) */
static bool
answers(const char *path)
{
	struct sockaddr_un sun;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	alive = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return alive;
}

int
ud_rpc_bind(uv_pipe_t *server, const char *path, gid_t group, char **cause)
{
	const char *slash = strrchr(path, '/');
	struct sockaddr_un sun;
	struct stat st;
	mode_t old;
	int rc, fd;

	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		/* libuv 1.44 would cut it short without a word */
		*cause = ud_xasprintf("%s: socket path longer than %zu bytes", path,
				      sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		return -ENAMETOOLONG;
	}
	if (slash != NULL && slash != path) {
		char *dir = ud_xstrndup(path, (size_t)(slash - path));

		rc = ud_mkdir_p(dir, cause);
		free(dir);
		if (rc < 0)
			return rc;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			*cause = ud_xasprintf("%s: exists and is not a socket", path);
			return -EEXIST;
		}
		if (answers(path)) {
			*cause = ud_xasprintf("%s: another daemon answers on this socket", path);
			return -EADDRINUSE;
		}
		unlink(path); /* stale: its daemon is gone */
	}
	/*
	 * Bound here, not by uv_pipe_bind: libuv would remove the path when the
	 * handle closes, whatever it names by then (another daemon's socket, bound
	 * after someone removed ours).  ud_rpc_close removes it only if it is ours.
	 */
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) < 0) {
		rc = -errno;
		*cause = ud_xasprintf("%s: cannot listen: %s", path, strerror(-rc));
		return rc;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	old = umask(0077);
	rc = bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ? -errno : 0;
	umask(old);
	if (rc == 0 && (rc = uv_pipe_open(server, fd)) < 0)
		unlink(path);
	if (rc < 0) {
		close(fd);
		*cause = ud_xasprintf("%s: cannot listen: %s", path, strerror(-rc));
		return rc;
	}
	/* the owner only (or the group too), set before anyone can connect */
	if ((group != (gid_t)-1 && chown(path, (uid_t)-1, group) < 0) ||
	    chmod(path, group != (gid_t)-1 ? 0660 : 0600) < 0) {
		rc = -errno;
		*cause = ud_xasprintf("%s: %s", path, strerror(-rc));
		unlink(path); /* bound here: nothing is left behind */
		return rc;
	}
	return 0;
}
