#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance on trees from before the split: Linux 3.6 and 2.6.35.6, whole,
# as bench/fetch-kernels.sh --full puts them in $UD_KERNELS (default
# ~/kernels: full-3.6, full-2.6.35; more trees in UD_OLD_TREES, blank-
# separated directories).  Each absent tree is skipped with a message, and
# with none present the test is skipped (77): CI has no network and Debian's
# archive has no kernel this old, so this runs by hand or as
# `make check-old-kernels` (most of its time is make's references, 62 ARCH
# values two at a time); make check covers the same generations on the
# miniature trees in tests/trees (tests/cli/cli-install.sh, cli-branch.sh).
#  - the kernel's own `make ARCH=A headers_install` for every directory
#    under arch/ and the ARCH aliases its top Makefile maps (i386, x86_64,
#    sparc32, sparc64, sh64, tilepro, tilegx), two at a time, each with O=
#    in a scratch directory (the tree itself is not written to);
#  - for each A make accepts, `uapid install --arch A` equals it byte for
#    byte (diff -r, directories included; the .install and ..install.cmd
#    stamps make leaves in each directory are not headers);
#  - for each A make refuses, uapid refuses too (exit 2), with make's reason;
#  - `uapid install --arch all` gives the same trees, one per architecture
#    directory make accepts, and names each one it refuses: "not exported"
#    where the top Makefile refuses it, "failed" where make stops later (as
#    cris, whose asm/Kbuild names a directory without a Kbuild); the exit
#    status is 2 when one failed.
# UD_CACHE=DIR (optional; ./test.sh sets it): the references of a tree that
# bench/fetch-kernels.sh stamped with its commit are kept in
# DIR/old-kernel-refs/SHA256-OF-STAMP.vN and taken from there on the next run (make's
# logs with the tree's path taken out, so that the tree may move); never
# required, and trees without a stamp are always built.
# Needs make, perl and a C compiler (the kernel's make builds
# scripts/unifdef).  By hand:
#   bench/fetch-kernels.sh --full && make -C build bench-old-kernels
# or  top_srcdir=. UAPID=build/src/uapid sh tests/kernel/old-kernels.sh
. "${top_srcdir:-.}/tests/lib/lib.sh"

kernels=${UD_KERNELS:-${HOME:-}/kernels}
stamp=.fetch-kernels-stamp # bench/fetch-kernels.sh: the commit a tree was extracted from
format=v1                  # how the cached references are laid out
jobs=${UD_REF_JOBS:-2}
trees=""
for v in 3.6 2.6.35; do
	if [ -f "$kernels/full-$v/Makefile" ]; then
		trees="$trees $kernels/full-$v"
	else
		echo "old kernels: $kernels/full-$v absent: Linux $v is skipped (bench/fetch-kernels.sh --full)"
	fi
