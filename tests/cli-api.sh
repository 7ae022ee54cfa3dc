#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid api-diff on installed-header directories, kernel trees and git
# revisions: the summary, the details, --json, exit codes, bad input.
. "${top_srcdir:-.}/tests/lib.sh"

M=$top_srcdir/tests/trees/mini
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=C
export GIT_COMMITTER_EMAIL=c@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$WORK

# two trees: the mini tree, and a copy with planted userspace API changes
cp -R "$M" "$WORK/old"
cp -R "$M" "$WORK/new"
chmod -R u+w "$WORK/old" "$WORK/new"
U=$WORK/new/include/uapi/linux/mini.h
printf '#define MINI_ADDED 1\n' >>"$U"
printf 'struct mini_added { int x; };\n' >>"$U"

expect_status 0 "$UAPID" api-diff --arch x86 "$WORK/old" "$WORK/old"
expect_in "$WORK/out" "verdicts: 0 breaking, 0 review, 0 compatible"
expect_status 0 "$UAPID" api-diff --arch x86 "$WORK/old" "$WORK/new"
expect_in "$WORK/out" "old: $WORK/old (tree, installed for x86)"
expect_in "$WORK/out" "headers: 1 changed, 0 added, 0 removed"
expect_in "$WORK/out" "linux/mini.h:"
expect_in "$WORK/out" ": compatible: macro MINI_ADDED: macro added"
expect_in "$WORK/out" ": compatible: struct struct mini_added: struct added"

# installed directories: INSTALL_HDR_PATH or its include/
"$UAPID" install --arch x86 "$WORK/old" "$WORK/inst-old" >/dev/null 2>&1
"$UAPID" install --arch x86 "$WORK/new" "$WORK/inst-new" >/dev/null 2>&1
expect_status 0 "$UAPID" api-diff "$WORK/inst-old" "$WORK/inst-new/include"
expect_in "$WORK/out" "old: $WORK/inst-old/include (installed headers)"
expect_in "$WORK/out" "macro MINI_ADDED: macro added"

# breaking: a value changed, a header removed, a member removed; exit 1
cp -R "$WORK/inst-old" "$WORK/inst-br"
first=$(grep -m1 -n '^#define [A-Z_]* [0-9]' "$WORK/inst-br/include/linux/mini.h" | cut -d: -f1)
name=$(sed -n "${first}p" "$WORK/inst-br/include/linux/mini.h" | awk '{print $2}')
sed -i "${first}s/ [0-9][0-9]*\$/ 12345/" "$WORK/inst-br/include/linux/mini.h"
rm "$WORK/inst-br/include/linux/mini_old.h"
expect_status 1 "$UAPID" api-diff "$WORK/inst-old" "$WORK/inst-br"
expect_in "$WORK/out" "linux/mini_old.h:1: breaking: header removed"
expect_in "$WORK/out" "breaking: macro $name"
expect_in "$WORK/out" ": replacement 1 -> 12345"
expect_status 1 "$UAPID" api-diff --json "$WORK/inst-old" "$WORK/inst-br"
python3 - "$WORK/out" <<'PY' && pass || fail "api-diff --json"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["breaking"] >= 2 and s["headers_removed"] == 1, s
kinds = {(c["header"], c["verdict"], c["what"]) for c in d["changes"]}
assert ("linux/mini_old.h", "breaking", "removed") in kinds, kinds
assert all(set(c) >= {"header", "symbol", "kind", "what", "verdict", "reason", "old_line", "new_line"} for c in d["changes"])
PY

# git revisions, installed in memory: REPO:REV
R=$WORK/repo
cp -R "$WORK/old" "$R"
git -C "$R" init -q -b master && git -C "$R" add -A -f && git -C "$R" commit -q -m base
cp "$U" "$R/include/uapi/linux/mini.h"
git -C "$R" commit -q -a -m "mini: additions"
expect_status 0 "$UAPID" api-diff --arch x86 "$R:master~1" "$R:master"
expect_in "$WORK/out" "old: $R:master~1 (git, installed for x86)"
expect_in "$WORK/out" "macro MINI_ADDED: macro added"
expect_status 0 "$UAPID" api-diff --arch x86 "$R:master" "$WORK/new"
expect_in "$WORK/out" "verdicts: 0 breaking, 0 review, 0 compatible"

# bad input: a clear error, exit 2
expect_status 2 "$UAPID" api-diff "$WORK/old"
expect_status 2 "$UAPID" api-diff "$WORK/nowhere" "$WORK/old"
# with --json, what stopped the run is one JSON object on stdout
expect_status 2 "$UAPID" api-diff --json "$WORK/old" "$WORK/nowhere"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["tree"].endswith("nowhere") and "not a directory" in r["error"], r' \
	"$WORK/out" && pass || fail "api-diff --json: the failure as JSON"
expect_in "$WORK/err" "$WORK/nowhere: not a directory, a kernel tree or REPO:REV"
expect_status 2 "$UAPID" api-diff "$R:no-such-rev" "$WORK/old"
expect_in "$WORK/err" "$R:no-such-rev"
expect_status 2 "$UAPID" api-diff --arch nosuch "$WORK/old" "$WORK/new"
finish
