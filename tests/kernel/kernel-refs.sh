#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/kernel-refs.sh TREE OUTDIR [TARBALL]: the kernel's own
# `make ARCH=A headers_install` for every architecture of the kernel tree
# TREE (and the ARCH aliases its Makefile maps), the references
# tests/kernel/kernel-headers.sh compares `uapid install` with.  Not a test: it
# records what make did, and the test judges.  TREE is only read (make runs
# with O=).  It writes, in OUTDIR:
#   arches, aliases  the architectures, one a line: the base ones (arch/A
#                    with a Makefile, but um), and the ARCH aliases the top
#                    Makefile maps to one of them (i386, x86_64, sparc64, ...)
#   ref-A/include    make's result for each (INSTALL_HDR_PATH=ref-A)
#   make-A.log       its output; make-failed: those for which make failed
#   refused          each of um, sparc32, ia64 that make refuses, one a
#                    line; refused-A.log its message
#   version          the tree's VERSION.PATCHLEVEL.SUBLEVEL, written last:
#                    OUTDIR is complete when it is there
#
# Speed (the kernel's install runs a shell, sed and unifdef for each of some
# 1000 headers: 50 s of CPU an architecture, 40 minutes for both trees):
# the first architecture (x86) is built from nothing; every other one starts
# from a copy of its object directory, so make reinstalls only what differs
# for that architecture: its asm/ headers, and the headers of include/uapi
# whose export list depends on it (linux/kvm.h, linux/a.out.h, ...), which
# Makefile.headersinst removes when unwanted.  That is make's own
# incremental install, as when ARCH changes in one build directory; its
# if_changed rules compare each header's command line, which names the
# source file.  Result: 3 s an architecture instead of 50.  UD_REF_CLEAN=1
# builds every architecture from nothing instead (the check that both give
# the same trees: doc/validation.md, "Installed headers, measured").
#
# UD_CACHE=DIR (optional): with TARBALL given, the references are kept in
# DIR/kernel-refs/SHA256-OF-TARBALL.vN and copied from there when present,
# so that runs on the same tarball skip make.  Never required; delete DIR to
# rebuild.  UD_REF_JOBS: makes at a time (default: the number of CPUs).
set -eu

TREE=${1:?usage: tests/kernel/kernel-refs.sh TREE OUTDIR [TARBALL]}
OUT=${2:?usage: tests/kernel/kernel-refs.sh TREE OUTDIR [TARBALL]}
TARBALL=${3:-}
jobs=${UD_REF_JOBS:-$(nproc)}
# the layout and the way of building the references: a new one invalidates cached ones
format=v1
seed=x86

mkdir -p "$OUT"
TREE=$(cd "$TREE" && pwd) OUT=$(cd "$OUT" && pwd) # make runs in TREE
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$TREE/Makefile" | paste -sd.)
rm -f "$OUT/version"

cache=
if [ -n "${UD_CACHE:-}" ] && [ -n "$TARBALL" ] && [ "${UD_REF_CLEAN:-0}" != 1 ]; then
	cache=$UD_CACHE/kernel-refs/$(sha256sum "$TARBALL" | cut -d' ' -f1).$format
	if [ -f "$cache/version" ]; then
		cp -a "$cache/." "$OUT/"
		echo "$version: kernel references from the cache $cache"
		exit 0
	fi
fi

# the base architectures of the tree, and the ARCH aliases its Makefile maps
alias_base() {
	case $1 in
	i386 | x86_64) echo x86 ;;
	sparc64) echo sparc ;;
	parisc64) echo parisc ;;
	sh64) echo sh ;;
	esac
}
for a in $(cd "$TREE/arch" && echo *); do
	if [ -f "$TREE/arch/$a/Makefile" ] && [ "$a" != um ]; then echo "$a"; fi
done >"$OUT/arches"
for a in i386 x86_64 sparc64 parisc64 sh64; do
	if [ -d "$TREE/arch/$(alias_base $a)" ]; then echo "$a"; fi
done >"$OUT/aliases"
cat "$OUT/arches" "$OUT/aliases" >"$OUT/all"
grep -qx "$seed" "$OUT/arches" || seed=$(head -1 "$OUT/arches")
rm -f "$OUT/make-failed" "$OUT/refused"
rm -rf "$OUT"/ref-* "$OUT"/obj-*

# sh -c "$one_ref" sh A [JOBS]: make headers_install for A, in OUT/obj-A
one_ref='
	if [ "$clean" != 1 ] && [ "$1" != "$seed" ]; then
		cp -a "$OUT/obj-$seed" "$OUT/obj-$1" || { echo "$1" >>"$OUT/make-failed"; exit; }
	fi
	make -s -C "$TREE" O="$OUT/obj-$1" ARCH="$1" headers_install INSTALL_HDR_PATH="$OUT/ref-$1" \
		${2:+-j"$2"} >"$OUT/make-$1.log" 2>&1 || echo "$1" >>"$OUT/make-failed"'
clean=${UD_REF_CLEAN:-0}
export OUT TREE seed clean

t0=$(date +%s)
if [ "$clean" = 1 ]; then
	xargs -P "$jobs" -I{} sh -c "$one_ref" sh {} <"$OUT/all"
else
	sh -c "$one_ref" sh "$seed" "$jobs" # from nothing, its headers in parallel
	if [ -s "$OUT/make-failed" ]; then
		echo "$version: make headers_install failed for $seed, the first architecture" >&2
		tail -20 "$OUT/make-$seed.log" >&2
		exit 1
	fi
	grep -vx "$seed" "$OUT/all" | xargs -P "$jobs" -I{} sh -c "$one_ref" sh {}
fi
how="from a copy of $seed's build directory"
[ "$clean" = 1 ] && how="each from nothing"
echo "$version: kernel references for $(wc -l <"$OUT/all") architectures built in $(($(date +%s) - t0)) s ($how)"
rm -f "$OUT/all"

# what make refuses (the test expects uapid to refuse it too, with make's reason)
for a in um sparc32 ia64; do
	if grep -qx "$a" "$OUT/arches"; then continue; fi # accepted: built above
	# accepted without being a directory of arch/ (none is today): not compared, as before
	make -s -C "$TREE" O="$OUT/obj-refused" ARCH=$a headers_install \
		INSTALL_HDR_PATH="$OUT/refused-tmp" >"$OUT/refused-$a.log" 2>&1 || echo "$a" >>"$OUT/refused"
	rm -rf "$OUT/obj-refused" "$OUT/refused-tmp"
done
rm -rf "$OUT"/obj-*
echo "$version" >"$OUT/version"

if [ -n "$cache" ] && [ ! -s "$OUT/make-failed" ]; then
	mkdir -p "$UD_CACHE/kernel-refs"
	tmp=$(mktemp -d "$UD_CACHE/kernel-refs/.new.XXXXXX")
	cp -a "$OUT/." "$tmp/"
	mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp" # another run stored it first
	echo "$version: kernel references stored in the cache $cache"
fi
