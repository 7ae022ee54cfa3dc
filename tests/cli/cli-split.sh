#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid split and fix-includes on real temporary trees, end to end.
. "${top_srcdir:-.}/tests/lib/lib.sh"

snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha1sum) >"$2"; }

# --- in place, whole tree ------------------------------------------------
T=$WORK/tree
make_tree "$T"
cp "$T/include/linux/refuse.h" "$WORK/refuse.orig"
cp "$T/include/linux/plain.h" "$WORK/plain.orig"
cp "$T/include/asm-generic/Kbuild.asm" "$WORK/kbuild-asm.orig"
expect_status 1 "$UAPID" split --in-place "$T"
expect_in "$WORK/out" "split: 3"
expect_in "$WORK/out" "moved: 1"
expect_in "$WORK/out" "needs coaching: 1"
expect_in "$WORK/err" "include/linux/refuse.h:5: error: #elif in a __KERNEL__ conditional"
sed 's#uapi/linux/test.h#uapi/linux/split.h#' "$top_srcdir/tests/data/basic/kernel.h" >"$WORK/want-kernel"
expect_same "$T/include/linux/split.h" "$WORK/want-kernel"
expect_same "$T/include/uapi/linux/split.h" "$top_srcdir/tests/data/basic/uapi.h"
expect_no_file "$T/include/linux/plain.h"
expect_same "$T/include/uapi/linux/plain.h" "$WORK/plain.orig"
expect_same "$T/include/linux/refuse.h" "$WORK/refuse.orig"
expect_no_file "$T/include/uapi/linux/refuse.h"
expect_in "$T/arch/x86/include/asm/ptrace.h" "#include <uapi/asm/ptrace.h>"
expect_in "$T/arch/x86/include/uapi/asm/ptrace.h" "#ifndef _UAPI_ASM_X86_PTRACE_H"
expect_no_file "$T/include/uapi/linux/private.h"
# Kbuild: entries leave the old list and join the uapi one, the kvm stanza with them
expect_not_in "$T/include/linux/Kbuild" "split.h"
expect_not_in "$T/include/linux/Kbuild" "plain.h"
expect_not_in "$T/include/linux/Kbuild" "kvm.h"
expect_in "$T/include/linux/Kbuild" "header-y += refuse.h"
head -1 "$T/include/uapi/linux/Kbuild" >"$WORK/first"
expect_in "$WORK/first" "# UAPI Header export list"
expect_in "$T/include/uapi/linux/Kbuild" "header-y += split.h"
expect_in "$T/include/uapi/linux/Kbuild" "header-y += plain.h"
expect_in "$T/include/uapi/linux/Kbuild" 'ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)'
expect_in "$T/arch/x86/include/uapi/asm/Kbuild" "header-y += ptrace.h"
expect_same "$T/include/asm-generic/Kbuild.asm" "$WORK/kbuild-asm.orig"
if find "$T" -name '*.uapid-*' | grep -q .; then fail "temporary files left"; else pass; fi
# a second run finds nothing left to split
expect_status 1 "$UAPID" split --in-place "$T"
expect_in "$WORK/out" "split: 0"

# --- named headers only ----------------------------------------------------
T=$WORK/named
make_tree "$T"
expect_status 0 "$UAPID" split --in-place "$T" include/linux/split.h "$T/include/linux/private.h"
expect_in "$WORK/out" "split: 1"
expect_in "$WORK/out" "unchanged: 1"
expect_in "$WORK/err" "include/linux/private.h: note: not exported"
expect_file "$T/include/linux/plain.h"

# --- --output, --dry-run, --diff, --json leave the tree alone -------------
T=$WORK/ro
make_tree "$T"
snapshot "$T" "$WORK/before"
O=$WORK/outdir
expect_status 1 "$UAPID" split --output "$O" "$T"
expect_same "$T/include/linux/split.h" "$top_srcdir/tests/data/basic/in.h"
expect_file "$O/include/uapi/linux/split.h"
expect_file "$O/include/linux/split.h"
expect_file "$O/include/uapi/linux/Kbuild"
expect_in "$O/.uapid-removed" "include/linux/plain.h"
expect_no_file "$O/include/linux/refuse.h"
expect_status 1 "$UAPID" split --dry-run --diff "$T"
expect_in "$WORK/out" "--- a/include/linux/split.h"
expect_in "$WORK/out" "+++ b/include/uapi/linux/split.h"
expect_in "$WORK/out" "+#include <uapi/linux/split.h>"
expect_in "$WORK/out" "-header-y += split.h"
expect_status 1 "$UAPID" split --json --dry-run "$T"
python3 - "$WORK/out" <<'PY' && pass || fail "split --json output"
import json, sys
o = json.load(open(sys.argv[1]))
s = o["summary"]
assert (s["split"], s["moved"], s["needs_coaching"]) == (3, 1, 1), s
f = {x["path"]: x for x in o["files"]}
assert f["include/linux/refuse.h"]["outcome"] == "needs-coaching"
assert f["include/linux/refuse.h"]["diagnostics"][0]["line"] == 5
assert f["include/linux/split.h"]["uapi_path"] == "include/uapi/linux/split.h"
assert o["removed"] == ["include/linux/plain.h"]
PY
snapshot "$T" "$WORK/after"
expect_same "$WORK/before" "$WORK/after"

