#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid watch on real temporary trees: real inotify, a real SQLite store,
# a real socket.  After every change the state directory must equal what
# the batch commands give for the tree as it now is (diff -r), and the
# store must say what the tree and the outputs hold (storecheck.py).
. "${top_srcdir:-.}/tests/lib/lib.sh"

ARCH=x86
export UAPID_ARCH=

. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

# converged TREE STATE WHAT: the state directory is the fresh batch result
converged() {
	rm -rf "$WORK/fresh-split" "$WORK/fresh-install"
	"$UAPID" split --output "$WORK/fresh-split" ${MARKERS:+--markers "$MARKERS"} "$1" \
		>/dev/null 2>&1 || true
	mkdir -p "$WORK/fresh-split"
	if diff -r "$WORK/fresh-split" "$2/split" >"$WORK/diff" 2>&1; then
		pass
	else
		fail "$3: split/ differs from uapid split --output"
		head -20 "$WORK/diff" >&2
	fi
	if [ -d "$1/include/uapi" ] && [ "${NO_INSTALL:-0}" = 0 ]; then
		"$UAPID" install --arch "$ARCH" "$1" "$WORK/fresh-install" >/dev/null 2>&1 || true
		if diff -r "$WORK/fresh-install/include" "$2/install/include" >"$WORK/diff" 2>&1; then
			pass
		else
			fail "$3: install/include differs from uapid install"
			head -20 "$WORK/diff" >&2
		fi
	fi
	if python3 "$top_srcdir/tests/lib/storecheck.py" "$1" "$2" >"$WORK/store" 2>&1; then
		pass
	else
		fail "$3: the store does not say what is there"
		head -20 "$WORK/store" >&2
	fi
}

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
new_tree "$T"

# --- the command line ------------------------------------------------------------
expect_status 2 "$UAPID" watch
expect_in "$WORK/err" "usage: uapid watch"
expect_status 2 "$UAPID" watch --settle soon "$T"
expect_in "$WORK/err" "--settle: 'soon'"
expect_status 0 "$UAPID" watch --help
expect_in "$WORK/out" "--state-dir DIR"

# private STATE: the state directory and its directories 0700, its files 0600
private() {
	wide=$(find "$1" \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) -printf '%m %p\n' |
		head -5)
	if [ -z "$wide" ]; then pass; else fail "not private in $1: $wide"; fi
}

# --- start, and the first scan -------------------------------------------------
# under a umask that would make them readable by all: the state is private all the same
old_umask=$(umask)
umask 022
start_daemon "$T" "$S" "$K"
umask "$old_umask"
wait_idle "$K"
converged "$T" "$S" "first scan"
private "$S"
expect_file "$S/state.db"
expect_file "$S/split/.uapid-removed"
expect_file "$S/install/include/asm/unistd_64.h"
status_json "$K" >"$WORK/status"
expect_in "$WORK/status" '"needs_coaching": 1'
expect_in "$WORK/status" '"what": "split"'
mode=$(stat -c %a "$K")
[ "$mode" = 600 ] && pass || fail "socket mode $mode, want 600"

# --- edits, one kind at a time --------------------------------------------------
printf '/* edited */\n' >>"$T/include/linux/sample_ioctl.h"
wait_idle "$K"
converged "$T" "$S" "edit of a split header"

# an editor's save: a temporary file renamed over the header
sed 's/SAMPLE/SAMPLE_EDITED/g' "$T/include/linux/sample_types.h" >"$T/include/linux/.sample_types.h.swp"
mv "$T/include/linux/.sample_types.h.swp" "$T/include/linux/sample_types.h"
wait_idle "$K"
converged "$T" "$S" "temporary-file-and-rename save"

# a new header, listed
printf '#ifndef _LINUX_NEWONE_H\n#define _LINUX_NEWONE_H\n#define NEWONE 1\n#ifdef __KERNEL__\nint newone;\n#endif\n#endif\n' \
	>"$T/include/linux/newone.h"
printf 'header-y += newone.h\n' >>"$T/include/linux/Kbuild"
wait_idle "$K"
converged "$T" "$S" "new header and Kbuild entry"
expect_file "$S/split/include/uapi/linux/newone.h"

