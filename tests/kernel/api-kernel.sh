#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid api-diff and api-layout on real kernels (the full tier; not part of
# make check):
#  - the layout oracle (tests/kernel/api-layout-oracle.py): every struct and union
#    of the x86 headers of Debian's linux-source-6.1 and 6.12 that compile
#    alone, uapid's size, alignment and member offsets against the
#    compiler's (cc probes); every number must agree;
#  - the labelled set (tests/kernel/api-labels.tsv, scored by tests/kernel/api-labels.py):
#    no true breaking verdict is lost; 3.7 -> 3.8 is scored where the whole
#    3.x trees are present ($UD_KERNELS/full-3.7 and full-3.8, made by
#    bench/fetch-kernels.sh --full), the 6.1 -> 6.12 items always;
#  - its recall half (tests/kernel/api-labels-recall.tsv, issue 40): 150
#    changes once called compatible and 50 review, labelled binary and
#    source: at most 1% of the compatible ones hide a break, at most 5% a
#    review-worthy change; and of both halves' items breaking today at
#    least 97% are true;
#  - the api-diff summary of 6.1 -> 6.12 and its time, printed (figures, not
#    asserted: machines are noisy).
# The trees: $UD_KERNEL_61 and $UD_KERNEL_612 when set (kernel trees, read
# only), else Debian's /usr/src/linux-source-6.1.tar.xz and 6.12 unpacked.
# Needs python3 and cc.
. "${top_srcdir:-.}/tests/lib/lib.sh"

command -v python3 >/dev/null || { echo "api-kernel: python3 missing" >&2; exit 77; }
command -v "${CC:-cc}" >/dev/null || { echo "api-kernel: ${CC:-cc} missing" >&2; exit 77; }

# tree VER VAR: a kernel tree of VER, given or unpacked
tree() {
	given=$2
	if [ -n "$given" ]; then
		echo "$given"
		return
	fi
	tarball=/usr/src/linux-source-$1.tar.xz
	if [ ! -f "$tarball" ]; then
		echo "api-kernel: $tarball missing (apt-get install linux-source-$1)" >&2
		exit 2
	fi
	mkdir -p "$WORK/linux-$1"
	tar -xJf "$tarball" -C "$WORK/linux-$1" --strip-components=1 --wildcards \
		'*/Makefile' '*/Kbuild' '*/include/*' '*/arch/*' '*/scripts/*' '*/usr/*'
	echo "$WORK/linux-$1"
}

# install NAME TREE: x86 installed headers of TREE in $WORK/NAME
install_x86() {
	if "$UAPID" install --arch x86 "$2" "$WORK/$1" >"$WORK/install.out" 2>&1; then
		pass
	else
		fail "uapid install --arch x86 $2"
		sed 's/^/  | /' "$WORK/install.out" >&2
	fi
}

K61=$(tree 6.1 "${UD_KERNEL_61:-}") || exit 2
K612=$(tree 6.12 "${UD_KERNEL_612:-}") || exit 2
install_x86 h61 "$K61"
install_x86 h612 "$K612"

echo "layout oracle, x86_64:"
if python3 "$top_srcdir/tests/kernel/api-layout-oracle.py" --uapid "$UAPID" --cc "${CC:-cc}" \
	--abi x86_64 "$WORK/h61" "$WORK/h612"; then
	pass
else
	fail "the layout oracle: uapid's layouts and the compiler's differ"
fi

pairs="6.1-6.12=$WORK/h61,$WORK/h612"
kernels=${UD_KERNELS:-${HOME:-}/kernels}
if [ -d "$kernels/full-3.7" ] && [ -d "$kernels/full-3.8" ]; then
	install_x86 h37 "$kernels/full-3.7"
	install_x86 h38 "$kernels/full-3.8"
	pairs="$pairs 3.7-3.8=$WORK/h37,$WORK/h38"
else
	echo "api-kernel: no $kernels/full-3.7 and full-3.8: the 3.7 -> 3.8 labels not scored"
fi
echo "labelled set:"
# shellcheck disable=SC2086
if python3 "$top_srcdir/tests/kernel/api-labels.py" --uapid "$UAPID" $pairs; then
	pass
else
	fail "the labelled set: under 97% of breaking true, a true breaking verdict lost, or compatible hiding over 1% breaks / 5% review items"
fi

echo "uapid api-diff 6.1 -> 6.12:"
set +e
t0=$(date +%s%N)
"$UAPID" api-diff "$WORK/h61" "$WORK/h612" >"$WORK/diff.out" 2>"$WORK/diff.err"
rc=$?
t1=$(date +%s%N)
set -e
if [ "$rc" -le 1 ]; then pass; else fail "uapid api-diff exit $rc"; sed 's/^/  | /' "$WORK/diff.err" >&2; fi
sed -n '3,4p' "$WORK/diff.out"
echo "time: $(((t1 - t0) / 1000000)) ms"
finish
