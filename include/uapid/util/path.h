/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Path mapping between a header and its uapi twin (pure string work).
 *
 *   include/X            -> include/uapi/X           included as <uapi/X>
 *   arch/A/include/D/X   -> arch/A/include/uapi/D/X  included as <uapi/D/X>
 */
#ifndef UAPID_PATH_H
#define UAPID_PATH_H

#include <stdbool.h>

/*
 * The part of a tree-relative header path below its include directory
 * ("linux/types.h", "asm/ptrace.h"), pointing into 'path'; NULL when the
 * path is not under include/ or arch/NAME/include/.
 */
const char *ud_path_include_name(const char *path);
/* The uapi twin's tree-relative path (malloc'd), or NULL as above. */
char *ud_path_uapi_twin(const char *path);
/* True if the path already lies in a uapi/ directory. */
bool ud_path_is_uapi(const char *path);
/* The directory part of a relative path (malloc'd): "a/b" for "a/b/c.h", "" for "c.h". */
char *ud_path_dir(const char *path);
/*
 * A relative path with its "." and "dir/.." parts resolved as text
 * ("asm/../arch/abi.h" -> "arch/abi.h"; a ".." above the start is kept),
 * and no empty parts; malloc'd.
 */
char *ud_path_normalize(const char *path);

#endif /* UAPID_PATH_H */
