/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * api_join (api-internal.h) in two steps, for a reader that writes the
 * joined text where it keeps it (a header's string arena, a buffer) with
 * no allocation of its own: some 150,000 malloc and free pairs a diff.
 */
#ifndef UAPID_CORE_API_LEX_H
#define UAPID_CORE_API_LEX_H

#include <stddef.h>

struct api_tok;

/* The length of api_join(v, a, b), its NUL not counted. */
size_t api_join_len(const struct api_tok *v, size_t a, size_t b);
/* Writes api_join(v, a, b) and its NUL at out (api_join_len + 1 bytes); returns its NUL. */
char *api_join_to(char *out, const struct api_tok *v, size_t a, size_t b);

#endif /* UAPID_CORE_API_LEX_H */
