#!/bin/sh
# Acceptance on a real kernel: Debian's linux-source-6.1.
#  - uapid install --arch A equals the tree's own `make ARCH=A headers_install`
#    byte for byte, for x86, arm64 and riscv (diff -r, nothing allowed);
#  - for x86 it also equals /usr/include from linux-libc-dev (same version);
#  - uapid check --arch x86 finds no error.
# Run by test.sh (it needs the linux-source-6.1 package); not part of make check.
. "${top_srcdir:-.}/tests/lib.sh"

tarball=${UD_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -f "$tarball" ]; then
	echo "kernel-headers: $tarball missing (apt-get install linux-source-6.1)" >&2
	exit 2
fi
K=$WORK/linux
mkdir -p "$K"
tar -xJf "$tarball" -C "$K" --strip-components=1 --wildcards \
	'*/Makefile' '*/Kbuild' '*/Kconfig' '*/scripts/*' '*/include/*' '*/arch/*' '*/usr/*' '*/tools/*'
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$K/Makefile" | paste -sd.)
echo "kernel tree: $version"

for arch in x86 arm64 riscv; do
	make -s -C "$K" ARCH=$arch headers_install INSTALL_HDR_PATH="$WORK/ref-$arch" \
		-j"$(nproc)" >"$WORK/make-$arch.log" 2>&1 || { cat "$WORK/make-$arch.log" >&2; fail "make ARCH=$arch headers_install"; continue; }
	expect_status 0 "$UAPID" install --arch $arch "$K" "$WORK/ours-$arch"
	cat "$WORK/out"
	n=$(find "$WORK/ref-$arch/include" -type f | wc -l)
	if diff -r "$WORK/ref-$arch/include" "$WORK/ours-$arch/include" >"$WORK/diff-$arch"; then
		pass
		echo "$arch: identical to make headers_install ($n files)"
	else
		fail "$arch: differs from make headers_install ($n files)"
		head -40 "$WORK/diff-$arch" >&2
	fi
done

# Debian's packaged copy of the same headers
deb=$(dpkg-query -W -f='${Version}' linux-libc-dev 2>/dev/null || true)
case "$deb" in
"$version"-*)
	compared=0 differ=0
	for f in $(cd "$WORK/ours-x86/include" && find . -type f | sed 's#^\./##'); do
		case $f in
		asm/*) d=/usr/include/x86_64-linux-gnu/$f ;;
		*) d=/usr/include/$f ;;
		esac
		[ -f "$d" ] || continue
		compared=$((compared + 1))
		cmp -s "$WORK/ours-x86/include/$f" "$d" || { differ=$((differ + 1)); echo "differs from $d" >&2; }
	done
	echo "x86: $compared files compared with linux-libc-dev $deb, $differ differ"
	[ "$differ" = 0 ] && [ "$compared" -gt 900 ] && pass || fail "linux-libc-dev comparison"
	;;
*)
	echo "linux-libc-dev is $deb, the tree is $version: /usr/include comparison skipped"
	;;
esac

expect_status 0 "$UAPID" check --arch x86 "$K"
cat "$WORK/out"
expect_in "$WORK/out" " 0 errors"

finish
