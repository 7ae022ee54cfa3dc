/*
 * The installed-headers set and its installation (see headers.h).
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/fsutil.h"
#include "uapid/headers.h"
#include "uapid/xmalloc.h"

/* A Kbuild variable list: generic-y, mandatory-y, generated-y, no-export-headers. */
struct names {
	char **v;
	size_t n, alloc;
};

static void
names_add(struct names *l, const char *s, size_t n)
{
	l->v = ud_xgrow(l->v, &l->alloc, l->n + 1, sizeof(char *));
	l->v[l->n++] = ud_xstrndup(s, n);
}

static bool
names_has(const struct names *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

static void
names_free(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

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
	const struct ud_tree *t;
	const char *srcarch;
	const struct names *generated; /* wrapper names that will exist in generated/uapi/asm */
};

/* Expands $(srctree), $(objtree) and $(SRCARCH) in a Kbuild path. */
static char *
expand(const struct kb_ctx *k, const char *s, size_t n)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t i = 0;

	while (i < n) {
		if (n - i >= 10 && memcmp(s + i, "$(srctree)", 10) == 0) {
			ud_buf_addstr(&b, k->t->root);
			i += 10;
		} else if (n - i >= 10 && memcmp(s + i, "$(objtree)", 10) == 0) {
			ud_buf_addstr(&b, k->t->root);
			i += 10;
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

	if (g != NULL && k->generated != NULL && names_has(k->generated, g + sizeof(gen) - 1))
		return true;
	return access(path, F_OK) == 0;
}

/*
 * Parses the variable assignments of a Kbuild file, evaluating the
 * conditionals uapi Kbuild files use: ifeq/ifneq ($(wildcard PATH),) and
 * ifeq/ifneq ($(SRCARCH),NAME).  Unknown conditions count as false.
 */
static void
kbuild_vars(const struct kb_ctx *k, const char *text, size_t len, const char *var,
	    struct names *out)
{
	const char *p = text, *end = text + len;
	bool live[64];
	unsigned depth = 0;
	size_t vlen = strlen(var);

	live[0] = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end, *q = p;
		bool on = true;
		unsigned i;

		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		for (i = 0; i <= depth; i++)
			on = on && live[i];
		if ((e - q >= 5 && memcmp(q, "ifeq ", 5) == 0) ||
		    (e - q >= 6 && memcmp(q, "ifneq ", 6) == 0)) {
			bool neq = q[2] == 'n';
			const char *a = memchr(q, '(', (size_t)(e - q)), *comma, *close;
			bool v = false;

			if (a != NULL && (comma = memrchr(a, ',', (size_t)(e - a))) != NULL &&
			    (close = memrchr(comma, ')', (size_t)(e - comma))) != NULL) {
				bool empty_rhs = close == comma + 1;

				if (strncmp(a + 1, "$(wildcard ", 11) == 0 && empty_rhs) {
					char *path = expand(k, a + 12, (size_t)(comma - a - 13));

					v = !wildcard_exists(k, path); /* ifeq (..., ) : missing */
					free(path);
				} else if (strncmp(a + 1, "$(SRCARCH)", 10) == 0) {
					v = (size_t)(close - comma - 1) == strlen(k->srcarch) &&
					    memcmp(comma + 1, k->srcarch, strlen(k->srcarch)) == 0;
				}
			}
			if (depth + 1 < sizeof(live) / sizeof(live[0]))
				live[++depth] = neq ? !v : v;
		} else if (e - q >= 4 && memcmp(q, "else", 4) == 0) {
			live[depth] = !live[depth];
		} else if (e - q >= 5 && memcmp(q, "endif", 5) == 0) {
			if (depth > 0)
				depth--;
		} else if (on && (size_t)(e - q) > vlen && memcmp(q, var, vlen) == 0) {
			const char *v = q + vlen;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			if (e - v >= 2 && (memcmp(v, "+=", 2) == 0 || memcmp(v, ":=", 2) == 0))
				v += 2;
			else if (v < e && *v == '=')
				v++;
			else
				v = NULL;
			while (v != NULL && v < e) {
				const char *w;

				while (v < e && (*v == ' ' || *v == '\t'))
					v++;
				if (v < e && *v == '#')
					break;
				w = v;
				while (v < e && *v != ' ' && *v != '\t')
					v++;
				if (v > w)
					names_add(out, w, (size_t)(v - w));
			}
		}
		p = nl != NULL ? nl + 1 : end;
	}
}

static void
read_vars(const struct kb_ctx *k, const char *rel, const char *var, struct names *out)
{
	char *abs = ud_tree_path(k->t, rel);
	struct ud_buf b = UD_BUF_INIT;

	if (ud_read_file(abs, &b, NULL) == 0)
		kbuild_vars(k, b.data, b.len, var, out);
	ud_buf_free(&b);
	free(abs);
}

void
ud_headers_make_list(const struct ud_tree *t, const char *srcarch, const char *rel, const char *var,
		     struct ud_paths *out)
{
	struct kb_ctx k = {t, srcarch, NULL};
	struct names l = {0};
	size_t i;

	read_vars(&k, rel, var, &l);
	for (i = 0; i < l.n; i++)
		ud_paths_add(out, l.v[i]);
	names_free(&l);
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

static bool
plan_has_dst(const struct ud_hdr_plan *plan, const char *dst)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (strcmp(plan->v[i].dst, dst) == 0)
			return true;
	return false;
}

/* Every .h below dir (tree-relative), as paths relative to dir, like find -name '*.h'. */
static void
find_headers(const struct ud_tree *t, const char *dir, const char *sub, struct names *out)
{
	char *abs = sub[0] ? ud_xasprintf("%s/%s/%s", t->root, dir, sub)
			   : ud_xasprintf("%s/%s", t->root, dir);
	DIR *d = opendir(abs);
	struct dirent *de;

	free(abs);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		char *rel;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		rel = sub[0] ? ud_xasprintf("%s/%s", sub, de->d_name) : ud_xstrdup(de->d_name);
		if (de->d_type == DT_DIR)
			find_headers(t, dir, rel, out);
		else if (n > 2 && strcmp(de->d_name + n - 2, ".h") == 0 && sub[0] != '\0')
			names_add(out, rel, strlen(rel));
		free(rel);
	}
	closedir(d);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The Makefile's VERSION, PATCHLEVEL, SUBLEVEL as linux/version.h. */
static int
make_version_h(const struct ud_tree *t, struct ud_buf *out, char **cause)
{
	static const char *const keys[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL"};
	char *abs = ud_tree_path(t, "Makefile");
	struct ud_buf mk = UD_BUF_INIT;
	long v[3] = {-1, -1, -1};
	const char *p;
	size_t i;
	int rc = ud_read_file(abs, &mk, cause);

	free(abs);
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
		*cause = ud_xasprintf("%s/Makefile: no VERSION or PATCHLEVEL", t->root);
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
make_unistd(const struct ud_tree *t, const char *table, const char *const *abis, const char *offset,
	    const char *name, struct ud_buf *out, char **cause)
{
	char *abs = ud_tree_path(t, table);
	struct ud_buf tb = UD_BUF_INIT, guard = UD_BUF_INIT;
	const char *p, *end;
	long max = 0;
	size_t i;
	int rc = ud_read_file(abs, &tb, cause);

	free(abs);
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
make_generated(const struct ud_tree *t, const char *srcarch, const char *name, struct ud_buf *out,
	       char **cause)
{
	static const char *const i386[] = {"i386", NULL};
	static const char *const x64[] = {"common", "64", NULL};
	static const char *const x32[] = {"common", "x32", NULL};

	if (strcmp(srcarch, "x86") == 0) {
		if (strcmp(name, "unistd_32.h") == 0)
			return make_unistd(t, "arch/x86/entry/syscalls/syscall_32.tbl", i386, NULL,
					   name, out, cause);
		if (strcmp(name, "unistd_64.h") == 0)
			return make_unistd(t, "arch/x86/entry/syscalls/syscall_64.tbl", x64, NULL,
					   name, out, cause);
		if (strcmp(name, "unistd_x32.h") == 0)
			return make_unistd(t, "arch/x86/entry/syscalls/syscall_64.tbl", x32,
					   "__X32_SYSCALL_BIT", name, out, cause);
	}
	*cause = ud_xasprintf("arch/%s/include/uapi/asm/Kbuild: generated-y %s: uapid does not "
			      "know how this architecture generates it",
			      srcarch, name);
	return -ENOTSUP;
}

/* Adds every source header of a uapi directory, less no-export-headers. */
static void
add_sources(struct ud_hdr_plan *plan, const struct ud_tree *t, const char *dir,
	    const struct names *no_export)
{
	struct names found = {0};
	size_t i;

	find_headers(t, dir, "", &found);
	qsort(found.v, found.n, sizeof(char *), cmp_names);
	for (i = 0; i < found.n; i++) {
		char *src;

		if (names_has(no_export, found.v[i]))
			continue;
		src = ud_xasprintf("%s/%s", dir, found.v[i]);
		plan_add(plan, found.v[i], src, false);
		free(src);
	}
	names_free(&found);
}

int
ud_headers_plan(const struct ud_tree *t, const char *arch, struct ud_hdr_plan *plan, char **cause)
{
	struct names generic = {0}, mandatory = {0}, generated = {0}, no_export = {0},
		     arch_no_export = {0}, wrappers = {0};
	struct kb_ctx k;
	char *archdir, *asmk, *abs, *script;
	struct ud_buf sb = UD_BUF_INIT;
	size_t i;
	int rc = 0;

	memset(plan, 0, sizeof(*plan));
	plan->srcarch = ud_xstrdup(ud_headers_srcarch(arch));
	archdir = ud_xasprintf("arch/%s/include/uapi", plan->srcarch);
	abs = ud_tree_path(t, archdir);
	if (!ud_is_dir(abs)) {
		*cause = ud_xasprintf("%s: no such architecture in this tree (no %s)", arch,
				      archdir);
		free(abs);
		free(archdir);
		return -ENOENT;
	}
	free(abs);
	k.t = t;
	k.srcarch = plan->srcarch;
	k.generated = NULL;
	asmk = ud_xasprintf("%s/asm/Kbuild", archdir);
	read_vars(&k, asmk, "generic-y", &generic);
	read_vars(&k, asmk, "generated-y", &generated);
	read_vars(&k, asmk, "no-export-headers", &arch_no_export);
	read_vars(&k, "include/uapi/asm-generic/Kbuild", "mandatory-y", &mandatory);
	free(asmk);

	/* wrappers: generic-y, and mandatory-y the architecture does not provide */
	for (i = 0; i < generic.n; i++)
		names_add(&wrappers, generic.v[i], strlen(generic.v[i]));
	for (i = 0; i < mandatory.n; i++) {
		char *own = ud_xasprintf("%s/%s/asm/%s", t->root, archdir, mandatory.v[i]);

		if (!names_has(&generated, mandatory.v[i]) && access(own, F_OK) != 0 &&
		    !names_has(&wrappers, mandatory.v[i]))
			names_add(&wrappers, mandatory.v[i], strlen(mandatory.v[i]));
		free(own);
	}
	k.generated = &wrappers;
	read_vars(&k, "include/uapi/Kbuild", "no-export-headers", &no_export);

	/* include/uapi, then its generated part (linux/version.h) */
	add_sources(plan, t, "include/uapi", &no_export);
	if (!plan_has_dst(plan, "linux/version.h")) {
		struct ud_hdr_file *f = plan_add(plan, "linux/version.h",
						 "include/generated/uapi/linux/version.h", true);

		rc = make_version_h(t, &f->gen, cause);
	}
	/* arch/SRCARCH/include/uapi, then its generated part */
	add_sources(plan, t, archdir, &arch_no_export);
	for (i = 0; rc == 0 && i < generated.n; i++) {
		char *dst = ud_xasprintf("asm/%s", generated.v[i]);
		char *src = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch,
					 generated.v[i]);

		if (!plan_has_dst(plan, dst))
			rc = make_generated(t, plan->srcarch, generated.v[i],
					    &plan_add(plan, dst, src, true)->gen, cause);
		free(dst);
		free(src);
	}
	for (i = 0; rc == 0 && i < wrappers.n; i++) {
		char *dst = ud_xasprintf("asm/%s", wrappers.v[i]);
		char *src = ud_xasprintf("arch/%s/include/generated/uapi/asm/%s", plan->srcarch,
					 wrappers.v[i]);

		if (!plan_has_dst(plan, dst) && !names_has(&generated, wrappers.v[i]))
			ud_buf_addf(&plan_add(plan, dst, src, true)->gen,
				    "#include <asm-generic/%s>\n", wrappers.v[i]);
		free(dst);
		free(src);
	}

	/* the tree's own list of grandfathered CONFIG_ leaks */
	script = ud_tree_path(t, "scripts/headers_install.sh");
	if (ud_read_file(script, &sb, NULL) == 0)
		ud_install_rules_parse(sb.data, sb.len, &plan->rules);
	free(script);
	ud_buf_free(&sb);

	names_free(&generic);
	names_free(&mandatory);
	names_free(&generated);
	names_free(&no_export);
	names_free(&arch_no_export);
	names_free(&wrappers);
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
	memset(plan, 0, sizeof(*plan));
}

/*
 * The install manifest, OUTDIR/.uapid-install: what the last run wrote, so
 * a run over an unchanged tree touches nothing and transforms nothing.  Its
 * first line is a key over everything else that shapes the output (uapid's
 * version, the architecture, the stats of the tree's install script,
 * Makefile, Kbuild lists and syscall tables); then one line a header:
 * "dst src-size src-mtime out-size out-mtime" (mtimes in nanoseconds).
 */
#define MANIFEST ".uapid-install"

struct mentry {
	char *dst;
	unsigned long long ssize, smtime, osize, omtime;
};

struct manifest {
	char *key;
	struct mentry *v;
	size_t n, alloc;
};

static unsigned long long
mtime_ns(const struct stat *st)
{
	return (unsigned long long)st->st_mtim.tv_sec * 1000000000ull +
	       (unsigned long long)st->st_mtim.tv_nsec;
}

static void
key_add_stat(struct ud_buf *key, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		ud_buf_addf(key, " %llu:%llu", (unsigned long long)st.st_size, mtime_ns(&st));
	else
		ud_buf_addstr(key, " -");
}

static char *
manifest_key(const struct ud_tree *t, const struct ud_hdr_plan *plan)
{
	static const char *const common[] = {"scripts/headers_install.sh", "Makefile",
					     "include/uapi/Kbuild",
					     "include/uapi/asm-generic/Kbuild"};
	static const char *const per_arch[] = {"include/uapi/asm/Kbuild",
					       "entry/syscalls/syscall_32.tbl",
					       "entry/syscalls/syscall_64.tbl"};
	struct ud_buf key = UD_BUF_INIT;
	size_t i;

	ud_buf_addf(&key, "%s %s %s", PACKAGE_VERSION, plan->srcarch, t->root);
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		char *abs = ud_tree_path(t, common[i]);

		key_add_stat(&key, abs);
		free(abs);
	}
	for (i = 0; i < sizeof(per_arch) / sizeof(per_arch[0]); i++) {
		char *abs = ud_xasprintf("%s/arch/%s/%s", t->root, plan->srcarch, per_arch[i]);

		key_add_stat(&key, abs);
		free(abs);
	}
	return ud_buf_detach(&key, NULL);
}

static int
mentry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct mentry *)a)->dst, ((const struct mentry *)b)->dst);
}

