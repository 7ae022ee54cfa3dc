// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree index (see tindex.h).
 *
 * Two sorted tables: the indexed files (paths), and the directories that
 * have a Kbuild export list outside uapi/ (with the list parsed and the
 * files it includes named).  Whether a header is exported depends only on
 * its own directory's list and on the header being there, so an update
 * compares, for the few directories a change can touch, what they export
 * before and after.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/map.h"
#include "uapid/util/path.h"
#include "uapid/io/tindex.h"
#include "uapid/util/xmalloc.h"

/* How deep "include" lines in Kbuild files may nest (they never loop in a real tree). */
#define KBUILD_INCLUDE_DEPTH 8

struct kdir {
	char *dir;		    /* tree-relative directory holding the Kbuild */
	struct ud_kbuild kb;	    /* its entries, and those of the files it includes */
	struct ud_strlist includes; /* the tree-relative files its "include" lines read */
	struct ud_map names;	    /* name kb lists -> its first entry's index + 1 */
	struct ud_map odd;	    /* name listed -> what it is instead of a file (static text) */
};

struct ud_tindex {
	struct ud_source *src;
	struct ud_strlist files; /* sorted: headers and Kbuild files */
	struct kdir *dirs;	 /* sorted by dir */
	size_t ndirs, adirs;
};

bool
ud_path_in_uapi_dir(const char *rel)
{
	size_t n = strlen(rel);

	return strncmp(rel, "uapi/", 5) == 0 || strstr(rel, "/uapi/") != NULL ||
	       strcmp(rel, "uapi") == 0 || (n >= 5 && strcmp(rel + n - 5, "/uapi") == 0);
}

static const char *
base_of(const char *rel)
{
	const char *s = strrchr(rel, '/');

	return s != NULL ? s + 1 : rel;
}

enum ud_tindex_scope
ud_tindex_scope(const char *rel)
{
	const char *p;

	if (strcmp(rel, "include") == 0 || strncmp(rel, "include/", 8) == 0)
		return UD_TINDEX_INSIDE;
	if (rel[0] == '\0' || strcmp(rel, "arch") == 0)
		return UD_TINDEX_ABOVE;
	if (strncmp(rel, "arch/", 5) != 0 || rel[5] == '\0' || rel[5] == '/')
		return UD_TINDEX_OUTSIDE;
	if ((p = strchr(rel + 5, '/')) == NULL)
		return UD_TINDEX_ABOVE; /* arch/NAME */
	return strncmp(p, "/include", 8) == 0 && (p[8] == '\0' || p[8] == '/') ? UD_TINDEX_INSIDE
									       : UD_TINDEX_OUTSIDE;
}

/* Is rel inside include/ or arch/NAME/include/ (or one of those)? */
static bool
in_scope(const char *rel)
{
	return ud_tindex_scope(rel) == UD_TINDEX_INSIDE;
}

static bool
has_suffix(const char *rel, const char *suffix)
{
	size_t n = strlen(rel), s = strlen(suffix);

	return n > s && strcmp(rel + n - s, suffix) == 0;
}

/*
 * Does the index keep a file of this name?  Every file: an export list
 * may name any file (arch/cris exports an .agh), and Kbuild files are
 * files too.
 */
static bool
indexed_name(const char *rel)
{
	return rel[0] != '\0';
}

static long
kdir_find(const struct ud_tindex *idx, const char *dir)
{
	size_t lo = 0, hi = idx->ndirs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(idx->dirs[mid].dir, dir);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(long)lo - 1;
}

static void
kdir_clear(struct kdir *k)
{
	free(k->dir);
	ud_kbuild_free(&k->kb);
	ud_strlist_free(&k->includes);
	ud_map_free(&k->names, NULL);
	ud_map_free(&k->odd, NULL);
}

/* Inserts path into the sorted file table (no-op when present). */
static void
files_insert(struct ud_tindex *idx, const char *rel)
{
	struct ud_strlist *f = &idx->files;
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->v[mid], rel);

		if (c == 0)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->v = ud_xgrow(f->v, &f->alloc, f->n + 1, sizeof(char *));
	memmove(&f->v[lo + 1], &f->v[lo], (f->n - lo) * sizeof(char *));
	f->v[lo] = ud_xstrdup(rel);
	f->n++;
}

