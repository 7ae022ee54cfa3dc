#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon under hostile clients and faults (issue 19): each case of
# tests/lib/faults.py against a live `uapid watch`, checked for survival, its
# result, the memory bound and the loop's responsiveness (printed).
# UD_FAULTS="case ..." runs only those cases.  disk-full runs a daemon of
# its own whose state directory is a 4 MiB tmpfs: it needs root to mount
# it, and says so when it is skipped.
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/daemon-lib.sh"

export FAULTS_UAPID="$UAPID" FAULTS_WORK="$WORK"

# wanted NAME: is the case NAME asked for (all are without UD_FAULTS)?
wanted() {
	[ -z "${UD_FAULTS:-}" ] && return 0
	case " $UD_FAULTS " in *" $1 "*) return 0 ;; esac
	return 1
}

# run_faults SOCK PID TREE CASE...: faults.py against the daemon PID (its log is
# $WORK/daemon.log), its checks counted and its figures shown
run_faults() {
	sock=$1 pid=$2 tree=$3
	shift 3
	if FAULTS_LOG=$WORK/daemon.log python3 "$top_srcdir/tests/lib/faults.py" "$sock" "$pid" "$tree" \
		"$UAPICTL" "$@" >"$WORK/faults.out" 2>&1; then
		pass
	else
		fail "faults.py: a case failed"
	fi
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		"case "* | "skip - "*) echo "$line" ;;
		*) echo "  | $line" ;;
		esac
	done <"$WORK/faults.out"
}

live_cases=
for c in ${UD_FAULTS:-}; do
	case $c in disk-full | emfile | unreadable-dir | changes-big | retention) ;;
	*) live_cases="$live_cases $c" ;;
	esac
done
if [ -z "${UD_FAULTS:-}" ] || [ -n "$live_cases" ]; then
	T=$WORK/tree S=$WORK/state K=$WORK/d.sock
	new_tree "$T"
	# the test hook that makes output writes fail (builds with --enable-test-hooks)
	if uapid_has UAPID_TEST_FAIL_WRITES; then
		export UAPID_TEST_FAIL_WRITES="$WORK/fail-writes" FAULTS_FAIL_WRITES="$WORK/fail-writes"
	fi
	start_daemon "$T" "$S" "$K" --verbose || finish
	unset UAPID_TEST_FAIL_WRITES
	# shellcheck disable=SC2086 # the case names are words
	run_faults "$K" "$DPID" "$T" $live_cases
	# a client that hangs up is a closed client: nothing worse is logged
	expect_not_in "$WORK/daemon.log" "SIGPIPE"
	stop_daemon
	mv "$WORK/daemon.log" "$WORK/daemon-live.log"
fi

# A full disk (item 3): the state directory on a 4 MiB tmpfs, a filler file
# leaving 400 KB, 40 new headers of 40 KB (1.6 MB of outputs) come, then the
# filler goes.  (2 MiB, the issue's size, cannot hold the 40 headers' outputs
# and the database at all: 2.1 MB.)
if wanted disk-full; then
	T=$WORK/tree-full S=$WORK/state-full K=$WORK/full.sock
	mkdir -p "$S"
	if [ "$(id -u)" != 0 ]; then
		echo "skip - disk-full: mounting a tmpfs needs root (uid $(id -u))"
	elif ! mount -t tmpfs -o size=4m uapid-faults "$S" 2>"$WORK/mount.err"; then
		echo "skip - disk-full: cannot mount a tmpfs: $(cat "$WORK/mount.err")"
	else
		trap 'umount "$S" 2>/dev/null || true; rm -rf "$WORK"' EXIT
		new_tree "$T"
		if start_daemon "$T" "$S" "$K" --verbose; then
			export FAULTS_STATE="$S"
			run_faults "$K" "$DPID" "$T" disk-full
			stop_daemon
		fi
		umount "$S"
		trap 'rm -rf "$WORK"' EXIT
	fi
fi