static void
manifest_load(const char *outdir, struct manifest *m)
{
	char *path = ud_xasprintf("%s/" MANIFEST, outdir);
	struct ud_buf b = UD_BUF_INIT;
	char *line, *save = NULL;

	memset(m, 0, sizeof(*m));
	if (ud_read_file(path, &b, NULL) == 0 && b.len > 0) {
		for (line = strtok_r(b.data, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			char dst[4096];
			struct mentry e;

			if (m->key == NULL) {
				m->key = ud_xstrdup(line);
				continue;
			}
			if (sscanf(line, "%4095s %llu %llu %llu %llu", dst, &e.ssize, &e.smtime,
				   &e.osize, &e.omtime) != 5)
				continue;
			e.dst = ud_xstrdup(dst);
			m->v = ud_xgrow(m->v, &m->alloc, m->n + 1, sizeof(*m->v));
			m->v[m->n++] = e;
		}
		qsort(m->v, m->n, sizeof(*m->v), mentry_cmp);
	}
	ud_buf_free(&b);
	free(path);
}

static const struct mentry *
manifest_find(const struct manifest *m, const char *dst)
{
	struct mentry k;

	memset(&k, 0, sizeof(k));
	k.dst = (char *)(uintptr_t)dst;
	return m->n > 0 ? bsearch(&k, m->v, m->n, sizeof(*m->v), mentry_cmp) : NULL;
}

static void
manifest_free(struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].dst);
	free(m->v);
	free(m->key);
	memset(m, 0, sizeof(*m));
}

