#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-kbuild [BENCH_HEADERS=N]: a directory whose Kbuild lists N
# headers (default 20,000; bench/kbuild-tree.py writes it in a scratch
# directory): `uapid split --output` of it, the daemon's first scan, and one
# batch editing its export lists with the loop's longest stall (see
# bench/kbuild.py).  UAPID names the binary (default: src/uapid, from the
# build directory).  Prints numbers; asserts nothing.
set -eu
uapid=$(realpath "${UAPID:-src/uapid}")
if [ ! -x "$uapid" ]; then
	echo "bench: $uapid: no uapid binary (build it, or set UAPID=)" >&2
	exit 2
fi
exec python3 "$(dirname "$0")/kbuild.py" "$uapid" "${1:-20000}"
