/*
 * The installed-headers set and its installation (see headers.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/fsutil.h"
#include "uapid/headers.h"
#include "uapid/xmalloc.h"

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

static struct ud_hdr_file *
plan_add(struct ud_hdr_plan *plan, const char *dst, const char *src, bool generated)
{
	struct ud_hdr_file *f;

	plan->v = ud_xgrow(plan->v, &plan->alloc, plan->n + 1, sizeof(*plan->v));
	f = &plan->v[plan->n++];
	f->dst = ud_xstrdup(dst);
	f->src = ud_xstrdup(src);
	f->generated = generated;
	ud_buf_init(&f->gen);
	return f;
}

bool
ud_headers_plan_has(const struct ud_hdr_plan *plan, const char *dst)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (strcmp(plan->v[i].dst, dst) == 0)
			return true;
	return false;
}

/* The Makefile's VERSION, PATCHLEVEL, SUBLEVEL as linux/version.h. */
static int
make_version_h(struct ud_source *src, struct ud_buf *out, char **cause)
{
	static const char *const keys[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL"};
	struct ud_buf mk = UD_BUF_INIT;
	long v[3] = {-1, -1, -1};
	const char *p;
	size_t i;
	int rc = ud_source_read(src, "Makefile", &mk, cause);

	if (rc < 0) {
		ud_buf_free(&mk);
		return rc;
	}
	for (p = mk.data; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		for (i = 0; i < 3; i++) {
			size_t k = strlen(keys[i]);

			if (strncmp(p, keys[i], k) == 0 && (p[k] == ' ' || p[k] == '=')) {
				const char *q = strchr(p, '=');

				if (q != NULL && v[i] < 0)
					v[i] = strtol(q + 1, NULL, 10);
			}
		}
	ud_buf_free(&mk);
	if (v[2] < 0)
		v[2] = 0; /* the Makefile's "$(or $(SUBLEVEL), 0)" */
	if (v[0] < 0 || v[1] < 0) {
		*cause = ud_xasprintf("%s/Makefile: no VERSION or PATCHLEVEL", src->label);
		return -EINVAL;
	}
	ud_buf_addf(out, "#define LINUX_VERSION_CODE %ld\n",
		    v[0] * 65536 + v[1] * 256 + (v[2] > 255 ? 255 : v[2]));
	ud_buf_addstr(out, "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + "
			   "((c) > 255 ? 255 : (c)))\n");
	ud_buf_addf(out, "#define LINUX_VERSION_MAJOR %ld\n", v[0]);
	ud_buf_addf(out, "#define LINUX_VERSION_PATCHLEVEL %ld\n", v[1]);
	ud_buf_addf(out, "#define LINUX_VERSION_SUBLEVEL %ld\n", v[2]);
	return 0;
}

/*
 * A uapi unistd header from a syscall table, as scripts/syscallhdr.sh
 * writes it with --emit-nr: the entries of the given ABIs in table order.
 */
static int
make_unistd(struct ud_source *src, const char *table, const char *const *abis, const char *offset,
	    const char *name, struct ud_buf *out, char **cause)
{
	struct ud_buf tb = UD_BUF_INIT, guard = UD_BUF_INIT;
	const char *p, *end;
	long max = 0;
	size_t i;
	int rc = ud_source_read(src, table, &tb, cause);

	if (rc < 0) {
		ud_buf_free(&tb);
		return rc;
	}
	/* guard: _UAPI_ASM_ + name upper-cased, other bytes '_', then "__" -> "_" */
	ud_buf_addstr(&guard, "_UAPI_ASM_");
	for (i = 0; name[i] != '\0'; i++) {
		char c = name[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			c = '_';
		ud_buf_addch(&guard, c);
	}
	for (i = 0; i + 1 < guard.len; i++)
		if (guard.data[i] == '_' && guard.data[i + 1] == '_') {
			memmove(guard.data + i + 1, guard.data + i + 2, guard.len - i - 1);
			guard.len--;
		}
	ud_buf_addf(out, "#ifndef %s\n#define %s\n\n", guard.data, guard.data);
	end = tb.data + tb.len;
	for (p = tb.data; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		char f[4][128];
		int nf = 0;
		const char *q = p;
		const char *const *a;

		while (nf < 4 && q < e) {
			const char *w;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			w = q;
			while (q < e && *q != ' ' && *q != '\t')
				q++;
			if (q > w && (size_t)(q - w) < sizeof(f[0])) {
				memcpy(f[nf], w, (size_t)(q - w));
				f[nf][q - w] = '\0';
				nf++;
			}
		}
		p = nl ? nl + 1 : end;
		if (nf < 3 || !(f[0][0] >= '0' && f[0][0] <= '9'))
			continue;
		for (a = abis; *a != NULL; a++)
			if (strncmp(f[1], *a, strlen(*a)) == 0)
				break;
		if (*a == NULL)
			continue;
		max = strtol(f[0], NULL, 0);
		if (offset != NULL)
			ud_buf_addf(out, "#define __NR_%s (%s + %s)\n", f[2], offset, f[0]);
		else
			ud_buf_addf(out, "#define __NR_%s %s\n", f[2], f[0]);
	}
	ud_buf_addf(out, "\n#ifdef __KERNEL__\n#define __NR_syscalls %ld\n#endif\n", max + 1);
	ud_buf_addf(out, "\n#endif /* %s */\n", guard.data);
	ud_buf_free(&guard);
	ud_buf_free(&tb);
	return 0;
}

/* The syscall-table headers of the architectures uapid knows. */
static int
make_generated(struct ud_source *src, const char *srcarch, const char *name, struct ud_buf *out,
	       char **cause)
{
	static const char *const i386[] = {"i386", NULL};
	static const char *const x64[] = {"common", "64", NULL};
	static const char *const x32[] = {"common", "x32", NULL};

	if (strcmp(srcarch, "x86") == 0) {
		if (strcmp(name, "unistd_32.h") == 0)
			return make_unistd(src, "arch/x86/entry/syscalls/syscall_32.tbl", i386,
					   NULL, name, out, cause);
		if (strcmp(name, "unistd_64.h") == 0)
			return make_unistd(src, "arch/x86/entry/syscalls/syscall_64.tbl", x64, NULL,
					   name, out, cause);
		if (strcmp(name, "unistd_x32.h") == 0)
			return make_unistd(src, "arch/x86/entry/syscalls/syscall_64.tbl", x32,
					   "__X32_SYSCALL_BIT", name, out, cause);
	}
	*cause = ud_xasprintf("arch/%s/include/uapi/asm/Kbuild: generated-y %s: uapid does not "
			      "know how this architecture generates it",
			      srcarch, name);
	return -ENOTSUP;
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
		ud_tindex_headers_under(idx, dir, &found);
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
		plan_add(plan, dst, rel, false);
		free(rel);
	}
	ud_strlist_free(&found);
	return rc;
}

int
ud_headers_plan(struct ud_source *src, const struct ud_tindex *idx, const char *arch,
		struct ud_hdr_plan *plan, char **cause)
{
	struct ud_strlist generic = UD_STRLIST_INIT, mandatory = UD_STRLIST_INIT,
			  generated = UD_STRLIST_INIT, no_export = UD_STRLIST_INIT,
			  arch_no_export = UD_STRLIST_INIT, wrappers = UD_STRLIST_INIT;
	struct kb_ctx k;
	char *archdir, *asmk;
	struct ud_buf sb = UD_BUF_INIT;
	size_t i;
	int rc = 0;

	memset(plan, 0, sizeof(*plan));
	plan->srcarch = ud_xstrdup(ud_headers_srcarch(arch));
	archdir = ud_xasprintf("arch/%s/include/uapi", plan->srcarch);
	if (ud_source_type(src, archdir) != UD_FT_DIR) {
		*cause = ud_xasprintf("%s: no such architecture in this tree (no %s)", arch,
				      archdir);
		free(archdir);
		return -ENOENT;
	}
	k.src = src;
	k.srcarch = plan->srcarch;
	k.generated = NULL;
	asmk = ud_xasprintf("%s/asm/Kbuild", archdir);
	read_vars(&k, asmk, "generic-y", &generic, &plan->problems);
	read_vars(&k, asmk, "generated-y", &generated, &plan->problems);
	read_vars(&k, asmk, "no-export-headers", &arch_no_export, &plan->problems);
	read_vars(&k, "include/uapi/asm-generic/Kbuild", "mandatory-y", &mandatory,
		  &plan->problems);
	free(asmk);

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
	if (!ud_headers_plan_has(plan, "linux/version.h")) {
		struct ud_hdr_file *f = plan_add(plan, "linux/version.h",
						 "include/generated/uapi/linux/version.h", true);

		rc = make_version_h(src, &f->gen, cause);
	}
	/* arch/SRCARCH/include/uapi, then its generated part */
	add_sources(plan, src, idx, archdir, &arch_no_export);
	for (i = 0; rc == 0 && i < generated.n; i++) {
		char *dst = ud_xasprintf("asm/%s", generated.v[i]);
		char *gen = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch,
					 generated.v[i]);

		if (!ud_headers_plan_has(plan, dst))
			rc = make_generated(src, plan->srcarch, generated.v[i],
					    &plan_add(plan, dst, gen, true)->gen, cause);
		free(dst);
		free(gen);
	}
	for (i = 0; rc == 0 && i < wrappers.n; i++) {
		char *dst = ud_xasprintf("asm/%s", wrappers.v[i]);
		char *gen = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch,
					 wrappers.v[i]);

		if (!ud_headers_plan_has(plan, dst) && !ud_strlist_has(&generated, wrappers.v[i]))
			ud_buf_addf(&plan_add(plan, dst, gen, true)->gen,
				    "#include <asm-generic/%s>\n", wrappers.v[i]);
		free(dst);
		free(gen);
	}

	/* the tree's own list of grandfathered CONFIG_ leaks */
	if (rc == 0 && ud_source_type(src, "scripts/headers_install.sh") != UD_FT_NONE) {
		if (ud_source_read(src, "scripts/headers_install.sh", &sb, cause) < 0)
			rc = -EIO;
		else
			ud_install_rules_parse(sb.data, sb.len, &plan->rules);
	}
	ud_buf_free(&sb);
	if (rc == 0 && ud_diags_count(&plan->problems, UD_SEV_ERROR) > 0) {
		*cause = ud_xasprintf("%s: the installed-headers set could not be computed",
				      src->label);
		rc = -EIO;
	}

	ud_strlist_free(&generic);
	ud_strlist_free(&mandatory);
	ud_strlist_free(&generated);
	ud_strlist_free(&no_export);
	ud_strlist_free(&arch_no_export);
	ud_strlist_free(&wrappers);
	free(archdir);
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
	}
	free(plan->v);
	free(plan->srcarch);
	ud_install_rules_free(&plan->rules);
	ud_diags_free(&plan->problems);
	memset(plan, 0, sizeof(*plan));
}
