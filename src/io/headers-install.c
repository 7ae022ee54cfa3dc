// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Installing the headers of a plan into OUTDIR (see headers.h): change-only
 * atomic writes, stale removal, and the manifest that lets a run over an
 * unchanged tree skip all work.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapid/util/hash.h"
#include "uapid/util/map.h"
#include "uapid/io/fsutil.h"
#include "uapid/io/headers.h"
#include "uapid/io/sink.h"
#include "uapid/util/xmalloc.h"

/*
 * The install manifest, OUTDIR/.uapid-install: what the last run wrote, so
 * a run over an unchanged tree touches nothing and transforms nothing.  Its
 * first line is a key over everything else that shapes the output (uapid's
 * install version, the architecture, the stats of the tree's install script,
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
key_add_stat(struct ud_buf *key, struct ud_source *src, const char *rel)
{
	struct ud_fstat st;

	if (ud_source_stat(src, rel, &st, NULL) == 0 && st.type != UD_FT_NONE)
		ud_buf_addf(key, " %llu:%llu", (unsigned long long)st.size,
			    (unsigned long long)st.mtime_ns);
	else
		ud_buf_addstr(key, " -");
}

static char *
manifest_key(struct ud_source *src, const struct ud_hdr_plan *plan)
{
	static const char *const common[] = {
		"scripts/headers_install.sh", "scripts/headers_install.pl",
		"scripts/unifdef.c",	      "Makefile",
		"include/uapi/Kbuild",	      "include/uapi/asm-generic/Kbuild"};
	static const char *const per_arch[] = {"include/uapi/asm/Kbuild",
					       "entry/syscalls/syscall_32.tbl",
					       "entry/syscalls/syscall_64.tbl"};
	struct ud_buf key = UD_BUF_INIT;
	size_t i;

	ud_buf_addf(&key, "%s/%d %s %s", PACKAGE_VERSION, UD_INSTALL_VERSION, plan->srcarch,
		    src->label);
	for (i = 0; i < ARRAY_SIZE(common); i++)
		key_add_stat(&key, src, common[i]);
	if (plan->style == UD_INSTALL_PL26) /* the tree's own unifdef */
		key_add_stat(&key, src, "scripts/unifdef.c");
	for (i = 0; i < ARRAY_SIZE(per_arch); i++) {
		char *rel = ud_xasprintf("arch/%s/%s", plan->srcarch, per_arch[i]);

		key_add_stat(&key, src, rel);
		free(rel);
	}
	return ud_buf_detach(&key, NULL);
}

/* " %llu", without printf's machinery: the record has four of them a header. */
static void
add_num(struct ud_buf *b, unsigned long long v)
{
	char d[24];
	size_t i = sizeof(d);

	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	d[--i] = ' ';
	ud_buf_add(b, d + i, sizeof(d) - i);
}

/* A record line's fields after its name: "N N N N", strictly; false if not that. */
static bool
parse_nums(const char *p, unsigned long long *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *end;

		if (*p != ' ' || p[1] < '0' || p[1] > '9')
			return false;
		errno = 0;
		v[i] = strtoull(p + 1, &end, 10);
		if (errno != 0)
			return false;
		p = end;
	}
	return *p == '\0';
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
			unsigned long long v[4];
			const char *sp = strchr(line, ' ');
			struct mentry e;

			if (m->key == NULL) {
				m->key = ud_xstrdup(line);
				continue;
			}
			/* what this file's record() writes; anything else is not a record */
			if (sp == NULL || sp == line || !parse_nums(sp, v, 4))
				continue;
			e.dst = ud_xstrndup(line, (size_t)(sp - line));
			e.ssize = v[0];
			e.smtime = v[1];
			e.osize = v[2];
			e.omtime = v[3];
			m->v = ud_xgrow(m->v, &m->alloc, m->n + 1, sizeof(*m->v));
			m->v[m->n++] = e;
		}
		if (m->n > 0)
			qsort(m->v, m->n, sizeof(*m->v), mentry_cmp);
	}
	ud_buf_free(&b);
	free(path);
}

