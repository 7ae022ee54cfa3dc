// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The installed-headers set and its installation (see headers.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headers-int.h"
#include "uapid/util/hash.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/xmalloc.h"

const char *
ud_headers_srcarch(const char *arch)
{
	if (strcmp(arch, "i386") == 0 || strcmp(arch, "x86_64") == 0)
		return "x86";
	if (strcmp(arch, "sparc32") == 0 || strcmp(arch, "sparc64") == 0)
		return "sparc";
	if (strcmp(arch, "parisc64") == 0)
		return "parisc";
	if (strcmp(arch, "sh64") == 0)
		return "sh";
	return arch;
}

struct kb_ctx {
	struct ud_source *src;
	const char *srcarch;
	const struct ud_strlist
		*generated; /* wrapper names that will exist in generated/uapi/asm */
};

/* Expands $(srctree), $(objtree) and $(SRCARCH) in a Kbuild path, to a tree-relative one. */
static char *
expand(const struct kb_ctx *k, const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i = 0;

	while (i < n) {
		if (n - i >= 11 && (memcmp(s + i, "$(srctree)/", 11) == 0 ||
				    memcmp(s + i, "$(objtree)/", 11) == 0)) {
			/* uapid builds nothing: the object tree is the source tree */
			i += 11;
		} else if (n - i >= 10 && memcmp(s + i, "$(SRCARCH)", 10) == 0) {
			ud_buf_addstr(&b, k->srcarch);
			i += 10;
		} else {
			ud_buf_addch(&b, s[i++]);
		}
	}
	return ud_buf_detach(&b, NULL);
}

/* Does the file exist, counting the asm-generic wrappers about to be generated? */
static bool
wildcard_exists(const struct kb_ctx *k, const char *path)
{
	static const char gen[] = "/include/generated/uapi/asm/";
	const char *g = strstr(path, gen);

	if (g != NULL && k->generated != NULL && ud_strlist_has(k->generated, g + sizeof(gen) - 1))
		return true;
	return ud_source_type(k->src, path) != UD_FT_NONE;
}

/*
 * Decides the conditionals uapi Kbuild files use, for ud_kbuild_var:
 * ifeq/ifneq ($(wildcard PATH),) and ifeq/ifneq ($(SRCARCH),NAME).  Any
 * other condition counts as false.
 */
static bool
kbuild_cond(const char *line, void *arg)
{
	const struct kb_ctx *k = arg;
	bool neq = strncmp(line, "ifneq", 5) == 0, v = false;
	const char *a = strchr(line, '('), *comma, *close;

	if ((!neq && strncmp(line, "ifeq", 4) != 0) || a == NULL ||
	    (comma = strrchr(a, ',')) == NULL || (close = strrchr(comma, ')')) == NULL)
		return false;
	if (strncmp(a + 1, "$(wildcard ", 11) == 0 && close == comma + 1) {
		/* "$(wildcard PATH)" ends with the ')' just before the comma */
		char *path = expand(k, a + 12, (size_t)(comma - 1 - (a + 12)));

		v = !wildcard_exists(k, path); /* ifeq (...,): the file is missing */
		free(path);
	} else if (strncmp(a + 1, "$(SRCARCH),", 11) == 0) {
		v = (size_t)(close - comma - 1) == strlen(k->srcarch) &&
		    memcmp(comma + 1, k->srcarch, strlen(k->srcarch)) == 0;
	}
	return neq ? !v : v;
}

/*
 * Appends the words assigned to var in the Kbuild or Makefile fragment
 * rel; a missing file has none, an unreadable one is an error in problems.
 */
static int
read_vars(struct kb_ctx *k, const char *rel, const char *var, struct ud_strlist *out,
	  struct ud_diags *problems)
{
	struct ud_buf b = UD_BUF_INIT;
	struct ud_kbuild kb = UD_KBUILD_INIT;
	char *cause = NULL;
	size_t i;
	int rc = 0;

