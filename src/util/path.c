// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header path mapping (see path.h).
 */
#include <stdlib.h>
#include <string.h>

#include "uapid/util/buf.h"
#include "uapid/util/path.h"
#include "uapid/util/xmalloc.h"

const char *
ud_path_include_name(const char *path)
{
	const char *p;

	if (strncmp(path, "include/", 8) == 0)
		p = path + 8;
	else if (strncmp(path, "arch/", 5) == 0) {
		const char *slash = strchr(path + 5, '/');

		if (slash == NULL || slash == path + 5 || strncmp(slash, "/include/", 9) != 0)
			return NULL;
		p = slash + 9;
	} else
		return NULL;
	if (*p == '\0')
		return NULL;
	return p;
}

bool
ud_path_is_uapi(const char *path)
{
	const char *n = ud_path_include_name(path);

	return n != NULL && strncmp(n, "uapi/", 5) == 0;
}

char *
ud_path_uapi_twin(const char *path)
{
	const char *n = ud_path_include_name(path);
	struct ud_buf b = UD_BUF_INIT;

	if (n == NULL || strncmp(n, "uapi/", 5) == 0)
		return NULL;
	ud_buf_add(&b, path, (size_t)(n - path));
	ud_buf_addstr(&b, "uapi/");
	ud_buf_addstr(&b, n);
	return ud_buf_detach(&b, NULL);
}

char *
ud_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? ud_xstrndup(path, (size_t)(slash - path)) : ud_xstrdup("");
}

char *
ud_path_normalize(const char *path)
{
	struct ud_buf b = UD_BUF_INIT;
	size_t *starts = ud_xcalloc(strlen(path) + 1, sizeof(*starts)), depth = 0, kept = 0;
	const char *p = path;

	/* starts[i]: where part i begins in b; kept: parts that are not a leading ".." */
	while (*p != '\0') {
		const char *e = strchr(p, '/');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.' && kept > 0) {
			depth--;
			kept--;
			ud_buf_setlen(&b, starts[depth] > 0 ? starts[depth] - 1 : 0);
		} else {
			if (b.len > 0)
				ud_buf_addch(&b, '/');
			starts[depth++] = b.len;
			ud_buf_add(&b, p, n);
			if (!(n == 2 && p[0] == '.' && p[1] == '.'))
				kept++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	free(starts);
	return ud_buf_detach(&b, NULL);
}
