// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The 3.x installed-headers set, as scripts/headers_install.pl installs
 * it (headers-int.h, ud_headers_plan_pl).
 *
 * 3.7 to 4.x install by lists, not by directories: the top Makefile runs
 * scripts/Makefile.headersinst for include/uapi and for the architecture's
 * uapi/asm, and it recurses into the subdirectories the header-y lists
 * name.  Rather than carry those rules, uapid evaluates the tree's own
 * Makefile.headersinst (make.h) for each directory and takes what it
 * computes: the input files (from the uapi directory, the old non-uapi one,
 * or the generated one), the asm-generic wrappers, the install directory
 * and the subdirectories.  A missing file stops it as it stops make, with
 * the Makefile's own message.
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

struct pl_ctx {
	struct ud_source *src;
	const struct ud_karch *ka;
	struct ud_hdr_plan *plan;
	struct ud_kgen *gen;
};

static const char *
base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}

/* A generated input file: linux/version.h, or a syscall header of the architecture. */
static void
generated(struct pl_ctx *c, struct ud_hdr_file *f, const char *rel)
{
	char *asmdir = ud_xasprintf("arch/%s/include/generated/uapi/asm/", c->ka->srcarch);

	if (strcmp(rel, "include/generated/uapi/linux/version.h") == 0)
		ud_headers_version_h(c->ka, &f->gen);
	else if (strncmp(rel, asmdir, strlen(asmdir)) == 0)
		ud_headers_generate(c->gen, c->src, f, rel + strlen(asmdir), false);
	else
		ud_diags_add(&f->problems, 0, UD_SEV_ERROR,
			     "a generated file uapid does not know how the tree makes");
	free(asmdir);
}

/* One run of Makefile.headersinst for obj (dst NULL when unset), then its subdirectories. */
static int
install_dir(struct pl_ctx *c, const char *obj, const char *dst, unsigned depth)
{
	struct ud_make *m = ud_kmake_new(c->src, UD_MAKE_STRICT, c->ka->arch, c->ka->srcarch);
	struct ud_strlist in = UD_STRLIST_INIT, wrap = UD_STRLIST_INIT, sub = UD_STRLIST_INIT;
	char *installdir = NULL, *outdir, *dstvar = NULL;
	size_t i;
	int rc;

	if (depth > MAX_DEPTH) {
		ud_diags_add_at(&c->plan->problems, obj, 0, UD_SEV_ERROR,
				"header-y subdirectories nest deeper than %d", MAX_DEPTH);
		ud_make_free(m);
		return -ELOOP;
	}
	ud_make_define(m, "obj", obj);
	if (dst != NULL)
		ud_make_define(m, "dst", dst);
	ud_make_define(m, "INSTALL_HDR_PATH", OUT_MARK);
	rc = ud_kmake_read(m, c->src, "scripts/Makefile.headersinst", &c->plan->problems);
	if (rc < 0)
		goto out;
	installdir = ud_headers_make_var(m, "installdir", c->plan, &rc);
	if (rc < 0)
		goto out;
	if (strncmp(installdir, OUT_MARK "/", strlen(OUT_MARK) + 1) != 0) {
		ud_diags_add_at(&c->plan->problems, "scripts/Makefile.headersinst", 0, UD_SEV_ERROR,
				"an install directory outside INSTALL_HDR_PATH: %s", installdir);
		rc = -EINVAL;
		goto out;
	}
	/* the output is rooted at OUTDIR/include, as the plan's names are */
	outdir = installdir + strlen(OUT_MARK) + 1;
	if (strncmp(outdir, "include/", 8) == 0)
		outdir += 8;
	else if (strcmp(outdir, "include") == 0)
		outdir += 7;
	{
		char *inputs = ud_headers_make_var(m, "input-files", c->plan, &rc);
		char *wrappers = ud_headers_make_var(m, "wrapper-files", c->plan, &rc);
		char *subdirs = ud_headers_make_var(m, "subdirs", c->plan, &rc);

		ud_make_words(inputs, &in);
		ud_make_words(wrappers, &wrap);
		ud_make_words(subdirs, &sub);
		free(inputs);
		free(wrappers);
		free(subdirs);
	}
	for (i = 0; i < in.n; i++) {
		const char *rel = ud_headers_tree_rel(in.v[i]);
		/* "header-y += ../arch/" installs into asm/../arch: include/arch/, as make does */
		char *joined = ud_xasprintf("%s%s%s", outdir, outdir[0] ? "/" : "", base_of(rel));
		char *name = ud_path_normalize(joined);
		bool gen = strncmp(rel, "include/generated/", 18) == 0 ||
			   strstr(rel, "/include/generated/") != NULL;
		struct ud_hdr_file *f = ud_headers_plan_set(c->plan, name, rel, gen);

		if (gen)
			generated(c, f, rel);
		free(name);
		free(joined);
	}
	for (i = 0; i < wrap.n; i++) {
		char *joined = ud_xasprintf("%s%s%s", outdir, outdir[0] ? "/" : "", wrap.v[i]);
		char *name = ud_path_normalize(joined);
		char *gen = ud_xasprintf("%s/%s", obj, wrap.v[i]);

		ud_buf_addf(&ud_headers_plan_set(c->plan, name, gen, true)->gen,
			    "#include <asm-generic/%s>\n", wrap.v[i]);
		free(name);
		free(joined);
		free(gen);
	}
	dstvar = ud_headers_make_var(m, "_dst", c->plan, &rc);
	for (i = 0; i < sub.n && rc == 0; i++) {
		char *o = ud_xasprintf("%s/%s", obj, sub.v[i]);
		char *d = ud_xasprintf("%s/%s", dstvar, sub.v[i]);

		rc = install_dir(c, o, d, depth + 1);
		free(o);
		free(d);
	}
out:
	free(dstvar);
	free(installdir);
	ud_strlist_free(&in);
	ud_strlist_free(&wrap);
	ud_strlist_free(&sub);
	ud_make_free(m);
	return rc;
}

int
ud_headers_plan_pl(struct ud_source *src, const struct ud_karch *ka, struct ud_hdr_plan *plan,
		   char **cause)
{
	struct pl_ctx c = {src, ka, plan, ud_kgen_new(src, ka)};
	char *archobj = ud_xasprintf("arch/%s/include/uapi/asm", ka->srcarch);
	int rc = install_dir(&c, "include/uapi", NULL, 0);

	if (rc == 0)
		rc = install_dir(&c, archobj, "include/asm", 0);
	if (rc < 0)
		*cause = ud_xasprintf("%s: scripts/Makefile.headersinst stops here (as make would)",
				      src->label);
	ud_kgen_free(c.gen);
	free(archobj);
	return rc;
}
