// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a TREE or DIR argument is (treekind.h).  Cheap on purpose: a few
 * stats and one read of the Makefile's head, and for installed headers a
 * walk that stops at the first header, so that every command can ask
 * before it reads anything.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/treekind.h"

static bool
has(const char *dir, const char *rel, bool want_dir)
{
	char *p = ud_xasprintf("%s/%s", dir, rel);
	bool r = want_dir ? ud_is_dir(p) : ud_is_file(p);

	free(p);
	return r;
}

/* The value of "NAME = value" at the start of a line of the Makefile text, or NULL. */
static char *
make_var(const char *text, const char *name)
{
	size_t nl = strlen(name);
	const char *p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, nl) == 0) {
			const char *v = p + nl, *end;

			while (*v == ' ' || *v == '\t')
				v++;
			if (*v == '=') {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				end = v + strcspn(v, " \t\n#");
				return ud_xstrndup(v, (size_t)(end - v));
			}
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

/*
 * "6.1.0" from the top Makefile's VERSION, PATCHLEVEL and SUBLEVEL (its
 * first 4 KiB: they are its first lines), or NULL when it has none.
 */
static char *
tree_version(const char *root)
{
	char *p = ud_xasprintf("%s/Makefile", root), *v = NULL, *pl = NULL, *sl = NULL, *r = NULL;
	struct ud_buf b = UD_BUF_INIT;

	if (ud_read_file(p, &b, NULL) == 0 && b.data != NULL) {
		if (b.len > 4096)
			b.data[4096] = '\0';
		v = make_var(b.data, "VERSION");
		pl = make_var(b.data, "PATCHLEVEL");
		sl = make_var(b.data, "SUBLEVEL");
		if (v != NULL && *v != '\0' && pl != NULL && *pl != '\0')
			r = ud_xasprintf("%s.%s.%s", v, pl, sl != NULL && *sl != '\0' ? sl : "0");
	}
	free(v);
	free(pl);
	free(sl);
	ud_buf_free(&b);
	free(p);
	return r;
}

/* Is name a header's name (*.h)? */
static bool
is_header_name(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && strcmp(name + n - 2, ".h") == 0;
}

/*
 * Headers of dir: *top counts those directly in it (up to 1), *below
 * those in its subdirectories (the walk stops at the first).  depth
 * bounds the walk (a link loop, a huge unrelated directory).
 */
static int
scan(const char *dir, int depth, unsigned *top, unsigned *below)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return -errno;
	/* the top level whole (a header there decides), below it until the first */
	while ((e = readdir(d)) != NULL && (depth == 0 || *below == 0)) {
		char *p;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		p = ud_xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) == 0) {
			if (S_ISREG(st.st_mode) && is_header_name(e->d_name)) {
				if (depth == 0)
					*top = 1;
				else
					(*below)++;
			} else if (S_ISDIR(st.st_mode) && depth < 6 && *below == 0) {
				scan(p, depth + 1, top, below);
			}
		}
		free(p);
	}
	closedir(d);
	return 0;
}

static const char *
generation(const char *root)
{
	if (has(root, "scripts/headers_install.sh", false))
		return "headers_install.sh";
	if (has(root, "scripts/headers_install.pl", false))
		return "headers_install.pl";
	return NULL;
}

void
ud_treekind_detect(const char *path, struct ud_treeinfo *ti)
{
	struct stat st;
	char *inc;
	const char *base;
	unsigned top = 0, below = 0;
	bool made, kbuild, arch;
	int rc;

	memset(ti, 0, sizeof(*ti));
	ti->kind = UD_TREEKIND_NONE;
	if (stat(path, &st) < 0) {
		ti->hint = ud_xasprintf("%s: %s", path, strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		ti->hint = ud_xasprintf("%s: not a directory", path);
		return;
	}
	/* a kernel source tree: its include/linux, and a Makefile, Kbuild lists or arch/ */
	ti->version = tree_version(path);
	made = ti->version != NULL;
	kbuild = has(path, "include/linux/Kbuild", false) ||
		 has(path, "include/uapi/linux/Kbuild", false);
	arch = has(path, "arch", true);
	if (has(path, "include/uapi", true) && (made || kbuild || arch)) {
		ti->kind = UD_TREEKIND_SPLIT;
		ti->root = ud_xstrdup(path);
		ti->generation = generation(path);
		return;
	}
	if (has(path, "include/linux", true) && (made || kbuild || arch)) {
		ti->kind = UD_TREEKIND_PRESPLIT;
		ti->root = ud_xstrdup(path);
		ti->generation = generation(path);
		return;
	}
	free(ti->version);
	ti->version = NULL;
	/* installed headers: DIR/include, or DIR itself */
	inc = ud_xasprintf("%s/include", path);
	if (!ud_is_dir(inc)) {
		free(inc);
		inc = ud_xstrdup(path);
	}
	rc = scan(inc, 0, &top, &below);
	if (rc < 0) {
		ti->hint = ud_xasprintf("%s: %s", inc, strerror(-rc));
		free(inc);
		return;
	}
	base = strrchr(path, '/');
	base = base != NULL && base[1] != '\0' ? base + 1 : path;
	if (below > 0 && !top) {
		ti->kind = UD_TREEKIND_INSTALLED;
		ti->root = inc;
		return;
	}
	if (below > 0 && (has(inc, "linux", true) || has(inc, "asm-generic", true))) {
		ti->kind = UD_TREEKIND_INSTALLED; /* /usr/include: libc's beside the kernel's */
		ti->root = inc;
		return;
	}
	if (top)
		ti->hint = ud_xasprintf(
			"%s: its headers are directly in it, as in include/%s/: a subdirectory of "
			"an include directory, not one (give the directory that holds %s/, whose "
			"headers are named %s/x.h)",
			path, base, base, base);
	else
		ti->hint = ud_xasprintf(
			"%s: no headers in it: neither a kernel source tree (include/linux/ and a "
			"Makefile) nor a directory of installed headers (linux/*.h, or include/linux/*.h)",
			path);
	free(inc);
}

void
ud_treeinfo_free(struct ud_treeinfo *ti)
{
	if (ti == NULL)
		return;
	free(ti->root);
	free(ti->version);
	free(ti->hint);
	memset(ti, 0, sizeof(*ti));
}

const char *
ud_treekind_name(enum ud_treekind kind)
{
	switch (kind) {
	case UD_TREEKIND_SPLIT:
		return "split source tree";
	case UD_TREEKIND_PRESPLIT:
		return "source tree from before the split";
	case UD_TREEKIND_INSTALLED:
		return "installed headers";
	case UD_TREEKIND_NONE:
		break;
	}
	return "not a tree";
}

bool
ud_treekind_is_tree(enum ud_treekind kind)
{
	return kind == UD_TREEKIND_SPLIT || kind == UD_TREEKIND_PRESPLIT;
}

char *
ud_treeinfo_describe(const struct ud_treeinfo *ti, const char *arch)
{
	struct ud_buf b = UD_BUF_INIT;

	ud_buf_addstr(&b, ud_treekind_name(ti->kind));
	if (ti->version != NULL)
		ud_buf_addf(&b, ", Linux %s", ti->version);
	if (ti->generation != NULL)
		ud_buf_addf(&b, ", %s", ti->generation);
	if (arch != NULL && ud_treekind_is_tree(ti->kind))
		ud_buf_addf(&b, ", arch %s", arch);
	return ud_buf_detach(&b, NULL);
}