static void
files_remove(struct ud_tindex *idx, const char *rel)
{
	long i = ud_strlist_bsearch(&idx->files, rel);

	if (i >= 0)
		ud_strlist_remove(&idx->files, (size_t)i);
}

/* Parses text into kb, then the files its include lines name, read from src. */
static int
load_text(struct ud_source *src, const char *label, const char *text, size_t len,
	  struct ud_kbuild *kb, struct ud_strlist *included, unsigned depth, bool nested,
	  struct ud_diags *problems)
{
	size_t first_inc = kb->nincludes, first_entry = kb->n, last_inc, i;
	int rc = 0;

	ud_kbuild_parse(text, len, kb);
	last_inc = kb->nincludes; /* the nested loads below add their own */
	for (i = first_entry; i < kb->n; i++)
		kb->v[i].included = nested;
	for (i = first_inc; i < last_inc; i++) {
		const char *rel = kb->includes[i];
		struct ud_buf b = UD_BUF_INIT;
		char *cause = NULL;

		if (depth >= KBUILD_INCLUDE_DEPTH) {
			ud_diags_add_at(problems, label, 0, UD_SEV_ERROR,
					"Kbuild include lines nest deeper than %d",
					KBUILD_INCLUDE_DEPTH);
			return -ELOOP;
		}
		/* named even when unreadable: its arrival must bring this list back */
		if (included != NULL)
			ud_strlist_add(included, rel);
		if (ud_source_read(src, rel, &b, &cause) < 0) {
			ud_diags_add_at(problems, label, 0, UD_SEV_ERROR,
					"cannot read the list it includes: %s", cause);
			free(cause);
			rc = -EIO;
		} else {
			if (load_text(src, rel, b.data, b.len, kb, included, depth + 1, true,
				      problems) < 0)
				rc = -EIO;
		}
		ud_buf_free(&b);
	}
	return rc;
}

int
ud_kbuild_load(struct ud_source *src, const char *label, const char *text, size_t len,
	       struct ud_kbuild *kb, struct ud_strlist *included, struct ud_diags *problems)
{
	return load_text(src, label, text, len, kb, included, 0, false, problems);
}

static bool
has_file(const struct ud_tindex *idx, const char *rel)
{
	return ud_strlist_bsearch(&idx->files, rel) >= 0;
}

/*
 * Is the entry for name in k's own list something that exists but is no
 * header file (a FIFO, a directory, a symlink loop...)?  Records what it
 * is in k->odd (a missing file is not odd: lists name files of some
 * architectures only).
 */
static void
check_entry(const struct ud_tindex *idx, struct kdir *k, const char *name)
{
	uintptr_t at = (uintptr_t)ud_map_get(&k->names, name);
	const char *why = NULL;
	struct ud_fstat st;
	char *p;

	if (at == 0 || k->kb.v[at - 1].included || strchr(name, '/') != NULL)
		return;
	p = ud_xasprintf("%s/%s", k->dir, name);
	if (!has_file(idx, p) && ud_source_stat(idx->src, p, &st, NULL) == 0) {
		if (st.type == UD_FT_DIR)
			why = "a directory";
		else if (st.type == UD_FT_OTHER)
			why = st.other != NULL ? st.other : "not a file";
		else if (st.type == UD_FT_FILE && st.symlink)
			why = "a symlink (the tree's headers are its own files)";
	}
	ud_map_del(&k->odd, name);
	if (why != NULL)
		ud_map_put(&k->odd, name, (void *)(uintptr_t)why);
	free(p);
}

/* Parses the Kbuild file rel, and the lists it includes, into k. */
static int
parse_kbuild(struct ud_tindex *idx, struct kdir *k, const char *rel, struct ud_diags *problems)
{
	struct ud_buf b = UD_BUF_INIT;
	char *cause = NULL;
	int rc;

	if (ud_source_read(idx->src, rel, &b, &cause) < 0) {
		ud_diags_add_at(problems, k->dir, 0, UD_SEV_ERROR,
				"cannot read its export list: %s", cause);
		free(cause);
		ud_buf_free(&b);
		return -EIO;
	}
	rc = ud_kbuild_load(idx->src, rel, b.data, b.len, &k->kb, &k->includes, problems);
	ud_buf_free(&b);
	return rc;
}