# --- markers ---------------------------------------------------------------
cat >"$WORK/markers" <<'MK'
# coaching for the test tree
include/linux/split.h skip # done by hand
include/linux/kvm.h retain '#ifdef NOT_THERE' # stale on purpose
MK
expect_status 1 "$UAPID" split --dry-run --markers "$WORK/markers" "$T"
expect_in "$WORK/out" "skipped: 1"
expect_in "$WORK/err" "markers:3: warning: stale marker: 'retain #ifdef NOT_THERE' matches nothing in include/linux/kvm.h"
printf 'include/linux/split.h frobnicate\n' >"$WORK/bad-markers"
expect_status 2 "$UAPID" split --dry-run --markers "$WORK/bad-markers" "$T"
expect_in "$WORK/err" "bad-markers:1: error: unknown marker action 'frobnicate'"

# --- bad input: clear errors, nothing written -------------------------------
expect_status 2 "$UAPID" split --in-place "$T" ../outside.h
expect_in "$WORK/err" "outside.h: No such file or directory"
touch "$WORK/outside.h"
expect_status 2 "$UAPID" split --in-place "$T" ../outside.h
expect_in "$WORK/err" "outside the tree"
ln -s "$WORK" "$T/include/linux/escape"
expect_status 2 "$UAPID" split --in-place "$T" include/linux/escape/outside.h
expect_in "$WORK/err" "outside the tree"
rm "$T/include/linux/escape"
snapshot "$T" "$WORK/after-outside"
expect_same "$WORK/before" "$WORK/after-outside"
mkdir -p "$T/drivers"
printf 'int x;\n' >"$T/drivers/foo.h"
expect_status 2 "$UAPID" split --in-place "$T" drivers/foo.h
expect_in "$WORK/err" "drivers/foo.h: not a header under include/ or arch/*/include/"
printf 'header-y += fifo.h\n' >>"$T/include/linux/Kbuild"
mkfifo "$T/include/linux/fifo.h"
expect_status 2 timeout 20 "$UAPID" split --in-place "$T" include/linux/fifo.h
expect_in "$WORK/err" "include/linux/fifo.h: not a regular file"
rm "$T/include/linux/fifo.h"
snapshot "$T" "$WORK/before2"
expect_status 2 "$UAPID" split --in-place "$WORK/no-such-tree"
expect_in "$WORK/err" "no-such-tree: No such file or directory"
expect_status 2 "$UAPID" split --in-place --output "$WORK/x" "$T"
expect_in "$WORK/err" "exclude each other"
snapshot "$T" "$WORK/after2"
expect_same "$WORK/before2" "$WORK/after2"

# a read-only output directory: an error, and no half-written file
RO=$WORK/readonly
mkdir -p "$RO/sub2"
chmod 555 "$RO" "$RO/sub2"
NUAPID=$UAPID NENV=
if [ "$(id -u)" = 0 ]; then
	nobody_binaries
	runas="setpriv --reuid=65534 --regid=65534 --clear-groups --"
else
	runas=""
fi
expect_status 2 $runas $NENV "$NUAPID" split --output "$RO/sub" "$T"
expect_in "$WORK/err" "readonly/sub: cannot create directory: Permission denied"
expect_status 2 $runas $NENV "$NUAPID" split --output "$RO/sub2" "$T"
expect_in "$WORK/err" "cannot create directory: Permission denied"
if find "$RO" -type f | grep -q .; then fail "files written into a read-only directory"; else pass; fi
chmod 755 "$RO" "$RO/sub2"

# --- fix-includes ------------------------------------------------------------
T=$WORK/fix
make_tree "$T"
expect_status 0 "$UAPID" fix-includes --dry-run "$T"
expect_in "$WORK/out" "arch/x86/include/asm/ptrace.h: 1 include converted"
expect_in "$T/arch/x86/include/asm/ptrace.h" '#include "ptrace-abi.h"'
expect_status 0 "$UAPID" fix-includes --in-place "$T" arch/x86
expect_in "$T/arch/x86/include/asm/ptrace.h" "#include <asm/ptrace-abi.h>"
expect_status 2 "$UAPID" fix-includes --in-place "$T" ../../etc

