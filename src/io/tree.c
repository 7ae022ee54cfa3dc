/*
 * Kernel trees on disk (see tree.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapid/buf.h"
#include "uapid/fsutil.h"
#include "uapid/tree.h"
#include "uapid/xmalloc.h"

/* How deep "include" lines in Kbuild files may nest (they never loop in a real tree). */
#define KBUILD_INCLUDE_DEPTH 8

int
ud_tree_open(struct ud_tree *t, const char *path, char **cause)
{
	char *r = realpath(path, NULL);

	t->root = NULL;
	if (r == NULL) {
		int err = errno;

		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", path, strerror(err));
		return -err;
	}
	if (!ud_is_dir(r)) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: not a directory", path);
		free(r);
		return -ENOTDIR;
	}
	t->root = r;
	return 0;
}

void
ud_tree_close(struct ud_tree *t)
{
	if (t == NULL)
		return;
	free(t->root);
	t->root = NULL;
}

char *
ud_tree_path(const struct ud_tree *t, const char *rel)
{
	return ud_xasprintf("%s/%s", t->root, rel);
}

int
ud_tree_relpath(const struct ud_tree *t, const char *arg, char **rel, char **cause)
{
	char *joined = arg[0] == '/' ? ud_xstrdup(arg) : ud_tree_path(t, arg);
	char *r = realpath(joined, NULL);
	size_t n = strlen(t->root);

	*rel = NULL;
	if (r == NULL) {
		int err = errno;

		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", arg, strerror(err));
		free(joined);
		return -err;
	}
	free(joined);
	if (strcmp(r, t->root) == 0) {
		*rel = ud_xstrdup("");
		free(r);
		return 0;
	}
	if (strncmp(r, t->root, n) != 0 || r[n] != '/') {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: outside the tree %s (resolves to %s)", arg,
					      t->root, r);
		free(r);
		return -EXDEV;
	}
	*rel = ud_xstrdup(r + n + 1);
	free(r);
	return 0;
}

void
ud_paths_add(struct ud_paths *p, const char *s)
{
	p->v = ud_xgrow(p->v, &p->alloc, p->n + 1, sizeof(char *));
	p->v[p->n++] = ud_xstrdup(s);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
ud_paths_sort(struct ud_paths *p)
{
	size_t i, o = 0;

	if (p->n == 0)
		return;
	qsort(p->v, p->n, sizeof(char *), cmp_str);
	for (i = 0; i < p->n; i++) {
		if (o > 0 && strcmp(p->v[o - 1], p->v[i]) == 0) {
			free(p->v[i]);
			continue;
		}
		p->v[o++] = p->v[i];
	}
	p->n = o;
}

void
ud_paths_free(struct ud_paths *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = p->alloc = 0;
}

void
ud_dir_headers(const char *dir, struct ud_paths *out)
{
	struct ud_paths todo = UD_PATHS_INIT;
	size_t first = out->n;

	ud_paths_add(&todo, "");
	while (todo.n > 0) {
		char *rel = todo.v[--todo.n];
		char *abs = rel[0] ? ud_xasprintf("%s/%s", dir, rel) : ud_xstrdup(dir);
		DIR *d = opendir(abs);
		struct dirent *de;

		while (d != NULL && (de = readdir(d)) != NULL) {
			size_t n = strlen(de->d_name);
			unsigned char type = de->d_type;
			char *child;

			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			child = rel[0] ? ud_xasprintf("%s/%s", rel, de->d_name)
				       : ud_xstrdup(de->d_name);
			if (type == DT_UNKNOWN) {
				/* file systems without d_type: ask, without following links */
				char *cabs = ud_xasprintf("%s/%s", dir, child);
				struct stat st;

				type = lstat(cabs, &st) < 0  ? DT_UNKNOWN
				       : S_ISDIR(st.st_mode) ? DT_DIR
				       : S_ISREG(st.st_mode) ? DT_REG
							     : DT_UNKNOWN;
				free(cabs);
			}
			if (type == DT_DIR)
				ud_paths_add(&todo, child);
			else if (type == DT_REG && n > 2 && strcmp(de->d_name + n - 2, ".h") == 0)
				ud_paths_add(out, child);
			free(child);
		}
		if (d != NULL)
			closedir(d);
		free(abs);
		free(rel);
	}
	ud_paths_free(&todo);
	if (out->n > first)
		qsort(out->v + first, out->n - first, sizeof(char *), cmp_str);
}

static void
parse_kbuild_file(const struct ud_tree *t, const char *abs, struct ud_kbuild *kb, unsigned depth,
		  bool included)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t first_inc = kb->nincludes, first_entry = kb->n, i;

	if (depth > KBUILD_INCLUDE_DEPTH || ud_read_file(abs, &b, NULL) < 0) {
		ud_buf_free(&b);
		return;
	}
	ud_kbuild_parse(b.data, b.len, kb);
	ud_buf_free(&b);
	for (i = first_entry; i < kb->n; i++)
		kb->v[i].included = included;
	for (i = first_inc; i < kb->nincludes; i++) {
		char *inc = ud_tree_path(t, kb->includes[i]);

		parse_kbuild_file(t, inc, kb, depth + 1, true);
		free(inc);
	}
}

