#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/soak.sh UAPID [TREE_A TREE_B]: the daemon over months of use compressed
# into minutes (issue 38), bench/soak.py's figures every minute and at the end.
# A git work tree is made with two commits, a (TREE_A's Makefile, Kbuild,
# scripts/, include/, usr/, arch/x86/) and b (TREE_B's), and `uapid watch`
# runs on it while soak.py saves SOAK_EDITS headers (default 10,000) at
# SOAK_RATE a second (default 20) with SOAK_CHECKOUTS checkouts a <-> b
# (default 20). Default trees: /work/kernels/linux-6.1 and linux-6.12 (or
# UD_KERNELS/linux-6.1 and linux-6.12). Only read. The figures are printed,
# never judged. SOAK_KEEP=DIR: the store (state.db) and the daemon's log are
# copied there at the end (and the store after the first scan as
# state-first.db), for sqlite3_analyzer or dbstat. SOAK_VERBOSE=1: the
# daemon's debug log (its batches' timings, its long loop turns) kept there.
set -eu
UAPID=$(cd "$(dirname "${1:?usage: bench/soak.sh UAPID [TREE_A TREE_B]}")" && pwd)/$(basename "$1")
K=${UD_KERNELS:-/work/kernels}
A=${2:-$K/linux-6.1}
B=${3:-$K/linux-6.12}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/uapid-soak.XXXXXX")
pid=
# a git of the soak's may still be writing into .git as it ends: removal tried again after it
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work" 2>/dev/null ||
	{ sleep 2; rm -rf "$work"; }' EXIT
R=$work/tree

# put TREE: the parts of TREE the daemon reads, in place of R's
put() {
	find "$R" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	for f in Makefile Kbuild scripts include usr; do
		[ ! -e "$1/$f" ] || cp -a "$1/$f" "$R/"
	done
	mkdir -p "$R/arch"
	find "$1/arch" -mindepth 1 -maxdepth 1 -type f -exec cp -a {} "$R/arch/" \;
	cp -a "$1/arch/x86" "$R/arch/"
}
mkdir -p "$R"
git -C "$R" init -q
git -C "$R" config user.email soak@uapid
git -C "$R" config user.name soak
# no gc or maintenance detached in the background by a commit or checkout: it would write into
# .git after the soak ends (the full tier's bench smoke once failed removing it)
git -C "$R" config gc.auto 0
git -C "$R" config maintenance.auto false
put "$A"
git -C "$R" add -A && git -C "$R" commit -q -m a && git -C "$R" branch -q a
put "$B"
git -C "$R" add -A && git -C "$R" commit -q -m b && git -C "$R" branch -q b
git -C "$R" checkout -q -f a
echo "soak: $(basename "$A") <-> $(basename "$B"), ${SOAK_EDITS:-10000} edits, ${SOAK_CHECKOUTS:-20} checkouts, ${SOAK_RATE:-20}/s"
# SOAK_VERBOSE=1: the daemon's debug log (its batches' timings, its turns over 20 ms of CPU)
"$UAPID" watch "$([ -n "${SOAK_VERBOSE:-}" ] && echo --verbose || echo --quiet)" --state-dir "$work/state" --socket "$work/d.sock" --arch x86 "$R" 2>"$work/daemon.log" &
pid=$!
python3 "$here/../tests/lib/daemon-wait.py" "$work/d.sock" ready "$pid"
python3 "$here/soak.py" "$work/d.sock" "$pid" "$R" "$work/state" "${SOAK_EDITS:-10000}" \
	"${SOAK_CHECKOUTS:-20}" "${SOAK_RATE:-20}"
kill -TERM "$pid"
wait "$pid"
pid=
grep -c "" "$work/daemon.log" | sed 's/^/soak: daemon log lines: /'
if [ -n "${SOAK_KEEP:-}" ]; then
	mkdir -p "$SOAK_KEEP"
	cp "$work/state/state.db" "$work/daemon.log" "$SOAK_KEEP/"
fi
