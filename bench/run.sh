#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench [BENCH_TREE=...]: classifier throughput on a kernel tree, beside
# the time `cat` needs to read the same files.  Prints figures, asserts nothing.
# BENCH_RUNS: classifier rounds, the best one printed (5).
set -eu
tree=${1:-/usr/src/linux-source-6.1}
bin=${BENCH_BIN:-./bench/bench_classify}
if [ ! -d "$tree/include" ]; then
	echo "bench: $tree has no include/ (unpack linux-source-6.1 there, or pass BENCH_TREE=)" >&2
	exit 2
fi
list=$(mktemp)
trap 'rm -f "$list"' EXIT
( cd "$tree" && find include arch/*/include -name '*.h' -type f ) >"$list"
cat_start=$(date +%s.%N)
( cd "$tree" && xargs cat <"$list" >/dev/null )
cat_end=$(date +%s.%N)
"$bin" "$tree" "${BENCH_RUNS:-5}"
printf '%-28s %10.3f\n' "cat seconds (same files)" "$(echo "$cat_end - $cat_start" | bc)"
