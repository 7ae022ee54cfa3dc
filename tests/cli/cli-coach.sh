#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 39, case 5: coaching hints that work.  Every kind of header the
# split refuses gets markers in the hint (and in --json) that, fed back,
# decide it; broken text (a NUL byte, an unterminated #if, an #endif
# without #if) is an error at its line, exit 2, not "needs coaching".
. "${top_srcdir:-.}/tests/lib/lib.sh"

T=$WORK/tree
L=$T/include/linux
mkdir -p "$L"
printf 'header-y += %s\n' elif.h elif2.h mentions.h nested.h noguard.h >"$L/Kbuild"
# an #elif in a __KERNEL__ conditional (the second such conditional: #2)
printf '%s\n' '#ifndef _ELIF_H' '#define _ELIF_H' '#ifdef __KERNEL__' 'int k0;' '#endif' \
	'#define ELIF 1' '#ifdef __KERNEL__' 'int k;' '#elif defined(X)' 'int x;' '#endif' '#endif' >"$L/elif.h"
printf '%s\n' '#ifndef _ELIF2_H' '#define _ELIF2_H' '#if defined(__KERNEL__)' 'int k;' \
	'#elif defined(Y)' 'int y;' '#else' 'int z;' '#endif' '#endif' >"$L/elif2.h"
# an #elif that mentions __KERNEL__
printf '%s\n' '#ifndef _MENTIONS_H' '#define _MENTIONS_H' '#define M 1' '#if defined(Y)' 'int y;' \
	'#elif defined(__KERNEL__)' 'int k;' '#endif' '#endif' >"$L/mentions.h"
# a __KERNEL__ conditional nested in another
printf '%s\n' '#ifndef _NESTED_H' '#define _NESTED_H' '#define N 1' '#ifdef __KERNEL__' 'int k;' \
	'#ifndef __KERNEL__' 'int u;' '#endif' '#endif' '#endif' >"$L/nested.h"
# no include guard, two kernel-only parts (asm-generic/unistd.h, posix_types.h)
printf '%s\n' '#define G 1' '#ifdef __KERNEL__' 'int k1;' '#endif' '#define H 2' \
	'#if defined(__KERNEL__)' 'int k2;' '#endif' >"$L/noguard.h"

expect_status 1 "$UAPID" split --dry-run "$T"
expect_in "$WORK/out" "needs coaching: 5"
expect_in "$WORK/err" "hint: coaching markers decide what uapid cannot"
expect_in "$WORK/err" "    include/linux/elif.h kernel '#ifdef __KERNEL__'#2"
expect_in "$WORK/err" "    include/linux/mentions.h retain '#if defined(Y)'"
expect_in "$WORK/err" "    include/linux/nested.h kernel '#ifdef __KERNEL__'"
expect_in "$WORK/err" "    include/linux/noguard.h retain '#ifdef __KERNEL__'"
expect_in "$WORK/err" "    include/linux/noguard.h retain '#if defined(__KERNEL__)'"
# the hint, fed back as it is, decides every header
sed -n 's/^    \(include\/.*\)$/\1/p' "$WORK/err" >"$WORK/markers"
[ "$(wc -l <"$WORK/markers")" -eq 6 ] && pass || fail "not one marker per directive in the hint"
expect_status 0 "$UAPID" split --dry-run --markers "$WORK/markers" "$T"
expect_in "$WORK/out" "needs coaching: 0"
expect_not_in "$WORK/err" "error"
# --json: each refused header with its markers, which decide it too
expect_status 1 "$UAPID" split --json --dry-run "$T"
python3 - "$WORK/out" "$WORK/markers.json" <<'PY' && pass || fail "split --json: coaching"
import json, sys
d = json.load(open(sys.argv[1]))
refused = [f for f in d["files"] if f["outcome"] == "needs-coaching"]
assert len(refused) == 5 and all(f["coaching"] for f in refused), refused
open(sys.argv[2], "w").write("".join(m + "\n" for f in refused for m in f["coaching"]))
PY
expect_status 0 "$UAPID" split --json --dry-run --markers "$WORK/markers.json" "$T"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["summary"]; assert s["needs_coaching"]==0 and s["split"]+s["moved"]==5, s' \
	"$WORK/out" && pass || fail "the --json markers did not decide every header"
# and applied: the tree splits
expect_status 0 "$UAPID" split --in-place --markers "$WORK/markers" "$T"
expect_file "$T/include/uapi/linux/noguard.h"
expect_file "$T/include/uapi/linux/mentions.h"

# --- broken text: an error at its line, not coaching -------------------------------
B=$WORK/broken
mkdir -p "$B/include/linux"
printf 'header-y += %s\n' nul.h open.h close.h fine.h >"$B/include/linux/Kbuild"
printf '#ifndef _NUL_H\n#define _NUL_H\nint a;\n\0\n#endif\n' >"$B/include/linux/nul.h"
printf '%s\n' '#ifndef _OPEN_H' '#define _OPEN_H' '#ifdef __KERNEL__' 'int k;' '#endif' >"$B/include/linux/open.h"
printf '%s\n' '#ifndef _CLOSE_H' '#define _CLOSE_H' 'int u;' '#endif' '#endif' >"$B/include/linux/close.h"
printf '%s\n' '#ifndef _FINE_H' '#define _FINE_H' 'int u;' '#endif' >"$B/include/linux/fine.h"
expect_status 2 "$UAPID" split --dry-run "$B"
expect_in "$WORK/out" "needs coaching: 0"
expect_in "$WORK/out" "errors: 3"
expect_in "$WORK/out" "moved: 1"
expect_in "$WORK/err" "include/linux/nul.h:4: error: NUL byte in input"
expect_in "$WORK/err" "include/linux/open.h:1: error: #ifndef has no matching #endif"
expect_in "$WORK/err" "include/linux/close.h:5: error: #endif without #if"
expect_not_in "$WORK/err" "hint: coaching markers"
expect_status 2 "$UAPID" split --json --dry-run "$B"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o={f["path"]: f["outcome"] for f in d["files"]}; assert o["include/linux/nul.h"] == o["include/linux/open.h"] == o["include/linux/close.h"] == "error", o' \
	"$WORK/out" && pass || fail "split --json: broken text is an error"
finish