/* (Re)reads dir's export list; removes the entry when dir has no Kbuild any more. */
static int
load_kdir(struct ud_tindex *idx, const char *dir, struct ud_diags *problems)
{
	char *rel = ud_xasprintf("%s/Kbuild", dir);
	long at = kdir_find(idx, dir);
	struct kdir k;
	size_t i;
	int rc = 0;

	if (ud_path_in_uapi_dir(dir) || ud_strlist_bsearch(&idx->files, rel) < 0) {
		if (at >= 0) {
			kdir_clear(&idx->dirs[at]);
			memmove(&idx->dirs[at], &idx->dirs[at + 1],
				(idx->ndirs - (size_t)at - 1) * sizeof(*idx->dirs));
			idx->ndirs--;
		}
		free(rel);
		return 0;
	}
	memset(&k, 0, sizeof(k));
	k.dir = ud_xstrdup(dir);
	rc = parse_kbuild(idx, &k, rel, problems);
	ud_map_reserve(&k.names, k.kb.n);
	for (i = k.kb.n; i-- > 0;)
		ud_map_put(&k.names, k.kb.v[i].name, (void *)(uintptr_t)(i + 1));
	for (i = 0; i < k.kb.n; i++)
		check_entry(idx, &k, k.kb.v[i].name);
	if (at >= 0) {
		kdir_clear(&idx->dirs[at]);
		idx->dirs[at] = k;
	} else {
		size_t pos = (size_t)(-at - 1);

		idx->dirs = ud_xgrow(idx->dirs, &idx->adirs, idx->ndirs + 1, sizeof(*idx->dirs));
		memmove(&idx->dirs[pos + 1], &idx->dirs[pos],
			(idx->ndirs - pos) * sizeof(*idx->dirs));
		idx->dirs[pos] = k;
		idx->ndirs++;
	}
	free(rel);
	return rc;
}

/*
 * The indexed files the tree has below rel now (rel itself when it is a
 * file), restricted to include/ and arch/NAME/include/, appended to out.
 */
static int
scan(struct ud_tindex *idx, const char *rel, struct ud_strlist *out, struct ud_diags *problems)
{
	struct ud_strlist found = UD_STRLIST_INIT, roots = UD_STRLIST_INIT;
	struct ud_fstat st;
	char *why = NULL;
	int rc = ud_source_stat(idx->src, rel, &st, &why);
	enum ud_ftype type = rc == 0 ? st.type : UD_FT_NONE;
	size_t i, j;

	if (rc == -ENOENT || rc == -ENOTDIR) {
		free(why); /* how a git tree says "nothing there" */
		return 0;
	}
	if (rc < 0) {
		/* not "no such file" (that is UD_FT_NONE): nothing known of rel */
		ud_diags_add_at(problems, rel, 0, UD_SEV_ERROR, "%s", why);
		free(why);
		return rc;
	}

	if (type == UD_FT_FILE) {
		/* a symlink is not one of the tree's files: the walk leaves it out too */
		if (in_scope(rel) && indexed_name(rel) && !st.symlink)
			ud_strlist_add(out, rel);
		return 0;
	}
	if (type == UD_FT_DIR && st.symlink)
		return 0;
	if (type != UD_FT_DIR)
		return 0;
	if (in_scope(rel)) {
		ud_strlist_add(&roots, rel);
	} else if (ud_tindex_scope(rel) == UD_TINDEX_ABOVE) {
		/* an ancestor of the indexed directories: find them below it */
		if (rel[0] == '\0')
			ud_strlist_add(&roots, "include");
		if (rel[0] == '\0' || strcmp(rel, "arch") == 0) {
			struct ud_strlist arches = UD_STRLIST_INIT;
			char *cause = NULL;

			if (ud_source_list(idx->src, "arch", &arches, &cause) < 0 &&
			    ud_source_type(idx->src, "arch") == UD_FT_DIR) {
				ud_diags_add_at(problems, "arch", 0, UD_SEV_ERROR, "%s", cause);
				rc = -EIO;
			}
			free(cause);
			ud_strlist_sort(&arches);
			for (i = 0; i < arches.n; i++)
				if (arches.v[i][strlen(arches.v[i]) - 1] == '/')
					ud_strlist_take(&roots, ud_xasprintf("arch/%sinclude",
									     arches.v[i]));
			ud_strlist_free(&arches);
		} else {
			ud_strlist_take(&roots, ud_xasprintf("%s/include", rel));
		}
	}
	for (i = 0; i < roots.n; i++) {
		char *cause = NULL;
		size_t first = found.n;

		if (ud_source_walk(idx->src, roots.v[i], NULL, NULL, &found, &cause) < 0) {
			ud_diags_add_at(problems, roots.v[i], 0, UD_SEV_ERROR,
					"part of the tree could not be read: %s", cause);
			rc = -EIO;
		}
		free(cause);
		for (j = first; j < found.n; j++) {
			if (indexed_name(found.v[j]))
				ud_strlist_take(out, ud_xasprintf("%s/%s", roots.v[i], found.v[j]));
		}
	}
	ud_strlist_free(&found);
	ud_strlist_free(&roots);
	return rc;
}

