// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The installed-headers set of a tree from before the split, 2.6.27 to
 * 3.6 (headers-int.h, ud_headers_plan_presplit).
 *
 * The top Makefile's headers_install recipe runs scripts/Makefile.headersinst
 * once per directory: include, then the architecture's asm directory
 * (arch/HDRARCH/include/asm, or include/asm-ARCH in the trees that still
 * had one) with dst=include/asm; each run recurses into the
 * subdirectories its Kbuild's header-y names.  uapid takes the runs from
 * the recipe itself (ud_karch), evaluates the tree's own
 * Makefile.headersinst for each, and reads its cmd_install, the recipe
 * that hands the lists to the script:
 *
 *	$(PERL) $< $(srctree)/$(obj) $(install) $(SRCARCH) $(header-y);
 *	$(PERL) $< $(objtree)/$(obj) $(install) $(SRCARCH) $(objhdr-y);
 *	$(PERL) $< $(objtree)/$(gen) $(install) $(SRCARCH) $(genhdr-y);   (3.x)
 *	for F in $(wrapper-files); do echo "\#include <asm-generic/$$F>" \
 *		> $(install)/$$F; done;                                    (3.x)
 *	touch $@
 *
 * Each "$(PERL) $< DIR ..." installs DIR/NAME as $(install)/NAME for every
 * NAME of its list, later ones overwriting earlier ones; a cmd_install of
 * any other shape is refused.  What the object tree holds is made by the
 * build before the install runs: linux/version.h by the top Makefile, the
 * syscall headers by the architecture's archheaders rule, and uapid makes
 * them the same way.  A listed source that does not exist stops make ("No
 * rule to make target"), and uapid with it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headers-int.h"
#include "uapid/util/path.h"
#include "uapid/util/xmalloc.h"

#define OUT_MARK                                                                                   \
	"@OUT"	     /* INSTALL_HDR_PATH, to find the install directory in what make computes      \
		      */
#define MAX_DEPTH 16 /* header-y directory nesting; real trees have 3 */
#define HEADERSINST "scripts/Makefile.headersinst"

struct ps_ctx {
	struct ud_source *src;
	const struct ud_karch *ka;
	struct ud_hdr_plan *plan;
	struct ud_kgen *gen;
	struct ud_kmake_view out; /* INSTALL_HDR_PATH/include as the runs so far filled it */
};

/*
 * The install directory as make would find it at this point of the run:
 * the files planned so far (the plan's names are below include/).  A
 * Kbuild of 3.x asks it whether another architecture's asm-* directory
 * holds a header; uapid installs into an empty INSTALL_HDR_PATH.
 */
static bool
out_exists(const char *rel, void *ctx)
{
	const struct ud_hdr_plan *plan = ctx;
	size_t i, n = strlen(rel);

	if (n > 0 && rel[n - 1] == '/')
		n--; /* "asm-generic/": a directory, which holds what is below it */
	for (i = 0; i < plan->n; i++)
		if (strncmp(plan->v[i].dst, rel, n) == 0 &&
		    (plan->v[i].dst[n] == '\0' || plan->v[i].dst[n] == '/'))
			return true;
	return ud_strlist_findn(&plan->dirs, rel, n) >= 0;
}

static int
out_list(const char *rel, struct ud_strlist *names, void *ctx)
{
	const struct ud_hdr_plan *plan = ctx;
	size_t i, n = strlen(rel);

	for (i = 0; i < plan->n; i++) {
		const char *d = plan->v[i].dst, *rest, *slash;
		char *name;

		if (n > 0 && (strncmp(d, rel, n) != 0 || d[n] != '/'))
			continue;
		rest = n > 0 ? d + n + 1 : d;
		slash = strchr(rest, '/');
		name = slash != NULL ? ud_xstrndup(rest, (size_t)(slash + 1 - rest))
				     : ud_xstrdup(rest);
		if (!ud_strlist_has(names, name))
			ud_strlist_take(names, name);
		else
			free(name);
	}
	return 0;
}

/* One "$(PERL) $< DIR $(install) $(SRCARCH) $(LIST)" of cmd_install. */
struct ps_call {
	char *dir;  /* DIR as written: "$(srctree)/$(obj)" */
	char *list; /* LIST: "header-y" */
};

/* The text of s without leading and trailing blanks, with runs of blanks made one space. */
static char *
squeezed(const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		bool blank = s[i] == ' ' || s[i] == '\t' || s[i] == '\n';

		if (!blank)
			ud_buf_addch(&b, s[i]);
		else if (b.len > 0 && b.data[b.len - 1] != ' ')
			ud_buf_addch(&b, ' ');
	}
	if (b.len > 0 && b.data[b.len - 1] == ' ')
		b.len--;
	ud_buf_addstr(&b, "");
	return ud_buf_detach(&b, NULL);
}

