#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-api-diff [BENCH_API_OLD=DIR BENCH_API_NEW=DIR]: the time of
# `uapid api-diff OLD NEW` (text and --json) on two installed-header
# directories, beside its floor: `cat` of the same headers.  Prints wall
# seconds (best of BENCH_RUNS, default 3), the user and system seconds and
# the peak RSS of that run; asserts nothing (timing is never asserted).
# Beside them, api-diff with its heap in 4 KiB pages (UAPID_HUGE_PAGES=0,
# include/uapid/io/hugeheap.h): what the huge pages are worth on this machine.
#
#   bench/api-diff.sh [UAPID]
#
# BENCH_API_OLD and BENCH_API_NEW are installed-header directories (what
# `uapid install --arch x86 TREE OUT` writes) or kernel trees, installed
# first for x86, untimed (issue 27's figure is of installed directories).
# Default: linux-source-6.1 and linux-source-6.12 under $UD_KERNELS
# (default ~/kernels), as tests/kernel/api-kernel.sh names them; when either is
# absent the bench says so and exits 0.
set -euo pipefail

me=bench-api-diff
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
work=$(mktemp -d "${TMPDIR:-/tmp}/uapid-bench-api-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT

# installed NAME DIR: DIR itself when it holds installed headers, else its x86 install
installed() {
	if [ -f "$2/Makefile" ] && [ -d "$2/include/uapi" ]; then
		"$uapid" install --arch x86 --quiet "$2" "$work/$1" >/dev/null
		echo "$work/$1"
	else
		echo "$2"
	fi
}
old=$(installed old "$OLD")
new=$(installed new "$NEW")

# best LABEL CMD...: the run of least wall time among $runs: "wall user sys rss_kb"
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
# the floor: reading the same bytes (the headers of both sides)
headers() { find "$old" "$new" -name '*.h' -type f -print0 | xargs -0 cat >/dev/null; }
export -f headers
export old new

n_old=$(find "$old" -name '*.h' -type f | wc -l)
n_new=$(find "$new" -name '*.h' -type f | wc -l)
printf '%s: %s (%d headers) -> %s (%d headers), best of %d\n' "$me" "$OLD" "$n_old" "$NEW" \
	"$n_new" "$runs"
printf '%-34s %8s %8s %8s %8s\n' what wall user sys 'RSS MB'
row() { # row LABEL "wall user sys rss_kb"
	# shellcheck disable=SC2086
	set -- "$1" $2
	printf '%-34s %8.3f %8.2f %8.2f %8.1f\n' "$1" "$2" "$3" "$4" "$(echo "$5 / 1024" | bc -l)"
}
# api-diff exits 1 when a change is breaking: that is a figure, not a failure
floor=$(best bash -c headers)
# shellcheck disable=SC2016 # the single quotes are the inner shell's script
text=$(best sh -c '"$0" api-diff "$1" "$2"; [ $? -le 1 ]' "$uapid" "$old" "$new")
# shellcheck disable=SC2016
json=$(best sh -c '"$0" api-diff --json "$1" "$2"; [ $? -le 1 ]' "$uapid" "$old" "$new")
# shellcheck disable=SC2016
small=$(UAPID_HUGE_PAGES=0 best sh -c '"$0" api-diff "$1" "$2"; [ $? -le 1 ]' \
	"$uapid" "$old" "$new")
row "cat of the headers (floor)" "$floor"
row "uapid api-diff" "$text"
row "uapid api-diff --json" "$json"
row "uapid api-diff, 4 KiB pages" "$small"
awk -v t="${text%% *}" -v f="${floor%% *}" \
	'BEGIN { if (f > 0) printf "api-diff / floor: %.1fx\n", t / f }'
awk -v t="${text%% *}" -v s="${small%% *}" \
	'BEGIN { if (t > 0) printf "4 KiB pages / huge pages: %.2fx\n", s / t }'
