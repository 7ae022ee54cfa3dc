#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid watch's JSON-RPC 2.0 socket, spoken to directly (python3's socket and
# json, not uapictl): every method with its results checked against the tree
# and the outputs on disk, every error code, batches and notifications, and
# the socket's careful-daemon rules for real: the 8 MiB request limit, a
# refused peer (SO_PEERCRED) and a --socket-group member, a subscriber that
# does not read, 200 clients at once, socket activation, a stale socket, a
# second daemon on the same path and a socket path too long for sun_path.
#
# UD_VERBOSE=1 lists every check of the python sections.
. "${top_srcdir:-.}/tests/lib/lib.sh"

export UAPID_ARCH=
# the discovery symlink (publish_socket) goes here, not into /tmp/uapid-UID
XDG_RUNTIME_DIR=$WORK/xdg
export XDG_RUNTIME_DIR
mkdir -p "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
export T S K WORK
PY=python3
export PYTHONPATH="$WORK${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1 # the sections run from the source tree, which may be read-only

# --- every daemon started here is stopped at the end, whatever happens --------------
PIDS=
cleanup() {
	rc=$?
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null || true; done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$WORK"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
forget_pid() {
	keep=
	for p in $PIDS; do [ "$p" = "$1" ] || keep="$keep $p"; done
	PIDS=$keep
}

# tally the PASS / FAIL lines a python section printed
tally() {
	while IFS= read -r line; do
		case $line in
		"PASS "*)
			pass
			[ "${UD_VERBOSE:-0}" = 0 ] || echo "ok: ${line#PASS }" >&2
			;;
		"FAIL "*) fail "${line#FAIL }" ;;
		*) echo "  $line" >&2 ;;
		esac
	done <"$1"
}
# pycheck NAME SECTION [ARGS...]: the python section tests/rpc/SECTION.py; a crash is a failure too
pycheck() {
	name=$1
	section=$top_srcdir/tests/rpc/$2.py
	shift 2
	set +e
	# under valgrind (test.sh's UAPID_DAEMON_WRAP) the daemon runs tens of times slower
	timeout "$([ -n "${UAPID_DAEMON_WRAP:-}" ] && echo 900 || echo 120)" $PY "$section" "$@" >"$WORK/py.out" 2>"$WORK/py.err"
	code=$?
	set -e
	tally "$WORK/py.out"
	if [ "$code" != 0 ]; then
		fail "$name: python section exited $code"
		tail -25 "$WORK/py.err" | sed 's/^/  | /' >&2
	fi
}

# --- the client library ----------------------------------------------------------------
cp "$top_srcdir/tests/rpc/ud.py" "$WORK/ud.py"

# A client that runs as another user: only prints what happened.
cp "$top_srcdir/tests/rpc/peer.py" "$WORK/peer.py"
chmod 644 "$WORK/ud.py" "$WORK/peer.py"

# start_daemon LOG TREE STATE SOCK [OPTIONS...]: in the background until ready; DPID
start_daemon() {
	log=$1 tree=$2 state=$3 sock=$4
	shift 4
	${UAPID_DAEMON_WRAP:-} "$UAPID" watch --state-dir "$state" --socket "$sock" --arch x86 \
		--settle 50 "$@" "$tree" >>"$log" 2>&1 &
	DPID=$!
	PIDS="$PIDS $DPID"
	if $PY "$WORK/ud.py" wait-ready "$sock" "$DPID" 120; then
		pass
	else
		fail "daemon on $sock not ready"
		tail -20 "$log" >&2
		return 1
	fi
}
# stop_daemon PID: SIGTERM, exit 0
stop_daemon() {
	kill -TERM "$1" 2>/dev/null || true
	set +e
	wait "$1"
	code=$?
	set -e
	forget_pid "$1"
	[ "$code" = 0 ] && pass || fail "daemon $1 exit $code after SIGTERM"
}

# --- the fixture: examples/tree, one unexported header more --------------------------
mkdir -p "$T"
cp -R "$top_srcdir/examples/tree/." "$T/"
chmod -R u+w "$T"
printf '#ifndef _LINUX_SAMPLE_PRIVATE_H\n#define _LINUX_SAMPLE_PRIVATE_H\nint sample_private;\n#endif\n' \
	>"$T/include/linux/sample_private.h"
LOG=$WORK/daemon.log
start_daemon "$LOG" "$T" "$S" "$K"
MAIN=$DPID
export MAIN

