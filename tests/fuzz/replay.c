// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replays fuzz inputs through the fuzz target without libFuzzer, so the
 * seed corpus runs under "make check" with any compiler.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uapid/util/buf.h"
#include "uapid/io/fsutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	struct ud_buf b = UD_BUF_INIT;
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		char *cause = NULL;

		if (ud_read_file(argv[i], &b, &cause) < 0) {
			fprintf(stderr, "%s\n", cause);
			free(cause);
			ud_buf_free(&b);
			return 2;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)b.data, b.len);
		n++;
	}
	ud_buf_free(&b);
	printf("replayed %d inputs\n", n);
	return 0;
}