static int
mentry_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct mentry *)elem)->dst);
}

static const struct mentry *
manifest_find(const struct manifest *m, const char *dst)
{
	return m->n > 0 ? bsearch(dst, m->v, m->n, sizeof(*m->v), mentry_key_cmp) : NULL;
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

/* Removes the .h files below root that the plan does not install; problems go to d. */
static void
remove_stale(const struct ud_hdr_plan *plan, const char *root, struct ud_install_stats *stats,
	     struct ud_diags *d)
{
	struct ud_strlist found = UD_STRLIST_INIT;
	struct ud_source out;
	char *cause = NULL;
	size_t i;

	if (ud_source_open_dir(&out, root, &cause) < 0 ||
	    ud_source_walk(&out, "", ".h", NULL, &found, &cause) < 0) {
		ud_diags_add_at(d, root, 0, UD_SEV_ERROR, "stale headers may be left: %s", cause);
		stats->not_removed++;
		free(cause);
		cause = NULL;
	}
	ud_source_close(&out);
	for (i = 0; i < found.n; i++)
		if (!ud_headers_plan_has(plan, found.v[i])) {
			char *f = ud_xasprintf("%s/%s", root, found.v[i]);

			if (ud_remove_file(f, 0, &cause) == 0) {
				stats->removed++;
			} else {
				ud_diags_add_at(d, f, 0, UD_SEV_ERROR,
						"stale header not removed: %s", cause);
				stats->not_removed++;
				free(cause);
				cause = NULL;
			}
			free(f);
		}
	ud_strlist_free(&found);
}

/* Records this run, unless the record is unchanged; problems go to d. */
static bool
write_manifest(const char *outdir, const struct ud_buf *m, struct ud_diags *d)
{
	bool ok = true;

	char *path = ud_xasprintf("%s/" MANIFEST, outdir), *cause = NULL;
	struct ud_buf cur = UD_BUF_INIT;

	if ((ud_read_file(path, &cur, NULL) < 0 || cur.len != m->len ||
	     memcmp(cur.data, m->data, m->len) != 0) &&
	    ud_write_file(path, m->data, m->len, 0, &cause) < 0) {
		ud_diags_add_at(d, path, 0, UD_SEV_WARNING,
				"the next run cannot skip unchanged headers: %s", cause);
		free(cause);
		ok = false;
	}
	ud_buf_free(&cur);
	free(path);
	return ok;
}

/*
 * Installed texts of tree sources, shared by the installs of several
 * architectures of one tree: a source installs to the same bytes whatever
 * the architecture (the rules are the tree's), so include/uapi is done once.
 */
struct ud_install_memo {
	struct ud_map by_src; /* tree path -> struct ud_installed (malloc'd) */
};

struct ud_install_memo *
ud_install_memo_new(void)
{
	struct ud_install_memo *m = ud_xcalloc(1, sizeof(*m));

	ud_map_reserve(&m->by_src, 2048);
	return m;
}

static void
installed_free_cb(void *value)
{
	ud_installed_free(value);
	free(value);
}

void
ud_install_memo_free(struct ud_install_memo *m)
{
	if (m == NULL)
		return;
	ud_map_free(&m->by_src, installed_free_cb);
	free(m);
}

/* A copy of an installed result (the memo keeps its own). */
static void
installed_copy(struct ud_installed *to, const struct ud_installed *from)
{
	size_t i;

	memset(to, 0, sizeof(*to));
	ud_buf_add(&to->source, ud_buf_str(&from->source), from->source.len);
	ud_buf_add(&to->text, ud_buf_str(&from->text), from->text.len);
	for (i = 0; i < from->map.n; i++) {
		to->map.v = ud_xgrow(to->map.v, &to->map.alloc, to->map.n + 1, sizeof(unsigned));
		to->map.v[to->map.n++] = from->map.v[i];
	}
	for (i = 0; i < from->diags.n; i++)
		ud_diags_add_at(&to->diags, from->diags.v[i].path, from->diags.v[i].line,
				from->diags.v[i].severity, "%s", from->diags.v[i].message);
	to->ok = from->ok;
}

/* ud_headers_install_file through the memo (NULL: none) for tree sources. */
static void
install_file_memo(const struct ud_hdr_plan *plan, const struct ud_hdr_file *f,
		  struct ud_source *src, struct ud_install_memo *memo, struct ud_installed *out)
{
	struct ud_installed *in;

	if (memo == NULL || f->generated || f->problems.n > 0) {
		ud_headers_install_file(plan, f, src, out);
		return;
	}
	if ((in = ud_map_get(&memo->by_src, f->src)) == NULL) {
		in = ud_xcalloc(1, sizeof(*in));
		ud_headers_install_file(plan, f, src, in);
		ud_map_put(&memo->by_src, f->src, in);
	}
	installed_copy(out, in);
}

/* State of one ud_headers_install run. */
struct install_run {
	struct ud_source *src;
	const struct ud_hdr_plan *plan;
	char *root;		      /* OUTDIR/include */
	struct ud_sink sink;	      /* OUTDIR/include, unchanged files kept */
	struct manifest old_m;	      /* the previous run's record */
	bool same_key;		      /* ... made under the same tree files and uapid */
	struct ud_buf manifest;	      /* this run's record */
	struct ud_install_memo *memo; /* shared with other architectures' installs, or NULL */
	struct ud_stat_cache *stc;    /* the source's directories, for this run's stats */
};

enum install_outcome {
	INSTALL_UNCHANGED,
	INSTALL_WRITTEN,
	INSTALL_FAILED,
};

/*
 * Records f in this run's manifest, from the stats of its source and of its
 * output (ost; NULL: stat dst now).
 */
static void
record(struct install_run *r, const struct ud_hdr_file *f, const struct ud_fstat *sst,
       const char *dst, const struct stat *ost)
{
	struct stat now;

	if (!f->generated && ost == NULL && stat(dst, &now) == 0)
		ost = &now;
	if (!f->generated && ost != NULL) {
		ud_buf_addstr(&r->manifest, f->dst);
		add_num(&r->manifest, (unsigned long long)sst->size);
		add_num(&r->manifest, (unsigned long long)sst->mtime_ns);
		add_num(&r->manifest, (unsigned long long)ost->st_size);
		add_num(&r->manifest, mtime_ns(ost));
		ud_buf_addch(&r->manifest, '\n');
	}
}

/*
 * Did neither f's source nor its installed copy change since the last run?
 * The installed copy's stat goes to ost (for the record).
 */
static bool
still_current(const struct install_run *r, const struct ud_hdr_file *f, const struct ud_fstat *sst,
	      const char *dst, struct stat *ost)
{
	const struct mentry *e = r->same_key ? manifest_find(&r->old_m, f->dst) : NULL;

	return e != NULL && e->ssize == sst->size &&
	       e->smtime == (unsigned long long)sst->mtime_ns && stat(dst, ost) == 0 &&
	       e->osize == (unsigned long long)ost->st_size && e->omtime == mtime_ns(ost);
}

void
ud_headers_install_file(const struct ud_hdr_plan *plan, const struct ud_hdr_file *f,
			struct ud_source *src, struct ud_installed *out)
{
	char *cause = NULL;

	memset(out, 0, sizeof(*out));
	if (f->problems.n > 0) {
		size_t i;

		for (i = 0; i < f->problems.n; i++)
			ud_diags_add_at(&out->diags, f->problems.v[i].path, f->problems.v[i].line,
					f->problems.v[i].severity, "%s", f->problems.v[i].message);
		if (ud_diags_count(&f->problems, UD_SEV_ERROR) > 0)
			return;
	}
	if (f->generated) {
		ud_buf_add(&out->source, ud_buf_str(&f->gen), f->gen.len);
	} else if (ud_source_read_stat(src, f->src, &out->source, &out->sst, &cause) < 0) {
		ud_diags_add(&out->diags, 0, UD_SEV_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if (plan->style == UD_INSTALL_SH)
		out->ok = ud_install_header(f->src, ud_buf_str(&out->source), out->source.len,
					    &plan->rules, &out->text, &out->map, &out->diags) == 0;
	else
		out->ok =
			ud_install_header_pl_as(ud_buf_str(&out->source), out->source.len,
						&plan->pl, &out->text, &out->map, &out->diags) == 0;
}

void
ud_installed_free(struct ud_installed *in)
{
	if (in == NULL)
		return;
	ud_buf_free(&in->source);
	ud_buf_free(&in->text);
	ud_linemap_free(&in->map);
	ud_diags_free(&in->diags);
}

/* Installs one header; problems go to d. */
static enum install_outcome
install_one(struct install_run *r, const struct ud_hdr_file *f, struct ud_diags *d)
{
	char *dst = ud_xasprintf("%s/%s", r->root, f->dst), *cause = NULL;
	enum install_outcome outcome = INSTALL_FAILED;
	struct ud_installed in;
	struct ud_fstat sst;
	struct stat ost;
	/* only a header the last run recorded can be current: others are stat'ed as read */
	bool recorded = !f->generated && r->same_key && manifest_find(&r->old_m, f->dst) != NULL;
	int rc;

	memset(&sst, 0, sizeof(sst));
	if (recorded && ud_source_stat_cached(r->src, r->stc, f->src, &sst, NULL) == 0 &&
	    still_current(r, f, &sst, dst, &ost)) {
		record(r, f, &sst, dst, &ost);
		free(dst);
		return INSTALL_UNCHANGED;
	}
	install_file_memo(r->plan, f, r->src, r->memo, &in);
	ud_diags_move(d, &in.diags);
	if (in.ok) {
		rc = ud_sink_write(&r->sink, f->dst, ud_buf_str(&in.text), in.text.len, &cause);
		if (rc >= 0) {
			outcome = rc == 1 ? INSTALL_UNCHANGED : INSTALL_WRITTEN;
			if (!recorded && !f->generated && in.sst.type != UD_FT_NONE)
				sst = in.sst;
			else if (!recorded && !f->generated)
				ud_source_stat_cached(r->src, r->stc, f->src, &sst, NULL);
			record(r, f, &sst, dst, NULL);
		} else {
			ud_diags_add(d, 0, UD_SEV_ERROR, "%s", cause);
			free(cause);
		}
	}
	ud_installed_free(&in);
	free(dst);
	return outcome;
}

int
ud_headers_install(struct ud_source *src, const struct ud_hdr_plan *plan, const char *outdir,
		   void (*report)(const char *path, const struct ud_diags *d, void *ctx), void *ctx,
		   struct ud_install_stats *stats, char **cause)
{
	return ud_headers_install_shared(src, plan, outdir, NULL, report, ctx, stats, cause);
}

int
ud_headers_install_shared(struct ud_source *src, const struct ud_hdr_plan *plan, const char *outdir,
			  struct ud_install_memo *memo,
			  void (*report)(const char *path, const struct ud_diags *d, void *ctx),
			  void *ctx, struct ud_install_stats *stats, char **cause)
{
	struct install_run r;
	struct ud_diags d = UD_DIAGS_INIT;
	char *key;
	size_t i;
	int rc;

	memset(stats, 0, sizeof(*stats));
	memset(&r, 0, sizeof(r));
	r.src = src;
	r.plan = plan;
	r.memo = memo;
	r.root = ud_xasprintf("%s/include", outdir);
	rc = ud_sink_open_dir(&r.sink, r.root, UD_SINK_KEEP_SAME | UD_SINK_STEADY_UMASK, cause);
	if (rc < 0) {
		free(r.root);
		return rc;
	}
	r.stc = ud_stat_cache_new();
	manifest_load(outdir, &r.old_m);
	key = manifest_key(src, plan);
	r.same_key = r.old_m.key != NULL && strcmp(r.old_m.key, key) == 0;
	ud_buf_addf(&r.manifest, "%s\n", key);
	for (i = 0; i < plan->n; i++) {
		stats->files++;
		switch (install_one(&r, &plan->v[i], &d)) {
		case INSTALL_UNCHANGED:
			stats->unchanged++;
			break;
		case INSTALL_WRITTEN:
			stats->written++;
			break;
		case INSTALL_FAILED:
			stats->failed++;
			break;
		}
		if (d.n > 0)
			report(plan->v[i].src, &d, ctx);
		ud_diags_free(&d);
	}
	for (i = 0; i < plan->dirs.n; i++) {
		char *dir = ud_xasprintf("%s/%s", r.root, plan->dirs.v[i]), *why = NULL;

		if (ud_mkdir_p(dir, &why) < 0) {
			ud_diags_add_at(&d, dir, 0, UD_SEV_ERROR, "%s", why);
			stats->failed++;
			free(why);
		}
		free(dir);
	}
	remove_stale(plan, r.root, stats, &d);
	stats->manifest_failed = !write_manifest(outdir, &r.manifest, &d);
	if (d.n > 0)
		report(outdir, &d, ctx);
	ud_diags_free(&d);
	manifest_free(&r.old_m);
	ud_buf_free(&r.manifest);
	ud_sink_close(&r.sink);
	ud_stat_cache_free(r.stc);
	free(key);
	free(r.root);
	return 0;
}

int
ud_headers_install_each(const struct ud_hdr_plan *plan, struct ud_source *src,
			int (*fn)(const char *dst, const char *text, size_t len, void *ctx),
			void *ctx, char **cause)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < plan->n && rc == 0; i++) {
		struct ud_installed in;

		ud_headers_install_file(plan, &plan->v[i], src, &in);
		if (!in.ok) {
			*cause = ud_xasprintf(
				"%s: %s cannot be installed: %s", src->label, plan->v[i].dst,
				in.diags.n > 0 ? in.diags.v[0].message : "unknown reason");
			rc = -EINVAL;
		} else {
			rc = fn(plan->v[i].dst, ud_buf_str(&in.text), in.text.len, ctx);
		}
		ud_installed_free(&in);
	}
	return rc;
}

int
ud_headers_installed_take(const char *dir,
			  int (*fn)(const char *path, char *text, size_t len, void *ctx), void *ctx,
			  char **cause)
{
	struct ud_strlist names = UD_STRLIST_INIT;
	struct ud_source src;
	size_t i;
	int rc;

	if ((rc = ud_source_open_dir(&src, dir, cause)) < 0)
		return rc;
	rc = ud_source_walk(&src, "", ".h", NULL, &names, cause);
	for (i = 0; i < names.n && rc == 0; i++) {
		struct ud_buf b = UD_BUF_INIT;
		size_t len;
		char *text;

		rc = ud_source_read(&src, names.v[i], &b, cause);
		if (rc < 0) {
			ud_buf_free(&b);
			break;
		}
		text = ud_buf_detach(&b, &len);
		/* the read's room past the text back (in place: a shrink copies nothing) */
		rc = fn(names.v[i], ud_xrealloc(text, len + 1), len, ctx);
	}
	ud_strlist_free(&names);
	ud_source_close(&src);
	return rc;
}

struct installed_each {
	int (*fn)(const char *path, const char *text, size_t len, void *ctx);
	void *ctx;
};

static int
installed_each_cb(const char *path, char *text, size_t len, void *ctx)
{
	struct installed_each *e = ctx;
	int rc = e->fn(path, text, len, e->ctx);

	free(text);
	return rc;
}

int
ud_headers_installed_each(const char *dir,
			  int (*fn)(const char *path, const char *text, size_t len, void *ctx),
			  void *ctx, char **cause)
{
	struct installed_each e = {fn, ctx};

	return ud_headers_installed_take(dir, installed_each_cb, &e, cause);
}