int
ud_tindex_build(struct ud_tindex **out, struct ud_source *src, struct ud_diags *problems)
{
	struct ud_tindex *idx = ud_xcalloc(1, sizeof(*idx));
	size_t i;
	int rc;

	idx->src = src;
	rc = scan(idx, "", &idx->files, problems);
	ud_strlist_sort(&idx->files);
	for (i = 0; i < idx->files.n; i++) {
		const char *f = idx->files.v[i];

		if (strcmp(base_of(f), "Kbuild") == 0) {
			char *dir = ud_path_dir(f);
			int r = load_kdir(idx, dir, problems);

			if (r < 0 && rc == 0)
				rc = r;
			free(dir);
		}
	}
	*out = idx;
	return rc;
}

int
ud_tindex_build_whole(struct ud_tindex **out, struct ud_source *src, char **cause)
{
	struct ud_diags problems = UD_DIAGS_INIT;
	int rc = ud_tindex_build(out, src, &problems);

	if (rc < 0) {
		if (cause != NULL)
			*cause = ud_xasprintf("%s: %s", src->label,
					      problems.n > 0 ? problems.v[0].message
							     : "cannot index the tree");
		ud_tindex_free(*out);
		*out = NULL;
	}
	ud_diags_free(&problems);
	return rc;
}

void
ud_tindex_free(struct ud_tindex *idx)
{
	size_t i;

	if (idx == NULL)
		return;
	for (i = 0; i < idx->ndirs; i++)
		kdir_clear(&idx->dirs[i]);
	free(idx->dirs);
	ud_strlist_free(&idx->files);
	free(idx);
}

bool
ud_tindex_has(const struct ud_tindex *idx, const char *rel)
{
	return ud_strlist_bsearch(&idx->files, rel) >= 0;
}

/* Appends the headers dir's own list exports (and that exist) to out. */
static void
exported_by(const struct ud_tindex *idx, const struct kdir *k, struct ud_strlist *out)
{
	size_t i;

	for (i = 0; i < k->kb.n; i++) {
		char *p;

		if (strchr(k->kb.v[i].name, '/') != NULL)
			continue;
		p = ud_xasprintf("%s/%s", k->dir, k->kb.v[i].name);
		if (ud_tindex_has(idx, p))
			ud_strlist_take(out, p);
		else
			free(p);
	}
}

bool
ud_tindex_exported(const struct ud_tindex *idx, const char *rel)
{
	char *dir = ud_path_dir(rel);
	long at = kdir_find(idx, dir);
	bool yes = at >= 0 && ud_map_has(&idx->dirs[at].names, base_of(rel)) &&
		   ud_tindex_has(idx, rel);

	free(dir);
	return yes;
}

/* Is rel dir itself or below it ("" is the top)? */
static bool
below(const char *rel, const char *dir)
{
	size_t n = strlen(dir);

	return n == 0 || (strncmp(rel, dir, n) == 0 && (rel[n] == '\0' || rel[n] == '/'));
}

void
ud_tindex_exported_under(const struct ud_tindex *idx, const char *dir, struct ud_strlist *out)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	size_t i;

	for (i = 0; i < idx->ndirs; i++)
		if (below(idx->dirs[i].dir, dir))
			exported_by(idx, &idx->dirs[i], &found);
	ud_strlist_sort(&found);
	for (i = 0; i < found.n; i++)
		ud_strlist_take(out, found.v[i]);
	free(found.v);
}

