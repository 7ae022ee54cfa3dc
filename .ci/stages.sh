# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Timed stages for test.sh (sourced, not run): each stage's output goes to a
# log of its own, its wall and CPU time are printed as it ends and gathered
# in a table at the end; a stage may run in the background beside others.
#
#   stage TIER NAME CMD [ARG...]   run CMD (a command or a shell function) now
#   spawn TIER NAME CMD [ARG...]   the same in the background; returns at once
#   join [NAME...]                 wait for spawned stages (all when none named)
#   niced CMD [ARG...]             CMD (a function too) at a lower CPU priority:
#                                  for stages that compute without waiting on
#                                  time (builds, kernel references), so that the
#                                  daemon suites beside them are not starved
#   stages_init [DIR...]           first: the logs; DIRs removed at the end
#   stages_table                   the table (test.sh prints it at its end)
#
# TIER is quick, default or full: a stage runs when the run's level
# (UD_LEVEL: quick, default or full) is its tier or above; one that does not
# run is not listed, and joining it is a no-op.
# CMD runs in a subshell under `set -euo pipefail`, in a process group of its
# own, with stdin from /dev/null and stdout and stderr to $UD_LOGS/NAME.log.
# A stage that fails shows its whole log and fails the run at once, whether
# it ran in the foreground or the background: the other stages are stopped
# (their process groups killed), the table is printed and test.sh exits 1.
# A spawned CMD may itself call stage for timed steps (named SPAWNED/STEP in
# the table).  Call stage, spawn and join as plain commands, never after
# `if`, `&&`, `||` or `!` (bash would turn set -e off inside them).

UD_LOGS=${UD_LOGS:-$UD_BUILD/test-logs}
UD_LEVEL=${UD_LEVEL:-default}
_ud_lanes=()  # the spawned stages not joined yet, as NAME:PID
_ud_main=$BASHPID
_ud_prefix='' # NAME/ inside a spawned stage

_ud_now() { date +%s.%N; }
# m:ss of a number of seconds
_ud_mss() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); printf "%d:%02d", s / 60, s % 60 }'; }
# _ud_cpu FILE: the user + system seconds in FILE, the output of `times` (a
# shell and its children); 0 when the stage did not get to write it
_ud_cpu() {
	awk '{ for (i = 1; i <= NF; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } }
		END { printf "%.1f", t }' "$1" 2>/dev/null || echo 0
}
_ud_load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -; }

stages_init() {
	_ud_scratch=("$@")
	rm -rf "$UD_LOGS"
	mkdir -p "$UD_LOGS"
	exec 7>&1 8>&2 # where stage lines and failed logs go, from any stage
	_ud_t0=$(_ud_now)
	_ud_load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)
	trap '_ud_abort "interrupted"' INT TERM
	trap '_ud_stop_lanes; _ud_remove_scratch' EXIT
	# a spawned stage that fails wakes the main shell (see _ud_run)
	trap '_ud_lane_failed' USR1
}

# UD_KEEP=1 keeps them, to look at
_ud_remove_scratch() {
	[ "${UD_KEEP:-0}" = 1 ] || rm -rf "${_ud_scratch[@]+"${_ud_scratch[@]}"}"
}

_ud_rank() {
	case $1 in
	quick) echo 0 ;;
	default) echo 1 ;;
	full) echo 2 ;;
	*) echo "stages: unknown tier '$1'" >&2; exit 2 ;;
	esac
}
niced() {
	renice -n 10 -p "$BASHPID" >/dev/null
	"$@"
}

_ud_in_tier() { [ "$(_ud_rank "$1")" -le "$(_ud_rank "$UD_LEVEL")" ]; }

# _ud_wait PID: wait for a child, its status in _ud_rc (errexit left as it is).
# A trapped signal (a spawned stage that failed) interrupts wait: its trap
# runs, and the wait goes on if the run is not stopped by it.
_ud_wait() {
	_ud_rc=0
	wait "$1" || _ud_rc=$?
	while [ "$_ud_rc" -gt 128 ] && kill -0 "$1" 2>/dev/null; do
		_ud_rc=0
		wait "$1" || _ud_rc=$?
	done
}