	if (ud_source_type(k->src, rel) == UD_FT_NONE)
		return 0;
	if (ud_source_read(k->src, rel, &b, &cause) < 0) {
		ud_diags_add_at(problems, rel, 0, UD_SEV_ERROR, "cannot read its %s list: %s", var,
				cause);
		free(cause);
		rc = -EIO;
	} else {
		ud_kbuild_var(b.data, b.len, var, kbuild_cond, k, &kb);
	}
	for (i = 0; i < kb.n; i++)
		ud_strlist_add(out, kb.v[i].name);
	ud_kbuild_free(&kb);
	ud_buf_free(&b);
	return rc;
}

int
ud_headers_make_list(struct ud_source *src, const char *srcarch, const char *rel, const char *var,
		     struct ud_strlist *out, struct ud_diags *problems)
{
	struct kb_ctx k = {src, srcarch, NULL};

	return read_vars(&k, rel, var, out, problems);
}

struct ud_hdr_file *
ud_headers_plan_add(struct ud_hdr_plan *plan, const char *dst, const char *src, bool generated)
{
	struct ud_hdr_file *f;

	plan->v = ud_xgrow(plan->v, &plan->alloc, plan->n + 1, sizeof(*plan->v));
	f = &plan->v[plan->n++];
	memset(f, 0, sizeof(*f));
	f->dst = ud_xstrdup(dst);
	f->src = ud_xstrdup(src);
	f->generated = generated;
	ud_buf_init(&f->gen);
	/* the first file planned for a name is the one looked up, as the loops did */
	if (!ud_map_has(&plan->by_dst, dst))
		ud_map_put(&plan->by_dst, dst, (void *)(uintptr_t)plan->n);
	if (!generated && !ud_map_has(&plan->by_src, src))
		ud_map_put(&plan->by_src, src, (void *)(uintptr_t)plan->n);
	return f;
}

struct ud_hdr_file *
ud_headers_plan_set(struct ud_hdr_plan *plan, const char *dst, const char *src, bool generated)
{
	uintptr_t i = (uintptr_t)ud_map_get(&plan->by_dst, dst);
	struct ud_hdr_file *f;

	if (i == 0)
		return ud_headers_plan_add(plan, dst, src, generated);
	f = &plan->v[i - 1];
	/* the source it had no longer installs here */
	if (!f->generated && (uintptr_t)ud_map_get(&plan->by_src, f->src) == i)
		ud_map_del(&plan->by_src, f->src);
	free(f->src);
	f->src = ud_xstrdup(src);
	f->generated = generated;
	ud_buf_reset(&f->gen);
	ud_diags_free(&f->problems);
	if (!generated && !ud_map_has(&plan->by_src, src))
		ud_map_put(&plan->by_src, src, (void *)i);
	return f;
}

bool
ud_headers_plan_has(const struct ud_hdr_plan *plan, const char *dst)
{
	return ud_map_has(&plan->by_dst, dst);
}

const struct ud_hdr_file *
ud_headers_plan_source(const struct ud_hdr_plan *plan, const char *src)
{
	uintptr_t i = (uintptr_t)ud_map_get(&plan->by_src, src);

	return i > 0 ? &plan->v[i - 1] : NULL;
}

void
ud_headers_version_h(const struct ud_karch *ka, struct ud_buf *out)
{
	if (!ka->version_clamped) {
		/* 3.x and 4.x: two lines, the sublevel not clamped */
		ud_buf_addf(out, "#define LINUX_VERSION_CODE %u\n",
			    ka->v[0] * 65536 + ka->v[1] * 256 + ka->v[2]);
		ud_buf_addstr(out,
			      "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n");
		return;
	}
	ud_buf_addf(out, "#define LINUX_VERSION_CODE %u\n",
		    ka->v[0] * 65536 + ka->v[1] * 256 + (ka->v[2] > 255 ? 255 : ka->v[2]));
	ud_buf_addstr(out, "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + "
			   "((c) > 255 ? 255 : (c)))\n");
	if (!ka->version_5l)
		return; /* the 4.x stables' clamped two lines */
	ud_buf_addf(out, "#define LINUX_VERSION_MAJOR %u\n", ka->v[0]);
	ud_buf_addf(out, "#define LINUX_VERSION_PATCHLEVEL %u\n", ka->v[1]);
	ud_buf_addf(out, "#define LINUX_VERSION_SUBLEVEL %u\n", ka->v[2]);
}