# === 1. every method, with good params ===================================================
pycheck "status, headers, classify, preview" status-headers-classify-preview

# the daemon's split is the batch command's
"$UAPID" split --output "$WORK/fresh" "$T" >/dev/null 2>&1 || true
if diff -r "$WORK/fresh" "$S/split" >"$WORK/diff" 2>&1; then pass; else
	fail "state/split differs from uapid split --output"
	head -20 "$WORK/diff" >&2
fi

pycheck "changes" changes

pycheck "markers" markers

pycheck "resplit" resplit

pycheck "subscribe, unsubscribe" subscribe-unsubscribe

# === 2. every error code, batches, notifications ===========================================
pycheck "errors" errors

# === 3. the 8 MiB request limit ============================================================
: >"$WORK/mark"
pycheck "8 MiB" 8-mib
expect_in "$LOG" "is over 8388608 bytes: refused"

# a client that sends and never reads its replies: the daemon stops reading its
# requests while 4 MiB of replies wait (no memory without end), and every one is
# answered once the client reads
pycheck "unread replies" unread-replies

# a last request without its newline, then the end of input: still answered
pycheck "last line at end of input" last-line-at-end-of-input

# === 6. 200 clients at once ==================================================================
pycheck "200 clients" 200-clients

# === 5. a subscriber that never reads ==========================================================
# 800 headers with long paths: every round of edits makes a notification of ~400 KB.
# Not under valgrind: dozens of whole-tree rounds there take the better part of an hour, and
# the bound it checks is the same code the gcc and ASan runs check.
if [ -n "${UAPID_DAEMON_WRAP:-}" ]; then
	echo "cli-rpc.sh: the slow subscriber is left to the runs without valgrind"
else
pycheck "slow subscriber" slow-subscriber
expect_in "$LOG" "does not read (over 4194304 bytes waiting): disconnected"
fi
pycheck "served after the slow subscriber" served-after-the-slow-subscriber

# === 5b. clients that hang up before their replies ===============================================
# a write to a gone peer fails with EPIPE: a closed client, never SIGPIPE (issue 19)
pycheck "clients that hang up early" clients-that-hang-up-early
if kill -0 "$MAIN" 2>/dev/null; then pass "the daemon lives on after clients hung up"; else fail "the daemon died after clients hung up"; fi

# === 4. peers: SO_PEERCRED, --socket-group ======================================================
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	# a python that user nobody can run (pyenv's shims live under /root)
	PYN=
	for p in /usr/bin/python3 /usr/local/bin/python3 "$(command -v python3)"; do
		if [ -x "$p" ] && setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$p" -c '' 2>/dev/null; then
			PYN=$p
			break
		fi
	done
	GRP=
	for g in users staff adm daemon; do
		if getent group "$g" >/dev/null && [ "$g" != "$(id -gn nobody 2>/dev/null)" ]; then GRP=$g; break; fi
	done
	NOGRP=$(id -gn nobody 2>/dev/null || echo nogroup)
	as_nobody() { # GROUP-OPTIONS...: peer.py as nobody, its verdict in $WORK/out
		setpriv --reuid=nobody "$@" -- "$PYN" "$WORK/peer.py" "$SOCKP" >"$WORK/out" 2>&1 || true
	}
	if [ -n "$PYN" ] && [ -n "$GRP" ]; then
		# the main daemon: no group; file permissions opened up to reach SO_PEERCRED
		SOCKP=$K
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "CONNECT-DENIED"
		chmod 666 "$K"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "REFUSED"
		expect_in "$LOG" "socket: refused uid $(id -u nobody) (pid"
		expect_in "$LOG" "not this daemon's user"
		chmod 600 "$K"
		expect_status 0 $PY "$WORK/peer.py" "$K"
		expect_in "$WORK/out" "SERVED"

		# a daemon with --socket-group: mode 0660, that group's members served
		mkdir -p "$WORK/g"
		chmod 755 "$WORK/g"
		SOCKP=$WORK/g/d.sock
		GLOG=$WORK/group.log
		start_daemon "$GLOG" "$T" "$WORK/state-g" "$SOCKP" --socket-group "$GRP"
		GPID=$DPID
		[ "$(stat -c '%a %G' "$SOCKP")" = "660 $GRP" ] && pass ||
			fail "group socket: $(stat -c '%a %G' "$SOCKP"), want 660 $GRP"
		as_nobody --regid="$GRP" --clear-groups
		expect_in "$WORK/out" "SERVED"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "CONNECT-DENIED"
		# a member through its supplementary groups, as usermod -aG makes them
		as_nobody --regid="$NOGRP" --groups="$(getent group "$GRP" | cut -d: -f3)"
		expect_in "$WORK/out" "SERVED"
		chmod 666 "$SOCKP"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "REFUSED"
		expect_in "$GLOG" "not this daemon's user or group"
		expect_status 0 $PY "$WORK/peer.py" "$SOCKP"
		expect_in "$WORK/out" "SERVED"
		stop_daemon "$GPID"
		expect_no_file "$SOCKP"
	else
		fail "no python3 that user nobody can run, or no group for --socket-group"
	fi
