// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel tree's own Makefiles (see kmake.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/io/kmake.h"
#include "uapid/util/xmalloc.h"

/* A path as the Makefiles spell it ("./arch/x86/..") as a tree-relative one. */
static const char *
tree_rel(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	if (strcmp(p, ".") == 0)
		return "";
	return p;
}

/* Is the path in a generated include directory, which the install fills first? */
static bool
generated(const char *rel)
{
	return strncmp(rel, "include/generated/", 18) == 0 ||
	       (strncmp(rel, "arch/", 5) == 0 && strstr(rel, "/include/generated/") != NULL);
}

static bool
exists_cb(const char *path, void *ctx)
{
	const char *rel = tree_rel(path);
	char *n;
	bool yes;

	if (generated(rel))
		return true;
	n = ud_xstrdup(rel);
	if (n[0] != '\0' && n[strlen(n) - 1] == '/')
		n[strlen(n) - 1] = '\0';
	yes = ud_source_type(ctx, n) != UD_FT_NONE;
	free(n);
	return yes;
}

static int
read_cb(const char *path, struct ud_buf *out, void *ctx)
{
	return ud_source_read(ctx, tree_rel(path), out, NULL);
}

static int
list_cb(const char *path, struct ud_strlist *names, void *ctx)
{
	return ud_source_list(ctx, tree_rel(path), names, NULL);
}

