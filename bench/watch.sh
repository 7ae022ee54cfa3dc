#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-watch [BENCH_KERNEL=DIR]: uapid watch on a kernel tree (default:
# Debian's linux-source-6.1, its include/, arch/, scripts/ and Makefile
# unpacked to a scratch directory, which the bench edits).  Prints numbers;
# asserts nothing.  BENCH_EDITS sets the number of timed edits (200).
# The third argument is bench/watch_floor, the minimal watcher timed beside
# the daemon (make bench-watch builds it).
set -eu
uapid=$(realpath "${2:-src/uapid}")
floor=$(realpath "${3:-bench/watch_floor}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
T=$work/tree
mkdir -p "$T"
if [ -n "${1:-}" ]; then
	for d in include arch scripts; do cp -R "$1/$d" "$T/"; done
	cp "$1/Makefile" "$T/"
else
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$T" --strip-components=1 --wildcards \
		'*/Makefile' '*/Kbuild' '*/scripts/*' '*/include/*' '*/arch/*'
fi
python3 "$(dirname "$0")/watch.py" "$uapid" "$T" "$floor"
