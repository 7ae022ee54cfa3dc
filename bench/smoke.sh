#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/smoke.sh BUILD KERNEL: every `make bench*` target once, on small
# inputs, so that the benches keep building and running (test.sh --full).
# A smoke run: each must exit 0 and print its figures; no figure is judged
# (timing is never asserted: figures go in issue notes, bench/README.md).
#
# BUILD is a configured build directory; KERNEL a kernel tree (Debian's
# linux-source-6.1 as tests/kernel/kernel-lib.sh extracts it), only read: the small
# tree is a copy of it with one architecture (x86) of the 20-odd, so that the
# kernel's own make runs once where a bench runs it for each architecture.
# A bench target of BUILD/Makefile that is not run here fails the smoke.
set -euo pipefail

BUILD=$(cd "${1:?usage: bench/smoke.sh BUILD KERNEL}" && pwd)
KERNEL=$(cd "${2:?usage: bench/smoke.sh BUILD KERNEL}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/uapid-bench-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BENCH_RUNS=1 JOBS=2

# small_tree DIR PART...: the top-level PARTs of KERNEL and its arch/x86 in DIR
small_tree() {
	local dir=$1 f
	shift
	mkdir -p "$dir/arch"
	for f in "$@"; do
		if [ -e "$KERNEL/$f" ]; then cp -a "$KERNEL/$f" "$dir/"; fi
	done
	find "$KERNEL/arch" -mindepth 1 -maxdepth 1 -type f -exec cp -a {} "$dir/arch/" \;
	cp -a "$KERNEL/arch/x86" "$dir/arch/"
}
# what the kernel's make headers_install reads (x86's archscripts want tools/include)
S=$work/linux
small_tree "$S" Makefile Kbuild Kconfig scripts include usr tools
uapid=$BUILD/src/uapid

ran=()
bench() { # bench TARGET [MAKE-ARGS...]: one make target, its output indented
	local t=$1
	shift
	echo "==> make $t $*"
	make -s -C "$BUILD" "$t" "$@" 2>&1 | sed 's/^/    /'
	ran+=("$t")
}

bench bench BENCH_TREE="$S"
# bench-install builds in the tree it is given (make without O=): a copy of its own
cp -a "$S" "$work/linux-install"
bench bench-install BENCH_KERNEL="$work/linux-install"
bench bench-install-all BENCH_KERNEL="$S"
BENCH_EDITS=10 bench bench-watch BENCH_KERNEL="$S"
BENCH_CALLS=20 BENCH_CLIENTS=4 BENCH_SECONDS=1 bench bench-rpc
# a directory exporting many headers (its own generated tree): 500, not 20,000
bench bench-kbuild BENCH_HEADERS=500
# what uapid branch reads (the bench commits the tree it is given: fewer files, less git)
small_tree "$work/linux-branch" Makefile Kbuild scripts include
BENCH_COMMITS=3 bench bench-branch BENCH_KERNEL="$work/linux-branch"
# api-log's index on a short tagged history of the same small tree
BENCH_COMMITS=8 bench bench-api-log BENCH_KERNEL="$work/linux-branch"
# api-diff beside abidiff: x86's installed headers and a copy with planted edits
"$uapid" install --arch x86 "$S" "$work/api-old" >/dev/null
rm -f "$work/api-old/.uapid-install"
python3 "$(dirname "$0")/api-oracle-plant.py" --count 40 "$work/api-old" "$work/api-new" >/dev/null
PLANTED=$work/api-new.planted.tsv SUBSAMPLE=150 bench bench-api OLD="$work/api-old" NEW="$work/api-new"
# api-diff's own time on the same pair (a few seconds)
bench bench-api-diff BENCH_API_OLD="$work/api-old" BENCH_API_NEW="$work/api-new"

# the ABI table against the cross compilers installed (CI has the host's alone)
bench bench-abi
# a copy of the small tree with one header more: the soak's second tree (issue 38) and
# api-diff --arch all's new side (x86 alone here, at its three ABIs)
cp -a "$S" "$work/linux-soak-b"
printf '#ifndef _UAPI_SOAK_H\n#define _UAPI_SOAK_H\n#define SOAK 1\n#endif\n' \
	>"$work/linux-soak-b/include/uapi/linux/soak.h"
bench bench-api-diff-all BENCH_API_OLD="$S" BENCH_API_NEW="$work/linux-soak-b"
# the soak: a few edits and two checkouts between the two trees
SOAK_EDITS=40 SOAK_CHECKOUTS=2 SOAK_RATE=40 bench bench-soak BENCH_SOAK_A="$S" BENCH_SOAK_B="$work/linux-soak-b"
# every bench target of the Makefile ran
missing=0
for t in $(sed -n 's/^\(bench[-a-z]*\):.*/\1/p' "$BUILD/Makefile" | sort -u); do
	case " ${ran[*]} " in
	*" $t "*) ;;
	*)
		echo "bench/smoke.sh: make $t has no smoke run here: add one" >&2
		missing=1
		;;
	esac
done
[ "$missing" = 0 ]
echo "bench smoke: ${#ran[@]} targets ran: ${ran[*]}"
