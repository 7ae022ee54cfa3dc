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
	i=0
	while [ $i -lt 1200 ]; do
		if [ "$(status_json "$sock" | json_field ready 2>/dev/null)" = true ]; then
			return 0
		fi
		kill -0 "$DPID" 2>/dev/null || { fail "daemon died at start"; tail -20 "$WORK/daemon.log" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	fail "daemon not ready after 120 s"
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

# wait_idle SOCK: no batch running or waiting, and the clock still for 0.3 s
wait_idle() {
	last=x i=0
	sleep 0.15
	while [ $i -lt 200 ]; do
		s=$(status_json "$1") || { sleep 0.1; i=$((i + 1)); continue; }
		busy=$(echo "$s" | json_field busy)
		clock=$(echo "$s" | json_field clock)
		if [ "$busy" = false ] && [ "$clock" = "$last" ]; then
			return 0
		fi
		last=$clock
		sleep 0.15
		i=$((i + 1))
	done
	fail "daemon never idle"
}