void
ud_headers_generate(struct ud_kgen *g, struct ud_source *src, struct ud_hdr_file *f,
		    const char *name, bool syscall_y)
{
	struct ud_syshdr h;

	if (ud_kgen_find(g, name, syscall_y, &h, &f->problems) == 0)
		ud_kgen_make(src, &h, &f->gen, &f->problems);
	ud_syshdr_free(&h);
	if (ud_diags_count(&f->problems, UD_SEV_ERROR) > 0)
		ud_diags_add(&f->problems, 0, UD_SEV_ERROR,
			     "the kernel's install writes this header; uapid cannot make it");
}

void
ud_headers_generate_target(struct ud_kgen *g, struct ud_source *src, struct ud_hdr_file *f,
			   const char *target)
{
	struct ud_syshdr h;

	if (ud_kgen_find_target(g, target, &h, &f->problems) == 0)
		ud_kgen_make(src, &h, &f->gen, &f->problems);
	ud_syshdr_free(&h);
	if (ud_diags_count(&f->problems, UD_SEV_ERROR) > 0)
		ud_diags_add(&f->problems, 0, UD_SEV_ERROR,
			     "the kernel's install writes this header; uapid cannot make it");
}

/*
 * Adds every source header of a uapi directory (those in its
 * subdirectories, as `find SUBDIRS -name '*.h'` lists them), less
 * no-export-headers.
 */
static int
add_sources(struct ud_hdr_plan *plan, struct ud_source *src, const struct ud_tindex *idx,
	    const char *dir, const struct ud_strlist *no_export)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	size_t i, skip = strlen(dir) + 1;
	char *cause = NULL;
	int rc = 0;

	if (idx != NULL) {
		ud_tindex_files_under(idx, dir, ".h", &found);
	} else if ((rc = ud_source_walk(src, dir, ".h", NULL, &found, &cause)) < 0) {
		ud_diags_add_at(&plan->problems, dir, 0, UD_SEV_ERROR,
				"part of it could not be read: %s", cause);
		free(cause);
	}
	for (i = 0; i < found.n; i++) {
		const char *dst = idx != NULL ? found.v[i] + skip : found.v[i];
		char *rel;

		if (strchr(dst, '/') == NULL || ud_strlist_has(no_export, dst))
			continue;
		rel = ud_xasprintf("%s/%s", dir, dst);
		ud_headers_plan_add(plan, dst, rel, false);
		free(rel);
	}
	ud_strlist_free(&found);
	return rc;
}

/*
 * The 4.x-on install (scripts/headers_install.sh): every header below the
 * subdirectories of include/uapi and arch/SRCARCH/include/uapi, less
 * no-export-headers; linux/version.h; the asm-generic wrappers; and the
 * syscall headers of generated-y and syscall-y, made as the tree's
 * Makefiles say.
 */
static int
plan_sh(struct ud_source *src, const struct ud_tindex *idx, const struct ud_karch *ka,
	struct ud_hdr_plan *plan, char **cause)
{
	struct ud_strlist generic = UD_STRLIST_INIT, mandatory = UD_STRLIST_INIT,
			  generated = UD_STRLIST_INIT, syscall = UD_STRLIST_INIT,
			  no_export = UD_STRLIST_INIT, arch_no_export = UD_STRLIST_INIT,
			  wrappers = UD_STRLIST_INIT;
	struct ud_kgen *g = ud_kgen_new(src, ka);
	struct kb_ctx k;
	char *archdir, *asmk, *archk;
	struct ud_buf sb = UD_BUF_INIT;
	bool asm_headers = ud_source_type(src, "scripts/Makefile.asm-headers") == UD_FT_FILE;
	size_t i;
	int rc = 0;

