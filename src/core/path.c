/*
 * Header path mapping (see path.h).
 */
#include <string.h>

#include "uapid/buf.h"
#include "uapid/path.h"
#include "uapid/xmalloc.h"

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