/* The part of path below the view's directory ("" for itself), or NULL when it is not below. */
static const char *
in_view(const struct ud_kmake_view *v, const char *path)
{
	size_t n = strlen(v->prefix);

	if (strncmp(path, v->prefix, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return NULL;
	return path[n] == '/' ? path + n + 1 : path + n;
}

static bool
view_exists_cb(const char *path, void *ctx)
{
	struct ud_kmake_view *v = ctx;
	const char *rel = in_view(v, path);

	if (rel == NULL)
		return exists_cb(path, v->src);
	return rel[0] == '\0' || v->exists(rel, v->ctx);
}

static int
view_read_cb(const char *path, struct ud_buf *out, void *ctx)
{
	struct ud_kmake_view *v = ctx;

	return in_view(v, path) != NULL ? -ENOENT : read_cb(path, out, v->src);
}

static int
view_list_cb(const char *path, struct ud_strlist *names, void *ctx)
{
	struct ud_kmake_view *v = ctx;
	const char *rel = in_view(v, path);

	return rel != NULL ? v->list(rel, names, v->ctx) : list_cb(path, names, v->src);
}

static void
kmake_defines(struct ud_make *m, const char *arch, const char *srcarch)
{
	ud_make_define(m, "srctree", ".");
	ud_make_define(m, "objtree", ".");
	if (arch != NULL)
		ud_make_define(m, "ARCH", arch);
	if (srcarch != NULL) {
		ud_make_define(m, "SRCARCH", srcarch);
		ud_make_define(m, "hdr-arch", srcarch);
	}
}

struct ud_make *
ud_kmake_new_view(struct ud_source *src, enum ud_make_mode mode, const char *arch,
		  const char *srcarch, struct ud_kmake_view *view)
{
	struct ud_make_io io = {view_exists_cb, view_read_cb, view_list_cb, view};
	struct ud_make *m;

	view->src = src;
	m = ud_make_new(mode, &io);
	kmake_defines(m, arch, srcarch);
	return m;
}

struct ud_make *
ud_kmake_new(struct ud_source *src, enum ud_make_mode mode, const char *arch, const char *srcarch)
{
	struct ud_make_io io = {exists_cb, read_cb, list_cb, src};
	struct ud_make *m = ud_make_new(mode, &io);

	kmake_defines(m, arch, srcarch);
	return m;
}

int
ud_kmake_read(struct ud_make *m, struct ud_source *src, const char *rel, struct ud_diags *d)
{
	struct ud_buf text = UD_BUF_INIT;
	char *cause = NULL;
	int rc = ud_source_read(src, rel, &text, &cause);

	if (rc < 0) {
		ud_diags_add_at(d, rel, 0, UD_SEV_ERROR, "%s", cause);
		free(cause);
	} else {
		rc = ud_make_read(m, rel, ud_buf_str(&text), text.len, d);
	}
	ud_buf_free(&text);
	return rc;
}

/* Copies the errors of from to to (the notes of a tolerant read stay behind). */
static void
keep_errors(struct ud_diags *to, const struct ud_diags *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		if (from->v[i].severity == UD_SEV_ERROR)
			ud_diags_add_at(to, from->v[i].path, from->v[i].line, UD_SEV_ERROR, "%s",
					from->v[i].message);
}

/*
 * A recipe line that runs scripts/Makefile.headersinst ("$(MAKE) -rR -f
 * .../scripts/Makefile.headersinst obj=DIR [dst=DIR]"), as a run of ka.
 */
static void
add_run(struct ud_karch *ka, const char *line)
{
	static const char mk[] = "scripts/Makefile.headersinst";
	struct ud_strlist w = UD_STRLIST_INIT;
	const char *obj = NULL, *dst = NULL;
	bool headersinst = false;
	size_t i, n;

	ud_make_words(line, &w);
	for (i = 0; i < w.n; i++) {
		n = strlen(w.v[i]);
		if (n >= sizeof(mk) - 1 && strcmp(w.v[i] + n - (sizeof(mk) - 1), mk) == 0)
			headersinst = true;
		else if (headersinst && strncmp(w.v[i], "obj=", 4) == 0)
			obj = w.v[i] + 4;
		else if (headersinst && strncmp(w.v[i], "dst=", 4) == 0)
			dst = w.v[i] + 4;
	}
	if (obj != NULL) {
		ka->runs = ud_xrealloc(ka->runs, (ka->nruns + 1) * sizeof(*ka->runs));
		ka->runs[ka->nruns].obj = ud_xstrdup(tree_rel(obj));
		ka->runs[ka->nruns].dst = dst != NULL ? ud_xstrdup(tree_rel(dst)) : NULL;
		ka->nruns++;
	}
	ud_strlist_free(&w);
}

/*
 * Expands every recipe line of the top Makefile's rule name; -EPERM at an
 * $(error).  The Makefile.headersinst runs it makes are added to ka.
 */
static int
check_rule(struct ud_make *m, const char *name, struct ud_karch *ka, struct ud_diags *d)
{
	char *stem = NULL;
	const struct ud_make_rule *r = ud_make_rule(m, name, &stem);
	size_t i;
	int rc = 0;

	for (i = 0; r != NULL && i < r->recipe.n && rc == 0; i++) {
		char *x = ud_make_recipe(m, r, i, name, stem, d);

		if (x == NULL)
			rc = -EPERM;
		else
			add_run(ka, x);
		free(x);
	}
	free(stem);
	return rc;
}

int
ud_karch_open(struct ud_source *src, const char *arch, struct ud_karch *ka, struct ud_diags *d)
{
	struct ud_diags notes = UD_DIAGS_INIT;
	struct ud_make *m = ud_kmake_new(src, UD_MAKE_TOLERANT, arch, NULL);
	static const char *const keys[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL"};
	const char *def;
	char *archmk, *sa;
	size_t i;
	int rc;

	memset(ka, 0, sizeof(*ka));
	ka->arch = ud_xstrdup(arch);
	/*
	 * The top Makefile calls itself once more before it does any work
	 * (with sub_make_done and --no-print-directory); read it as that
	 * inner make sees it, in the tree itself.
	 */
	ud_make_define(m, "sub_make_done", "1");
	ud_make_define(m, "MAKEFLAGS", "-rR --no-print-directory");
	ud_make_define(m, "abs_srctree", ".");
	ud_make_define(m, "abs_objtree", ".");
	ud_make_define(m, "CURDIR", ".");
	rc = ud_kmake_read(m, src, "Makefile", &notes);
	keep_errors(d, &notes);
	ud_diags_free(&notes);
	if (rc < 0)
		goto out;
	for (i = 0; i < 3; i++) {
		char *v = ud_make_var(m, keys[i], &notes);

		keep_errors(d, &notes);
		if (ud_diags_count(&notes, UD_SEV_ERROR) > 0) {
			ud_diags_free(&notes);
			free(v);
			rc = -EINVAL;
			goto out;
		}
		ud_diags_free(&notes);
		if ((v == NULL || v[0] == '\0') && i < 2) {
			ud_diags_add_at(d, "Makefile", 0, UD_SEV_ERROR,
					"no %s: not a kernel tree's top Makefile", keys[i]);
			free(v);
			rc = -EINVAL;
			goto out;
		}
		ka->v[i] = v != NULL ? (unsigned)strtoul(v, NULL, 10) : 0;
		free(v);
	}
	ka->version = ud_xasprintf("%u.%u.%u", ka->v[0], ka->v[1], ka->v[2]);
	def = ud_make_raw(m, "filechk_version.h");
	ka->version_5l = def != NULL && strstr(def, "LINUX_VERSION_MAJOR") != NULL;
	/* the stable 4.x branches took the clamp without the three new lines */
	ka->version_clamped = ka->version_5l || (def != NULL && strstr(def, "255") != NULL);
	sa = ud_make_var(m, "SRCARCH", &notes);
	keep_errors(d, &notes);
	if (ud_diags_count(&notes, UD_SEV_ERROR) > 0) {
		ud_diags_free(&notes);
		free(sa);
		rc = -EINVAL;
		goto out;
	}
	ud_diags_free(&notes);
	ka->srcarch = sa != NULL && sa[0] != '\0' ? sa : ud_xstrdup(arch);
	if (sa != NULL && ka->srcarch != sa)
		free(sa);
	ud_make_define(m, "SRCARCH", ka->srcarch);
	/* the top Makefile includes arch/$(SRCARCH)/Makefile: without it make stops */
	archmk = ud_xasprintf("arch/%s/Makefile", ka->srcarch);
	if (ud_source_type(src, archmk) != UD_FT_FILE) {
		ud_diags_add_at(d, "Makefile", 0, UD_SEV_ERROR, "%s: No such file or directory",
				archmk);
		rc = -EPERM;
	}
	free(archmk);
	/* the refusals sit in the recipes of headers_install and what it depends on */
	if (rc == 0)
		rc = check_rule(m, "headers_install", ka, d);
	if (rc == 0)
		rc = check_rule(m, "headers", ka, d);
	if (rc == 0)
		rc = check_rule(m, "__headers", ka, d);
out:
	ud_make_free(m);
	return rc;
}

void
ud_karch_free(struct ud_karch *ka)
{
	size_t i;

	if (ka == NULL)
		return;
	free(ka->arch);
	free(ka->srcarch);
	free(ka->version);
	for (i = 0; i < ka->nruns; i++) {
		free(ka->runs[i].obj);
		free(ka->runs[i].dst);
	}
	free(ka->runs);
	memset(ka, 0, sizeof(*ka));
}

int
ud_karch_all(struct ud_source *src, struct ud_strlist *out, struct ud_diags *d)
{
	struct ud_strlist dirs = UD_STRLIST_INIT;
	char *cause = NULL;
	size_t i;
	int rc = ud_source_list(src, "arch", &dirs, &cause);

	if (rc < 0) {
		ud_diags_add_at(d, "arch", 0, UD_SEV_ERROR, "%s", cause);
		free(cause);
		return rc;
	}
	ud_strlist_sort(&dirs);
	for (i = 0; i < dirs.n; i++) {
		size_t n = strlen(dirs.v[i]);
		struct ud_diags why = UD_DIAGS_INIT;
		struct ud_karch ka;
		char *name;

		if (n < 2 || dirs.v[i][n - 1] != '/')
			continue;
		name = ud_xstrndup(dirs.v[i], n - 1);
		rc = ud_karch_open(src, name, &ka, &why);
		if (rc == 0 && strcmp(ka.srcarch, name) == 0)
			ud_strlist_add(out, name);
		else if (rc != -EPERM && rc < 0)
			ud_diags_move(d, &why);
		ud_karch_free(&ka);
		ud_diags_free(&why);
		free(name);
		rc = 0;
	}
	ud_strlist_free(&dirs);
	return 0;
}

struct ud_kgen {
	struct ud_source *src;
	char *arch, *srcarch;
	struct ud_make *asm_headers; /* scripts/Makefile.asm-headers, read when needed */
	struct ud_make *dir;	     /* the archheaders Makefile, read when needed */
	char *dir_name;
	bool tried_asm, tried_dir;
	int asm_rc, dir_rc;
	struct ud_diags asm_why, dir_why;
};

struct ud_kgen *
ud_kgen_new(struct ud_source *src, const struct ud_karch *ka)
{
	struct ud_kgen *g = ud_xcalloc(1, sizeof(*g));

	g->src = src;
	g->arch = ud_xstrdup(ka->arch);
	g->srcarch = ud_xstrdup(ka->srcarch);
	return g;
}

void
ud_kgen_free(struct ud_kgen *g)
{
	if (g == NULL)
		return;
	ud_make_free(g->asm_headers);
	ud_make_free(g->dir);
	ud_diags_free(&g->asm_why);
	ud_diags_free(&g->dir_why);
	free(g->dir_name);
	free(g->arch);
	free(g->srcarch);
	free(g);
}

/* The directory "$(build)=DIR" names in the archheaders recipe of arch/SRCARCH/Makefile. */
static int
archheaders_dir(struct ud_kgen *g, struct ud_diags *d)
{
	struct ud_diags notes = UD_DIAGS_INIT;
	struct ud_make *m = ud_kmake_new(g->src, UD_MAKE_TOLERANT, g->arch, g->srcarch);
	char *archmk = ud_xasprintf("arch/%s/Makefile", g->srcarch), *stem = NULL;
	const struct ud_make_rule *r;
	size_t i, j;
	int rc = ud_kmake_read(m, g->src, archmk, &notes);

	keep_errors(d, &notes);
	ud_diags_free(&notes);
	r = rc == 0 ? ud_make_rule(m, "archheaders", &stem) : NULL;
	for (i = 0; r != NULL && i < r->recipe.n && g->dir_name == NULL; i++) {
		struct ud_strlist w = UD_STRLIST_INIT;
		char *x = ud_make_recipe(m, r, i, "archheaders", stem, d);

		if (x != NULL)
			ud_make_words(x, &w);
		for (j = 0; j < w.n; j++)
			if (strncmp(w.v[j], "obj=", 4) == 0)
				g->dir_name = ud_xstrdup(tree_rel(w.v[j] + 4));
		ud_strlist_free(&w);
		free(x);
	}
	if (rc == 0 && g->dir_name == NULL) {
		ud_diags_add_at(
			d, archmk, r != NULL ? r->line : 0, UD_SEV_ERROR,
			"no archheaders rule that names the directory making the generated uapi headers");
		rc = -ENOENT;
	}
	free(stem);
	free(archmk);
	ud_make_free(m);
	return rc;
}

/* The Makefile whose rules make the headers: read once, its problems kept. */
static struct ud_make *
generator_makefile(struct ud_kgen *g, bool syscall_y, struct ud_diags *d)
{
	if (syscall_y) {
		if (!g->tried_asm) {
			g->tried_asm = true;
			char *obj = ud_xasprintf("arch/%s/include/generated/uapi/asm", g->srcarch);

			g->asm_headers = ud_kmake_new(g->src, UD_MAKE_STRICT, g->arch, g->srcarch);
			ud_make_define(g->asm_headers, "obj", obj);
			free(obj);
			ud_make_define(g->asm_headers, "generic", "include/uapi/asm-generic");
			g->asm_rc = ud_kmake_read(g->asm_headers, g->src,
						  "scripts/Makefile.asm-headers", &g->asm_why);
		}
		ud_diags_move(d, &g->asm_why);
		return g->asm_rc == 0 ? g->asm_headers : NULL;
	}
	if (!g->tried_dir) {
		char *mk;

		g->tried_dir = true;
		g->dir_rc = archheaders_dir(g, &g->dir_why);
		if (g->dir_rc == 0) {
			g->dir = ud_kmake_new(g->src, UD_MAKE_STRICT, g->arch, g->srcarch);
			ud_make_define(g->dir, "obj", g->dir_name);
			ud_make_define(g->dir, "src", g->dir_name);
			mk = ud_xasprintf("%s/Makefile", g->dir_name);
			g->dir_rc = ud_kmake_read(g->dir, g->src, mk, &g->dir_why);
			free(mk);
		}
	}
	ud_diags_move(d, &g->dir_why);
	return g->dir_rc == 0 ? g->dir : NULL;
}

/* The rule of m that makes target, as a syscall header generator in h. */
static int
find_in(struct ud_kgen *g, struct ud_make *m, bool syscall_y, const char *target,
	struct ud_syshdr *h, struct ud_diags *d)
{
	char *stem = NULL, *why = NULL;
	const struct ud_make_rule *r;
	size_t i;
	int rc = -ENOENT;

	r = ud_make_rule(m, target, &stem);
	if (r == NULL) {
		char *mk = syscall_y ? ud_xstrdup("scripts/Makefile.asm-headers")
				     : ud_xasprintf("%s/Makefile", g->dir_name);

		ud_diags_add_at(d, mk, 0, UD_SEV_ERROR, "no rule makes %s", target);
		free(mk);
		goto out;
	}
	if (r->recipe.n == 0) {
		ud_diags_add_at(d, r->file, r->line, UD_SEV_ERROR,
				"%s: its rule has no recipe and no pattern rule makes it", target);
		goto out;
	}
	for (i = 0; i < r->recipe.n && rc < 0; i++) {
		char *x = ud_make_recipe(m, r, i, target, stem, d);

		if (x == NULL) {
			rc = -EINVAL;
			break;
		}
		free(why);
		why = NULL;
		rc = ud_syshdr_parse(x, h, &why);
		free(x);
	}
	if (rc < 0 && why != NULL)
		ud_diags_add_at(d, r->file, r->recipe.n > 0 ? r->recipe_lines[0] : r->line,
				UD_SEV_ERROR, "%s: uapid cannot make it as this rule does: %s",
				target, why);
out:
	free(why);
	free(stem);
	return rc;
}

int
ud_kgen_find(struct ud_kgen *g, const char *name, bool syscall_y, struct ud_syshdr *h,
	     struct ud_diags *d)
{
	struct ud_make *m = generator_makefile(g, syscall_y, d);
	char *target = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", g->srcarch, name);
	int rc = m != NULL ? 0 : -EINVAL;

	memset(h, 0, sizeof(*h));
	if (m != NULL)
		rc = find_in(g, m, syscall_y, target, h, d);
	free(target);
	return rc;
}

int
ud_kgen_find_target(struct ud_kgen *g, const char *target, struct ud_syshdr *h, struct ud_diags *d)
{
	struct ud_make *m = generator_makefile(g, false, d);

	memset(h, 0, sizeof(*h));
	return m != NULL ? find_in(g, m, false, target, h, d) : -EINVAL;
}

int
ud_kgen_make(struct ud_source *src, const struct ud_syshdr *h, struct ud_buf *out,
	     struct ud_diags *d)
{
	struct ud_buf script = UD_BUF_INIT, table = UD_BUF_INIT;
	char *cause = NULL;
	int rc = ud_source_read(src, h->script, &script, &cause);

	if (rc == 0 && !ud_syshdr_script_known(h, ud_buf_str(&script), script.len)) {
		ud_diags_add_at(
			d, h->script, 0, UD_SEV_ERROR,
			"not the generator uapid knows: it cannot say what this script writes");
		rc = -EINVAL;
	}
	if (rc == 0 && (rc = ud_source_read(src, h->table, &table, &cause)) == 0)
		rc = ud_syshdr_generate(h, ud_buf_str(&table), table.len, out, d);
	if (cause != NULL) {
		ud_diags_add(d, 0, UD_SEV_ERROR, "%s", cause);
		free(cause);
	}
	ud_buf_free(&script);
	ud_buf_free(&table);
	return rc;
}