	archdir = ud_xasprintf("arch/%s/include/uapi", plan->srcarch);
	k.src = src;
	k.srcarch = plan->srcarch;
	k.generated = NULL;
	asmk = ud_xasprintf("%s/asm/Kbuild", archdir);
	archk = ud_xasprintf("%s/Kbuild", archdir);
	read_vars(&k, asmk, "generic-y", &generic, &plan->problems);
	read_vars(&k, asmk, "generated-y", &generated, &plan->problems);
	if (asm_headers) /* 6.11 on: syscall headers listed as syscall-y */
		read_vars(&k, asmk, "syscall-y", &syscall, &plan->problems);
	/* Makefile.headersinst reads the arch's no-export list from uapi/Kbuild, not asm/ */
	read_vars(&k, archk, "no-export-headers", &arch_no_export, &plan->problems);
	read_vars(&k, "include/uapi/asm-generic/Kbuild", "mandatory-y", &mandatory,
		  &plan->problems);

	/* wrappers: generic-y, and mandatory-y the architecture does not provide */
	for (i = 0; i < generic.n; i++)
		ud_strlist_add(&wrappers, generic.v[i]);
	for (i = 0; i < mandatory.n; i++) {
		char *own = ud_xasprintf("%s/asm/%s", archdir, mandatory.v[i]);

		if (!ud_strlist_has(&generated, mandatory.v[i]) &&
		    ud_source_type(src, own) == UD_FT_NONE &&
		    !ud_strlist_has(&wrappers, mandatory.v[i]))
			ud_strlist_add(&wrappers, mandatory.v[i]);
		free(own);
	}
	k.generated = &wrappers;
	read_vars(&k, "include/uapi/Kbuild", "no-export-headers", &no_export, &plan->problems);

	/* include/uapi, then its generated part (linux/version.h) */
	add_sources(plan, src, idx, "include/uapi", &no_export);
	if (!ud_headers_plan_has(plan, "linux/version.h") &&
	    !ud_strlist_has(&no_export, "linux/version.h"))
		ud_headers_version_h(
			ka, &ud_headers_plan_add(plan, "linux/version.h",
						 "include/generated/uapi/linux/version.h", true)
				     ->gen);
	/* arch/SRCARCH/include/uapi, then its generated part */
	add_sources(plan, src, idx, archdir, &arch_no_export);
	for (i = 0; i < generated.n + syscall.n; i++) {
		bool sy = i >= generated.n;
		const char *name = sy ? syscall.v[i - generated.n] : generated.v[i];
		char *dst = ud_xasprintf("asm/%s", name);
		char *gen =
			ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch, name);

		if (!ud_headers_plan_has(plan, dst) && !ud_strlist_has(&arch_no_export, dst))
			ud_headers_generate(g, src, ud_headers_plan_add(plan, dst, gen, true), name,
					    sy);
		free(dst);
		free(gen);
	}
	for (i = 0; i < wrappers.n; i++) {
		char *dst = ud_xasprintf("asm/%s", wrappers.v[i]);
		char *gen = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch,
					 wrappers.v[i]);
		char *generic_h = ud_xasprintf("include/uapi/asm-generic/%s", wrappers.v[i]);

		if (!ud_headers_plan_has(plan, dst) && !ud_strlist_has(&generated, wrappers.v[i]) &&
		    !ud_strlist_has(&arch_no_export, dst)) {
			struct ud_hdr_file *f = ud_headers_plan_add(plan, dst, gen, true);

			ud_buf_addf(&f->gen, "#include <asm-generic/%s>\n", wrappers.v[i]);
			/* 6.11's wrapper rule depends on the asm-generic file: make stops without
			 * it */
			if (asm_headers && ud_source_type(src, generic_h) == UD_FT_NONE)
				ud_diags_add(&f->problems, 0, UD_SEV_ERROR,
					     "no %s: the kernel's install stops here", generic_h);
		}
		free(dst);
		free(gen);
		free(generic_h);
	}

	/* the tree's own list of grandfathered CONFIG_ leaks */
	if (ud_source_read(src, "scripts/headers_install.sh", &sb, cause) < 0)
		rc = -EIO;
	else
		ud_install_rules_parse(sb.data, sb.len, &plan->rules);
	ud_buf_free(&sb);

	ud_kgen_free(g);
	ud_strlist_free(&generic);
	ud_strlist_free(&mandatory);
	ud_strlist_free(&generated);
	ud_strlist_free(&syscall);
	ud_strlist_free(&no_export);
	ud_strlist_free(&arch_no_export);
	ud_strlist_free(&wrappers);
	free(archk);
	free(asmk);
	free(archdir);
	return rc;
}