bool
ud_tindex_takes_part(const struct ud_tindex *idx, const char *rel)
{
	return ud_tindex_has(idx, rel) && (has_suffix(rel, ".h") || ud_tindex_exported(idx, rel));
}

void
ud_tindex_headers_under(const struct ud_tindex *idx, const char *dir, struct ud_strlist *out)
{
	size_t i, n = strlen(dir);

	for (i = 0; i < idx->files.n; i++) {
		const char *f = idx->files.v[i];

		if (below(f, dir) && strlen(f) > n &&
		    (has_suffix(f, ".h") || ud_tindex_exported(idx, f)))
			ud_strlist_add(out, f);
	}
}

void
ud_tindex_files_under(const struct ud_tindex *idx, const char *dir, const char *suffix,
		      struct ud_strlist *out)
{
	size_t i, n = strlen(dir);

	for (i = 0; i < idx->files.n; i++) {
		const char *f = idx->files.v[i];

		if (below(f, dir) && strlen(f) > n && has_suffix(f, suffix))
			ud_strlist_add(out, f);
	}
}

const struct ud_kbuild *
ud_tindex_kbuild(const struct ud_tindex *idx, const char *dir)
{
	long at = kdir_find(idx, dir);

	return at >= 0 ? &idx->dirs[at].kb : NULL;
}

bool
ud_tindex_is_kbuild(const struct ud_tindex *idx, const char *rel)
{
	size_t i;

	if (strcmp(base_of(rel), "Kbuild") == 0)
		return true;
	for (i = 0; i < idx->ndirs; i++)
		if (ud_strlist_has(&idx->dirs[i].includes, rel))
			return true;
	return false;
}