# Issue 38 A, at the descriptor limit: the daemon under `ulimit -n 64` (soft and
# hard: it cannot raise it), clients holding every descriptor it may open.
if wanted emfile; then
	T=$WORK/tree-fd S=$WORK/state-fd K=$WORK/fd.sock
	new_tree "$T"
	printf '#!/bin/sh\nulimit -n 64 || exit 1\nexec "$@"\n' >"$WORK/lowfd"
	chmod +x "$WORK/lowfd"
	if UAPID_DAEMON_WRAP="$WORK/lowfd ${UAPID_DAEMON_WRAP:-}" start_daemon "$T" "$S" "$K" --verbose; then
		run_faults "$K" "$DPID" "$T" emfile
		stop_daemon
	fi
	mv "$WORK/daemon.log" "$WORK/daemon-fd.log"
fi

# Issue 38 A, a directory without permission: only an unprivileged daemon is
# refused (root reads through chmod 000).  The user must be able to run the
# binaries: from a checkout nobody can reach (a 0700 home), they are copied
# into the scratch directory first.
if wanted unreadable-dir; then
	if [ "$(id -u)" != 0 ]; then
		echo "skip - unreadable-dir: dropping to nobody needs root (uid $(id -u))"
	elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups -- true 2>/dev/null; then
		echo "skip - unreadable-dir: setpriv cannot drop to nobody here"
	else
		AS="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
		U=$UAPID
		if ! $AS "$U" --version >/dev/null 2>&1; then
			mkdir -p "$WORK/bin"
			cp "$UAPID" "$WORK/bin/uapid"
			[ ! -f "${UAPID%/*}/uapid-full" ] || cp "${UAPID%/*}/uapid-full" "$WORK/bin/"
			chmod -R a+rX "$WORK/bin"
			U=$WORK/bin/uapid
		fi
		N=$WORK/nobody T=$WORK/tree-ro
		mkdir -p "$N"
		chown nobody "$N"
		new_tree "$T"
		chmod -R a+rX "$T"
		UAPID_DAEMON_WRAP="$AS ${UAPID_DAEMON_WRAP:-}" UAPID=$U start_daemon "$T" "$N/state" "$N/d.sock" --verbose &&
			{
				run_faults "$N/d.sock" "$DPID" "$T" unreadable-dir
				stop_daemon
			}
		mv "$WORK/daemon.log" "$WORK/daemon-nobody.log"
	fi
fi

# Issue 38 C: a long history (200,000 events put in the store while the
# daemon is stopped), then `changes` from 0 beside a status.
if wanted changes-big; then
	T=$WORK/tree-big S=$WORK/state-big K=$WORK/big.sock
	new_tree "$T"
	if start_daemon "$T" "$S" "$K"; then
		stop_daemon
		python3 -c '
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
now = int(time.time())
db.executemany("INSERT INTO names (name) VALUES (?)",
               (("include/history/h%06d.h" % i,) for i in range(200000)))
db.execute("INSERT OR IGNORE INTO names (name) VALUES (?)", ("split",))
kind = db.execute("SELECT id FROM names WHERE name = ?", ("split",)).fetchone()[0]
db.execute("INSERT INTO events (time, path, kind) SELECT ?, id, ? FROM names "
           "WHERE name LIKE ? ORDER BY name", (now, kind, "include/history/%"))
db.commit()
db.close()' "$S/state.db"
		if start_daemon "$T" "$S" "$K"; then
			run_faults "$K" "$DPID" "$T" changes-big
			stop_daemon
		fi
	fi
	mv "$WORK/daemon.log" "$WORK/daemon-big.log"
fi

# Issue 38 B: the upkeep every 50 ms (after a batch), the log kept to 20 events
# whatever their age.
if wanted retention; then
	T=$WORK/tree-keep S=$WORK/state-keep K=$WORK/keep.sock
	new_tree "$T"
	export UAPID_UPKEEP_MS=50
	if start_daemon "$T" "$S" "$K" --verbose --keep-events 20 --keep-days 0; then
		run_faults "$K" "$DPID" "$T" retention
		stop_daemon
	fi
	unset UAPID_UPKEEP_MS
	mv "$WORK/daemon.log" "$WORK/daemon-keep.log"
fi
finish