/*
 * The generation of a pre-split headers_install.pl (script is its text)
 * and of the unifdef the tree builds; -ENOTSUP with *cause naming the
 * file uapid does not reproduce.
 */
static int
presplit_style(struct ud_source *src, const struct ud_buf *script, struct ud_install_pl *pl,
	       char **cause)
{
	struct ud_buf u = UD_BUF_INIT;
	char *why = NULL;
	int rc = ud_install_pl_recognise(script->data, script->len, pl, &why);

	if (rc < 0) {
		*cause = ud_xasprintf("%s/scripts/headers_install.pl: not a version of the script "
				      "uapid reproduces (it would install other bytes): %s",
				      src->label, why);
		free(why);
		return rc;
	}
	if (ud_source_read(src, "scripts/unifdef.c", &u, cause) < 0) {
		ud_buf_free(&u);
		return -EIO;
	}
	if (ud_unifdef_recognise(u.data, u.len, &pl->unifdef) < 0) {
		*cause = ud_xasprintf("%s/scripts/unifdef.c: not a unifdef uapid reproduces (its "
				      "headers_install.pl runs it; uapid knows unifdef 2.5, 1.190 "
				      "and 1.171 with the kernel's boolean patch)",
				      src->label);
		rc = -ENOTSUP;
	}
	ud_buf_free(&u);
	return rc;
}

/*
 * Which install the tree has, from its scripts; -ENOTSUP with *cause when
 * uapid does not know it.
 */
static int
install_style(struct ud_source *src, enum ud_install_style *style, struct ud_install_pl *pl,
	      char **cause)
{
	static const char *const sh_marks[] = {"unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__",
					       "__attribute_const__", "_UAPI"};
	static const char readdir_form[] = "$readdir/$file";
	struct ud_buf b = UD_BUF_INIT;
	const char *script = "scripts/headers_install.sh";
	size_t i;
	int rc = 0;

	if (ud_source_type(src, script) == UD_FT_FILE) {
		*style = UD_INSTALL_SH;
	} else if (ud_source_type(src, "scripts/headers_install.pl") == UD_FT_FILE) {
		script = "scripts/headers_install.pl";
		*style = UD_INSTALL_PL38;
	} else {
		*cause = ud_xasprintf(
			"%s: no scripts/headers_install.sh or .pl: uapid does not know "
			"how this tree installs its headers",
			src->label);
		return -ENOTSUP;
	}
	if (ud_source_read(src, script, &b, cause) < 0) {
		ud_buf_free(&b);
		return -EIO;
	}
	if (*style == UD_INSTALL_SH) {
		for (i = 0; i < ARRAY_SIZE(sh_marks); i++)
			if (memmem(b.data, b.len, sh_marks[i], strlen(sh_marks[i])) == NULL)
				rc = -ENOTSUP;
	} else if (memmem(b.data, b.len, "#ifndef\\s+_UAPI", 15) != NULL) {
		ud_install_pl_of_3x(true, pl);
	} else if (memmem(b.data, b.len, "#ifndef _UAPI", 13) != NULL) {
		*style = UD_INSTALL_PL37;
		ud_install_pl_of_3x(false, pl);
	} else if (memmem(b.data, b.len, readdir_form, sizeof(readdir_form) - 1) != NULL) {
		/* before the split: the script, and the unifdef it runs, say how */
		*style = UD_INSTALL_PL26;
		rc = presplit_style(src, &b, pl, cause);
		ud_buf_free(&b);
		return rc;
	} else {
		rc = -ENOTSUP;
	}
	if (rc < 0)
		*cause = ud_xasprintf("%s/%s: not the version of the script uapid reproduces (it "
				      "would install other bytes)",
				      src->label, script);
	ud_buf_free(&b);
	return rc;
}

