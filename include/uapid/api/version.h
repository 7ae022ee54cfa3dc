/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The order of release names: kernel tags (v2.6.39 < v3.0 < v3.10, and
 * v5.4-rc1 < v5.4-rc2 < v5.4 < v5.4.1), as `git tag --sort=version:refname`
 * with versionsort.suffix=-rc orders them.  What `uapid api-log` picks the
 * earliest release containing a commit by.
 */
#ifndef UAPID_VERSION_H
#define UAPID_VERSION_H

/*
 * Compares two release names: runs of digits by their value, other bytes
 * as bytes, and a pre-release suffix ("-rc", "-pre", "-beta", "-alpha",
 * in that order from the last) before the release it leads to and before
 * anything that follows the release's name.  Names of the same value
 * spelled differently ("v1.01", "v1.1") are ordered by their bytes, so the
 * order is total.  Returns <0, 0 or >0, as strcmp.
 */
int ud_version_cmp(const char *a, const char *b);

#endif /* UAPID_VERSION_H */
