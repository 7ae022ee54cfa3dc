#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid classify and the program's own options, end to end.
. "${top_srcdir:-.}/tests/lib/lib.sh"

expect_status 0 "$UAPID" --version
expect_in "$WORK/out" "uapid 0.1.0"
expect_status 0 "$UAPID" --help
expect_in "$WORK/out" "uapid split"
expect_status 2 "$UAPID"
expect_status 2 "$UAPID" frobnicate
expect_in "$WORK/err" "unknown command 'frobnicate'"
# uapid runs the commands that need libgit2 through uapid-full: one it cannot
# run is said, with the path and the command (the build tree's layout only)
if [ -x "$(dirname "$UAPID")/uapid-full" ]; then
	expect_status 2 env UAPID_FULL="$WORK/no-such-uapid-full" "$UAPID" split "$WORK"
	expect_in "$WORK/err" "cannot run $WORK/no-such-uapid-full (UAPID_FULL) for uapid split"
fi
expect_status 2 "$UAPID" classify
expect_status 2 "$UAPID" classify --bogus x.h

d="$top_srcdir/tests/data"
expect_status 0 "$UAPID" classify "$d/basic/in.h"
expect_in "$WORK/out" "1-3 banner leading comment block"
expect_in "$WORK/out" "5-6 guard include guard"
expect_in "$WORK/out" "14-14 kernel __KERNEL__ directive, removed by the split"
expect_in "$WORK/out" "15-19 kernel under #ifdef __KERNEL__"

# --json: one object per file, valid JSON, with blocks and diagnostics
expect_status 1 "$UAPID" classify --json "$d/basic/in.h" "$d/refuse-elif/in.h"
python3 - "$WORK/out" <<'PY' && pass || fail "classify --json output"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 2
assert objs[0]["blocks"][0] == {"first": 1, "last": 3, "class": "banner", "reason": objs[0]["blocks"][0]["reason"]}
assert objs[0]["diagnostics"] == []
d = objs[1]["diagnostics"][0]
assert d["line"] == 5 and d["severity"] == "error" and "#elif" in d["message"], d
PY

# an error diagnostic: exit 1 and path:line: severity: message on stderr
expect_status 1 "$UAPID" classify "$d/refuse-nested/in.h"
expect_in "$WORK/err" "refuse-nested/in.h:3: error: __KERNEL__ conditional nested in another"

# I/O errors: exit 2, the file named, the other files still done
expect_status 2 "$UAPID" classify "$WORK/missing.h" "$d/basic/in.h"
expect_in "$WORK/err" "missing.h: cannot open: No such file or directory"
expect_in "$WORK/out" "1-3 banner"
mkdir "$WORK/dir.h"
expect_status 2 "$UAPID" classify "$WORK/dir.h"
expect_in "$WORK/err" "not a regular file"
mkfifo "$WORK/fifo.h"
expect_status 2 timeout 10 "$UAPID" classify "$WORK/fifo.h"
expect_in "$WORK/err" "not a regular file"
printf 'int a;\n\0\n' > "$WORK/nul.h"
expect_status 1 "$UAPID" classify "$WORK/nul.h"
expect_in "$WORK/err" "nul.h:2: error: NUL byte in input"

finish