done
# shellcheck disable=SC2086
set -- $trees ${UD_OLD_TREES:-}
trees=$*
if [ $# -eq 0 ]; then
	echo "old kernels: skipped: no tree before the split at $kernels (make them with bench/fetch-kernels.sh --full $kernels)"
	exit 77
fi
for tool in make perl cc; do
	command -v "$tool" >/dev/null || { echo "old kernels: $tool missing" >&2; exit 2; }
done

# make's reason for refusing: the message of its first "***" line, or the
# file of its first "No such file or directory", without the tree's path
make_reason() {
	sed -n "s#$2/##g; s#^.*: \*\*\* \(.*\)\.  Stop\.\$#\1#p; s#^[^ ]*:[0-9]*: \([^ ]*: No such file or directory\)\$#\1#p" "$1" | head -1
}

n=0
for K in $trees; do
	n=$((n + 1))
	version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$K/Makefile" | paste -sd.)
	R=$WORK/t$n
	mkdir -p "$R"
	arches=$(cd "$K/arch" && for a in *; do [ -d "$a" ] && echo "$a"; done)
	aliases=""
	for a in i386 x86_64 sparc32 sparc64 sh64 tilepro tilegx; do
		grep -q "(ARCH),$a)" "$K/Makefile" && aliases="$aliases $a"
	done
	# shellcheck disable=SC2086
	echo "$version ($K): make headers_install for $(echo $arches $aliases | wc -w) ARCH values"
	t0=$(date +%s)
	cache=
	if [ -n "${UD_CACHE:-}" ] && [ -f "$K/$stamp" ]; then
		cache=$UD_CACHE/old-kernel-refs/$(sha256sum <"$K/$stamp" | cut -c1-64).$format
	fi
	if [ -n "$cache" ] && [ -f "$cache/accepted" ]; then
		cp -a "$cache/." "$R/"
		echo "$version: references from the cache $cache"
	else
		# shellcheck disable=SC2086
		printf '%s\n' $arches $aliases | xargs -P "$jobs" -I{} sh -c \
			'mkdir -p "$2/obj-$3"; if make -C "$1" O="$2/obj-$3" ARCH="$3" headers_install INSTALL_HDR_PATH="$2/ref-$3" >"$2/make-$3.log" 2>&1; then echo "$3" >>"$2/accepted"; else echo "$3" >>"$2/refused"; fi; rm -rf "$2/obj-$3"' \
			sh "$K" "$R" {}
		touch "$R/accepted" "$R/refused"
		# make names files by the tree's physical path (through a symlink of $UD_KERNELS)
		sed -i "s#$K/##g; s#$(cd -P "$K" && pwd)/##g" "$R"/make-*.log
		echo "$version: references in $(($(date +%s) - t0)) s"
		if [ -n "$cache" ]; then
			mkdir -p "${cache%/*}"
			tmp=$(mktemp -d "${cache%/*}/.new.XXXXXX")
			cp -a "$R/." "$tmp/"
			mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp" # another run stored it first
			echo "$version: references stored in the cache $cache"
		fi
	fi

	same=0 total=0
	for a in $(sort "$R/accepted"); do
		total=$((total + 1))
		expect_status 0 "$UAPID" install --arch "$a" "$K" "$R/ours-$a"
		if diff -r -x '.*' "$R/ref-$a/include" "$R/ours-$a/include" >"$WORK/diff" 2>&1; then
			pass
			same=$((same + 1))
		else
			fail "$version $a: differs from make headers_install"
			head -20 "$WORK/diff" >&2
		fi
		rm -rf "$R/ours-$a"
	done
	echo "$version: $same of $total ARCH values identical to make headers_install ($(find "$R"/ref-x86/include -name '*.h' 2>/dev/null | wc -l) headers for x86)"

	# how --arch all must name each architecture directory make refuses
	: >"$R/not-exported"
	: >"$R/failed"
	for a in $(sort "$R/refused"); do
		why=$(make_reason "$R/make-$a.log" "$K")
		if [ -d "$K/arch/$a" ]; then
			case $why in
			"Headers not exportable"*) echo "$a" >>"$R/not-exported" ;;
			*) echo "$a" >>"$R/failed" ;;
			esac
		fi
		expect_status 2 "$UAPID" install --arch "$a" "$K" "$R/refused-$a"
		if [ -n "$why" ] && grep -qF -- "$why" "$WORK/err"; then
			pass
			echo "$version $a: refused by make and uapid: $why"
		else
			fail "$version $a: make refuses it ('$why'), uapid says: $(head -1 "$WORK/err")"
		fi
		expect_no_file "$R/refused-$a/include"
	done

	# every architecture directory in one run; one that fails (as cris, whose
	# make stops half-way) is named, and makes the exit status 2
	set +e
	"$UAPID" install --arch all "$K" "$R/all" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	set -e
	if [ -s "$R/failed" ]; then want=2; else want=0; fi
	[ "$rc" = "$want" ] && pass || fail "$version --arch all: exit $rc, want $want"
	echo "$version --arch all: $(tail -1 "$WORK/out")"
	for a in $(sort "$R/accepted"); do
		[ -d "$K/arch/$a" ] || continue # an alias: its directory is another's
		if diff -r -x '.*' "$R/ref-$a/include" "$R/all/$a/include" >"$WORK/diff" 2>&1; then pass; else
			fail "$version --arch all: $a differs"
			head -10 "$WORK/diff" >&2
		fi
	done
	for a in $(cat "$R/not-exported"); do
		if grep -q "^$a: not exported: " "$WORK/out"; then pass; else
			fail "$version --arch all: $a, which the top Makefile refuses, is not said to be"
		fi
	done
	for a in $(cat "$R/failed"); do
		if grep -q "^$a: failed: " "$WORK/out"; then pass; else
			fail "$version --arch all: $a, on which make stops, is not said to fail"
		fi
	done
	installed=$(grep -c '^installed ' "$WORK/out" || true)
	dirs=$(sort "$R/accepted" | while read -r a; do [ -d "$K/arch/$a" ] && echo "$a"; done | wc -l)
	[ "$installed" = "$dirs" ] && pass || fail "$version --arch all: $installed installed, make accepts $dirs"
	echo "$version --arch all: $dirs installed as make does; not exported: $(paste -sd' ' "$R/not-exported"); failed: $(paste -sd' ' "$R/failed")"
	rm -rf "$R"
done
finish