/*
 * Reads the tree's cmd_install (unexpanded) into its script calls and
 * whether it writes the asm-generic wrappers; -ENOTSUP with a problem
 * naming the part uapid does not reproduce.
 */
static int
read_cmd_install(struct ps_ctx *c, struct ud_make *m, struct ps_call **calls, size_t *ncalls,
		 bool *wrappers)
{
	static const char *const wrapper_loop[] = {
		"for F in $(wrapper-files)",
		"do echo \"#include <asm-generic/$$F>\" > $(install)/$$F", "done"};
	const char *raw = ud_make_raw(m, "cmd_install"), *p;
	size_t loop = 0;
	int rc = 0;

	*calls = NULL;
	*ncalls = 0;
	*wrappers = false;
	if (raw == NULL) {
		ud_diags_add_at(&c->plan->problems, HEADERSINST, 0, UD_SEV_ERROR,
				"no cmd_install: not the Makefile.headersinst of a tree uapid "
				"reproduces");
		return -ENOTSUP;
	}
	for (p = raw; *p != '\0' && rc == 0;) {
		const char *semi = strchr(p, ';');
		size_t n = semi != NULL ? (size_t)(semi - p) : strlen(p);
		char *seg = squeezed(p, n);
		struct ud_strlist w = UD_STRLIST_INIT;

		p += n + (semi != NULL);
		ud_make_words(seg, &w);
		if (seg[0] == '\0' || strcmp(seg, "touch $@") == 0) {
			/* the stamp file */
		} else if (loop < 3 && strcmp(seg, wrapper_loop[loop]) == 0) {
			loop++;
			*wrappers = loop == 3;
		} else if (loop == 0 && w.n == 6 && strcmp(w.v[0], "$(PERL)") == 0 &&
			   strcmp(w.v[1], "$<") == 0 && strcmp(w.v[3], "$(install)") == 0 &&
			   strcmp(w.v[4], "$(SRCARCH)") == 0 && strncmp(w.v[5], "$(", 2) == 0 &&
			   w.v[5][strlen(w.v[5]) - 1] == ')') {
			*calls = ud_xrealloc(*calls, (*ncalls + 1) * sizeof(**calls));
			(*calls)[*ncalls].dir = ud_xstrdup(w.v[2]);
			(*calls)[*ncalls].list = ud_xstrndup(w.v[5] + 2, strlen(w.v[5]) - 3);
			(*ncalls)++;
		} else {
			ud_diags_add_at(
				&c->plan->problems, HEADERSINST, 0, UD_SEV_ERROR,
				"its cmd_install runs something uapid does not reproduce: %s", seg);
			rc = -ENOTSUP;
		}
		ud_strlist_free(&w);
		free(seg);
	}
	if (rc == 0 && (loop != 0 && loop != 3)) {
		ud_diags_add_at(&c->plan->problems, HEADERSINST, 0, UD_SEV_ERROR,
				"its cmd_install writes the asm-generic wrappers in a way uapid "
				"does not reproduce");
		rc = -ENOTSUP;
	}
	return rc;
}