# --- a header that cannot be written is not recorded: its export list keeps it ---------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	RO=$WORK/ro
	rm -rf "$RO"
	cp -r "$top_srcdir/examples/tree" "$RO"
	chmod -R u+w "$RO" # a read-only source tree (make distcheck) copies read-only
	mkdir -p "$RO/include/uapi/linux"
	chown -R 65534:65534 "$RO"
	chmod 555 "$RO/include/uapi/linux"
	cp "$RO/include/linux/Kbuild" "$WORK/ro.kbuild"
	chmod 755 "$WORK"
	nobody_binaries
	expect_status 2 setpriv --reuid=65534 --regid=65534 --clear-groups -- $NENV \
		"$NUAPID" split --in-place --json "$RO"
	cp "$WORK/out" "$WORK/ro.json"
	expect_same "$WORK/ro.kbuild" "$RO/include/linux/Kbuild"
	expect_file "$RO/include/linux/sample_compound.h"
	python3 - "$WORK/ro.json" <<'PY' && pass || fail "read-only uapi dir: JSON"
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["path"]: x for x in r["files"]}
c = f["include/linux/sample_compound.h"]
assert c["outcome"] == "error", c
assert "not split" in c["diagnostics"][0]["message"], c
assert "include/linux/sample_compound.h" not in r["removed"], r["removed"]
assert r["summary"]["errors"] >= 1, r["summary"]
# the asm headers beside it were split and their lists written
assert f["arch/x86/include/asm/sample_regs.h"]["outcome"] == "split"
msgs = [d["message"] for d in r["diagnostics"]]
assert any("not split" in m for m in msgs), msgs
PY
	# a tree that cannot be opened: one JSON line that says why
	expect_status 2 "$UAPID" split --json "$WORK/no-such-tree"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert "no-such-tree" in json.dumps(r["diagnostics"]), r' \
		"$WORK/out" && pass || fail "missing tree: JSON"
fi

# --- export list entries that are no header file: a FIFO, a symlink loop, a
# directory named x.h, each said with its Kbuild file and line, the rest split
O=$WORK/odd
make_tree "$O"
mkfifo "$O/include/linux/fifo.h"
ln -s loop.h "$O/include/linux/loop.h"
mkdir "$O/include/linux/x.h"
printf 'header-y += fifo.h\nheader-y += loop.h \\\n\tx.h\n' >>"$O/include/linux/Kbuild"
fifo_line=$(grep -n 'fifo.h' "$O/include/linux/Kbuild" | cut -d: -f1)
expect_status 1 "$UAPID" split --output "$WORK/odd-out" "$O"
expect_in "$WORK/err" "include/linux/Kbuild:$fifo_line: warning: 'fifo.h' is listed for export but is a FIFO, not a header file: left out"
expect_in "$WORK/err" "include/linux/Kbuild:$((fifo_line + 1)): warning: 'loop.h' is listed for export but is a symlink loop, not a header file: left out"
expect_in "$WORK/err" "include/linux/Kbuild:$((fifo_line + 1)): warning: 'x.h' is listed for export but is a directory, not a header file: left out"
expect_in "$WORK/out" "split: 3"
expect_file "$WORK/odd-out/include/uapi/linux/split.h"
# the same in --json, among the run's diagnostics
expect_status 1 "$UAPID" split --json --dry-run "$O"
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); d=[x for x in r["diagnostics"] if x.get("path") == "include/linux/Kbuild"]; assert len(d) == 3 and all(x["severity"] == "warning" for x in d), d' "$WORK/out"; then
	pass
else
	fail "odd exports: JSON diagnostics"
fi

# --- determinism: the sample tree's split equals the committed expectation,
# byte for byte, whatever the locale, time zone or working directory
for env in "LC_ALL=C TZ=UTC" "LC_ALL=C.UTF-8 TZ=Pacific/Auckland"; do
	rm -rf "$WORK/det"
	# shellcheck disable=SC2086
	(cd / && env $env "$UAPID" split --output "$WORK/det" --markers "$top_srcdir/examples/markers" \
		"$top_srcdir/examples/tree" >/dev/null 2>&1) || true
	if diff -r "$top_srcdir/tests/expected/sample-split" "$WORK/det" >"$WORK/det.diff"; then
		pass
	else
		fail "sample split differs from tests/expected/sample-split ($env)"
		head -30 "$WORK/det.diff" >&2
	fi
done

finish