# renamed, then deleted
mv "$T/include/linux/newone.h" "$T/include/linux/newtwo.h"
sed -i 's/newone.h/newtwo.h/' "$T/include/linux/Kbuild"
wait_idle "$K"
converged "$T" "$S" "rename"
expect_no_file "$S/split/include/uapi/linux/newone.h"
rm "$T/include/linux/newtwo.h"
wait_idle "$K"
converged "$T" "$S" "delete"

# a Kbuild edit alone: a header leaves the export list
sed -i '/sample_forward.h/d' "$T/include/linux/Kbuild"
wait_idle "$K"
converged "$T" "$S" "Kbuild edit"

# a new directory with a list and headers, in one go
mkdir -p "$T/include/newdir"
printf 'header-y += nd.h\n' >"$T/include/newdir/Kbuild"
printf '#ifndef _ND_H\n#define _ND_H\nint nd_user;\n#ifdef __KERNEL__\nint nd_kernel;\n#endif\n#endif\n' >"$T/include/newdir/nd.h"
mkdir -p "$T/include/uapi/newdir"
printf '#ifndef _UAPI_ND2_H\n#define _UAPI_ND2_H\nint nd2;\n#endif\n' >"$T/include/uapi/newdir/nd2.h"
wait_idle "$K"
converged "$T" "$S" "new directories"
expect_file "$S/install/include/newdir/nd2.h"

# what the installer reads: the syscall table and the install script
printf '9\tcommon\tuapid_test\t\tsys_uapid_test\n' >>"$T/arch/x86/entry/syscalls/syscall_64.tbl"
wait_idle "$K"
converged "$T" "$S" "syscall table edit"
expect_in "$S/install/include/asm/unistd_64.h" "uapid_test"
rm -rf "$T/include/uapi/newdir"
wait_idle "$K"
converged "$T" "$S" "uapi directory removed"
expect_no_file "$S/install/include/newdir/nd2.h"
[ -d "$S/install/include/newdir" ] && fail "empty install/include/newdir left" || pass

# --- a burst: hundreds of headers written at once, then rewritten -----------------
mkdir -p "$WORK/gen"
i=0
while [ $i -lt 300 ]; do
	printf '#ifndef _LINUX_GEN%d_H\n#define _LINUX_GEN%d_H\n#define GEN%d %d\n#ifdef __KERNEL__\nint gen%d_kernel;\n#endif\n#endif\n' \
		$i $i $i $i $i >"$WORK/gen/gen$i.h"
	printf 'header-y += gen%d.h\n' $i >>"$WORK/gen/Kbuild.add"
	i=$((i + 1))
done
cp "$WORK"/gen/gen*.h "$T/include/linux/"
cat "$WORK/gen/Kbuild.add" >>"$T/include/linux/Kbuild"
wait_idle "$K"
converged "$T" "$S" "burst of 300 new headers"
# rewrite them all (half become plain, moved whole), delete a hundred
i=0
while [ $i -lt 300 ]; do
	if [ $((i % 2)) = 0 ]; then
		printf '#ifndef _LINUX_GEN%d_H\n#define _LINUX_GEN%d_H\n#define GEN%d %d\n#endif\n' $i $i $i $((i + 1)) \
			>"$T/include/linux/gen$i.h"
	else
		printf '/* rewritten */\n' >>"$T/include/linux/gen$i.h"
	fi
	i=$((i + 1))
done
i=200
while [ $i -lt 300 ]; do rm "$T/include/linux/gen$i.h"; i=$((i + 1)); done
wait_idle "$K"
converged "$T" "$S" "burst rewrite and delete"