/* A file the build makes before the install: linux/version.h, or an archheaders one. */
static void
made_by_build(struct ps_ctx *c, struct ud_hdr_file *f, const char *rel)
{
	if (strcmp(rel, "include/linux/version.h") == 0)
		ud_headers_version_h(c->ka, &f->gen);
	else if (strstr(rel, "/include/generated/") != NULL)
		ud_headers_generate_target(c->gen, c->src, f, rel);
	else
		ud_diags_add(&f->problems, 0, UD_SEV_ERROR,
			     "a file of the object tree uapid does not know how the build makes");
}

/* The files of one script call: DIR/NAME installed as OUTDIR/NAME. */
static int
add_call(struct ps_ctx *c, struct ud_make *m, const struct ps_call *call, const char *outdir)
{
	struct ud_strlist names = UD_STRLIST_INIT;
	char *ref = ud_xasprintf("$(%s)", call->list);
	int rc = 0;
	char *dir = ud_headers_make_expand(m, call->dir, c->plan, &rc),
	     *list = ud_headers_make_expand(m, ref, c->plan, &rc);
	/* what the object tree holds is made by the build; srctree and objtree are one here */
	bool built = strncmp(call->dir, "$(objtree)", 10) == 0;
	size_t i;

	ud_make_words(list, &names);
	for (i = 0; i < names.n && rc == 0; i++) {
		char *joined = ud_xasprintf("%s/%s", ud_headers_tree_rel(dir), names.v[i]);
		char *rel = ud_path_normalize(joined), *out, *dst;

		free(joined);
		joined = ud_xasprintf("%s%s%s", outdir, outdir[0] != '\0' ? "/" : "", names.v[i]);
		dst = ud_path_normalize(joined);
		free(joined);
		if (built) {
			made_by_build(c, ud_headers_plan_set(c->plan, dst, rel, true), rel);
		} else if (ud_source_type(c->src, rel) != UD_FT_FILE) {
			/* $(install-file) depends on every input: make has no rule for it */
			out = ud_xasprintf("%s/.install", outdir[0] != '\0' ? outdir : ".");
			ud_diags_add_at(&c->plan->problems, rel, 0, UD_SEV_ERROR,
					"No rule to make target '%s', needed by '%s': make stops "
					"here",
					rel, out);
			free(out);
			rc = -ENOENT;
		} else {
			ud_headers_plan_set(c->plan, dst, rel, false);
		}
		free(dst);
		free(rel);
	}
	ud_strlist_free(&names);
	free(list);
	free(dir);
	free(ref);
	return rc;
}

