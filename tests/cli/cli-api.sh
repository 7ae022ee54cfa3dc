#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid api-diff on installed-header directories, kernel trees and git
# revisions: the summary, the details, --json, exit codes, bad input.
. "${top_srcdir:-.}/tests/lib/lib.sh"

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
expect_in "$WORK/out" "old: $WORK/old (split source tree, Linux "
expect_in "$WORK/out" ", arch x86), "
expect_in "$WORK/out" "headers: 1 changed, 0 added, 0 removed"
expect_in "$WORK/out" "linux/mini.h:"
expect_in "$WORK/out" ": compatible: macro MINI_ADDED: macro added"
expect_in "$WORK/out" ": compatible: struct mini_added: struct added"

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

# verdicts from layouts, values and conditions for the target ABI: padding
# given a name moves nothing (but a positional initialiser now fills it:
# review on the source axis), a struct that grew at its end (under
# __ASSEMBLY__ -> __ASSEMBLER__, the same for C) and a moved sentinel are
# for review, none is breaking; one entry per symbol and edit
cp -R "$WORK/inst-old" "$WORK/inst-lay"
cp -R "$WORK/inst-old" "$WORK/inst-lay2"
printf '%s\n' 'struct mini_pad { __u32 a; __u32 :32; __u64 b; };' '#ifndef __ASSEMBLY__' \
	'struct mini_grow { __u32 a; __u32 b; };' '#endif' '#define MINI_GROW_MAX 3' \
	>>"$WORK/inst-lay/include/linux/mini.h"
printf '%s\n' 'struct mini_pad { __u32 a; __u32 reserved; __u64 b; };' '#ifndef __ASSEMBLER__' \
	'struct mini_grow { __u32 a; __u32 b; __u64 c; };' '#endif' '#define MINI_GROW_MAX 4' \
	>>"$WORK/inst-lay2/include/linux/mini.h"
expect_status 0 "$UAPID" api-diff "$WORK/inst-lay" "$WORK/inst-lay2"
expect_in "$WORK/out" "verdicts: 0 breaking, 3 review, 0 compatible"
expect_in "$WORK/out" "review: struct mini_pad: padding named: reserved"
expect_in "$WORK/out" "review: struct mini_grow: grew at its end: size 8 -> 16, members added: c"
expect_in "$WORK/out" "review: macro MINI_GROW_MAX: sentinel moved: replacement 3 -> 4 [binary: review, source: ok]"
expect_in "$WORK/out" "[binary: ok, source: review]"
expect_status 0 "$UAPID" api-diff --json "$WORK/inst-lay" "$WORK/inst-lay2"
# a reason over 160 characters is cut in the text (issue 41), whole in --json
expect_in "$WORK/out" "members added: reserved in room it already had"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rules = sorted((c["symbol"], c["verdict"], c["rule"]) for c in d["changes"])
assert rules == [("MINI_GROW_MAX", "review", "sentinel"),
                 ("struct mini_grow", "review", "grew"),
                 ("struct mini_pad", "review", "reserved")], rules
assert all("rule" in c for c in d["changes"])
# the two axes (issue 40): each with its rule; the verdict the worse of the two
axes = sorted((c["symbol"], c["binary"], c["binary_rule"], c["source"], c["source_rule"])
              for c in d["changes"])
assert axes == [("MINI_GROW_MAX", "review", "sentinel", "ok", "sentinel"),
                ("struct mini_grow", "review", "grew", "ok", "grew"),
                ("struct mini_pad", "ok", "reserved", "review", "reserved")], axes
assert d["summary"]["by_axis"] == {"binary": {"breaking": 0, "review": 2, "ok": 1},
                                   "source": {"breaking": 0, "review": 1, "ok": 2}}, d["summary"]
' "$WORK/out" && pass || fail "api-diff --json: each change names its rule"
# another ABI: __u64 is 4-aligned in an i386 struct, the alignment stays
expect_status 0 "$UAPID" api-diff --abi i386 "$WORK/inst-lay" "$WORK/inst-lay2"
expect_in "$WORK/out" "verdicts: 0 breaking, 3 review, 0 compatible"
expect_in "$WORK/out" "grew at its end: size 8 -> 16"
# no ABI: the text alone; the unnamed member's removal is breaking there
expect_status 1 "$UAPID" api-diff --abi none "$WORK/inst-lay" "$WORK/inst-lay2"
expect_in "$WORK/out" "breaking: struct mini_pad: member (anonymous) removed"
expect_status 2 "$UAPID" api-diff --abi nosuch "$WORK/inst-lay" "$WORK/inst-lay2"
expect_in "$WORK/err" "nosuch: no such ABI"

# uapid api-layout: the sizes and offsets api-diff compares
expect_status 0 "$UAPID" api-layout "$WORK/inst-lay2" linux/mini.h
expect_in "$WORK/out" "struct mini_grow: size 16, align 8"
expect_status 0 "$UAPID" api-layout --abi i386 "$WORK/inst-lay2" linux/mini.h
expect_in "$WORK/out" "struct mini_grow: size 16, align 4"
expect_status 0 "$UAPID" api-layout --json "$WORK/inst-lay2" linux/mini.h
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["types"]}["struct mini_pad"]
assert (t["size"], t["align"]) == (16, 8), t
f = {x["path"]: (x["offset_bits"], x["size_bits"]) for x in t["fields"]}
assert f == {"a": (0, 32), "reserved": (32, 32), "b": (64, 64)}, f
' "$WORK/out" && pass || fail "api-layout --json"
expect_status 0 "$UAPID" api-layout --abis
expect_in "$WORK/out" "x86_64"
expect_status 2 "$UAPID" api-layout --abi nosuch "$WORK/inst-lay2"
finish