else
	echo "SKIP: the peer checks need root and setpriv" >&2
fi

# the main daemon is done: it stops cleanly and removes its socket
stop_daemon "$MAIN"
expect_no_file "$K"
expect_in "$LOG" "stopped"

# === 7. socket activation ===========================================================================
# and "older than its history": the store's first events are gone (as a pruned history would be)
CUT=$($PY - "$S/state.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
first, last = db.execute("SELECT MIN(clock), MAX(clock) FROM events").fetchone()
cut = first + (last - first) // 2
db.execute("DELETE FROM events WHERE clock <= ?", (cut,))
db.commit()
print(cut)
PY
)
if command -v systemd-socket-activate >/dev/null 2>&1; then
	A=$WORK/act/uapid.sock
	mkdir -p "$WORK/act"
	ALOG=$WORK/act.log
	systemd-socket-activate -l "$A" -E XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
		"$UAPID" watch --state-dir "$S" --arch x86 --settle 50 "$T" >"$ALOG" 2>&1 &
	APID=$!
	PIDS="$PIDS $APID"
	i=0
	while [ ! -S "$A" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	if $PY "$WORK/ud.py" wait-ready "$A" "$APID" 120; then pass; else fail "activated daemon not ready"; fi
	export CUT
	pycheck "socket activation" socket-activation "$A"
	stop_daemon "$APID"
	expect_in "$ALOG" "socket from systemd ($A)"
else
	fail "systemd-socket-activate is not installed"
fi

# === 8. a stale socket, a second daemon, a path too long ==============================================
Z=$WORK/stale.sock
$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$Z"
[ -S "$Z" ] && pass || fail "no stale socket made"
start_daemon "$WORK/stale.log" "$T" "$S" "$Z"
ZPID=$DPID
pycheck "stale socket replaced" stale-socket-replaced "$Z"
[ "$(stat -c %a "$Z")" = 600 ] && pass || fail "socket mode $(stat -c %a "$Z"), want 600"
# a second daemon (its own state directory) on the same path
expect_status 2 "$UAPID" watch --state-dir "$WORK/state-2" --socket "$Z" --arch x86 "$T"
expect_in "$WORK/err" "$Z: another daemon answers on this socket"
pycheck "first daemon unharmed" first-daemon-unharmed "$Z"
stop_daemon "$ZPID"
expect_no_file "$Z"
# issue 38 A (the socket's part): at the descriptor limit new clients wait in the backlog, logged
L=$WORK/limit.sock
(ulimit -n 64 && exec ${UAPID_DAEMON_WRAP:-} "$UAPID" watch --state-dir "$WORK/state-l" --socket "$L" \
	--arch x86 --settle 50 "$T") >"$WORK/limit.log" 2>&1 &
LPID=$!
PIDS="$PIDS $LPID"
if $PY "$WORK/ud.py" wait-ready "$L" "$LPID" 120; then pass; else fail "daemon under ulimit -n 64 not ready"; tail "$WORK/limit.log" >&2; fi
pycheck "descriptor limit" descriptor-limit "$L"
expect_in "$WORK/limit.log" "descriptors left: new connections wait until clients go"
expect_in "$WORK/limit.log" "descriptors free again"
stop_daemon "$LPID"

# issue 38 D: the path watched (status's problems, the log), and a daemon's stop never removes
# another daemon's socket bound at its path after someone removed its own
P=$WORK/two.sock
start_daemon "$WORK/a.log" "$T" "$WORK/state-a" "$P"
APID=$DPID
pycheck "socket path watched" socket-path-watched "$P"
expect_in "$WORK/a.log" "$P no longer names this daemon's socket: it was removed"
expect_in "$WORK/a.log" "names this daemon's socket again"
rm "$P"
start_daemon "$WORK/b.log" "$T" "$WORK/state-b" "$P"
BPID=$DPID
stop_daemon "$APID"
[ -S "$P" ] && pass || fail "stopping a daemon removed another daemon's socket at its path"
expect_in "$WORK/a.log" "$P left as it is: it no longer names this daemon's socket"
pycheck "the second daemon still served" first-daemon-unharmed "$P"
stop_daemon "$BPID"
expect_no_file "$P"
# a directory put in the socket's place: logged by the periodic check (no client can ask)
start_daemon "$WORK/c.log" "$T" "$WORK/state-a" "$P"
CPID=$DPID
rm "$P"
mkdir "$P"
i=0
while ! grep -q "a directory is there now" "$WORK/c.log" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_in "$WORK/c.log" "$P no longer names this daemon's socket: a directory is there now"
stop_daemon "$CPID"
[ -d "$P" ] && pass || fail "the directory at the socket's path is gone"
rmdir "$P"

# issue 38 F: a relative --socket is published for discovery as an absolute path (a relative
# symlink would be read from the discovery directory: dangling)
rm -rf "$XDG_RUNTIME_DIR/uapid"
(cd "$WORK" && exec "$UAPID" watch --state-dir "$WORK/state-a" --socket rel.sock --arch x86 \
	--settle 50 "$T") >"$WORK/rel.log" 2>&1 &
RPID=$!
PIDS="$PIDS $RPID"
if $PY "$WORK/ud.py" wait-ready "$WORK/rel.sock" "$RPID" 120; then pass; else fail "daemon on rel.sock not ready"; fi
link=$(ls "$XDG_RUNTIME_DIR"/uapid/*.sock 2>/dev/null | head -1)
[ -n "$link" ] && [ -S "$link" ] && [ "$(readlink "$link")" = "$WORK/rel.sock" ] && pass ||
	fail "discovery link for a relative --socket: $link -> $(readlink "$link" 2>&1)"
(cd / && "$UAPICTL" --tree "$T" status) >"$WORK/out" 2>&1 && pass || fail "uapictl status finds no daemon for a relative --socket: $(cat "$WORK/out")"
stop_daemon "$RPID"

# issue 38 F: a stale git index.lock is named in status (path and age), not waited on silently
T2=$WORK/tree2
export T2
cp -R "$T" "$T2"
mkdir -p "$T2/.git"
start_daemon "$WORK/git.log" "$T2" "$WORK/state-g2" "$WORK/g2.sock"
pycheck "stale git lock" stale-git-lock "$WORK/g2.sock" "$T2/.git/index.lock"
# issue 36: a store error reading the markers is an error with its cause, never "no markers"
pycheck "markers: a store error" markers-store-error "$WORK/g2.sock" "$WORK/state-g2/state.db"
stop_daemon "$DPID"

# something that is not a socket is left alone
printf 'precious\n' >"$WORK/not-a-socket"
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$WORK/not-a-socket" --arch x86 "$T"
expect_in "$WORK/err" "exists and is not a socket"
expect_in "$WORK/not-a-socket" "precious"

# sun_path holds 107 bytes and a NUL: 107 is served, 108 refused
base="$WORK/"
pad=$((107 - ${#base} - 7))
if [ $pad -ge 1 ]; then
	dir=$WORK/$(printf '%*s' "$pad" '' | tr ' ' p)
	P107=$dir/x.sock
	P108=$dir/xy.sock
	[ ${#P107} = 107 ] && [ ${#P108} = 108 ] && pass || fail "path lengths ${#P107} ${#P108}"
	expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$P108" --arch x86 "$T"
	expect_in "$WORK/err" "$P108: socket path longer than 107 bytes"
	expect_no_file "$P108"
	start_daemon "$WORK/p107.log" "$T" "$S" "$P107"
	pycheck "107-byte socket path" 107-byte-socket-path "$P107"
	stop_daemon "$DPID"
else
	echo "SKIP: \$WORK too long for the sun_path boundary" >&2
fi
# far too long: refused just as clearly
LONG=$WORK/$(printf '%*s' 200 '' | tr ' ' q)/d.sock
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$LONG" --arch x86 "$T"
expect_in "$WORK/err" "socket path longer than 107 bytes"

finish
