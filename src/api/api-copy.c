// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A deep copy of a header's model (ud_api_header_copy, api.h).
 *
 * api-diff reads two versions whose headers are mostly the same bytes
 * (6.1 -> 6.12: 650 of ~990): parsing the new one's text again cost as
 * much as the first parse, copying its model a small part of it.  The
 * copy owns every string and array it holds, as a parsed model does (its
 * strings in an arena of its own, sized from the original's: one
 * allocation), so ud_api_header_free and ud_api_resolve treat it as one.
 * A field added to the model's structs (api.h) must be copied here too:
 * check_api's test_copy compares a copy with its original field by field.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "api-internal.h"
#include "uapid/util/xmalloc.h"

/* The path, layouts and layout_why are malloc'd: they are not the arena's. */
static char *
dup_or_null(const char *s)
{
	return s != NULL ? ud_xstrdup(s) : NULL;
}

static struct ud_api_member *copy_members(struct ud_strarena *a, const struct ud_api_member *src,
					  size_t n);

static void
copy_member(struct ud_strarena *a, struct ud_api_member *dst, const struct ud_api_member *src)
{
	*dst = *src;
	dst->name = ud_strarena_strdup(a, src->name);
	dst->type = ud_strarena_strdup(a, src->type);
	dst->array = ud_strarena_strdup(a, src->array);
	dst->dims = ud_strarena_strdup(a, src->dims);
	dst->width = ud_strarena_strdup(a, src->width);
	dst->attrs = ud_strarena_strdup(a, src->attrs);
	dst->cond = ud_strarena_strdup(a, src->cond);
	dst->sub = copy_members(a, src->sub, src->nsub);
}

static struct ud_api_member *
copy_members(struct ud_strarena *a, const struct ud_api_member *src, size_t n)
{
	struct ud_api_member *dst;
	size_t i;

	if (src == NULL)
		return NULL;
	/* at least one: a record with no members still has its (empty) array */
	dst = ud_xcalloc(n > 0 ? n : 1, sizeof(*dst));
	for (i = 0; i < n; i++)
		copy_member(a, &dst[i], &src[i]);
	return dst;
}

static struct ud_api_layout *
copy_layout(const struct ud_api_layout *src)
{
	struct ud_api_layout *dst;
	size_t i;

	if (src == NULL)
		return NULL;
	dst = ud_xmalloc(sizeof(*dst));
	*dst = *src;
	dst->type = dup_or_null(src->type);
	dst->fields = NULL;
	if (src->fields != NULL) {
		dst->fields = ud_xcalloc(src->nfields > 0 ? src->nfields : 1, sizeof(*dst->fields));
		for (i = 0; i < src->nfields; i++) {
			dst->fields[i] = src->fields[i];
			dst->fields[i].path = dup_or_null(src->fields[i].path);
			dst->fields[i].type = dup_or_null(src->fields[i].type);
		}
	}
	return dst;
}

static void
copy_sym(struct ud_strarena *a, struct ud_api_sym *dst, const struct ud_api_sym *src)
{
	*dst = *src;
	dst->name = ud_strarena_strdup(a, src->name);
	dst->cond = ud_strarena_strdup(a, src->cond);
	dst->key = ud_strarena_strdup(a, src->key);
	dst->text = ud_strarena_strdup(a, src->text);
	dst->params = ud_strarena_strdup(a, src->params);
	dst->members = copy_members(a, src->members, src->nmembers);
	if (src->ioctl != NULL) {
		dst->ioctl = ud_strarena_alloc_aligned(a, sizeof(*dst->ioctl),
						       alignof(struct ud_api_ioctl));
		*dst->ioctl = *src->ioctl;
		dst->ioctl->type = ud_strarena_strdup(a, src->ioctl->type);
		dst->ioctl->nr = ud_strarena_strdup(a, src->ioctl->nr);
		dst->ioctl->arg = ud_strarena_strdup(a, src->ioctl->arg);
	}
	dst->source = ud_strarena_strdup(a, src->source);
	dst->expansion = ud_strarena_strdup(a, src->expansion);
	dst->decl = copy_members(a, src->decl, src->decl != NULL ? 1 : 0);
	dst->layout = copy_layout(src->layout);
	dst->layout_why = dup_or_null(src->layout_why);
}

static char **
copy_strings(struct ud_strarena *a, char *const *src, size_t n)
{
	char **dst;
	size_t i;

	if (src == NULL)
		return NULL;
	dst = ud_xcalloc(n > 0 ? n : 1, sizeof(*dst));
	for (i = 0; i < n; i++)
		dst[i] = ud_strarena_strdup(a, src[i]);
	return dst;
}

void
ud_api_header_copy(struct ud_api_header *dst, const struct ud_api_header *src)
{
	size_t i;

	*dst = *src;
	dst->names = api_names_hold(src->names); /* read-only: shared */
	dst->path = dup_or_null(src->path);
	/* the original's bytes, some replaced ones among them: one chunk holds the copy's */
	ud_strarena_init(&dst->strs, src->strs.used + 1);
	dst->v = NULL;
	dst->alloc = src->n;
	if (src->v != NULL) {
		dst->v = ud_xcalloc(src->n > 0 ? src->n : 1, sizeof(*dst->v));
		for (i = 0; i < src->n; i++)
			copy_sym(&dst->strs, &dst->v[i], &src->v[i]);
	}
	dst->includes = copy_strings(&dst->strs, src->includes, src->nincludes);
	dst->include_conds = copy_strings(&dst->strs, src->include_conds, src->nincludes);
	dst->include_lines = NULL;
	if (src->include_lines != NULL) {
		dst->include_lines = ud_xcalloc(src->nincludes + 1, sizeof(*dst->include_lines));
		memcpy(dst->include_lines, src->include_lines,
		       src->nincludes * sizeof(*dst->include_lines));
	}
}
