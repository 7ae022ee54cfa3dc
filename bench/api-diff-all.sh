#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-api-diff-all [BENCH_API_OLD=DIR BENCH_API_NEW=DIR]: the time of
# `uapid api-diff --arch all OLD NEW` (every architecture, each at its ABIs:
# 28 ABIs of 21 architectures from 6.1 to 6.12).  Prints wall seconds (best
# of BENCH_RUNS, default 3), the user and system seconds and the peak RSS of
# that run, the CPU over wall ratio (how much of the two workers' overlap the
# run got) and the load average before and after, beside which a wall time
# means something; the same with every symbol resolved (UAPID_RESOLVE_ALL=1,
# without the diff's shortcut) and the ratio of the two; asserts nothing
# (timing is never asserted).
#
#   bench/api-diff-all.sh [UAPID]
#
# BENCH_API_OLD and BENCH_API_NEW are what `uapid install --arch all TREE
# OUT` writes (OUT/ARCH/include for each architecture) or kernel trees,
# installed so first, untimed.  Default: linux-source-6.1 and 6.12 under
# $UD_KERNELS (default ~/kernels); when either is absent the bench says so
# and exits 0.
set -euo pipefail

me=bench-api-diff-all
uapid=$(realpath "${1:-src/uapid}")
kernels=${UD_KERNELS:-${HOME:-}/kernels}
OLD=${BENCH_API_OLD:-$kernels/linux-source-6.1}
NEW=${BENCH_API_NEW:-$kernels/linux-source-6.12}
runs=${BENCH_RUNS:-3}
for d in "$OLD" "$NEW"; do
	if [ ! -d "$d" ]; then
		echo "$me: $d absent (set BENCH_API_OLD and BENCH_API_NEW): skipped"
		exit 0
	fi
done
command -v /usr/bin/time >/dev/null 2>&1 || {
	echo "$me: /usr/bin/time absent (Debian: apt-get install time): skipped"
	exit 0
}
work=$(mktemp -d "${TMPDIR:-/tmp}/uapid-bench-api-diff-all.XXXXXX")
trap 'rm -rf "$work"' EXIT

# installed NAME DIR: DIR itself when it holds an install --arch all, else its install
installed() {
	if [ -f "$2/Makefile" ] && [ -d "$2/arch" ]; then
		"$uapid" install --arch all --quiet "$2" "$work/$1" >/dev/null
		echo "$work/$1"
	else
		echo "$2"
	fi
}
old=$(installed old "$OLD")
new=$(installed new "$NEW")

# best CMD...: the run of least wall time among $runs: "wall user sys rss_kb"
best() {
	local line b=""
	for _ in $(seq "$runs"); do
		line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -1)
		if [ -z "$b" ] || awk -v a="${line%% *}" -v c="${b%% *}" 'BEGIN { exit !(a < c) }'; then
			b=$line
		fi
	done
	echo "$b"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

printf '%s: %s -> %s, best of %d\n' "$me" "$OLD" "$NEW" "$runs"
before=$(load)
# api-diff exits 1 when a change is breaking: that is a figure, not a failure
# shellcheck disable=SC2016 # the single quotes are the inner shell's script
text=$(best sh -c '"$0" api-diff --arch all "$1" "$2"; [ $? -le 1 ]' "$uapid" "$old" "$new")
# shellcheck disable=SC2016
json=$(best sh -c '"$0" api-diff --arch all --json "$1" "$2"; [ $? -le 1 ]' "$uapid" "$old" \
	"$new")
# every symbol resolved, as before the diff's shortcut (src/api/api-quiet.c): its gain
# shellcheck disable=SC2016
every=$(UAPID_RESOLVE_ALL=1 best sh -c '"$0" api-diff --arch all "$1" "$2"; [ $? -le 1 ]' \
	"$uapid" "$old" "$new")
after=$(load)
abis=$("$uapid" api-diff --arch all "$old" "$new" | sed -n 's/^compared: \([0-9]*\) ABIs.*/\1/p' ||
	true)
printf '%-34s %8s %8s %8s %8s %8s\n' what wall user sys 'RSS MB' 'CPU/wall'
row() { # row LABEL "wall user sys rss_kb"
	# shellcheck disable=SC2086
	set -- "$1" $2
	printf '%-34s %8.3f %8.2f %8.2f %8.1f %8.2f\n' "$1" "$2" "$3" "$4" \
		"$(echo "$5 / 1024" | bc -l)" "$(echo "($3 + $4) / $2" | bc -l)"
}
row "uapid api-diff --arch all" "$text"
row "uapid api-diff --arch all --json" "$json"
row "  every symbol (UAPID_RESOLVE_ALL=1)" "$every"
printf 'every symbol / the shortcut: %.2fx wall\n' "$(echo "${every%% *} / ${text%% *}" | bc -l)"
echo "ABIs compared: ${abis:-?}; load average before: $before, after: $after"
