// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor beside uapid watch in bench/watch.py: the least a watcher can
 * do, run on the same machine at the same moment, so that the bench can
 * tell the machine's tail from the daemon's.
 *
 * usage: watch_floor copy DIR OUTDIR
 *   Watches DIR (one inotify watch, blocking reads) and on each
 *   IN_CLOSE_WRITE or IN_MOVED_TO of a name not starting with '.' copies
 *   DIR/NAME to OUTDIR/NAME the way an installer must (a temporary file,
 *   then rename, so a reader never sees half a file).  Prints "ready" once
 *   the watch is in place; runs until killed.
 *
 * usage: watch_floor walk TREE
 *   What a recursive watcher cannot skip at startup: walks TREE, lstat()s
 *   every entry and puts an inotify watch on every directory.  Prints the
 *   counts and exits; the bench times it from exec to exit.
 *
 * No uapid code is linked: the floor must not share the daemon's costs.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

static int ifd = -1;
static long nfiles, ndirs;

/* Copies in to out through out's temporary name; -1 on any error (reported). */
static int
copy_file(const char *in, const char *out, const char *tmp)
{
	char buf[64 * 1024];
	int src = open(in, O_RDONLY | O_CLOEXEC), dst;
	ssize_t n;

	if (src < 0)
		return -1; /* gone again: the next event says what is there */
	dst = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dst < 0) {
		perror(tmp);
		close(src);
		return -1;
	}
	while ((n = read(src, buf, sizeof(buf))) > 0) {
		if (write(dst, buf, (size_t)n) != n) {
			perror(tmp);
			n = -1;
			break;
		}
	}
	close(src);
	if (close(dst) < 0 || n < 0 || rename(tmp, out) < 0) {
		perror(out);
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int
copy_loop(const char *dir, const char *outdir)
{
	/* aligned for struct inotify_event, room for many events per read */
	char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
	char in[4096], out[4096], tmp[4096];

	ifd = inotify_init1(IN_CLOEXEC);
	if (ifd < 0 || inotify_add_watch(ifd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		perror(dir);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		ssize_t n = read(ifd, buf, sizeof(buf));
		char *p;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("inotify");
			return 1;
		}
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			p += sizeof(*ev) + ev->len;
			if (ev->len == 0 || ev->name[0] == '.' || (ev->mask & IN_ISDIR))
				continue; /* an editor's temporary file, or no name */
			snprintf(in, sizeof(in), "%s/%s", dir, ev->name);
			snprintf(out, sizeof(out), "%s/%s", outdir, ev->name);
			snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", outdir, ev->name);
			(void)copy_file(in, out, tmp);
		}
	}
}

static int
walk_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_D) {
		ndirs++;
		if (inotify_add_watch(ifd, path,
				      IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
					      IN_CLOSE_WRITE | IN_ATTRIB | IN_ONLYDIR) < 0)
			perror(path);
	} else {
		nfiles++;
	}
	return 0;
}

static int
walk(const char *tree)
{
	ifd = inotify_init1(IN_CLOEXEC);
	if (ifd < 0) {
		perror("inotify");
		return 1;
	}
	/* FTW_PHYS: lstat, as a watcher that does not follow links */
	if (nftw(tree, walk_cb, 64, FTW_PHYS) < 0) {
		perror(tree);
		return 1;
	}
	printf("%ld files, %ld directories\n", nfiles, ndirs);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "copy") == 0)
		return copy_loop(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "walk") == 0)
		return walk(argv[2]);
	fprintf(stderr, "usage: watch_floor copy DIR OUTDIR | watch_floor walk TREE\n");
	return 2;
}
