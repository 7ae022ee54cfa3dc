#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon's thread pool under load, for a ThreadSanitizer build
# (tests/cli/tsan.sh builds one and runs this): `uapid watch --branches` on a
# git repository of a real kernel's headers (linux-source-6.1: about 9,900
# headers), and, while full-tree batches run on the pool, markers added and
# removed over the socket, SIGHUP with a changed markers file, resplit of
# the whole tree and of single headers, file edits and git commits (which
# the branch follower takes).  Then the state directory must equal what the
# batch commands write for the tree, and ThreadSanitizer must have reported
# nothing (its reports go to $WORK/tsan.PID, printed when there are any).
#
#   UAPID=build-tsan/src/uapid UAPICTL=build-tsan/src/uapictl sh tests/kernel/tsan-stress.sh [KERNEL]
#
# KERNEL: an unpacked kernel tree (default: $UD_KERNEL_6_1, else
# /work/kernels/linux-source-6.1, else /usr/src/linux-source-6.1.tar.xz
# unpacked here); only its include/, arch/ and install scripts are copied.
# ROUNDS (default 3) full-tree batches are stressed; MARKER_FLIPS (default
# 40) marker add+remove pairs go into each.  Not part of make check: a
# TSan build of a 10,000-header scan takes minutes.
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

ARCH=x86_64
: "${ROUNDS:=3}" "${MARKER_FLIPS:=40}"
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK

# --- the tree: a kernel's headers and what its install reads, as a git repository -------
kernel=${1:-${UD_KERNEL_6_1:-}}
if [ -z "$kernel" ] && [ -d /work/kernels/linux-source-6.1/include ]; then
	kernel=/work/kernels/linux-source-6.1
fi
T=$WORK/tree S=$WORK/state K=$WORK/d.sock
mkdir -p "$T"
if [ -n "$kernel" ]; then
	(cd "$kernel" && tar -cf - Makefile Kbuild scripts include arch/*/Makefile arch/*/include \
		arch/x86/entry/syscalls) | tar -xf - -C "$T"
else
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || { echo "tsan-stress: no kernel tree (give one, or apt-get install linux-source-6.1)" >&2; exit 2; }
	tar -xJf "$tarball" -C "$T" --strip-components=1 --wildcards '*/Makefile' '*/Kbuild' \
		'*/scripts/*' '*/include/*' '*/arch/x86/entry/syscalls/*' --exclude '*/tools/*'
fi
chmod -R u+w "$T"
headers=$(find "$T/include" "$T/arch" -name '*.h' | wc -l)
echo "tsan-stress: $headers headers in $T"
[ "$headers" -ge 5000 ] && pass || fail "the tree has $headers headers, want at least 5,000"
git -C "$T" init -q -b master
git -C "$T" add -A
git -C "$T" commit -q -m "linux" >/dev/null

# a markers file the SIGHUPs switch between two versions of
MARKERS=$WORK/markers
printf "include/linux/kernel.h kernel '#ifdef CONFIG_STRESS_A'\n" >"$MARKERS"

# --- the daemon under ThreadSanitizer ------------------------------------------------------
# Generous timeouts: an instrumented loop answers late, and a client that gives up before
# the answer is written kills the daemon with SIGPIPE until issue 19 is fixed.
ctl() { "$UAPICTL" --socket "$K" --timeout 120 "$@"; }
status_json() { "$UAPICTL" --socket "$1" --timeout 120 --json status 2>/dev/null; }
# (the caller's options first: the log path is this script's, whatever they say)
export TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0 exitcode=66 second_deadlock_stack=1 log_path=$WORK/tsan"
start_daemon "$T" "$S" "$K" --branches --markers "$MARKERS" || {
	wait "$DPID" || echo "tsan-stress: the daemon's exit status: $?" >&2
	cat "$WORK"/tsan.* >&2 2>/dev/null
	exit 1
}
wait_idle "$K"

busy_now() { [ "$(status_json "$K" | json_field busy 2>/dev/null)" = true ]; }
landed=0 actions=0
act() { # act CMD...: run an action, counting those that land while a batch runs
	actions=$((actions + 1))
	busy_now && landed=$((landed + 1))
	"$@" >/dev/null 2>&1 || fail "$*"
}
flip_marker() {
	id=$(ctl --json marker add include/linux/stddef.h kernel '#ifdef CONFIG_STRESS' |
		json_field id) || { fail "marker add"; return; }
	act ctl marker rm "$id"
}

r=0
while [ "$r" -lt "$ROUNDS" ]; do
	r=$((r + 1))
	ctl resplit >/dev/null || fail "resplit"
	# the scheduler starts the batch on its next turn: wait until it runs
	i=0
	until busy_now || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
	f=0
	while [ "$f" -lt "$MARKER_FLIPS" ]; do
		f=$((f + 1))
		flip_marker
		case $f in
		5)
			printf "include/linux/kernel.h kernel '#ifdef CONFIG_STRESS_%s'\n" "$r" >"$MARKERS"
			act kill -HUP "$DPID"
			;;
		10)
			for h in include/linux/stddef.h include/uapi/linux/stddef.h include/linux/types.h \
				arch/x86/include/uapi/asm/ptrace.h include/uapi/linux/ioctl.h; do
				printf '/* stress %s.%s */\n' "$r" "$f" >>"$T/$h"
			done
			act git -C "$T" commit -q -a -m "stress round $r"
			;;
		20)
			act ctl resplit include/linux/kernel.h include/uapi/linux/types.h
			;;
		30)
			act ctl resplit
			;;
		esac
	done
	wait_idle "$K"
	echo "tsan-stress: round $r done"
done
echo "tsan-stress: $landed of $actions actions landed while a batch ran"
[ "$landed" -gt 0 ] && pass || fail "no action landed while a batch ran: nothing was stressed"

# --- converged: the state directory is the batch commands' result --------------------------
"$UAPID" split --output "$WORK/fresh-split" --markers "$MARKERS" "$T" >/dev/null 2>&1 || true
mkdir -p "$WORK/fresh-split"
"$UAPID" install --arch "$ARCH" "$T" "$WORK/fresh-install" >/dev/null 2>&1 || true
if diff -r "$WORK/fresh-split" "$S/split" >"$WORK/diff" 2>&1 &&
	diff -r "$WORK/fresh-install/include" "$S/install/include" >>"$WORK/diff" 2>&1; then
	pass
else
	fail "after the stress the state directory differs from the batch commands"
	head -20 "$WORK/diff" >&2
fi
stop_daemon

# --- what ThreadSanitizer said ------------------------------------------------------------
reports=$(cat "$WORK"/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
echo "tsan-stress: $reports ThreadSanitizer reports"

if [ "$reports" -eq 0 ]; then
	pass
else
	fail "ThreadSanitizer reported $reports problems"
	cat "$WORK"/tsan.* >&2
	grep -h '^SUMMARY' "$WORK"/tsan.* | sort | uniq -c >&2
fi
finish