# _ud_run NAME CMD...: one stage, in this shell; returns its status, in this shell; returns its status
_ud_run() {
	local name=$_ud_prefix$1 log rec t0 t1 rc pid wall cpu
	shift
	log=$UD_LOGS/${name//\//.}.log
	rec=$UD_LOGS/${name//\//.}.rec
	t0=$(_ud_now)
	printf 'running %s %s\n' "$t0" "$name" >"$rec"
	set -m # its own process group: the run can stop it and all it started
	(
		set +m # what the stage starts stays in its process group
		set -euo pipefail
		trap - INT TERM USR1 EXIT
		_ud_lanes=() _ud_prefix=$name/
		trap 'times >"$rec.cpu"' EXIT # run in this shell: `times` in $(...) would count nothing
		"$@"
	) </dev/null >"$log" 2>&1 &
	pid=$!
	set +m
	printf '%s\n' "$pid" >"$rec.pid"
	_ud_wait "$pid"
	rc=$_ud_rc
	t1=$(_ud_now)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	cpu=$(_ud_cpu "$rec.cpu")
	if [ "$rc" != 0 ] && [ -e "$UD_LOGS/.stopping" ]; then
		# stopped by the run, because another stage failed: not a failure of its own
		printf 'stopped %s %s %s %s %s\n' "$t0" "$name" "$wall" "$cpu" "$(_ud_load)" >"$rec"
	elif [ "$rc" = 0 ]; then
		printf 'ok %s %s %s %s %s\n' "$t0" "$name" "$wall" "$cpu" "$(_ud_load)" >"$rec"
		printf '==> %-28s ok      %6s wall %6s cpu  (load %s)\n' "$name" "$(_ud_mss "$wall")" \
			"$(_ud_mss "$cpu")" "$(_ud_load)" >&7
	else
		printf 'FAILED %s %s %s %s %s\n' "$t0" "$name" "$wall" "$cpu" "$(_ud_load)" >"$rec"
		printf '==> %-28s FAILED %6s wall (exit %s); its log, %s:\n' "$name" "$(_ud_mss "$wall")" \
			"$rc" "$log" >&8
		if [ -s "$log" ]; then
			sed 's/^/    /' "$log" >&8
			printf '==> end of the log of %s\n' "$name" >&8
		else
			printf '    (empty: a step failed, shown above)\n' >&8
		fi
	fi
	return "$rc"
}

stage() {
	local tier=$1
	shift
	_ud_in_tier "$tier" || return 0
	_ud_check_lanes
	local rc
	set +e # not `_ud_run || ...`: set -e would be off inside the stage too
	_ud_run "$@"
	rc=$?
	set -e
	if [ "$rc" != 0 ]; then
		if [ "$BASHPID" = "$_ud_main" ]; then
			_ud_abort "stage ${_ud_prefix}$1 failed"
		fi
		exit "$rc" # a step of a spawned stage: that stage fails with it
	fi
}

spawn() {
	local tier=$1 name=$2
	shift 2
	_ud_in_tier "$tier" || return 0
	_ud_check_lanes
	(
		trap - INT TERM USR1 EXIT
		set +e
		_ud_run "$name" "$@"
		rc=$?
		# tell the main shell at once, so it stops the run now and not at the next join
		[ "$rc" = 0 ] || kill -USR1 "$_ud_main" 2>/dev/null || :
		exit "$rc"
	) &
	_ud_lanes+=("$name:$!")
}

# join [NAME...]: wait for the spawned stages named (all of them by default)
join() {
	local keep=() entry name pid want rc
	for entry in "${_ud_lanes[@]}"; do
		name=${entry%%:*} pid=${entry##*:}
		want=$(($# == 0))
		for n in "$@"; do [ "$n" = "$name" ] && want=1; done
		if [ "$want" = 0 ]; then
			keep+=("$entry")
			continue
		fi
		_ud_wait "$pid"
		[ "$_ud_rc" = 0 ] || _ud_abort "stage $name failed"
	done
	_ud_lanes=("${keep[@]+"${keep[@]}"}")
}

# a spawned stage that ended in failure (its log is already shown) stops the run
_ud_check_lanes() {
	local entry
	for entry in "${_ud_lanes[@]+"${_ud_lanes[@]}"}"; do
		if grep -q '^FAILED ' "$UD_LOGS/${entry%%:*}.rec" 2>/dev/null; then
			_ud_abort "stage ${entry%%:*} failed"
		fi
	done
}

_ud_lane_failed() {
	[ "$BASHPID" = "$_ud_main" ] || return 0
	_ud_abort "a stage in the background failed"
}

# stop every stage still running: the process groups of their records
_ud_stop_lanes() {
	local rec pid
	for rec in "$UD_LOGS"/*.rec; do
		[ -f "$rec" ] && [ -f "$rec.pid" ] || continue
		grep -q '^running ' "$rec" || continue
		pid=$(cat "$rec.pid")
		kill -TERM -- "-$pid" 2>/dev/null || :
	done
	wait 2>/dev/null || :
}

_ud_abort() {
	trap '' INT TERM USR1 # the stages being stopped may still signal
	[ "$BASHPID" = "$_ud_main" ] || exit 1
	: >"$UD_LOGS/.stopping"
	_ud_stop_lanes
	local rec
	for rec in "$UD_LOGS"/*.rec; do
		[ -f "$rec" ] || continue
		if grep -q '^running ' "$rec"; then
			sed -i 's/^running \([^ ]*\) \(.*\)$/stopped \1 \2 - - -/' "$rec"
		fi
	done
	stages_table >&8
	printf 'test.sh: %s\n' "$1" >&8
	exit 1
}

# the table of every stage run, in the order they started
stages_table() {
	local total
	total=$(awk -v a="$_ud_t0" -v b="$(_ud_now)" 'BEGIN { printf "%.1f", b - a }')
	printf '\n%-32s %-8s %7s %7s %6s\n' stage result wall cpu load
	# in the order they started, the steps of a spawned stage under it
	cat "$UD_LOGS"/*.rec 2>/dev/null | awk '{ top = $3; sub(/\/.*/, "", top); start[NR] = $2; line[NR] = $0
		name[NR] = $3; parent[NR] = top; if (top == $3) first[top] = $2 }
		END { for (i = 1; i <= NR; i++) print (parent[i] in first ? first[parent[i]] : start[i]), start[i], line[i] }' |
		sort -k1,1n -k2,2n | cut -d' ' -f3- | while read -r result _ name wall cpu load; do
		[ "$wall" = - ] || wall=$(_ud_mss "$wall")
		[ "$cpu" = - ] || cpu=$(_ud_mss "$cpu")
		printf '%-32s %-8s %7s %7s %6s\n' "$name" "$result" "$wall" "$cpu" "$load"
	done
	printf '%-32s %-8s %7s\n' "total ($UD_LEVEL)" "" "$(_ud_mss "$total")"
	printf 'load average: %s at the start, %s at the end (%s cores); logs in %s\n' \
		"$_ud_load0" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)" "$(nproc)" "$UD_LOGS"
}
