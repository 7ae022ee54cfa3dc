// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the install path (sed edits, conditional selection, leak
 * and SPDX checks) and the header checks on its output.
 *
 * Invariants: no crash or sanitizer report; a successful install has a
 * line map with one entry per output line, each pointing into the input;
 * selection never produces more lines than it was given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/core/hcheck.h"
#include "uapid/core/install.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *
no_headers(const char *name, size_t *len, void *ctx)
{
	(void)name;
	(void)len;
	(void)ctx;
	return NULL;
}

static size_t
count_lines(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += s[i] == '\n';
	return c + (n > 0 && s[n - 1] != '\n');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ud_buf out = UD_BUF_INIT;
	struct ud_linemap map = {NULL, 0, 0};
	struct ud_diags d = UD_DIAGS_INIT;
	const char *in = (const char *)data;

	if (ud_install_header("include/uapi/linux/fuzz.h", in, size, NULL, &out, &map, &d) == 0 ||
	    ud_diags_count(&d, UD_SEV_ERROR) > 0) {
		size_t i, lines = count_lines(in, size);

		if (ud_diags_count(&d, UD_SEV_ERROR) == 0) {
			struct ud_hcheck_input hc;
			struct ud_diags hd = UD_DIAGS_INIT;

			if (map.n != count_lines(out.data ? out.data : "", out.len) ||
			    map.n > lines + 1)
				abort();
			for (i = 0; i < map.n; i++)
				if (map.v[i] < 1 || map.v[i] > lines + 1)
					abort();
			memset(&hc, 0, sizeof(hc));
			hc.dst = "linux/fuzz.h";
			hc.text = out.data ? out.data : "";
			hc.len = out.len;
			hc.src = in;
			hc.srclen = size;
			hc.map = &map;
			hc.srcarch = "x86";
			hc.lookup = no_headers;
			ud_hcheck(&hc, &hd);
			ud_diags_free(&hd);
		}
	}
	ud_linemap_free(&map);
	ud_buf_free(&out);
	ud_diags_free(&d);
	return 0;
}
