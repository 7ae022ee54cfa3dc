# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Debian's kernel source trees for the kernel-scale tests (sourced; test.sh
# sources it too, to extract each tree once a run).
#
# kernel_extract VER DIR: the parts of /usr/src/linux-source-VER.tar.xz the
#   kernel tests read (Makefiles, Kbuild and Kconfig files, scripts/,
#   include/, arch/, usr/, tools/: what `make headers_install` needs; the
#   .gitignore files, for the git repositories check-uapi-kernel.sh makes) into
#   DIR, then DIR/.uapid-tarball naming the tarball, its size and time.
# kernel_tree VER: prints the directory to read VER from: the tree test.sh
#   extracted for the whole run ($UD_KERNEL_TREES/linux-VER) when it is
#   there and from the same tarball, else one extracted into $WORK here.
#   Read it only: other tests may be reading it at the same time (make runs
#   with O=; a test that edits copies first).

kernel_tarball() {
	t=/usr/src/linux-source-$1.tar.xz
	if [ ! -f "$t" ]; then
		echo "${0##*/}: $t missing (apt-get install linux-source-$1)" >&2
		exit 2
	fi
	echo "$t"
}

# what identifies the tarball's contents cheaply: a new package version changes it
kernel_tarball_id() { stat -c '%n %s %Y' "$1"; }

kernel_extract() {
	tarball=$(kernel_tarball "$1")
	rm -rf "$2"
	mkdir -p "$2"
	# xz decompresses the tarball's blocks on every core
	tar -I 'xz -T0' -xf "$tarball" -C "$2" --strip-components=1 --wildcards \
		'*/Makefile' '*/Kbuild' '*/Kconfig' '*/scripts/*' '*/include/*' '*/arch/*' \
		'*/usr/*' '*/tools/*' '*/.gitignore'
	kernel_tarball_id "$tarball" >"$2/.uapid-tarball"
}

kernel_tree() {
	tarball=$(kernel_tarball "$1")
	shared=${UD_KERNEL_TREES:-}/linux-$1
	if [ -n "${UD_KERNEL_TREES:-}" ] && [ -f "$shared/.uapid-tarball" ] &&
		[ "$(cat "$shared/.uapid-tarball")" = "$(kernel_tarball_id "$tarball")" ]; then
		echo "$shared"
		return 0
	fi
	kernel_extract "$1" "$WORK/linux-$1"
	echo "$WORK/linux-$1"
}

# kernel_copy TREE DIR PATTERN...: the files of TREE whose paths (as
# "NAME/PATH", NAME TREE's own) match one of tar's wildcard PATTERNs, copied
# into DIR: the same selection as extracting the tarball with them
kernel_copy() {
	from=$(cd "$1" && pwd -P) to=$2 # the directory itself, not a symlink to it
	shift 2
	mkdir -p "$to"
	tar -C "${from%/*}" --exclude=.uapid-tarball -cf - "${from##*/}" |
		tar -xf - -C "$to" --strip-components=1 --wildcards "$@"
}

# libc_dev_compare INSTALLED VERSION: INSTALLED (uapid install --arch x86's
# output) against linux-libc-dev's /usr/include when the package has the
# same version as the tree; prints what it compared, returns 1 on a
# difference (or too few files compared), 2 when the versions differ.
libc_dev_compare() {
	deb=$(dpkg-query -W -f='${Version}' linux-libc-dev 2>/dev/null || true)
	case "$deb" in
	"$2"-*) ;;
	*)
		echo "linux-libc-dev is ${deb:-not installed}, the tree is $2: no /usr/include comparison"
		return 2
		;;
	esac
	compared=0 differ=0
	for f in $(cd "$1/include" && find . -type f ! -name .uapid-install | sed 's#^\./##'); do
		case $f in
		asm/*) d=/usr/include/x86_64-linux-gnu/$f ;;
		*) d=/usr/include/$f ;;
		esac
		[ -f "$d" ] || continue
		compared=$((compared + 1))
		cmp -s "$1/include/$f" "$d" || { differ=$((differ + 1)); echo "differs from $d" >&2; }
	done
	echo "x86: $compared files compared with linux-libc-dev $deb, $differ differ"
	[ "$differ" = 0 ] && [ "$compared" -gt 900 ]
}
