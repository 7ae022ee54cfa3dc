#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a person sees during long work: each long command, run on a
# pseudo-terminal (tests/lib/ptyrun.py), draws a progress line and clears it
# before it ends; with --quiet or --json, or with standard error in a pipe,
# there is none; UAPID_PROGRESS_DELAY holds it back.  Where a command stops
# for a reason the user can change, a hint says how.
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

PTY="python3 $top_srcdir/tests/lib/ptyrun.py"
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK TERM=xterm
unset JOURNAL_STREAM

# on_pty NAME CMD...: CMD on a pty, progress at once; what it drew in $WORK/NAME.pty
on_pty() {
	name=$1
	shift
	UAPID_PROGRESS_DELAY=0 $PTY run "$WORK/$name.pty" "$@" >/dev/null 2>&1 || true
}
# piped NAME CMD...: the same with stdout and stderr in files
piped() {
	name=$1
	shift
	UAPID_PROGRESS_DELAY=0 "$@" >"$WORK/$name.pipe" 2>&1 </dev/null || true
}
# drawn NAME WHAT: NAME.pty holds WHAT's progress lines, cleared at the end
drawn() { expect_status 0 $PTY progress "$WORK/$1.pty" "$2"; }
# clean FILE: no progress in FILE
clean() { expect_status 0 $PTY none "$1"; }

# --- the inputs: a tree to split, a kernel-like tree, its copy with an API
# change, and a repository with a few commits -------------------------------------------
S=$WORK/split
cp -R "$top_srcdir/examples/tree" "$S"
chmod -R u+w "$S"
K=$WORK/kernel
new_tree "$K"
# its compile test (usr/include/Makefile): check runs it only where the tree has one
cp -R "$top_srcdir/tests/trees/mini/usr" "$K/"
chmod -R u+w "$K/usr"
K2=$WORK/kernel2
cp -R "$K" "$K2"
printf '#define PROGRESS_TEST_ADDED 1\n' >>"$K2/include/uapi/linux/types.h" 2>/dev/null ||
	printf '#define PROGRESS_TEST_ADDED 1\n' >"$K2/include/uapi/linux/progress_test.h"
R=$WORK/repo
new_tree "$R"
git -C "$R" init -q -b master
git -C "$R" add -A
git -C "$R" commit -q -m "base"
for i in 1 2 3; do
	printf '#define PROGRESS_STEP_%s %s\n' "$i" "$i" >>"$R/include/uapi/linux/progress_steps.h"
	git -C "$R" add -A
	git -C "$R" commit -q -m "step $i"
done
base=$(git -C "$R" rev-list --max-parents=0 HEAD)

# --- each long command draws its line and clears it ------------------------------------
on_pty split "$UAPID" split --dry-run "$S"
drawn split split
expect_in "$WORK/split.pty" "needs coaching: "
on_pty install "$UAPID" install --arch all "$K" "$WORK/inst-all"
drawn install install
expect_in "$WORK/install.pty" "architectures installed in"
on_pty check "$UAPID" check --arch x86 "$K"
drawn check "compile test"
expect_in "$WORK/check.pty" "compiled alone"
on_pty apidiff "$UAPID" api-diff --arch x86 "$K" "$K2"
drawn apidiff "api model of OLD"
drawn apidiff "api model of NEW"
expect_in "$WORK/apidiff.pty" "verdicts: "
on_pty branch "$UAPID" branch --arch x86 --since "$base" "$R"
drawn branch "split branch"
drawn branch "headers branch"
expect_in "$WORK/branch.pty" "uapi/headers: "
# api-log indexes the headers branch (a store of its own each time: an index to build)
on_pty apilog "$UAPID" api-log --arch x86 --state-dir "$WORK/log1" "$R" PROGRESS_STEP_2
drawn apilog "api-log index"
expect_in "$WORK/apilog.pty" "PROGRESS_STEP_2: "

# --- --quiet and --json draw nothing, even on a terminal --------------------------------
rm -rf "$WORK/inst-all"
on_pty install-q "$UAPID" install --quiet --arch all "$K" "$WORK/inst-all"
clean "$WORK/install-q.pty"
on_pty check-json "$UAPID" check --json --arch x86 "$K"
clean "$WORK/check-json.pty"
on_pty split-q "$UAPID" split -q --dry-run "$S"
clean "$WORK/split-q.pty"
on_pty apilog-json "$UAPID" api-log --json --arch x86 --state-dir "$WORK/log2" "$R" PROGRESS_STEP_2
clean "$WORK/apilog-json.pty"
on_pty apilog-q "$UAPID" api-log -q --arch x86 --state-dir "$WORK/log3" "$R" PROGRESS_STEP_2
clean "$WORK/apilog-q.pty"
git -C "$R" branch -D uapi/split uapi/headers >/dev/null
on_pty branch-json "$UAPID" branch --json --arch x86 --since "$base" "$R"
clean "$WORK/branch-json.pty"

# --- a pipe never gets a progress line ---------------------------------------------------
piped split "$UAPID" split --dry-run "$S"
clean "$WORK/split.pipe"
rm -rf "$WORK/inst-all"
piped install "$UAPID" install --arch all "$K" "$WORK/inst-all"
clean "$WORK/install.pipe"
piped check "$UAPID" check --arch x86 "$K"
clean "$WORK/check.pipe"
piped apidiff "$UAPID" api-diff --arch x86 "$K" "$K2"
clean "$WORK/apidiff.pipe"
piped apilog "$UAPID" api-log --arch x86 --state-dir "$WORK/log4" "$R" PROGRESS_STEP_2
clean "$WORK/apilog.pipe"
git -C "$R" branch -D uapi/split uapi/headers >/dev/null
piped branch "$UAPID" branch --arch x86 --since "$base" "$R"
clean "$WORK/branch.pipe"
# ... nor TERM=dumb, nor a delay the work does not reach
TERM=dumb UAPID_PROGRESS_DELAY=0 $PTY run "$WORK/dumb.pty" "$UAPID" split --dry-run "$S" \
	>/dev/null 2>&1 || true