/* Removes .h files below dir (absolute) that the plan does not install. */
static void
remove_stale(const struct ud_hdr_plan *plan, const char *root, const char *sub,
	     struct ud_install_stats *stats)
{
	char *abs = sub[0] ? ud_xasprintf("%s/%s", root, sub) : ud_xstrdup(root);
	DIR *d = opendir(abs);
	struct dirent *de;

	if (d == NULL) {
		free(abs);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		char *rel;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		rel = sub[0] ? ud_xasprintf("%s/%s", sub, de->d_name) : ud_xstrdup(de->d_name);
		if (de->d_type == DT_DIR) {
			remove_stale(plan, root, rel, stats);
		} else if (n > 2 && strcmp(de->d_name + n - 2, ".h") == 0 &&
			   !plan_has_dst(plan, rel)) {
			char *f = ud_xasprintf("%s/%s", root, rel);

			if (unlink(f) == 0)
				stats->removed++;
			free(f);
		}
		free(rel);
	}
	closedir(d);
	free(abs);
}

/* Records this run, unless the record is unchanged. */
static void
write_manifest(const char *outdir, const struct ud_buf *m)
{
	char *path = ud_xasprintf("%s/" MANIFEST, outdir);
	struct ud_buf cur = UD_BUF_INIT;

	if (ud_read_file(path, &cur, NULL) < 0 || cur.len != m->len ||
	    memcmp(cur.data, m->data, m->len) != 0)
		ud_write_atomic(path, m->data, m->len, NULL);
	ud_buf_free(&cur);
	free(path);
}