/* The first place of the sorted list whose name is not before key. */
static size_t
lower_bound(const struct ud_strlist *l, const char *key)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(l->v[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
ud_tindex_update(struct ud_tindex *idx, const char *rel, struct ud_strlist *changed,
		 struct ud_diags *problems)
{
	struct ud_strlist now = UD_STRLIST_INIT, touched = UD_STRLIST_INIT, dirs = UD_STRLIST_INIT,
			  before = UD_STRLIST_INIT, after = UD_STRLIST_INIT;
	size_t i, j, k;
	int rc = scan(idx, rel, &now, problems);

	/*
	 * What the change touches: indexed files below rel, then and now.  The
	 * files are sorted: those below rel begin with it, a run from its lower
	 * bound (a checkout's 3,000 updates read 7,000 names each otherwise).
	 */
	for (i = rel[0] ? lower_bound(&idx->files, rel) : 0;
	     i < idx->files.n && strncmp(idx->files.v[i], rel, strlen(rel)) == 0; i++)
		if (below(idx->files.v[i], rel))
			ud_strlist_add(&touched, idx->files.v[i]);
	for (i = 0; i < now.n; i++)
		ud_strlist_add(&touched, now.v[i]);
	ud_strlist_sort(&touched);
	ud_strlist_sort(&now);

	/* the directories whose export lists can change: own dir, and includers */
	for (i = 0; i < touched.n; i++) {
		ud_strlist_take(&dirs, ud_path_dir(touched.v[i]));
		for (j = 0; j < idx->ndirs; j++)
			if (ud_strlist_has(&idx->dirs[j].includes, touched.v[i]))
				ud_strlist_add(&dirs, idx->dirs[j].dir);
	}
	ud_strlist_sort(&dirs);
	for (i = 0; i < dirs.n; i++) {
		long at = kdir_find(idx, dirs.v[i]);

		if (at >= 0)
			exported_by(idx, &idx->dirs[at], &before);
	}

	/* the file table; a look that failed removes nothing (it is no sign of absence) */
	for (i = 0; i < touched.n; i++) {
		if (ud_strlist_bsearch(&now, touched.v[i]) >= 0)
			files_insert(idx, touched.v[i]);
		else if (rc == 0)
			files_remove(idx, touched.v[i]);
	}
	/* export lists to read again: touched Kbuild files, and lists including a touched file */
	for (i = 0; i < dirs.n; i++) {
		char *kb = ud_xasprintf("%s/Kbuild", dirs.v[i]);
		long at = kdir_find(idx, dirs.v[i]);
		bool reload = ud_strlist_bsearch(&touched, kb) >= 0;

		for (k = 0; !reload && at >= 0 && k < idx->dirs[at].includes.n; k++)
			reload = ud_strlist_bsearch(&touched, idx->dirs[at].includes.v[k]) >= 0;
		if (reload) {
			int r = load_kdir(idx, dirs.v[i], problems);

			if (r < 0 && rc == 0)
				rc = r;
		}
		free(kb);
		at = kdir_find(idx, dirs.v[i]);
		if (at >= 0)
			exported_by(idx, &idx->dirs[at], &after);
	}

	/* a listed name that changed (a FIFO or a directory came or went) */
	{
		char *dir = ud_path_dir(rel);
		long at = kdir_find(idx, dir);

		if (at >= 0)
			check_entry(idx, &idx->dirs[at], base_of(rel));
		free(dir);
	}

	/* export state changes: in one list and not the other */
	ud_strlist_sort(&before);
	ud_strlist_sort(&after);
	for (i = 0; changed != NULL && i < before.n; i++)
		if (ud_strlist_bsearch(&after, before.v[i]) < 0)
			ud_strlist_add(changed, before.v[i]);
	for (i = 0; changed != NULL && i < after.n; i++)
		if (ud_strlist_bsearch(&before, after.v[i]) < 0)
			ud_strlist_add(changed, after.v[i]);

	ud_strlist_free(&now);
	ud_strlist_free(&touched);
	ud_strlist_free(&dirs);
	ud_strlist_free(&before);
	ud_strlist_free(&after);
	return rc;
}

/* Orders entries of one list as the list does (they are one array). */
static int
in_list_order(const void *a, const void *b)
{
	const struct ud_kbuild_entry *x = *(const struct ud_kbuild_entry *const *)a,
				     *y = *(const struct ud_kbuild_entry *const *)b;

	return x < y ? -1 : x > y;
}

size_t
ud_tindex_odd_exports(const struct ud_tindex *idx, struct ud_diags *out)
{
	size_t i, j, n = 0;

	for (i = 0; i < idx->ndirs; i++) {
		const struct kdir *k = &idx->dirs[i];
		const struct ud_kbuild_entry **v;
		char *kbuild;
		const char *name;
		size_t it = 0, nv = 0;
		void *why;

		if (k->odd.n == 0)
			continue;
		v = ud_xcalloc(k->odd.n, sizeof(*v));
		while (ud_map_next(&k->odd, &it, &name, &why))
			v[nv++] = &k->kb.v[(uintptr_t)ud_map_get(&k->names, name) - 1];
		qsort(v, nv, sizeof(*v), in_list_order);
		kbuild = ud_xasprintf("%s/Kbuild", k->dir);
		for (j = 0; j < nv; j++)
			ud_diags_add_at(out, kbuild, v[j]->line, UD_SEV_WARNING,
					"'%s' is listed for export but is %s, not a header file: "
					"left out",
					v[j]->name, (const char *)ud_map_get(&k->odd, v[j]->name));
		n += nv;
		free(kbuild);
		free(v);
	}
	return n;
}

size_t
ud_tindex_missing_exports(const struct ud_tindex *idx, struct ud_diags *out)
{
	size_t i, j, n = 0;

	for (i = 0; i < idx->ndirs; i++) {
		const struct kdir *k = &idx->dirs[i];
		char *kbuild = NULL;

		for (j = 0; j < k->kb.n; j++) {
			const struct ud_kbuild_entry *e = &k->kb.v[j];
			size_t len = strlen(e->name);
			char *p;

			if (e->included || e->cond_line != 0 || strchr(e->name, '/') != NULL ||
			    len < 3 || strcmp(e->name + len - 2, ".h") != 0)
				continue;
			p = ud_xasprintf("%s/%s", k->dir, e->name);
			if (!has_file(idx, p) && ud_source_type(idx->src, p) == UD_FT_NONE) {
				if (kbuild == NULL)
					kbuild = ud_xasprintf("%s/Kbuild", k->dir);
				ud_diags_add_at(out, kbuild, e->line, UD_SEV_WARNING,
						"'%s' is listed for export but there is no such "
						"file: nothing to split",
						e->name);
				n++;
			}
			free(p);
		}
		free(kbuild);
	}
	return n;
}