int
ud_headers_plan(struct ud_source *src, const struct ud_tindex *idx, const char *arch,
		struct ud_hdr_plan *plan, char **cause)
{
	struct ud_diags why = UD_DIAGS_INIT;
	struct ud_karch ka;
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->arch = ud_xstrdup(arch);
	rc = install_style(src, &plan->style, &plan->pl, cause);
	if (rc < 0)
		return rc;
	rc = ud_karch_open(src, arch, &ka, &why);
	if (rc < 0) {
		/* the kernel's own reason, with its Makefile line */
		const struct ud_diag *e = why.n > 0 ? &why.v[why.n - 1] : NULL;

		if (e != NULL && e->line > 0)
			*cause = ud_xasprintf("%s/%s:%u: %s (ARCH=%s)", src->label, e->path,
					      e->line, e->message, arch);
		else if (e != NULL)
			*cause = ud_xasprintf("%s/%s: %s (ARCH=%s)", src->label,
					      e->path != NULL ? e->path : "Makefile", e->message,
					      arch);
		else
			*cause = ud_xasprintf("ARCH=%s: the tree's Makefile refuses it", arch);
		ud_diags_free(&why);
		ud_karch_free(&ka);
		return rc;
	}
	ud_diags_move(&plan->problems, &why);
	plan->srcarch = ud_xstrdup(ka.srcarch);
	plan->version = ud_xstrdup(ka.version);
	if (plan->style == UD_INSTALL_SH)
		rc = plan_sh(src, idx, &ka, plan, cause);
	else if (plan->style == UD_INSTALL_PL26)
		rc = ud_headers_plan_presplit(src, &ka, plan, cause);
	else
		rc = ud_headers_plan_pl(src, &ka, plan, cause);
	ud_karch_free(&ka);
	if (rc == 0 && ud_diags_count(&plan->problems, UD_SEV_ERROR) > 0) {
		*cause = ud_xasprintf("%s: the installed-headers set could not be computed",
				      src->label);
		rc = -EIO;
	}
	return rc;
}

void
ud_headers_plan_free(struct ud_hdr_plan *plan)
{
	size_t i;

	if (plan == NULL)
		return;
	for (i = 0; i < plan->n; i++) {
		free(plan->v[i].dst);
		free(plan->v[i].src);
		ud_buf_free(&plan->v[i].gen);
		ud_diags_free(&plan->v[i].problems);
	}
	free(plan->v);
	free(plan->arch);
	free(plan->srcarch);
	free(plan->version);
	ud_install_rules_free(&plan->rules);
	ud_diags_free(&plan->problems);
	ud_strlist_free(&plan->dirs);
	ud_map_free(&plan->by_dst, NULL);
	ud_map_free(&plan->by_src, NULL);
	memset(plan, 0, sizeof(*plan));
}

const char *
ud_headers_tree_rel(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* Hands the errors of an expansion to the plan's problems. */
static char *
expanded(char *v, struct ud_diags *notes, struct ud_hdr_plan *plan, int *rc)
{
	size_t i;

	for (i = 0; i < notes->n; i++) {
		if (notes->v[i].severity != UD_SEV_ERROR)
			continue;
		ud_diags_add_at(&plan->problems, notes->v[i].path, notes->v[i].line, UD_SEV_ERROR,
				"%s", notes->v[i].message);
		*rc = -EINVAL;
	}
	ud_diags_free(notes);
	return v != NULL ? v : ud_xstrdup("");
}

char *
ud_headers_make_var(struct ud_make *m, const char *name, struct ud_hdr_plan *plan, int *rc)
{
	struct ud_diags notes = UD_DIAGS_INIT;
	char *v = ud_make_var(m, name, &notes);

	return expanded(v, &notes, plan, rc);
}

char *
ud_headers_make_expand(struct ud_make *m, const char *text, struct ud_hdr_plan *plan, int *rc)
{
	struct ud_diags notes = UD_DIAGS_INIT;
	char *v = ud_make_expand(m, text, &notes);

	return expanded(v, &notes, plan, rc);
}