clean "$WORK/dumb.pty"
UAPID_PROGRESS_DELAY=3600 $PTY run "$WORK/late.pty" "$UAPID" split --dry-run "$S" \
	>/dev/null 2>&1 || true
clean "$WORK/late.pty"

# --- hints where a command stops for a reason the user can change -----------------------
B=$WORK/noscripts
mkdir -p "$B"
cp -R "$top_srcdir/examples/tree/." "$B/"
git -C "$B" init -q -b master
git -C "$B" add -A
git -C "$B" commit -q -m "a tree without an install script"
expect_status 2 "$UAPID" branch "$B"
expect_in "$WORK/err" "uapid does not know how this tree installs its headers"
expect_in "$WORK/err" "hint: --no-headers-branch makes the split branch alone"
expect_status 1 "$UAPID" branch --no-headers "$B"
expect_in "$WORK/out" "uapi/split: "
expect_status 2 "$UAPID" install "$S" "$WORK/nowhere"
expect_in "$WORK/err" "hint: TREE must be a whole kernel source tree"
expect_status 1 "$UAPID" split --dry-run "$S"
expect_in "$WORK/err" "hint: coaching markers decide what uapid cannot"
# the hint's example marker, taken as it is, coaches that header
sed -n 's/^    \(.*\)$/\1/p' "$WORK/err" >"$WORK/markers"
[ -s "$WORK/markers" ] && pass || fail "no example marker in the hint"
expect_status 0 "$UAPID" split --dry-run --markers "$WORK/markers" "$S"
expect_in "$WORK/out" "needs coaching: 0"

# --- the daemon: its first scan draws the same line, then logs "ready" ----------------
# (the line is taken off before each log line and by the end of the scan)
wait_ready() { # wait_ready SOCK: the daemon there is ready
	i=0
	while [ $i -lt 1200 ]; do
		[ "$(status_json "$1" | json_field ready 2>/dev/null)" = true ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "daemon on $1 not ready after 120 s"
}
# watch_pty NAME OPTIONS...: uapid watch on a pty until ready, then SIGTERM
watch_pty() {
	name=$1
	shift
	UAPID_PROGRESS_DELAY=0 $PTY run "$WORK/$name.pty" "$UAPID" watch --arch x86 \
		--state-dir "$WORK/$name.state" --socket "$WORK/$name.sock" "$@" "$K" \
		>/dev/null 2>&1 &
	ppid=$!
	wait_ready "$WORK/$name.sock"
	kill -TERM "$(cat "$WORK/$name.state/lock")"
	wait "$ppid" || true
}
watch_pty watch
drawn watch scanning
expect_in "$WORK/watch.pty" "uapid: ready: "
watch_pty watch-q --quiet
clean "$WORK/watch-q.pty"
expect_in "$WORK/watch-q.pty" "uapid: ready: "
UAPID_PROGRESS_DELAY=0 "$UAPID" watch --arch x86 --state-dir "$WORK/watch-pipe.state" \
	--socket "$WORK/watch-pipe.sock" "$K" >"$WORK/watch.pipe" 2>&1 &
ppid=$!
wait_ready "$WORK/watch-pipe.sock"
kill -TERM "$ppid"
wait "$ppid" || true
clean "$WORK/watch.pipe"

# --- the daemon's start-up stops, each with its hint -----------------------------------
"$UAPID" watch --arch x86 --state-dir "$WORK/busy.state" --socket "$WORK/busy.sock" "$K" \
	>"$WORK/busy.log" 2>&1 &
bpid=$!
wait_ready "$WORK/busy.sock"
# the state directory is another daemon's
expect_status 2 "$UAPID" watch --state-dir "$WORK/busy.state" --socket "$WORK/other.sock" "$K"
expect_in "$WORK/err" "another uapid watch uses this state directory (pid $bpid)"
expect_in "$WORK/err" "hint: stop that daemon (kill $bpid, or stop its unit), or give this one its own --state-dir DIR"
# the socket is another daemon's
expect_status 2 "$UAPID" watch --state-dir "$WORK/other.state" --socket "$WORK/busy.sock" "$K"
expect_in "$WORK/err" "another daemon answers on this socket"
expect_in "$WORK/err" "or listen elsewhere with --socket PATH"
kill -TERM "$bpid"
wait "$bpid" || fail "the busy daemon's exit"
# the socket path is a file that is no socket
: >"$WORK/plain"
expect_status 2 "$UAPID" watch --state-dir "$WORK/other.state" --socket "$WORK/plain" "$K"
expect_in "$WORK/err" "exists and is not a socket"
expect_in "$WORK/err" "hint: move that file away, or listen elsewhere with --socket PATH"
# the state directory cannot be made
expect_status 2 "$UAPID" watch --state-dir "$WORK/plain/state" --socket "$WORK/s3.sock" "$K"
expect_in "$WORK/err" "hint: create it, writable for this user, or give this one its own --state-dir DIR"
# a database of a newer uapid is left alone
mkdir -p "$WORK/newer.state"
python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version = 999")' \
	"$WORK/newer.state/state.db"
expect_status 2 "$UAPID" watch --state-dir "$WORK/newer.state" --socket "$WORK/s4.sock" "$K"
expect_in "$WORK/err" "schema version 999 is newer"
expect_in "$WORK/err" "hint: run the uapid that wrote the database, or move it away"
finish
