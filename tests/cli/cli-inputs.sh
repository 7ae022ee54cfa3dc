#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 39, cases 1 and 2: every command that takes a TREE or a DIR says on
# its first line what it found (a split source tree, one from before the
# split, installed headers) and refuses, exit 2 with a hint, what is none of
# these; split says "already split", check what its compile test lacks, and
# a Kbuild entry naming no file is a warning at its line.
. "${top_srcdir:-.}/tests/lib/lib.sh"

M=$top_srcdir/tests/trees/mini
cp -R "$M" "$WORK/new"
cp -R "$top_srcdir/tests/trees/mini36" "$WORK/old36"
chmod -R u+w "$WORK/new" "$WORK/old36"
mkdir "$WORK/empty"
"$UAPID" install --arch x86 "$WORK/new" "$WORK/inst" >/dev/null 2>&1

# --- 1: api-diff and api-layout ------------------------------------------------------
# an empty directory is no "every header added", exit 0: refused
expect_status 2 "$UAPID" api-diff --arch x86 "$WORK/empty" "$WORK/new"
expect_in "$WORK/err" "$WORK/empty: no headers in it"
expect_in "$WORK/err" "hint: give a kernel source tree"
# include/linux is a subdirectory of an include directory, not one
expect_status 2 "$UAPID" api-diff "$WORK/inst/include/linux" "$WORK/inst"
expect_in "$WORK/err" "a subdirectory of an include directory"
expect_status 2 "$UAPID" api-layout "$WORK/inst/include/linux"
expect_in "$WORK/err" "a subdirectory of an include directory"
# a tree from before the split is installed first, not read as installed headers
expect_status 1 "$UAPID" api-diff --arch x86 "$WORK/old36" "$WORK/new"
head -1 "$WORK/out" >"$WORK/first"
expect_in "$WORK/first" "old: $WORK/old36 (source tree from before the split, Linux 3.6.0, headers_install.pl, arch x86)"
expect_in "$WORK/out" "new: $WORK/new (split source tree, Linux "
# what the mini 3.6 tree installs: its headers, not its source files read as installed
expect_in "$WORK/out" "(source tree from before the split, Linux 3.6.0, headers_install.pl, arch x86), 15 headers"
# --as installed forces the old reading (a tree's include/ as installed headers)
expect_status 1 "$UAPID" api-diff --as installed --arch x86 "$WORK/old36" "$WORK/new"
expect_in "$WORK/out" "old: $WORK/old36/include (installed headers)"
expect_status 2 "$UAPID" api-diff --as frob "$WORK/old36" "$WORK/new"
expect_in "$WORK/err" "--as frob: 'tree' or 'installed'"
expect_status 0 "$UAPID" api-diff --json --arch x86 "$WORK/inst" "$WORK/new"
python3 - "$WORK/out" <<'PY' && pass || fail "api-diff --json: what each side is"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["old"].endswith("/inst/include (installed headers)"), d["old"]
assert "(split source tree, Linux " in d["new"], d["new"]
PY

# --- 2: split, fix-includes, install, check ----------------------------------------
for cmd in "split --dry-run" "fix-includes --dry-run" "install" "check"; do
	# shellcheck disable=SC2086
	if [ "$cmd" = install ]; then set -- "$WORK/empty" "$WORK/out-dir"; else set -- "$WORK/empty"; fi
	# shellcheck disable=SC2086
	expect_status 2 "$UAPID" $cmd "$@"
	expect_in "$WORK/err" "$WORK/empty: no headers in it"
	expect_in "$WORK/err" "hint: give a kernel source tree"
done
# installed headers are not a tree to split
expect_status 2 "$UAPID" split --dry-run "$WORK/inst"
expect_in "$WORK/err" "$WORK/inst: installed headers, not what this command reads"
# a split tree: said on the first line, and "already split"
expect_status 0 "$UAPID" split --dry-run "$WORK/new"
head -1 "$WORK/out" >"$WORK/first"
expect_in "$WORK/first" "tree: $WORK/new (split source tree, Linux "
expect_in "$WORK/out" "already split"
expect_status 0 "$UAPID" split --json --dry-run "$WORK/new"
python3 - "$WORK/out" <<'PY' && pass || fail "split --json: input and already_split"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["input"]["kind"] == "split" and d["input"]["version"].startswith("6."), d["input"]
assert d["already_split"] is True, d
PY
# before the split: said, and not "already split"
expect_status 1 "$UAPID" split --dry-run "$WORK/old36"
head -1 "$WORK/out" >"$WORK/first"
expect_in "$WORK/first" "tree: $WORK/old36 (source tree from before the split, Linux 3.6.0"
expect_not_in "$WORK/out" "already split"
# header-y += missing.h: a warning at its line
mkdir -p "$WORK/kb/include/linux"
printf 'header-y += a.h\nheader-y += missing.h\n' >"$WORK/kb/include/linux/Kbuild"
printf '#ifndef _A_H\n#define _A_H\nint a;\n#endif\n' >"$WORK/kb/include/linux/a.h"
expect_status 0 "$UAPID" split --dry-run "$WORK/kb"
expect_in "$WORK/err" "include/linux/Kbuild:2: warning: 'missing.h' is listed for export but there is no such file"
# check: a tree without usr/include/Makefile is not 25 compile errors of its headers
cp -R "$M" "$WORK/nomk"
chmod -R u+w "$WORK/nomk"
rm "$WORK/nomk/usr/include/Makefile"
expect_status 0 "$UAPID" check --arch x86 "$WORK/nomk"
head -1 "$WORK/out" >"$WORK/first"
expect_in "$WORK/first" "tree: $WORK/nomk (split source tree, Linux "
expect_in "$WORK/out" "compile test skipped: the tree has no usr/include/Makefile"
expect_status 0 "$UAPID" check --arch x86 --json "$WORK/nomk"
expect_in "$WORK/out" '"compile_skipped":"the tree has no usr/include/Makefile'
expect_in "$WORK/out" '"kind":"split"'
finish
