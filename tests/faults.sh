#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon under hostile clients and faults (issue 19): each case of
# tests/faults.py against a live `uapid watch`, checked for survival, its
# result, the memory bound and the loop's responsiveness (printed).
# UD_FAULTS="case ..." runs only those cases.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/daemon-lib.sh"

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
new_tree "$T"
start_daemon "$T" "$S" "$K" || finish
# shellcheck disable=SC2086
if FAULTS_LOG=$WORK/daemon.log python3 "$top_srcdir/tests/faults.py" "$K" "$DPID" "$T" "$UAPICTL" ${UD_FAULTS:-} >"$WORK/faults.out" 2>&1; then
	pass
else
	fail "faults.py: a case failed"
fi
# every check counts, and every case's figures are shown
while IFS= read -r line; do
	case $line in
	"ok - "*) pass ;;
	"not ok - "*) fail "${line#not ok - }" ;;
	"case "*) echo "$line" ;;
	*) echo "  | $line" ;;
	esac
done <"$WORK/faults.out"
# a client that hangs up is a closed client: nothing worse is logged
expect_not_in "$WORK/daemon.log" "SIGPIPE"
stop_daemon
finish