/* One run of Makefile.headersinst for obj (dst NULL when unset): its subdirectories, then it. */
static int
install_dir(struct ps_ctx *c, const char *obj, const char *dst, unsigned depth)
{
	struct ud_make *m;
	struct ud_strlist wrap = UD_STRLIST_INIT, sub = UD_STRLIST_INIT;
	struct ps_call *calls = NULL;
	size_t ncalls = 0, i;
	char *install = NULL, *dstvar = NULL, *outdir;
	bool wrappers = false;
	int rc;

	if (depth > MAX_DEPTH) {
		ud_diags_add_at(&c->plan->problems, obj, 0, UD_SEV_ERROR,
				"header-y subdirectories nest deeper than %d", MAX_DEPTH);
		return -ELOOP;
	}
	m = ud_kmake_new_view(c->src, UD_MAKE_STRICT, c->ka->arch, c->ka->srcarch, &c->out);
	ud_make_define(m, "obj", obj);
	if (dst != NULL)
		ud_make_define(m, "dst", dst);
	ud_make_define(m, "INSTALL_HDR_PATH", OUT_MARK);
	rc = ud_kmake_read(m, c->src, HEADERSINST, &c->plan->problems);
	if (rc == 0)
		rc = read_cmd_install(c, m, &calls, &ncalls, &wrappers);
	if (rc < 0)
		goto out;
	/* make installs the subdirectories first ($(subdirs) before $(install-file)) */
	{
		char *subdirs = ud_headers_make_var(m, "subdirs", c->plan, &rc);

		ud_make_words(subdirs, &sub);
		free(subdirs);
	}
	dstvar = ud_headers_make_var(m, "_dst", c->plan, &rc);
	for (i = 0; i < sub.n && rc == 0; i++) {
		char *o = ud_xasprintf("%s/%s", obj, sub.v[i]);
		char *d = ud_xasprintf("%s/%s", dstvar, sub.v[i]);

		rc = install_dir(c, o, d, depth + 1);
		free(o);
		free(d);
	}
	if (rc < 0)
		goto out;
	install = ud_headers_make_var(m, "install", c->plan, &rc);
	if (rc == 0 && strcmp(install, OUT_MARK) != 0 &&
	    strncmp(install, OUT_MARK "/", strlen(OUT_MARK) + 1) != 0) {
		ud_diags_add_at(&c->plan->problems, HEADERSINST, 0, UD_SEV_ERROR,
				"an install directory outside INSTALL_HDR_PATH: %s", install);
		rc = -EINVAL;
	}
	if (rc < 0)
		goto out;
	/* the plan's names are below OUTDIR/include, as make's are below INSTALL_HDR_PATH */
	outdir = install + strlen(OUT_MARK);
	outdir += outdir[0] == '/';
	if (strncmp(outdir, "include/", 8) == 0)
		outdir += 8;
	else if (strcmp(outdir, "include") == 0)
		outdir += 7;
	for (i = 0; i < ncalls && rc == 0; i++)
		rc = add_call(c, m, &calls[i], outdir);
	if (rc == 0 && wrappers) {
		char *w = ud_headers_make_var(m, "wrapper-files", c->plan, &rc);

		ud_make_words(w, &wrap);
		free(w);
	}
	for (i = 0; i < wrap.n && rc == 0; i++) {
		char *joined = ud_xasprintf("%s%s%s", outdir, outdir[0] ? "/" : "", wrap.v[i]);
		char *name = ud_path_normalize(joined);
		char *gen = ud_xasprintf("%s/%s", obj, wrap.v[i]);

		ud_buf_addf(&ud_headers_plan_set(c->plan, name, gen, true)->gen,
			    "#include <asm-generic/%s>\n", wrap.v[i]);
		free(name);
		free(joined);
		free(gen);
	}
	/* the .install rule makes $(install), whether or not a header lands in it */
	if (rc == 0 && outdir[0] != '\0' && !ud_strlist_has(&c->plan->dirs, outdir))
		ud_strlist_add(&c->plan->dirs, outdir);
out:
	for (i = 0; i < ncalls; i++) {
		free(calls[i].dir);
		free(calls[i].list);
	}
	free(calls);
	free(dstvar);
	free(install);
	ud_strlist_free(&wrap);
	ud_strlist_free(&sub);
	ud_make_free(m);
	return rc;
}

int
ud_headers_plan_presplit(struct ud_source *src, const struct ud_karch *ka, struct ud_hdr_plan *plan,
			 char **cause)
{
	struct ps_ctx c = {src, ka, plan, ud_kgen_new(src, ka), {0}};
	size_t i;
	int rc = 0;

	c.out.prefix = OUT_MARK "/include";
	c.out.exists = out_exists;
	c.out.list = out_list;
	c.out.ctx = plan;
	if (ka->nruns == 0) {
		ud_diags_add_at(&plan->problems, "Makefile", 0, UD_SEV_ERROR,
				"its headers_install recipe runs no scripts/Makefile.headersinst");
		rc = -ENOTSUP;
	}
	for (i = 0; i < ka->nruns && rc == 0; i++)
		rc = install_dir(&c, ka->runs[i].obj, ka->runs[i].dst, 0);
	if (rc < 0)
		*cause = ud_xasprintf("%s: scripts/Makefile.headersinst stops here (as make would)",
				      src->label);
	ud_kgen_free(c.gen);
	return rc;
}