# --- git's index lock holds processing back ---------------------------------------
mkdir -p "$T/.git"
: >"$T/.git/index.lock"
printf '/* during a checkout */\n' >>"$T/include/linux/sample_compound.h"
# the edit seen and held back: the daemon says it waits for git
i=0
until status_json "$K" >"$WORK/status" && grep -q '"waiting_for_git": true' "$WORK/status" ||
	[ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_in "$WORK/status" '"waiting_for_git": true'
if grep -q "during a checkout" "$S/split/include/linux/sample_compound.h"; then
	fail "processed while .git/index.lock exists"
else
	pass
fi
rm "$T/.git/index.lock"
wait_idle "$K"
converged "$T" "$S" "after the index lock went"

# --- restart on an unchanged tree: nothing split again ------------------------------
stop_daemon
expect_no_file "$K"
: >"$WORK/daemon.log"
start_daemon "$T" "$S" "$K"
wait_idle "$K"
expect_in "$WORK/daemon.log" "scan: 0 paths, 0 headers split again, 0 installed headers made, 0 written"
converged "$T" "$S" "restart"

# --- a state directory with wider modes (made by hand, an older uapid) is made private ------
stop_daemon
chmod -R go+rX "$S"
: >"$WORK/daemon.log"
umask 022
start_daemon "$T" "$S" "$K"
umask "$old_umask"
wait_idle "$K"
expect_in "$WORK/daemon.log" "state directory $S was 0755: made private (0700), with"
private "$S"
converged "$T" "$S" "restart, made private"

# --- SIGHUP reloads the markers ----------------------------------------------------
MARKERS=$WORK/markers
printf 'include/linux/sample_arch.h skip # not today\n' >"$MARKERS"
stop_daemon
start_daemon "$T" "$S" "$K" --markers "$MARKERS"
wait_idle "$K"
converged "$T" "$S" "with markers"
status_json "$K" >"$WORK/status"
expect_in "$WORK/status" '"skipped": 1'
: >"$MARKERS"
kill -HUP "$DPID"
wait_idle "$K"
status_json "$K" >"$WORK/status"
expect_in "$WORK/status" '"skipped": 0'
converged "$T" "$S" "after SIGHUP"
expect_in "$WORK/daemon.log" "SIGHUP: markers reloaded"
stop_daemon
MARKERS=

# --- kill -9 between the writes and the commit, then a restart repairs ------------------
cp "$WORK"/gen/gen1*.h "$T/include/linux/"
# the crash injection is in builds configured with --enable-test-hooks only
if uapid_has UAPID_TEST_CRASH_AFTER; then
	UAPID_TEST_CRASH_AFTER=3 "$UAPID" watch --state-dir "$S" --socket "$K" --arch "$ARCH" "$T" \
		>>"$WORK/daemon.log" 2>&1 &
	DPID=$!
	set +e
	wait "$DPID"
	code=$?
	set -e
	[ "$code" = 137 ] && pass || fail "crash hook: exit $code, want 137 (SIGKILL)"
	: >"$WORK/daemon.log"
	start_daemon "$T" "$S" "$K"
	wait_idle "$K"
	converged "$T" "$S" "restart after kill -9"
else
	echo "cli-watch: NOT RUN: kill -9 between the writes and the commit (configure" \
		"--enable-test-hooks compiles in the crash injection it needs)" >&2
	start_daemon "$T" "$S" "$K"
	wait_idle "$K"
fi
# a daemon built without --enable-test-hooks (the one users run) has no crash injection
if [ -f "${top_builddir:-}/config.h" ] && ! grep -q 'define UD_TEST_HOOKS 1' "$top_builddir/config.h"; then
	if uapid_has UAPID_TEST_CRASH_AFTER; then
		fail "the crash injection is compiled into a build without --enable-test-hooks"
	else
		pass
	fi
fi
# damage the outputs while it is down: the start puts them right
stop_daemon
printf 'garbage\n' >"$S/split/include/uapi/linux/sample_types.h"
rm -f "$S/install/include/linux/mini.h"
printf 'stray\n' >"$S/split/include/stray.h"
: >"$WORK/daemon.log"
start_daemon "$T" "$S" "$K"
wait_idle "$K"
expect_in "$WORK/daemon.log" "outputs repaired: 1 stray files removed, 2 missing or damaged made again"
converged "$T" "$S" "damaged outputs"
stop_daemon

# --- lost events: the daemon still converges --------------------------------------------
: >"$WORK/daemon.log"
UAPID_TEST_DROP_EVENTS=7 start_daemon "$T" "$S" "$K"
i=0
while [ $i -lt 60 ]; do printf '/* %d */\n' $i >>"$T/include/linux/gen$i.h"; i=$((i + 1)); done
wait_idle "$K"
expect_in "$WORK/daemon.log" "inotify events were lost"
converged "$T" "$S" "events dropped"
stop_daemon

# --- the watch limit: say so, and rescan periodically ---------------------------------
: >"$WORK/daemon.log"
UAPID_TEST_MAX_WATCHES=2 UAPID_RESCAN_MS=500 start_daemon "$T" "$S" "$K"
expect_in "$WORK/daemon.log" "sysctl fs.inotify.max_user_watches"
printf '/* seen by a rescan */\n' >>"$T/arch/x86/include/asm/sample_regs.h"
# the next rescan sees it (under valgrind a scan takes longer than the period)
i=0
until grep -rqs 'seen by a rescan' "$S/split" || [ $i -ge 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait_idle "$K"
converged "$T" "$S" "watch limit, periodic rescans"
status_json "$K" >"$WORK/status"
expect_in "$WORK/status" '"degraded": true'
stop_daemon

# --- what cannot be served is said, not a dead daemon --------------------------------------
ARCH=um
: >"$WORK/daemon.log"
start_daemon "$T" "$WORK/state-um" "$K"
status_json "$K" >"$WORK/status"
expect_in "$WORK/status" "Headers not exportable for UML"
NO_INSTALL=1 converged "$T" "$WORK/state-um" "um refused"
stop_daemon
ARCH=x86

# --- start-up errors: clear, exit 2, nothing lost -------------------------------------------
expect_status 2 "$UAPID" watch --state-dir "$WORK/s2" --socket "$WORK/s2.sock" "$WORK/no-such-tree"
expect_in "$WORK/err" "no-such-tree"
mkdir -p "$WORK/corrupt"
head -c 8192 /dev/urandom >"$WORK/corrupt/state.db"
cp "$WORK/corrupt/state.db" "$WORK/corrupt.before"
expect_status 2 "$UAPID" watch --state-dir "$WORK/corrupt" --socket "$WORK/c.sock" "$T"
expect_in "$WORK/err" "state.db"
expect_same "$WORK/corrupt.before" "$WORK/corrupt/state.db"
# a database another process is writing
python3 - "$S/state.db" "$WORK/locked.ready" <<'PY' &
import sqlite3, sys, time, os
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(4)
PY
LPID=$!
while [ ! -f "$WORK/locked.ready" ]; do sleep 0.05; done
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$WORK/l.sock" "$T"
expect_in "$WORK/err" "another process is writing it"
kill "$LPID" 2>/dev/null || true
wait "$LPID" 2>/dev/null || true
# two daemons on one state directory, and on one socket
start_daemon "$T" "$S" "$K"
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$WORK/other.sock" "$T"
expect_in "$WORK/err" "another uapid watch uses this state directory"
expect_status 2 "$UAPID" watch --state-dir "$WORK/s3" --socket "$K" "$T"
expect_in "$WORK/err" "another daemon answers on this socket"
stop_daemon
# a stale socket is replaced
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$K"
start_daemon "$T" "$S" "$K"
stop_daemon
# permissions only bind a user other than root: drop to nobody where we are root
NUAPID=$UAPID NENV=
if [ "$(id -u)" = 0 ]; then
	AS="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
	chmod 755 "$WORK"
	chmod -R a+rX "$T"
else
	AS=
fi
mkdir -p "$WORK/ro-state"
$AS true 2>/dev/null || AS=
[ -z "$AS" ] || nobody_binaries
[ -n "$AS" ] && chown nobody "$WORK/ro-state" 2>/dev/null || true
$AS $NENV "$NUAPID" watch --state-dir "$WORK/ro-state" --socket "$WORK/ro.sock" "$T" >/dev/null 2>&1 &
RPID=$!
# its store made once it answers on its socket
i=0
while [ ! -S "$WORK/ro.sock" ] && kill -0 "$RPID" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -TERM "$RPID" 2>/dev/null || true
wait "$RPID" 2>/dev/null || true
chmod 444 "$WORK/ro-state/state.db"
chmod 555 "$WORK/ro-state"
cp "$WORK/ro-state/state.db" "$WORK/ro.before"
expect_status 2 $AS $NENV "$NUAPID" watch --state-dir "$WORK/ro-state" --socket "$WORK/ro.sock" "$T"
expect_in "$WORK/err" "ro-state"
expect_same "$WORK/ro.before" "$WORK/ro-state/state.db"
mkdir -p "$WORK/unwritable"
chmod 555 "$WORK/unwritable"
expect_status 2 $AS $NENV "$NUAPID" watch --state-dir "$WORK/unwritable/s" --socket "$WORK/u.sock" "$T"
expect_in "$WORK/err" "unwritable"
chmod 755 "$WORK/ro-state" "$WORK/unwritable"

# --- systemd: the notify protocol, for real ----------------------------------------------------
python3 - "$WORK/notify.sock" "$WORK/notify.log" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(300)
with open(sys.argv[2], "w") as log:
    # until the daemon says it stops (a loaded machine may take long to scan)
    end = time.time() + 300
    while time.time() < end:
        try:
            m = s.recv(4096).decode()
        except socket.timeout:
            break
        log.write(m.replace("\n", "|") + "\n")
        log.flush()
        if "STOPPING=1" in m:
            break
PY
NPID=$!
while [ ! -S "$WORK/notify.sock" ]; do sleep 0.05; done
NOTIFY_SOCKET=$WORK/notify.sock WATCHDOG_USEC=200000 start_daemon "$T" "$S" "$K"
# the watchdog pinged at least once (every 100 ms of its 200)
i=0
while ! grep -q "WATCHDOG=1" "$WORK/notify.log" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
stop_daemon
wait "$NPID" || true
expect_in "$WORK/notify.log" "STATUS=scanning"
expect_in "$WORK/notify.log" "READY=1"
expect_in "$WORK/notify.log" "WATCHDOG=1"
expect_in "$WORK/notify.log" "STATUS=" 
expect_in "$WORK/notify.log" "headers ("
expect_in "$WORK/notify.log" "STOPPING=1"
# journald's priority prefixes when JOURNAL_STREAM names our stderr
ino=$(python3 -c 'import os; s=os.stat(os.sys.argv[1]); print("%d:%d" % (s.st_dev, s.st_ino))' "$WORK/journal.log" 2>/dev/null || true)
: >"$WORK/journal.log"
ino=$(python3 -c 'import os,sys; s=os.stat(sys.argv[1]); print("%d:%d" % (s.st_dev, s.st_ino))' "$WORK/journal.log")
JOURNAL_STREAM=$ino "$UAPID" watch --state-dir "$S" --socket "$K" --arch "$ARCH" "$T" 2>"$WORK/journal.log" &
DPID=$!
# until it says it watches (a fixed 1.5 s was too short for ASan at a load of 10: SIGTERM came first)
i=0
while ! grep -q 'watching' "$WORK/journal.log" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
stop_daemon
expect_in "$WORK/journal.log" "<6>watching $T"

# socket activation: systemd-socket-activate holds the socket and passes it
if command -v systemd-socket-activate >/dev/null 2>&1; then
	systemd-socket-activate -l "$WORK/act.sock" "$UAPID" watch --state-dir "$S" --arch "$ARCH" "$T" \
		>"$WORK/act.log" 2>&1 &
	APID=$!
	i=0
	while [ ! -S "$WORK/act.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	expect_status 0 "$UAPICTL" --socket "$WORK/act.sock" --timeout 20 --json status
	expect_in "$WORK/out" "\"socket\": \"$WORK/act.sock\""
	kill -TERM "$APID" 2>/dev/null || true
	wait "$APID" 2>/dev/null || true
	expect_in "$WORK/act.log" "socket from systemd"
else
	fail "systemd-socket-activate is not installed"
fi

finish
