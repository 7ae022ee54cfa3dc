# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared set-up of run.sh, test.sh and CI (sourced, not run).
#
# Installs the Debian packages that are missing (and only those), then
# configures and builds uapid out of tree in $UD_BUILD (default build/),
# re-running autoreconf/configure only when they are needed.

UD_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UD_BUILD=${UD_BUILD:-$UD_TOP/build}
UD_PACKAGES=(build-essential autoconf automake libtool pkg-config
	libjansson-dev libgit2-dev check libuv1-dev libsqlite3-dev libsystemd-dev zlib1g-dev systemd
	python3 util-linux git scdoc man-db)

ud_say() { printf '==> %s\n' "$*"; }

ud_install_deps() {
	local missing=() p extra=("$@")
	for p in "${UD_PACKAGES[@]}" "${extra[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	ud_say "installing: ${missing[*]}"
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
}

# ud_build DIR [CONFIGURE-ARGS...]: configure (when needed) and build in DIR, with
# $UD_CONFIGURE_FLAGS too (test.sh: --enable-test-hooks, for the crash-injection cases).
ud_build() {
	local dir=$1
	shift
	# shellcheck disable=SC2206 # words, on purpose
	set -- "$@" ${UD_CONFIGURE_FLAGS:-}
	if [ ! -x "$UD_TOP/configure" ] || [ "$UD_TOP/configure.ac" -nt "$UD_TOP/configure" ] ||
		[ "$UD_TOP/Makefile.am" -nt "$UD_TOP/Makefile.in" ]; then
		ud_say "autoreconf"
		(cd "$UD_TOP" && autoreconf -fi >/dev/null)
	fi
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$UD_TOP/configure" -nt "$dir/config.status" ] ||
		[ "$(cat "$dir/.ud-configure-args" 2>/dev/null)" != "$*" ]; then
		ud_say "configure $* (in ${dir#"$UD_TOP"/})"
		(cd "$dir" && "$UD_TOP/configure" -q "$@")
		printf '%s\n' "$*" >"$dir/.ud-configure-args"
	fi
	ud_say "make (in ${dir#"$UD_TOP"/})"
	make -C "$dir" -s -j"$(nproc)" >/dev/null
}

# The tests, benches and scripts run Debian's python3 (in UD_PACKAGES), not the
# first python3 on PATH: a version manager's shim (pyenv's is a bash script that
# runs `pyenv exec`) costs 0.3-0.8 s of CPU per start where Debian's costs 0.04,
# and the daemon suites start python3 hundreds of times (measured: ./test.sh's
# make check, 5:27 of CPU through pyenv's shim). A directory holding only a link
# to it goes first on PATH; the link may dangle until ud_install_deps installs it.
ud_debian_python() {
	local bin=$UD_BUILD/.debian-python
	[ "$(command -v python3 || :)" != /usr/bin/python3 ] || return 0
	mkdir -p "$bin"
	ln -sfn /usr/bin/python3 "$bin/python3"
	case ":$PATH:" in *":$bin:"*) ;; *) PATH=$bin:$PATH ;; esac
	export PATH
}
ud_debian_python
