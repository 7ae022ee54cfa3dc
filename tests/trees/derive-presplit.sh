#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes the expected install of a miniature pre-split tree (tests/trees/
# mini2632, mini2635, mini36) with a real kernel tree's own make
# headers_install, so that what tests/cli-install.sh compares uapid with is
# what the kernel's scripts write, not what anyone thinks they write.
#
# usage: tests/trees/derive-presplit.sh FIXTURE REALTREE [ARCH...]
#
# REALTREE is a whole kernel tree of the fixture's version (its top
# Makefile's VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION must match):
#   mini2635  bench/fetch-kernels.sh --full's full-2.6.35 (Linux 2.6.35.6)
#   mini36    full-3.6 (Linux 3.6)
#   mini2632  a 2.6.32 tree; the one this was made with is SenberHu's
#             Linux-Kernel-2.16 (7341fa283c72: 2.6.32's scripts/ with
#             unifdef 1.171) made whole again: LF line ends, 2.6.35's top
#             Makefile with SUBLEVEL 32 (that copy has none), and header-y
#             lines of the files a case-insensitive checkout lost removed.
# In a copy of REALTREE the fixture's include/ and arch/*/include/ replace
# the tree's (and its arch/x86/syscalls/*.tbl the tables); the tree's own
# Makefiles, scripts/headers_install.pl, Makefile.headersinst and unifdef
# do the install, for each ARCH (default: x86 i386 x86_64, and m68k,
# m68knommu, um for the 2.6 fixtures, um for mini36).  The installed .h
# files go to tests/expected/presplit/FIXTURE/ARCH/, and make's last error
# line for each ARCH it refuses to REFUSED there.  Needs perl and a C
# compiler (make builds scripts/unifdef).
set -eu

[ $# -ge 2 ] || { echo "usage: $0 FIXTURE REALTREE [ARCH...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
name=$1 real=$2
shift 2
fix=$top/tests/trees/$name
[ -f "$fix/Makefile" ] || { echo "$0: no fixture $fix" >&2; exit 2; }
[ -f "$real/Makefile" ] || { echo "$0: $real is not a kernel tree" >&2; exit 2; }
if [ $# -eq 0 ]; then
	case $name in
	mini36) set -- x86 i386 x86_64 um ;;
	*) set -- x86 i386 x86_64 m68k m68knommu um ;;
	esac
fi

version() { sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\|EXTRAVERSION\) = *//p' "$1" | paste -sd:; }
if [ "$(version "$fix/Makefile")" != "$(version "$real/Makefile")" ]; then
	echo "$0: $real is version $(version "$real/Makefile"), $name is $(version "$fix/Makefile")" >&2
	exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cp -a "$real" "$work/k"
rm -rf "$work/k/include"
find "$work/k/arch" -mindepth 2 -maxdepth 2 -name include -type d -exec rm -rf {} +
cp -a "$fix/include" "$work/k/include"
for d in "$fix"/arch/*/include; do
	[ -d "$d" ] || continue
	a=$(basename "$(dirname "$d")")
	cp -a "$d" "$work/k/arch/$a/include"
done
if [ -d "$fix/arch/x86/syscalls" ]; then
	cp "$fix"/arch/x86/syscalls/*.tbl "$work/k/arch/x86/syscalls/"
fi

out=$top/tests/expected/presplit/$name
rm -rf "$out"
mkdir -p "$out"
: >"$out/REFUSED"
for a in "$@"; do
	mkdir -p "$work/o-$a"
	if make -s -C "$work/k" O="$work/o-$a" ARCH="$a" headers_install \
		INSTALL_HDR_PATH="$work/i-$a" >"$work/log-$a" 2>&1; then
		(cd "$work/i-$a/include" && find . -name '*.h' | sort) | while read -r f; do
			mkdir -p "$(dirname "$out/$a/$f")"
			cp "$work/i-$a/include/$f" "$out/$a/$f"
		done
		echo "$name $a: $(find "$out/$a" -name '*.h' | wc -l) headers"
	else
		printf "%s: %s\n" "$a" "$(grep -e "\*\*\*" -e Error "$work/log-$a" | head -1 | sed "s#$work/k/##")" >>"$out/REFUSED"
		echo "$name $a: refused by make"
	fi
done
