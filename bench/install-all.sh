#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-install-all [BENCH_KERNEL=DIR]: `uapid install --arch all` on a
# full kernel tree (default: Debian's linux-source-6.12, unpacked to a scratch
# directory) beside the sum of the kernel's own `make ARCH=A headers_install`
# over the same architectures, in one run; then the time per architecture.
# Prints seconds; asserts nothing.
set -eu
uapid=$(realpath "${2:-src/uapid}")
jobs=${JOBS:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${1:-}" ]; then
	K=$(realpath "$1")
else
	K=$work/linux
	mkdir -p "$K"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$K" --strip-components=1
fi
now() { date +%s.%N; }
arches=$(cd "$K/arch" && for a in *; do [ -f "$a/Makefile" ] && [ "$a" != um ] && echo "$a"; done)

printf '%-14s %12s %12s\n' "architecture" "make (s)" "uapid (s)"
make_total=0 uapid_total=0
for a in $arches; do
	t0=$(now)
	make -s -C "$K" O="$work/obj-$a" ARCH="$a" -j"$jobs" headers_install \
		INSTALL_HDR_PATH="$work/ref-$a" >/dev/null 2>&1
	t1=$(now)
	"$uapid" install --arch "$a" "$K" "$work/one-$a" >/dev/null 2>&1
	t2=$(now)
	m=$(echo "$t1 - $t0" | bc)
	u=$(echo "$t2 - $t1" | bc)
	make_total=$(echo "$make_total + $m" | bc)
	uapid_total=$(echo "$uapid_total + $u" | bc)
	printf '%-14s %12.2f %12.3f\n' "$a" "$m" "$u"
	rm -rf "$work/obj-$a"
done
sync
t0=$(now)
"$uapid" install --arch all "$K" "$work/all" >/dev/null 2>&1
t1=$(now)
all=$(echo "$t1 - $t0" | bc)
n=$(echo "$arches" | wc -w)
printf '%-40s %10.2f\n' "sum of make headers_install (s)" "$make_total"
printf '%-40s %10.3f\n' "sum of uapid install, one arch a run (s)" "$uapid_total"
printf '%-40s %10.3f\n' "uapid install --arch all (s)" "$all"
printf '%-40s %10.3f\n' "uapid --arch all per architecture (s)" "$(echo "scale=4; $all / $n" | bc)"
printf '%-40s %10.1f\n' "make sum / uapid --arch all" "$(echo "scale=1; $make_total / $all" | bc)"
printf '%-40s %10s\n' "architectures" "$n"
