// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's install plan (engine-int.h): computed at a batch's start
 * when what it read changed, and what it says the batch must make and
 * remove.  A new plan is a new object (struct plan_ref): the snapshot of
 * a batch keeps the one its jobs index into.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine-int.h"
#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/util/path.h"
#include "uapid/store/store.h"
#include "uapid/daemon/watch.h"
#include "uapid/util/xmalloc.h"

static bool
has_h_suffix(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && strcmp(path + n - 2, ".h") == 0;
}

/* Is path in an include tree's uapi/ part (where the installer reads)? */
static bool
in_uapi_area(const char *path)
{
	const char *n = ud_path_include_name(path);

	return n != NULL && (strncmp(n, "uapi/", 5) == 0 || strcmp(n, "uapi") == 0 ||
			     strncmp(n, "generated/", 10) == 0);
}

/* What the installed headers were made with: the install rules' version, style, arch, rules. */
static void
install_key(const struct ud_hdr_plan *p, char out[32])
{
	uint64_t h;
	char head[64];
	size_t i;

	if (p->style != UD_INSTALL_PL26)
		snprintf(head, sizeof(head), "%d:%d:%s", UD_INSTALL_VERSION, (int)p->style,
			 p->arch);
	else /* the generation of the pre-split script: its edits and its unifdef */
		snprintf(head, sizeof(head), "%d:%d:%s:%d%d%d%d", UD_INSTALL_VERSION, (int)p->style,
			 p->arch, p->pl.packed, p->pl.exported_headers, p->pl.unifdef_checked,
			 (int)p->pl.unifdef);
	h = ud_fnv64_str(UD_FNV64_BASIS, head);
	for (i = 0; i < p->rules.nleak_ignores; i++)
		h = ud_fnv64_sep(ud_fnv64_str(h, p->rules.leak_ignores[i]));
	snprintf(out, 32, "%016" PRIx64, h);
}

/* Plan file fi is made in this batch (once). */
void
ud_engine_add_ijob(struct batch *b, size_t fi)
{
	struct ijob *j;
	size_t i;

	ASSERT_NO_CHUNKS_OUT(b);
	for (i = 0; i < b->nijobs; i++)
		if (b->ijobs[i].fi == fi)
			return;
	b->ijobs = ud_xgrow(b->ijobs, &b->aijobs, b->nijobs + 1, sizeof(*b->ijobs));
	j = &b->ijobs[b->nijobs++];
	memset(j, 0, sizeof(*j));
	j->fi = fi;
}

/* What the plan read, and their directories: what the watcher must follow. */
static void
set_plan_reads(struct ud_engine *e, struct ud_strlist *reads)
{
	size_t i;

	ud_strlist_sort(reads);
	ud_strlist_free(&e->plan_reads);
	e->plan_reads = *reads;
	ud_strlist_free(&e->plan_dirs);
	for (i = 0; i < e->plan_reads.n; i++) {
		char *d = ud_path_dir(e->plan_reads.v[i]);

		if (!ud_strlist_has(&e->plan_dirs, d))
			ud_strlist_take(&e->plan_dirs, d);
		else
			free(d);
		/* a directory it listed is watched itself */
		if (ud_source_type(&e->src, e->plan_reads.v[i]) == UD_FT_DIR &&
		    !ud_strlist_has(&e->plan_dirs, e->plan_reads.v[i]))
			ud_strlist_add(&e->plan_dirs, e->plan_reads.v[i]);
	}
	ud_strlist_sort(&e->plan_dirs);
}

/* The plan's problems, three of them named, as the install's problem (NULL: none). */
static void
plan_problem(struct ud_engine *e, const struct ud_hdr_plan *plan)
{
	struct ud_buf why = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < plan->problems.n && i < 3; i++)
		ud_buf_addf(&why, "%s%s: %s", i ? "; " : "",
			    plan->problems.v[i].path ? plan->problems.v[i].path : "",
			    plan->problems.v[i].message);
	ud_engine_set_problem(e, &e->problem_install, "install",
			      plan->problems.n > 0 ? ud_buf_str(&why) : NULL);
	ud_buf_free(&why);
}

/* Every installed header goes (refused, or nothing to install). */
static void
uninstall_all(struct batch *b)
{
	struct ud_engine *e = b->e;
	const char *k;
	size_t i = 0;

	while (ud_map_next(&e->installed, &i, &k, NULL))
		ud_strlist_add(&b->uninstall, k);
	ud_engine_plan_unref(e->plan);
	e->plan = NULL;
}