int
ud_tree_kbuild(const struct ud_tree *t, const char *dir, struct ud_kbuild *kb)
{
	char *abs = ud_xasprintf("%s/%s/Kbuild", t->root, dir);
	int found = ud_is_file(abs);

	if (found)
		parse_kbuild_file(t, abs, kb, 0, false);
	free(abs);
	return found;
}

static bool
in_uapi_dir(const char *rel)
{
	return strncmp(rel, "uapi/", 5) == 0 || strstr(rel, "/uapi/") != NULL ||
	       strcmp(rel, "uapi") == 0 ||
	       (strlen(rel) >= 5 && strcmp(rel + strlen(rel) - 5, "/uapi") == 0);
}

/* Walks the directory rel (tree-relative) without recursion on the call stack. */
static void
walk_exports(const struct ud_tree *t, const char *top, struct ud_paths *out)
{
	struct ud_paths todo = UD_PATHS_INIT;

	ud_paths_add(&todo, top);
	while (todo.n > 0) {
		char *rel = todo.v[--todo.n];
		char *abs = ud_tree_path(t, rel);
		DIR *d = opendir(abs);
		struct dirent *de;

		if (d != NULL) {
			while ((de = readdir(d)) != NULL) {
				char *child;
				bool dir = de->d_type == DT_DIR;

				if (de->d_name[0] == '.' ||
				    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
					continue;
				child = ud_xasprintf("%s/%s", rel, de->d_name);
				if (de->d_type == DT_UNKNOWN) {
					/* file systems without d_type: ask, without following links
					 */
					char *cabs = ud_tree_path(t, child);
					struct stat st;

					dir = lstat(cabs, &st) == 0 && S_ISDIR(st.st_mode);
					free(cabs);
				}
				if (dir && !in_uapi_dir(child))
					ud_paths_add(&todo, child);
				free(child);
			}
			closedir(d);
			if (!in_uapi_dir(rel)) {
				struct ud_kbuild kb = UD_KBUILD_INIT;
				size_t i;

				if (ud_tree_kbuild(t, rel, &kb))
					for (i = 0; i < kb.n; i++) {
						char *h = ud_xasprintf("%s/%s", rel, kb.v[i].name);
						char *habs = ud_tree_path(t, h);

						if (ud_is_file(habs))
							ud_paths_add(out, h);
						free(habs);
						free(h);
					}
				ud_kbuild_free(&kb);
			}
		}
		free(abs);
		free(rel);
	}
	ud_paths_free(&todo);
}

void
ud_tree_exported_under(const struct ud_tree *t, const char *dir, struct ud_paths *out)
{
	walk_exports(t, dir, out);
	ud_paths_sort(out);
}

void
ud_tree_exported(const struct ud_tree *t, struct ud_paths *out)
{
	char *arch = ud_tree_path(t, "arch");
	DIR *d;
	struct dirent *de;

	walk_exports(t, "include", out);
	d = opendir(arch);
	if (d != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *inc;
			char *abs;

			if (de->d_name[0] == '.')
				continue;
			inc = ud_xasprintf("arch/%s/include", de->d_name);
			abs = ud_tree_path(t, inc);
			if (ud_is_dir(abs))
				walk_exports(t, inc, out);
			free(abs);
			free(inc);
		}
		closedir(d);
	}
	free(arch);
	ud_paths_sort(out);
}
