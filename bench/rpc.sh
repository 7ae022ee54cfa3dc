#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-rpc [BENCH_KERNEL=DIR]: the daemon's socket (doc/protocol.md):
# classify round trips with a 100 KiB editor buffer, status round trips,
# requests per second with 50 concurrent clients, the daemon's RSS.  TREE
# (default: a scratch copy of examples/tree) is only read.  UAPID names the
# binary (default: src/uapid, from the build directory).  Prints numbers;
# asserts nothing.  BENCH_CALLS, BENCH_KIB, BENCH_CLIENTS and BENCH_SECONDS
# change the sizes (see bench/rpc.py).
set -eu
uapid=$(realpath "${UAPID:-src/uapid}")
if [ ! -x "$uapid" ]; then
	echo "bench: $uapid: no uapid binary (build it, or set UAPID=)" >&2
	exit 2
fi
exec python3 "$(dirname "$0")/rpc.py" "$uapid" "${1:-}"
