#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cross-compiler oracle (tests/kernel/abi-oracle.py) on real kernels (the
# full tier; not part of make check): the installed headers of Debian's
# linux-source-6.1 and 6.12 for every architecture, on every ABI of uapid's
# table whose gcc-12 cross compiler is installed (test.sh's full tier installs
# them): every struct and union laid out, every integer constant's value and
# the ABI table's predefined macros against the compiler's; any difference
# fails. The headers that do not compile alone are counted and named.
# The compiler's answers are cached under $UD_CACHE/abi-oracle.
# The trees: $UD_KERNEL_61 and $UD_KERNEL_612 when set (kernel trees, read
# only), else Debian's /usr/src/linux-source-6.1.tar.xz and 6.12 unpacked.
. "${top_srcdir:-.}/tests/lib/lib.sh"

command -v python3 >/dev/null || { echo "abi-oracle: python3 missing" >&2; exit 77; }

# tree VER GIVEN: a kernel tree of VER, given or unpacked
tree() {
	if [ -n "$2" ]; then
		echo "$2"
		return
	fi
	tarball=/usr/src/linux-source-$1.tar.xz
	if [ ! -f "$tarball" ]; then
		echo "abi-oracle: $tarball missing (apt-get install linux-source-$1)" >&2
		exit 2
	fi
	mkdir -p "$WORK/linux-$1"
	tar -xJf "$tarball" -C "$WORK/linux-$1" --strip-components=1 --wildcards \
		'*/Makefile' '*/Kbuild' '*/include/*' '*/arch/*' '*/scripts/*' '*/usr/*'
	echo "$WORK/linux-$1"
}

K61=$(tree 6.1 "${UD_KERNEL_61:-}") || exit 2
K612=$(tree 6.12 "${UD_KERNEL_612:-}") || exit 2
set +e
python3 "$top_srcdir/tests/kernel/abi-oracle.py" --uapid "$UAPID" --json "$WORK/report.json" \
	"$K61" "$K612"
rc=$?
set -e
case $rc in
0) pass ;;
77) echo "abi-oracle: no cross compiler installed (gcc-12-<triple>)" >&2; exit 77 ;;
*) fail "the ABI oracle: a layout, a value or a predefined macro differs from the compiler's (exit $rc)" ;;
esac
finish
