// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: lexer, conditional tree, classifier and splitter.
 *
 * Invariants checked on every input:
 *  - the classifier's blocks are ordered and cover every physical line
 *    exactly once;
 *  - the splitter never trips its own no-line-lost check ("internal
 *    check" diagnostics), and what it writes lexes again.
 * Any violation aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/core/classify.h"
#include "uapid/core/split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_blocks(const struct ud_classified *c)
{
	struct ud_block *b;
	size_t n = ud_classified_blocks(c, &b), i;
	unsigned next = 1;

	for (i = 0; i < n; i++) {
		if (b[i].first != next || b[i].last < b[i].first) {
			fprintf(stderr, "block %zu: %u-%u, expected to start at %u\n", i,
				b[i].first, b[i].last, next);
			abort();
		}
		next = b[i].last + 1;
	}
	if (c->lexed && next != c->lx.nphys + 1) {
		fprintf(stderr, "blocks end at %u, file has %u lines\n", next - 1, c->lx.nphys);
		abort();
	}
	free(b);
}

static void
check_relex(const struct ud_buf *b)
{
	struct ud_lexed lx;
	struct ud_diags d = UD_DIAGS_INIT;

	if (b->len > 0 && ud_lex(b->data, b->len, &lx, &d) < 0)
		abort();
	if (b->len > 0)
		ud_lexed_free(&lx);
	ud_diags_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ud_classified c;
	struct ud_split_result r;
	size_t i;

	ud_classify((const char *)data, size, NULL, 0, &c);
	check_blocks(&c);
	ud_classified_free(&c);

	ud_split("include/linux/fuzz.h", (const char *)data, size, NULL, 0, &r);
	for (i = 0; i < r.diags.n; i++)
		if (strncmp(r.diags.v[i].message, "internal check", 14) == 0) {
			fprintf(stderr, "line %u: %s\n", r.diags.v[i].line, r.diags.v[i].message);
			abort();
		}
	check_relex(&r.kernel);
	check_relex(&r.uapi);
	ud_split_result_free(&r);
	return 0;
}
