#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid watch on a real kernel tree (Debian's linux-source-6.1), then the
# whole of linux-source-6.12 copied over it at once (thousands of headers
# changed, added and deleted in one burst), 6.1 copied back and the daemon
# killed with SIGKILL in the middle of it, and a burst with the kernel's
# own inotify queue made too small to hold it (where this user may set
# fs.inotify.max_queued_events).  After each, the state directory must
# equal uapid split --output and uapid install (diff -r) and the store
# must say what is there (storecheck.py).
# Run by test.sh --full (it installs both packages); not part of make check.
# The trees come from tests/kernel/kernel-lib.sh (test.sh extracts each once a run).
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/kernel/kernel-lib.sh"

ARCH=x86_64

status_json() { "$UAPICTL" --socket "$1" --timeout 10 --json status 2>/dev/null; }
json_field() { python3 -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v=v[k]
print(json.dumps(v) if isinstance(v,(dict,list,bool)) else v)' "$1"; }

start_daemon() {
	"$UAPID" watch --state-dir "$S" --socket "$K" --arch "$ARCH" "$T" >>"$WORK/daemon.log" 2>&1 &
	DPID=$!
	i=0
	while [ $i -lt 1200 ]; do
		[ "$(status_json "$K" | json_field ready 2>/dev/null)" = true ] && return 0
		kill -0 "$DPID" 2>/dev/null || { fail "daemon died"; tail "$WORK/daemon.log" >&2; exit 1; }
		sleep 0.1
		i=$((i + 1))
	done
	fail "daemon not ready after 120 s"
	exit 1
}

wait_idle() {
	last=x i=0
	sleep 0.3
	while [ $i -lt 600 ]; do
		s=$(status_json "$K") || { sleep 0.2; i=$((i + 1)); continue; }
		if [ "$(echo "$s" | json_field busy)" = false ] && [ "$(echo "$s" | json_field clock)" = "$last" ]; then
			return 0
		fi
		last=$(echo "$s" | json_field clock)
		sleep 0.3
		i=$((i + 1))
	done
	fail "daemon never idle"
}

converged() {
	rm -rf "$WORK/fresh-split" "$WORK/fresh-install"
	"$UAPID" split --output "$WORK/fresh-split" "$T" >/dev/null 2>&1 || true
	mkdir -p "$WORK/fresh-split"
	"$UAPID" install --arch "$ARCH" "$T" "$WORK/fresh-install" >/dev/null 2>&1 || true
	if diff -r "$WORK/fresh-split" "$S/split" >"$WORK/diff" 2>&1 &&
		diff -r "$WORK/fresh-install/include" "$S/install/include" >>"$WORK/diff" 2>&1; then
		pass
	else
		fail "$1: the state directory differs from the batch commands"
		head -20 "$WORK/diff" >&2
	fi
	if python3 "$top_srcdir/tests/lib/storecheck.py" "$T" "$S" >"$WORK/store" 2>&1; then
		pass
	else
		fail "$1: the store does not say what is there"
		head -20 "$WORK/store" >&2
	fi
	n=$(find "$S/install/include" -type f | wc -l)
	echo "$1: converged ($n installed headers)"
}

# copy_over FROM: FROM's include/, arch/, scripts/ and Makefile over the tree, as a checkout does
copy_over() {
	for d in include arch scripts; do
		rsync -a --delete "$1/$d/" "$T/$d/"
	done
	cp "$1/Makefile" "$T/Makefile"
}

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
L61=$(kernel_tree 6.1)
L612=$(kernel_tree 6.12)
mkdir -p "$T"
copy_over "$L61"

start_daemon
wait_idle
grep 'scan:' "$WORK/daemon.log" | head -1
converged "6.1, first scan"

copy_over "$L612"
changed=$(diff -rq "$L61/include" "$L612/include" 2>/dev/null | wc -l)
echo "6.12 copied over 6.1 ($changed entries of include/ differ)"
wait_idle
converged "6.12 over 6.1, one burst"

# kill -9 in the middle of the burst back to 6.1, then a restart
copy_over "$L61" &
CPID=$!
sleep 0.4
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
wait "$CPID"
start_daemon
wait_idle
converged "6.1 again, after kill -9 in the burst"
kill -TERM "$DPID"
wait "$DPID" || fail "daemon exit $? after SIGTERM"

# the kernel's own queue too small for the burst
q=/proc/sys/fs/inotify/max_queued_events
if [ -w "$q" ]; then
	old=$(cat "$q")
	# put the machine's setting back whatever happens (start_daemon exits on failure)
	trap 'echo "$old" >"$q"; rm -rf "$WORK"' EXIT
	echo 64 >"$q"
	start_daemon
	echo "$old" >"$q"
	trap 'rm -rf "$WORK"' EXIT
	copy_over "$L612"
	wait_idle
	if grep -q "inotify events were lost" "$WORK/daemon.log"; then pass; else fail "no overflow seen"; fi
	converged "6.12 again, with a 64-event inotify queue"
	kill -TERM "$DPID"
	wait "$DPID" || fail "daemon exit $? after SIGTERM"
else
	echo "daemon-kernel: $q is not writable here: the overflow case is covered by tests/cli/cli-watch.sh's hook"
fi
finish
