# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Helpers for the scripts that run `uapid watch` (sourced after lib.sh):
# a fixture tree, the daemon's status, start, stop, wait until idle.
# The daemon runs with $ARCH (x86 unless set) and logs to $WORK/daemon.log;
# UAPID_DAEMON_WRAP runs it under a tool (test.sh: valgrind).
: "${ARCH:=x86}"

# A tree with both halves: exported headers to split (examples/tree, the
# lib.sh tree) and include/uapi with the Makefiles of an install (mini).
new_tree() {
	t=$1
	mkdir -p "$t"
	cp -R "$top_srcdir/tests/trees/mini/." "$t/"
	cp -R "$top_srcdir/examples/tree/include/linux" "$t/include/"
	cp -R "$top_srcdir/examples/tree/include/asm-generic" "$t/include/"
	mkdir -p "$t/arch/x86/include/asm"
	cp -R "$top_srcdir/examples/tree/arch/x86/include/asm/." "$t/arch/x86/include/asm/"
	rm -rf "$t/usr"
	chmod -R u+w "$t"
}

status_json() { "$UAPICTL" --socket "$1" --timeout 5 --json status 2>/dev/null; }
json_field() { python3 -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v=v[k]
print(json.dumps(v) if isinstance(v,(dict,list,bool)) else v)' "$1"; }

# start_daemon TREE STATE SOCK [OPTIONS...]: in the background, until ready
start_daemon() {
	tree=$1 state=$2 sock=$3
	shift 3
	# UAPID_DAEMON_WRAP: a command to run the daemon under (test.sh: valgrind)
	${UAPID_DAEMON_WRAP:-} "$UAPID" watch --state-dir "$state" --socket "$sock" --arch "$ARCH" \
		--settle 50 "$@" "$tree" >>"$WORK/daemon.log" 2>&1 &
	DPID=$!
	# one process polls status (tests/lib/daemon-wait.py): exit 2, the daemon is gone
	rc=0
	python3 "$top_srcdir/tests/lib/daemon-wait.py" "$sock" ready "$DPID" || rc=$?
	[ "$rc" = 0 ] && return 0
	if [ "$rc" = 2 ]; then fail "daemon died at start"; else fail "daemon not ready after 120 s"; fi
	tail -20 "$WORK/daemon.log" >&2
	return 1
}

stop_daemon() {
	kill -TERM "$DPID" 2>/dev/null || true
	set +e
	wait "$DPID"
	code=$?
	set -e
	[ "$code" = 0 ] && pass || fail "daemon exit $code after SIGTERM"
}

# wait_idle SOCK: no batch running or waiting, and the clock still for 0.15 s
wait_idle() {
	python3 "$top_srcdir/tests/lib/daemon-wait.py" "$1" idle || fail "daemon never idle"
}