/*
 * Computes the install plan again and decides what to make and remove.
 * The plan reads through a recorder: what it looked at is what the
 * watcher must follow.
 */
void
ud_engine_replan(struct batch *b)
{
	struct ud_engine *e = b->e;
	struct ud_strlist reads = UD_STRLIST_INIT;
	struct ud_source rec;
	struct plan_ref *p;
	char *cause = NULL, *why = NULL, key[32];
	struct ud_fstat st;
	const char *k;
	size_t i;
	int rc;

	ASSERT_NO_CHUNKS_OUT(b);
	b->rep.replanned = true;
	p = ud_xcalloc(1, sizeof(*p));
	p->refs = 1;
	ud_source_open_recorder(&rec, &e->src, &reads);
	rc = ud_headers_plan(&rec, e->idx, e->arch, &p->plan, &cause);
	ud_source_close(&rec);
	set_plan_reads(e, &reads);
	if (rc < 0 && ud_source_stat(&e->src, "Makefile", &st, &why) < 0) {
		/*
		 * The tree could not be read (no descriptor left, ...): that is
		 * no answer of the tree's.  The last plan stays, without a
		 * problem it would not have, and the plan is made again when
		 * the top Makefile can be read (a failing path).
		 */
		ud_engine_fail_path(e, "Makefile", why, false);
		free(cause);
		ud_engine_plan_unref(p);
		return;
	}
	free(why);
	if (rc < 0) {
		ud_engine_set_problem(e, &e->problem_install, "install", cause);
		free(cause);
		ud_engine_plan_unref(p);
		/* refused, or nothing to install: what was installed goes */
		if (rc == -EPERM || rc == -ENOENT)
			uninstall_all(b);
		/* another failure keeps the last plan and its files, stale but named */
		return;
	}
	plan_problem(e, &p->plan);
	ud_engine_plan_unref(e->plan);
	e->plan = p;
	install_key(&p->plan, key);
	/* what to make: new, moved to another source, generated text changed, or other rules */
	for (i = 0; i < p->plan.n; i++) {
		const struct ud_hdr_file *f = &p->plan.v[i];
		struct istate *s = ud_map_get(&e->installed, f->dst);
		char gb[BLOB_HEX];

		if (s == NULL || strcmp(s->src, f->src) != 0 || strcmp(key, e->install_key) != 0 ||
		    f->problems.n > 0 || s->blob[0] == '\0') {
			ud_engine_add_ijob(b, i);
			continue;
		}
		if (f->generated) {
			ud_engine_blob(f->gen.data, f->gen.len, gb);
			if (strcmp(gb, s->src_blob) != 0)
				ud_engine_add_ijob(b, i);
		}
	}
	i = 0;
	while (ud_map_next(&e->installed, &i, &k, NULL))
		if (!ud_headers_plan_has(&p->plan, k))
			ud_strlist_add(&b->uninstall, k);
	if (strcmp(key, e->install_key) != 0) {
		copy_str(e->install_key, sizeof(e->install_key), key);
		ud_store_set_meta(e->store, "install_key", key, NULL);
	}
}

/* Does a change at path (kinds from the watcher) call for a new install plan? */
bool
ud_engine_wants_replan(const struct ud_engine *e, const char *path, unsigned kinds, bool existed)
{
	char *dir;
	bool hit;

	if (ud_strlist_bsearch(&e->plan_reads, path) >= 0)
		return true;
	if (kinds & (UD_WATCH_DIR | UD_WATCH_RESCAN))
		return in_uapi_area(path) || has_prefix_dir("include/uapi", path) ||
		       ud_strlist_bsearch(&e->plan_dirs, path) >= 0;
	if (!(kinds & UD_WATCH_ENTRY))
		return false;
	/*
	 * A name came or went: in the uapi part, only a header's coming or
	 * going counts (the install takes *.h there); the 3.x install reads
	 * the export lists, which may name any header.
	 */
	if (ud_path_include_name(path) != NULL)
		return existed != ud_tindex_has(e->idx, path) &&
		       (in_uapi_area(path)
				? has_h_suffix(path)
				: e->plan != NULL && e->plan->plan.style != UD_INSTALL_SH &&
					  is_header(e, path));
	dir = ud_path_dir(path);
	hit = ud_strlist_bsearch(&e->plan_reads, dir) >= 0;
	free(dir);
	return hit;
}
