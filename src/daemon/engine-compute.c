// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The thread pool's part of the engine's batch (engine-batch.c): one
 * header's job and one installed file's job, each stat'ed, read, hashed
 * and, when what decides its outputs changed, split or installed through
 * the per-header pipeline.  What a job may read is rule 1 of the contract
 * at the top of engine.c: the job itself and the batch's snapshot.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine-int.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"
#include "uapid/util/xmalloc.h"

/*
 * A file changed this recently may change again within the same tick of
 * the file system's clock without its size or mtime moving ("racy git"):
 * its stat is not trusted next time, its content is hashed again.
 */
#define RACY_NS (2 * 1000000000LL)

/* In-source markers of the 2012 scripts, for the store (the classifier honours them itself). */
static void
scan_in_source(const char *path, const char *text, size_t len, struct ud_markers *out)
{
	const char *p = text, *end = text + len;
	unsigned line = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *l = NULL;

		if (memmem(p, n, "DISINTEGRATE", 12) != NULL) {
			l = ud_xstrndup(p, n);
			if (strstr(l, UD_MARKER_INCLUDE_HERE) != NULL) {
				ud_markers_add(out, path, UD_MARK_INCLUDE_HERE, NULL, 1, NULL);
				out->v[out->n - 1].line = line;
			} else if (strstr(l, UD_MARKER_RETAIN) != NULL) {
				char *at = strstr(l, UD_MARKER_RETAIN);

				*at = '\0';
				ud_markers_add(out, path, UD_MARK_RETAIN, NULL, 1, NULL);
				out->v[out->n - 1].selector = ud_selector_normalize(l);
				out->v[out->n - 1].line = line;
			}
			free(l);
		}
		line++;
		p += n + 1;
	}
}

/* Is the stat the one the row was made from (and not racy): nothing to read? */
static bool
stat_unchanged(const struct hjob *j)
{
	return j->had_row && !j->force && (int64_t)j->st.size == j->old.size &&
	       j->old.mtime_ns != 0 && j->st.mtime_ns == j->old.mtime_ns &&
	       j->st.ino == j->old.ino && strcmp(j->key, j->old.key) == 0 &&
	       j->exported == j->old.exported;
}

/* The text of a header, classified (unexported ones) or split (exported ones). */
static void
split_text(const struct engine_snap *s, struct hjob *j, const struct ud_buf *text)
{
	const struct ud_markers *markers = &s->markers->set;

	scan_in_source(j->path, text->data, text->len, &j->in_source);
	if (j->exported) {
		ud_hsplit_compute_text(j->path, text->data, text->len, markers, &j->h);
		j->split = true;
		j->outcome = ud_engine_outcome(ud_split_outcome_name(j->h.res.outcome));
		j->blocks = ud_json_take_dump(ud_json_blocks(&j->h.res.model));
		j->diags = ud_json_take_dump(ud_json_diags(&j->h.res.diags));
	} else {
		const struct ud_marker **mk = NULL;
		size_t n = ud_markers_for(markers, j->path, &mk);
		struct ud_classified c;

		ud_classify(text->data, text->len, mk, n, &c);
		free(mk);
		j->outcome = j->uapi_dir ? OUT_UAPI : OUT_UNEXPORTED;
		j->blocks = ud_json_take_dump(ud_json_blocks(&c));
		j->diags = ud_json_take_dump(ud_json_diags(&c.diags));
		ud_classified_free(&c);
	}
}

/* An error that says how the system is now, not what the file is: tried again. */
static bool
transient(int rc)
{
	switch (-rc) {
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case ENOBUFS:
	case EAGAIN:
	case EINTR:
	case EIO:
	case ESTALE:
		return true;
	default:
		return false;
	}
}

void
engine_compute_header(const struct engine_snap *s, struct hjob *j)
{
	struct ud_buf text = UD_BUF_INIT;
	struct timespec now;
	int rc;

	if (!j->takes_part && !j->unsure) {
		j->gone = true; /* no header any more: unexported, and not named *.h */
		return;
	}
	/*
	 * Only "no such file" (ENOENT, ENOTDIR: the stat's UD_FT_NONE) is a
	 * deletion.  Any other error (EMFILE, EACCES on a directory, EIO...)
	 * says nothing of the header: it stays as it was, and is looked at
	 * again until the error clears.
	 */
	if ((rc = ud_source_stat(s->src, j->path, &j->st, &j->cause)) < 0 && rc != -ENOENT &&
	    rc != -ENOTDIR) {
		j->failed = true;
		return;
	}
	if (rc < 0 || j->st.type == UD_FT_NONE) {
		free(j->cause);
		j->cause = NULL;
		j->gone = true;
		return;
	}
	if (j->unsure) {
		j->failed = true; /* there, but its directory's listing failed: wait for it */
		return;
	}
	if (j->st.type != UD_FT_FILE || j->st.symlink) {
		/* a symlink, or no file: not one of the tree's headers (as the tree index says) */
		j->gone = true;
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	j->racy = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec - j->st.mtime_ns < RACY_NS;
	if (j->racy)
		j->st.mtime_ns = 0; /* never matches: the next look hashes it */
	if (stat_unchanged(j)) {
		j->same = true;
		copy_str(j->blob, sizeof(j->blob), j->old.blob);
		return;
	}
	if ((rc = ud_source_read(s->src, j->path, &text, &j->cause)) < 0) {
		ud_buf_free(&text);
		if (rc == -ENOENT || rc == -ENOTDIR) {
			j->gone = true; /* removed since its stat */
			free(j->cause);
			j->cause = NULL;
			return;
		}
		if (transient(rc)) {
			j->failed = true; /* the system's state, not the file's */
			return;
		}
		j->unreadable = true;
		j->outcome = OUT_UNREADABLE;
		ud_buf_free(&text);
		return;
	}
	ud_engine_blob(text.data, text.len, j->blob);
	if (j->had_row && !j->force && strcmp(j->blob, j->old.blob) == 0 &&
	    strcmp(j->key, j->old.key) == 0 && j->exported == j->old.exported &&
	    j->old.outcome != OUT_UNREADABLE) {
		j->same = true; /* touched, not changed */
		ud_buf_free(&text);
		return;
	}
	split_text(s, j, &text);
	ud_buf_free(&text);
}

void
engine_compute_install(const struct engine_snap *s, struct ijob *j)
{
	const struct ud_hdr_plan *plan = &s->plan->plan;

	ud_headers_install_file(plan, &plan->v[j->fi], s->src, &j->in);
	ud_engine_blob(j->in.source.data, j->in.source.len, j->src_blob);
	if (!j->in.ok)
		return;
	ud_engine_blob(j->in.text.data, j->in.text.len, j->blob);
	/* a new installed text: its API model, here rather than on the loop (engine-api.c) */
	if (strcmp(j->blob, j->old_blob) != 0)
		ud_engine_api_compute(plan->v[j->fi].dst, ud_buf_str(&j->in.text), j->in.text.len,
				      &j->api);
}
