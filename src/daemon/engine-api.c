// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The API history of the installed headers (the store's api_versions),
 * in three steps like the rest of a batch (engine-int.h).  On the loop,
 * as an installed header's wave goes out (or as the batch's end removes
 * installed headers): the version in effect, read from the store into the
 * job.  On the pool, from the job alone: the new text's API model, its
 * fingerprint, and, when it differs, the verdicts against the version
 * before.  Back on the loop: the new version stored and the verdicts
 * reported.  Parsing a header's model costs milliseconds (a 6.1 <-> 6.12
 * checkout parses a thousand of them twice): done on the loop, it held
 * `status` for seconds (issue 38).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine-int.h"
#include "uapid/api/api.h"
#include "uapid/store/store.h"
#include "uapid/util/xmalloc.h"

void
ud_engine_api_take(struct ud_engine *e, const char *dst, struct api_job *a)
{
	memset(a, 0, sizeof(*a));
	a->had = ud_store_api_version_at(e->store, dst, INT64_MAX, &a->old_fp, &a->old_text) == 0;
}

void
ud_engine_api_compute(const char *dst, const char *text, size_t len, struct api_job *a)
{
	struct ud_api_header nw, old;
	struct ud_api_diff d;

	if (text != NULL) {
		ud_api_parse(dst, text, len, &nw);
		snprintf(a->fp, sizeof(a->fp), "%016llx", (unsigned long long)nw.fingerprint);
	} else {
		memset(&nw, 0, sizeof(nw));
		snprintf(a->fp, sizeof(a->fp), "-");
	}
	/* the same API (comments, spacing), or nothing removed: no new version */
	a->record = a->had ? strcmp(a->old_fp, a->fp) != 0 : text != NULL;
	if (a->record && a->had) {
		memset(&d, 0, sizeof(d));
		ud_api_parse(dst, ud_buf_str(&a->old_text), a->old_text.len, &old);
		ud_api_diff_changed(&(struct ud_api_pair){&old, text != NULL ? &nw : NULL}, 1, NULL,
				    &d);
		a->breaking = d.verdicts[UD_API_BREAKING];
		a->review = d.verdicts[UD_API_REVIEW];
		a->compatible = d.verdicts[UD_API_COMPATIBLE];
		ud_api_diff_free(&d);
		ud_api_header_free(&old);
	}
	if (text != NULL)
		ud_api_header_free(&nw);
	/* what the loop needs of the old version is said: its text goes now, on the pool */
	ud_buf_free(&a->old_text);
}

void
ud_engine_api_record(struct batch *b, const char *dst, const char *text, size_t len,
		     const struct api_job *a)
{
	struct ud_engine *e = b->e;
	struct ud_engine_api *r;
	char *cause = NULL;

	if (!a->record)
		return;
	if (ud_store_put_api_version(e->store, dst, e->clock, a->fp, text, len, &cause) < 0)
		ud_engine_fault(e, -EIO, cause);
	if (!a->had)
		return;
	b->rep.api = ud_xgrow(b->rep.api, &b->rep.aapi, b->rep.napi + 1, sizeof(*b->rep.api));
	r = &b->rep.api[b->rep.napi++];
	r->path = ud_xstrdup(dst);
	r->breaking = a->breaking;
	r->review = a->review;
	r->compatible = a->compatible;
}

void
ud_engine_api_free(struct api_job *a)
{
	free(a->old_fp);
	ud_buf_free(&a->old_text);
	memset(a, 0, sizeof(*a));
}