int
ud_headers_install(const struct ud_tree *t, const struct ud_hdr_plan *plan, const char *outdir,
		   void (*report)(const char *path, const struct ud_diags *d, void *ctx), void *ctx,
		   struct ud_install_stats *stats, char **cause)
{
	struct ud_buf in = UD_BUF_INIT, out = UD_BUF_INIT, old = UD_BUF_INIT, new_m = UD_BUF_INIT;
	char *root = ud_xasprintf("%s/include", outdir), *lastdir = NULL, *key;
	struct manifest old_m;
	bool same_key;
	size_t i;
	int rc = ud_mkdir_p(root, cause);

	memset(stats, 0, sizeof(*stats));
	if (rc < 0) {
		free(root);
		return rc;
	}
	manifest_load(outdir, &old_m);
	key = manifest_key(t, plan);
	same_key = old_m.key != NULL && strcmp(old_m.key, key) == 0;
	ud_buf_addf(&new_m, "%s\n", key);
	for (i = 0; i < plan->n; i++) {
		const struct ud_hdr_file *f = &plan->v[i];
		struct ud_diags d = UD_DIAGS_INIT;
		char *dst = ud_xasprintf("%s/%s", root, f->dst), *slash, *c = NULL;
		const struct ud_buf *src = &f->gen;
		struct stat sst, ost;
		bool have_sst = false;

		stats->files++;
		if (!f->generated) {
			char *abs = ud_tree_path(t, f->src);
			const struct mentry *e = same_key ? manifest_find(&old_m, f->dst) : NULL;

			have_sst = stat(abs, &sst) == 0;
			if (e != NULL && have_sst && stat(dst, &ost) == 0 &&
			    e->ssize == (unsigned long long)sst.st_size &&
			    e->smtime == mtime_ns(&sst) &&
			    e->osize == (unsigned long long)ost.st_size &&
			    e->omtime == mtime_ns(&ost)) {
				/* neither the source nor the installed file changed */
				stats->unchanged++;
				ud_buf_addf(&new_m, "%s %llu %llu %llu %llu\n", f->dst, e->ssize,
					    e->smtime, e->osize, e->omtime);
				free(abs);
				free(dst);
				continue;
			}
			if (ud_read_file(abs, &in, &c) < 0) {
				ud_diags_add(&d, 0, UD_SEV_ERROR, "%s", c);
				free(c);
				c = NULL;
			}
			free(abs);
			src = &in;
		}
		if (d.n == 0)
			ud_install_header(f->src, ud_buf_str(src), src->len, &plan->rules, &out,
					  NULL, &d);
		if (ud_diags_count(&d, UD_SEV_ERROR) > 0) {
			stats->failed++;
			report(f->src, &d, ctx);
		} else if (ud_read_file(dst, &old, NULL) == 0 && old.len == out.len &&
			   memcmp(old.data, ud_buf_str(&out), out.len) == 0) {
			stats->unchanged++;
		} else {
			slash = strrchr(dst, '/');
			*slash = '\0';
			if (lastdir == NULL || strcmp(lastdir, dst) != 0) {
				if (ud_mkdir_p(dst, &c) < 0)
					ud_diags_add(&d, 0, UD_SEV_ERROR, "%s", c);
				free(lastdir);
				lastdir = ud_xstrdup(dst);
			}
			*slash = '/';
			if (d.n == 0 && ud_write_atomic(dst, ud_buf_str(&out), out.len, &c) < 0)
				ud_diags_add(&d, 0, UD_SEV_ERROR, "%s", c);
			if (d.n > 0) {
				stats->failed++;
				report(f->src, &d, ctx);
			} else {
				stats->written++;
			}
			free(c);
			c = NULL;
		}
		if (!f->generated && have_sst && d.n == 0 && stat(dst, &ost) == 0)
			ud_buf_addf(&new_m, "%s %llu %llu %llu %llu\n", f->dst,
				    (unsigned long long)sst.st_size, mtime_ns(&sst),
				    (unsigned long long)ost.st_size, mtime_ns(&ost));
		ud_diags_free(&d);
		free(dst);
	}
	remove_stale(plan, root, "", stats);
	write_manifest(outdir, &new_m);
	manifest_free(&old_m);
	ud_buf_free(&new_m);
	free(key);
	ud_buf_free(&in);
	ud_buf_free(&out);
	ud_buf_free(&old);
	free(lastdir);
	free(root);
	return 0;
}
